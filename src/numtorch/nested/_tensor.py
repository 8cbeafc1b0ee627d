"""The strided nested tensor: a batch of tensors of equal rank whose sizes may differ.

Note [Nested tensor layout]: as torch's strided layout, a nested tensor keeps its constituents
one after another in one flat buffer (``_buffer``, a plain 1-D tensor that carries the
autograd history) plus the constituents' sizes (``_nested_sizes``). Elementwise ops run on
the buffer, so they record torch's node (``AddBackward0``, ``ReluBackward0``); ops that act
per constituent (softmax, matmul, linear, transpose, padding) are recorded as one node named
as torch names it (Note [Nested tensor nodes] in _graph.py). ``grad_fn``, ``requires_grad``,
``grad`` and ``backward`` are the buffer's. Only the ops torch's CPU build runs on nested
tensors are allowed; any other raises torch's ``NotImplementedError`` naming the op.
"""

from __future__ import annotations

import math

import numtorch as torch

from .._core.tensor import Tensor
from ..overrides import DisableTorchFunctionSubclass, install_dispatch
from ._graph import record

# the elementwise ops torch's CPU build runs on a nested tensor (others raise there too)
UNARY_NAMES = frozenset(
    """abs absolute cos neg negative sgn sin sqrt tanh relu logical_not isnan isinf positive
    conj gelu silu clone""".split()  # noqa: SIM905
)
# with a nested tensor of the same sizes, a number or a 0-d tensor
BINARY_NAMES = frozenset("add sub mul div true_divide subtract multiply divide".split())  # noqa: SIM905
# with a number only (and eq with a 0-d tensor), as in torch
COMPARE_NAMES = frozenset("eq gt ge".split())  # noqa: SIM905

_SIZES_ERROR = "Internal error: NestedTensorImpl doesn't support sizes. Please file an issue."


def not_supported(name: str) -> NotImplementedError:
    return NotImplementedError(
        f"Could not run 'aten::{name}' with arguments from the 'NestedTensorCPU' backend: "
        "numtorch's nested tensors run the ops torch's CPU build runs on them (elementwise "
        "add/mul/relu/sin/..., softmax, matmul, bmm, linear, transpose, sum over the last "
        "dim, to_padded_tensor, unbind); call .to_padded_tensor(value) or .unbind() first"
    )


def wrap(buffer: Tensor, sizes: tuple, contiguous: bool = True) -> NestedTensor:
    """A nested tensor over ``buffer`` (a flat plain tensor) with constituents of ``sizes``."""
    install_dispatch()
    result = Tensor._make(buffer._data, NestedTensor)
    result._buffer = buffer
    result._nested_sizes = tuple(tuple(s) for s in sizes)
    result._nested_contiguous = contiguous
    return result


def pieces(buffer: Tensor, sizes) -> tuple:
    """The constituents of ``sizes`` laid out one after another in ``buffer``."""
    counts = [math.prod(s) for s in sizes]
    parts = torch.split(buffer, counts) if counts else ()
    return tuple(p.reshape(s) for p, s in zip(parts, sizes))


def flatten(tensors, dtype=None) -> Tensor:
    """One flat buffer holding ``tensors`` one after another."""
    flat = [t.reshape(-1) for t in tensors]
    if dtype is not None:
        flat = [t.to(dtype) for t in flat]
    return torch.cat(flat) if flat else torch.zeros(0, dtype=dtype)


def _dim(dim: int, ndim: int) -> int:
    if not -ndim <= dim < ndim:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got "
            f"{dim})"
        )
    return dim % ndim


class NestedTensor(Tensor):
    """A nested tensor (``torch.nested.nested_tensor``); see Note [Nested tensor layout]."""

    _dispatches_torch_function = True

    def __init__(self, *args, **kwargs):
        pass  # built by wrap(); Tensor.__init__ would allocate

    # -- what it is --------------------------------------------------------------------
    @property
    def is_nested(self) -> bool:
        return True

    def dim(self) -> int:
        sizes = self._nested_sizes
        return 1 + (len(sizes[0]) if sizes else 0)

    @property
    def ndim(self) -> int:
        return self.dim()

    def size(self, dim=None):
        if dim is None:
            raise RuntimeError(_SIZES_ERROR)
        dim = _dim(dim, self.dim())
        if dim == 0:
            return len(self._nested_sizes)
        values = {s[dim - 1] for s in self._nested_sizes}
        if len(values) != 1:
            raise RuntimeError(f"Given dimension {dim} is irregular and does not have a size.")
        return values.pop()

    @property
    def shape(self):
        raise RuntimeError(_SIZES_ERROR)

    def __len__(self):
        raise RuntimeError(_SIZES_ERROR)

    def numel(self) -> int:
        return sum(math.prod(s) for s in self._nested_sizes)

    def is_contiguous(self, memory_format=None) -> bool:
        return self._nested_contiguous

    def contiguous(self, memory_format=None):
        if self._nested_contiguous:
            return self
        return self._per_constituent("CloneBackward0", lambda t: t.clone())

    def _nested_tensor_size(self):
        return [list(s) for s in self._nested_sizes]

    # -- autograd: the buffer's --------------------------------------------------------
    @property
    def grad_fn(self):
        return self._buffer.grad_fn

    @property
    def requires_grad(self) -> bool:
        return self._buffer.requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        self._buffer.requires_grad = value

    def requires_grad_(self, requires_grad: bool = True):
        self._buffer.requires_grad_(requires_grad)
        return self

    @property
    def is_leaf(self) -> bool:
        return self._buffer.is_leaf

    @property
    def grad(self):
        grad = self._buffer.grad
        return None if grad is None else wrap(grad, self._nested_sizes)

    @grad.setter
    def grad(self, value):
        self._buffer.grad = None if value is None else value._buffer

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        if gradient is not None:
            gradient = gradient._buffer
        self._buffer.backward(gradient, retain_graph, create_graph, inputs)

    def retain_grad(self):
        self._buffer.retain_grad()

    def detach(self):
        return wrap(self._buffer.detach(), self._nested_sizes, self._nested_contiguous)

    def numpy(self, *, force=False):
        if self.requires_grad:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        raise RuntimeError(_SIZES_ERROR)

    def tolist(self):
        raise RuntimeError(
            "Internal error: NestedTensorImpl doesn't support strides. Please file an issue."
        )

    def item(self):
        raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")

    # -- printing ------------------------------------------------------------------------
    def __repr__(self, *, tensor_contents=None):
        lines = []
        for piece in self._constituents_detached():
            if self.requires_grad:
                piece.requires_grad_(True)
            lines.append("\n".join("  " + line for line in repr(piece).split("\n")))
        suffix = ""
        if self.grad_fn is not None:
            suffix = f", grad_fn=<{type(self.grad_fn).__name__}>"
        elif self.requires_grad:
            suffix = ", requires_grad=True"
        return "nested_tensor([\n" + ",\n".join(lines) + "\n]" + suffix + ")"

    __str__ = __repr__

    def _constituents_detached(self):
        with DisableTorchFunctionSubclass():
            return pieces(self._buffer.detach(), self._nested_sizes)

    # -- per-constituent ops (one node each, Note [Nested tensor nodes]) ---------------
    def _per_constituent(self, name, fn, sizes_of=None, contiguous=True):
        sizes = self._nested_sizes

        def run(buffer):
            return flatten([fn(p) for p in pieces(buffer, sizes)])

        with DisableTorchFunctionSubclass():
            out_sizes = [tuple(fn(p).shape) for p in self._constituents_detached()]
            return wrap(record(name, run, self._buffer), out_sizes, contiguous)

    def unbind(self, dim: int = 0):
        if _dim(dim, self.dim()) != 0:
            raise RuntimeError(
                f"NestedTensor can only be unbound along dimension 0 got dimension {dim} instead."
            )
        sizes = self._nested_sizes
        if not sizes:
            return ()
        with DisableTorchFunctionSubclass():
            name = "UnbindBackwardAutogradNestedTensor0"
            result = record(name, lambda b: pieces(b, sizes), self._buffer)
        return result if isinstance(result, tuple) else (result,)

    def select(self, dim: int, index: int):
        if _dim(dim, self.dim()) != 0:
            raise not_supported("select.int")
        count = len(self._nested_sizes)
        if not -count <= index < count:
            raise IndexError(f"index {index} is out of bounds for dimension 0 with size {count}")
        index %= count
        sizes = self._nested_sizes
        with DisableTorchFunctionSubclass():
            name = "SelectBackwardAutogradNestedTensor0"
            return record(name, lambda b: pieces(b, sizes)[index], self._buffer)

    def __getitem__(self, index):
        if isinstance(index, int):
            return self.select(0, index)
        if isinstance(index, tuple) and index and isinstance(index[0], int):
            return self.select(0, index[0])[index[1:]]
        raise not_supported("slice.Tensor" if isinstance(index, slice) else "index.Tensor")

    def to_padded_tensor(self, padding, output_size=None):
        """A plain tensor: the constituents padded with ``padding`` to the largest size (or
        ``output_size``) and stacked."""
        if not self._nested_contiguous:
            raise RuntimeError("for now to_padded_tensor only supports contiguous nested tensor")
        sizes = self._nested_sizes
        largest = [max(s[d] for s in sizes) for d in range(self.dim() - 1)] if sizes else []
        shape = [len(sizes), *largest]
        if output_size is not None:
            output_size = list(output_size)
            if len(output_size) != len(shape):
                raise RuntimeError(
                    "Length of output_size does not match NestedTensor dims. Broadcasting is not "
                    "supported."
                )
            if any(o < s for o, s in zip(output_size, shape)):
                raise RuntimeError(
                    "Value in output_size is less than NestedTensor padded size. Truncation is "
                    "not supported."
                )
            shape = output_size

        def run(buffer):
            padded = []
            for piece in pieces(buffer, sizes):
                pad = []
                for have, want in zip(reversed(piece.shape), reversed(shape[1:])):
                    pad += [0, want - have]
                padded.append(torch.constant_pad_nd(piece, pad, padding))
            extra = shape[0] - len(padded)
            if extra:
                padded += [torch.full(shape[1:], padding, dtype=buffer.dtype)] * extra
            return torch.stack(padded) if padded else torch.zeros(shape, dtype=buffer.dtype)

        with DisableTorchFunctionSubclass():
            return record("ToPaddedTensorBackward0", run, self._buffer)

    def transpose(self, dim0: int, dim1: int):
        ndim = self.dim()
        dim0, dim1 = _dim(dim0, ndim), _dim(dim1, ndim)
        if 0 in (dim0, dim1):
            raise RuntimeError("Nested tensor dimension 0 cannot be transposed")
        return self._per_constituent(
            "TransposeBackward0", lambda t: t.transpose(dim0 - 1, dim1 - 1), contiguous=False
        )

    def softmax(self, dim: int, dtype=None, _stacklevel=None):
        dim = _dim(dim, self.dim())
        if dim == 0:
            raise RuntimeError("Cannot apply softmax across nested dimension 0")
        return self._per_constituent("SoftmaxBackward0", lambda t: t.softmax(dim - 1, dtype))

    def sum(self, dim=None, keepdim=False, dtype=None):
        if dim is None:
            raise not_supported("sum")
        dims = dim if isinstance(dim, (tuple, list)) else (dim,)
        if not keepdim:
            raise RuntimeError("NestedTensor always requires keepdim=True for now.")
        ndim = self.dim()
        for d in dims:
            if _dim(d, ndim) != ndim - 1:
                raise RuntimeError(
                    "NestedTensor can only be reduced across the last dimension for now got "
                    f"dimension {d} instead."
                )
        if dtype is not None:
            raise RuntimeError("NestedTensor does not support dtype argument for now.")
        kind = self._buffer._data.dtype.kind
        if kind in "bc":  # torch's kernel runs the real numbers only
            raise NotImplementedError(
                f"\"nested_sum_dim_cpu\" not implemented for '{self.dtype.scalar_name}'"
            )
        # an integral sum keeps the dtype (torch's nested kernel), not int64 as a plain one
        return self._per_constituent(
            "SumBackwardAutogradNestedTensor1",
            lambda t: t.sum(-1, True, dtype=t.dtype if kind in "iu" else None),
        )

    def unsqueeze(self, dim: int):
        dim = _dim(dim, self.dim() + 1)
        if dim == 0:
            raise RuntimeError(
                "unsqueeze(): For nested tensors, unsqueezing dimension 0 is not supported at "
                "the moment if you need this feature, please open an issue on github describing "
                "your use case."
            )
        return self._per_constituent("UnsqueezeBackward0", lambda t: t.unsqueeze(dim - 1))

    def view(self, *shape):
        return self._reshaped("view", shape)

    def reshape(self, *shape):
        return self._reshaped("reshape", shape)

    def _reshaped(self, name, shape):
        shape = (
            tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
        )
        if not shape or shape[0] != len(self._nested_sizes):
            raise RuntimeError(
                f"{name}: For now nested {name} cannot change or infer the implicit batch dimension"
            )
        return self._per_constituent(
            "ViewBackwardAutogradNestedTensor0", lambda t: t.reshape(shape[1:])
        )

    def matmul(self, other):
        if not isinstance(other, NestedTensor):
            raise RuntimeError(
                "Expected both to be nested, but got a nested self and non-nested other"
            )
        for which, t in (("1st", self), ("2nd", other)):
            if t.dim() < 3:
                raise RuntimeError(
                    "matmul: For nested tensors, only inputs with >= 3 dims are currently "
                    f"supported. {which} input has rank: {t.dim()}"
                )
        return _pairwise("MatmulBackward0", "matmul", self, other, lambda a, b: a.matmul(b))

    __matmul__ = matmul

    def bmm(self, mat2):
        if not isinstance(mat2, NestedTensor):
            if mat2.dim() != 3:
                raise RuntimeError("batch2 must be a 3D tensor")
            raise RuntimeError(
                "Expected both to be nested, but got a nested self and non-nested other"
            )
        for which, t in (("batch1", self), ("batch2", mat2)):
            if t.dim() != 3:
                raise RuntimeError(f"{which} must be a 3D tensor")
        return _pairwise("BmmBackward0", "bmm", self, mat2, lambda a, b: a.matmul(b))

    def _linear(self, weight, bias=None):
        last = self.size(-1) if self._nested_sizes else 0
        if weight.dim() != 2 or last != weight.size(1):
            raise RuntimeError(
                "Shape mismatch for NestedTensor Linear: Expected input's (a nested tensor) "
                f"'last_dim' to equal 'weight.size(1), but got: last_dim = {last}, and "
                f"weight.size(1) = {weight.size(-1)}"
            )
        sizes = self._nested_sizes
        extra = () if bias is None else (bias,)

        def run(buffer, weight, *bias):
            parts = [torch.nn.functional.linear(p, weight, *bias) for p in pieces(buffer, sizes)]
            return flatten(parts)

        out_sizes = [(*s[:-1], weight.size(0)) for s in sizes]
        with DisableTorchFunctionSubclass():
            return wrap(record("LinearBackward0", run, self._buffer, weight, *extra), out_sizes)

    def _on_buffer(self, fn):
        """``fn`` (elementwise) applied to the constituents at once, through the buffer."""
        with DisableTorchFunctionSubclass():
            return wrap(fn(self._buffer), self._nested_sizes, self._nested_contiguous)

    def _attention(self, key, value, attn_mask, dropout_p, is_causal, scale):
        if attn_mask is not None:
            raise RuntimeError(
                "Scaled_dot_product_attention: Nested tensors for query / key are not supported "
                "when an explicit attn_mask is set"
            )
        if is_causal:
            raise RuntimeError(
                "_scaled_dot_product_attention: Nested tensors for query / key are not supported "
                "when is_causal=True"
            )
        for other in (key, value):
            if not isinstance(other, NestedTensor):
                raise RuntimeError(
                    "Expected both to be nested, but got a nested self and non-nested other"
                )
        if not all(t._nested_contiguous for t in (self, key, value)):
            raise RuntimeError(
                "scaled_dot_product_attention: If inputs are nested tensors they must be contiguous"
            )
        sizes = [t._nested_sizes for t in (self, key, value)]
        attend = torch.nn.functional.scaled_dot_product_attention

        def run(*buffers):
            parts = zip(*(pieces(b, s) for b, s in zip(buffers, sizes)))
            return flatten([attend(q, k, v, None, dropout_p, False, scale) for q, k, v in parts])

        out_sizes = [(*q[:-1], v[-1]) for q, v in zip(sizes[0], sizes[2])]
        with DisableTorchFunctionSubclass():
            # torch's math path ends in a matmul, whose node it records
            buffers = (self._buffer, key._buffer, value._buffer)
            return wrap(record("MatmulBackward0", run, *buffers), out_sizes)

    def to(self, *args, **kwargs):
        with DisableTorchFunctionSubclass():
            buffer = self._buffer.to(*args, **kwargs)
        if buffer is self._buffer:
            return self
        return wrap(buffer, self._nested_sizes, self._nested_contiguous)

    def double(self):
        return self.to(torch.float64)

    def float(self):
        return self.to(torch.float32)

    def half(self):
        return self.to(torch.float16)

    def masked_fill(self, mask, value):
        if isinstance(mask, NestedTensor):
            if mask._nested_sizes != self._nested_sizes:
                raise RuntimeError(
                    "masked_fill does not support broadcasting when given a NestedTensor"
                )
            mask = mask._buffer
        elif mask.dim() != 0:
            raise RuntimeError(
                "masked_fill only supports boolean masks of the same shape or a 0-d mask"
            )
        with DisableTorchFunctionSubclass():
            return wrap(self._buffer.masked_fill(mask, value), self._nested_sizes)

    def to_dense(self, *args, **kwargs):
        raise not_supported("to_dense")

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return _handle(func, args, kwargs or {})


def _pairwise(name, op, a: NestedTensor, b: NestedTensor, fn):
    if len(a._nested_sizes) != len(b._nested_sizes):
        raise RuntimeError(
            f"{op}: Expected size for first two dimensions of batch2 tensor to be: "
            f"[{len(a._nested_sizes)}, ...] but got: [{len(b._nested_sizes)}, ...]."
        )
    sizes_a, sizes_b = a._nested_sizes, b._nested_sizes

    def run(buffer_a, buffer_b):
        return flatten(
            [fn(x, y) for x, y in zip(pieces(buffer_a, sizes_a), pieces(buffer_b, sizes_b))]
        )

    with DisableTorchFunctionSubclass():
        out_sizes = [
            tuple(fn(x, y).shape)
            for x, y in zip(a._constituents_detached(), b._constituents_detached())
        ]
        return wrap(record(name, run, a._buffer, b._buffer), out_sizes)


# the ops run per constituent: their function forms (torch.matmul(nt, nt)) reach the methods
METHOD_NAMES = frozenset(
    """bmm masked_fill matmul select softmax sum transpose unbind unsqueeze view reshape
    to_padded_tensor""".split()  # noqa: SIM905
)


def _handle(func, args, kwargs):
    name = getattr(func, "__name__", "")
    if name in METHOD_NAMES:
        if not isinstance(args[0], NestedTensor):
            raise RuntimeError(
                "Expected both to be nested, but got a non-nested self and nested other"
            )
        return getattr(NestedTensor, name)(*args, **kwargs)
    if getattr(func, "composite", None):
        # a function built of ops (F.linear, F.dropout) takes nested inputs itself
        with DisableTorchFunctionSubclass():
            return func(*args, **kwargs)
    if name == "where":
        return _where(*args, **kwargs)
    base = name[:-1] if name.endswith("_") else name
    if base in UNARY_NAMES or base in BINARY_NAMES or base in COMPARE_NAMES:
        return _elementwise(func, base, args, kwargs)
    raise not_supported(name)


def _elementwise(func, name, args, kwargs):
    nested = [a for a in args if isinstance(a, NestedTensor)]
    sizes = nested[0]._nested_sizes
    for other in nested[1:]:
        if other._nested_sizes != sizes:
            raise RuntimeError(f"{name} does not support broadcasting when given a NestedTensor")
    if name in COMPARE_NAMES and isinstance(args[1], NestedTensor):
        raise RuntimeError(f"{name} does not support nested tensor as other value.")
    for a in args:
        if isinstance(a, Tensor) and not isinstance(a, NestedTensor) and a.dim() != 0:
            if name in COMPARE_NAMES:
                raise not_supported(f"{name}.Tensor")
            raise RuntimeError(
                "Expected both self and other to be nested, but got a nested self and "
                "non-nested other"
            )
    plain = [a._buffer if isinstance(a, NestedTensor) else a for a in args]
    with DisableTorchFunctionSubclass():
        result = func(*plain, **kwargs)
    if getattr(func, "__name__", "") == name + "_":  # in place: the buffer changed
        return args[0]
    if name in NO_BACKWARD and result.requires_grad:
        result.register_hook(_refuse_backward(NO_BACKWARD[name]))
    return wrap(result, sizes)


# torch runs these forward on nested tensors but has no nested kernel for their backward:
# the gradient reaching them raises, where torch's would
NO_BACKWARD = {"tanh": "tanh_backward"}


def _refuse_backward(kernel: str):
    def hook(grad):
        raise not_supported(kernel)

    return hook


def _where(condition, input, other):
    for value, what in ((input, "self"), (other, "other")):
        if not isinstance(value, NestedTensor):
            raise RuntimeError(f"{what} must be nested")
    if not isinstance(condition, NestedTensor):
        raise RuntimeError("condition must be nested")
    if input.dim() != 2:  # torch's CPU kernel takes constituents of one dimension only
        raise RuntimeError("self must not be nested")
    return _elementwise(torch.where, "where", (condition, input, other), {})

"""Shape ops: views (view, reshape, permute, expand, ...), joins and splits, copies, casts."""

from __future__ import annotations

import math
import warnings

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.dispatch import broadcast_shape
from .._core.meta import is_meta_device, metafy, no_data
from .._core.observers import composite
from .._core.op import defop, export
from .._core.tensor import Size, Tensor, _wrap_dim
from .._creation import keyword_size, shape_arg, zeros
from .._legacy_types import dtype_of_type
from .._runtime import typename
from ..autograd.forward_grad import align, batch_shift, batched
from ..backend import xp
from .sparse import sparse_cat


def infer_shape(shape: tuple, numel: int) -> tuple:
    """Resolve one ``-1`` in ``shape`` and check the element count, with torch's errors."""
    unknown = [i for i, s in enumerate(shape) if s == -1]
    if len(unknown) > 1:
        raise RuntimeError("only one dimension can be inferred")
    for s in shape:
        if s < -1:
            raise RuntimeError(f"invalid shape dimension {s}")
    known = math.prod(s for s in shape if s != -1)
    if unknown:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = shape[: unknown[0]] + (numel // known,) + shape[unknown[0] + 1 :]
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


# Forward derivatives (Note [Forward grads]): shape ops are linear, so a tangent takes the
# same op; a leading batch of tangents (jacfwd) keeps its dimension in front.
def _lead(tangent, primal) -> tuple:
    return tuple(tangent.shape[: batch_shift(tangent, primal)])


@batched
def _reshape_jvp(input_t, input, result):
    return input_t.reshape(_lead(input_t, input) + tuple(result.shape))


@batched
def _permute_jvp(input_t, input, dims):
    shift = batch_shift(input_t, input)
    n = max(input.ndim, 1)
    return input_t.permute(tuple(range(shift)) + tuple(d % n + shift for d in dims))


@batched
def _transpose_jvp(input_t, input, dim0, dim1):
    if input.ndim < 2:
        return input_t
    shift = batch_shift(input_t, input)
    return input_t.transpose(dim0 % input.ndim + shift, dim1 % input.ndim + shift)


@batched
def _t_jvp(input_t, input):
    return _transpose_jvp(input_t, input, 0, 1)


@batched
def _expand_jvp(input_t, input, result):
    lead = _lead(input_t, input)
    return align(input_t, input, result.ndim).expand(lead + tuple(result.shape))


def _tangents_or_zeros(tensors_t, tensors):
    """The tangents of a list, zeros (with the batch dimension of the others) for none."""
    lead = next((_lead(t, p) for t, p in zip(tensors_t, tensors) if t is not None), ())
    return [
        t if t is not None else zeros(lead + tuple(p.shape), dtype=p.dtype)
        for t, p in zip(tensors_t, tensors)
    ], len(lead)


@batched
def _stack_jvp(tensors_t, tensors, dim, dtype):
    tangents, shift = _tangents_or_zeros(tensors_t, tensors)
    return _stack(tangents, dim % (tensors[0].ndim + 1) + shift, dtype)


@batched
def _cat_jvp(tensors_t, tensors, dim, dtype, keep):
    tangents, shift = _tangents_or_zeros(tensors_t, tensors)
    return _cat(tangents, dim + shift, dtype, keep)


# -- views -----------------------------------------------------------------------------------
@defop(
    batch=batch_rules.new_shape("shape"),
    name="view",
    view=True,
    input=lambda grad, input_shape: grad.reshape(input_shape),
    jvp=_reshape_jvp,
)
def _view(input, shape):
    out = input.reshape(shape)
    if out.size and not xp.may_share_memory(out, input):
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    return out


# reshape of a non-contiguous tensor that needs no copy: torch's _reshape_alias
@defop(
    batch=batch_rules.new_shape("shape"),
    name="_reshape_alias",
    node="ReshapeAliasBackward0",
    view=True,
    input=lambda grad, input_shape: grad.reshape(input_shape),
    jvp=_reshape_jvp,
)
def _reshape_alias(input, shape):
    return input.reshape(shape)


@defop(
    batch=batch_rules.new_shape("shape"),
    name="_unsafe_view",
    node="UnsafeViewBackward0",
    input=lambda grad, input_shape: grad.reshape(input_shape),
    jvp=_reshape_jvp,
)
def _unsafe_view(input, shape):
    return input.reshape(shape)


def _view_dtype(input, dtype) -> Tensor:
    """The same bytes read as ``dtype`` (the last dim rescales when item sizes differ)."""
    if dtype is input.dtype:
        return view(input, input.shape)
    data = input._data
    if dtype.itemsize != data.itemsize:
        if data.ndim == 0 or data.strides[-1] != data.itemsize:
            raise RuntimeError(
                "self.stride(-1) must be 1 to view " + f"{input.dtype} as {dtype} "
                "(different element sizes), but got " + str(input.stride(-1) if data.ndim else 0)
            )
        if (data.shape[-1] * data.itemsize) % dtype.itemsize:
            raise RuntimeError(
                f"self.size(-1) must be divisible by {dtype.itemsize // data.itemsize} to view "
                f"{input.dtype} as {dtype} (different element sizes), but got {data.shape[-1]}"
            )
    out = Tensor._make(data.view(dtype.np))
    out._vc = input._get_vc()  # shares memory: in-place writes show in both
    return out


@export
def view(input, *shape, size=None, dtype=None) -> Tensor:
    """Same data with a new shape (no copy; fails where reshape would need one)."""
    if dtype is not None:
        shape = keyword_size(shape, dtype, "view", "dtype")
    elif size is not None:
        shape = keyword_size(shape, size, "view")
    if len(shape) == 1 and isinstance(shape[0], _dtypes.dtype):
        return _view_dtype(input, shape[0])
    return _view(input, infer_shape(shape_arg(shape), input._data.size))


@export
def reshape(input, *sizes, shape=None) -> Tensor:
    """A tensor with the new shape: a view when the layout allows it, else a copy."""
    if shape is not None:
        sizes = keyword_size(sizes, shape, "reshape", "shape")
    shape = infer_shape(shape_arg(sizes, "reshape"), input._data.size)
    data = input._data
    if data.flags.c_contiguous or data.size == 0 or input._batched:  # vmap: the rule decides
        return _view(input, shape)
    out = data.reshape(shape)
    if xp.may_share_memory(out, data):
        return _reshape_alias(input, shape)
    return _unsafe_view(input.clone(), shape)


@export
def view_as(input, other) -> Tensor:
    return view(input, other._data.shape)


@export
def reshape_as(input, other) -> Tensor:
    return reshape(input, other._data.shape)


@export
@composite("aten::flatten")
def flatten(input, start_dim=0, end_dim=-1) -> Tensor:
    """Merge dims ``start_dim``..``end_dim`` into one."""
    if input.ndim == 0:
        _wrap_dim(start_dim, 0), _wrap_dim(end_dim, 0)  # torch's IndexError for dims past 0
        return reshape(input, 1)
    start, end = _wrap_dim(start_dim, input.ndim), _wrap_dim(end_dim, input.ndim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input
    shape = input.shape
    return reshape(input, shape[:start] + (math.prod(shape[start : end + 1]),) + shape[end + 1 :])


@export
def unflatten(input, dim, sizes) -> Tensor:
    dim = _wrap_dim(dim, input.ndim)
    if not input.ndim:
        raise RuntimeError(
            f"unflatten got an unexpected error:\nDimension specified as {dim} but tensor has "
            "no dimensions"
        )
    shape = input.shape
    sizes = infer_shape(tuple(sizes), shape[dim])
    return view(input, shape[:dim] + sizes + shape[dim + 1 :])


@defop(
    batch=batch_rules.squeeze_all,
    name="squeeze_all",
    aten="squeeze",
    node="SqueezeBackward0",
    view=True,
    input=lambda grad, input_shape: grad.reshape(input_shape),
    jvp=_reshape_jvp,
)
def _squeeze_all(input):
    return input.reshape(tuple(s for s in input.shape if s != 1))


@defop(
    batch=batch_rules.along("dim"),
    name="squeeze_dim",
    aten="squeeze",
    node="SqueezeBackward1",
    view=True,
    # torch's unsqueeze_to: an unsqueeze (so double backward records UnsqueezeBackward0)
    input=lambda grad, input_shape, dim: grad.unsqueeze(dim) if input_shape[dim] == 1 else grad,
    jvp=_reshape_jvp,
)
def _squeeze_dim(input, dim):
    return input.reshape(tuple(s for i, s in enumerate(input.shape) if i != dim or s != 1))


@defop(
    batch=batch_rules.along("dims"),
    name="squeeze_dims",
    aten="squeeze",
    node="SqueezeBackward2",
    view=True,
    input=lambda grad, input_shape: grad.reshape(input_shape),
    jvp=_reshape_jvp,
)
def _squeeze_dims(input, dims):
    return input.reshape(tuple(s for i, s in enumerate(input.shape) if i not in dims or s != 1))


@export
def squeeze(input, dim=None) -> Tensor:
    """Drop size-1 dims (all of them, or those in ``dim``)."""
    if dim is None:
        return _squeeze_all(input)
    if isinstance(dim, (tuple, list)):
        return _squeeze_dims(input, tuple(_wrap_dim(d, input.ndim) for d in dim))
    return _squeeze_dim(input, _wrap_dim(dim, input.ndim))


@defop(
    batch=batch_rules.unsqueeze,
    name="unsqueeze",
    view=True,
    input=lambda grad, dim: grad.squeeze(dim),
    jvp=_reshape_jvp,
)
def _unsqueeze(input, dim):
    return xp.expand_dims(input, dim)


@export
def unsqueeze(input, dim) -> Tensor:
    """Insert a size-1 dim at ``dim``."""
    return _unsqueeze(input, _wrap_dim(dim, input.ndim + 1))


def _inverse(dims):
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d] = i
    return tuple(inverse)


@defop(
    batch=batch_rules.permute,
    name="permute",
    view=True,
    input=lambda grad, dims: grad.permute(_inverse(dims)),
    jvp=_permute_jvp,
)
def _permute(input, dims):
    return input.transpose(dims)


@export
def permute(input, *order, dims=None) -> Tensor:
    """Reorder dims."""
    dims = keyword_size(order, dims, "permute", "dims")
    if not dims:
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    dims = shape_arg(dims, "permute")
    if len(dims) != input.ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            "length of the desired ordering of dimensions i.e. input.dim() = "
            f"{input.ndim} is not equal to len(dims) = {len(dims)}"
        )
    dims = tuple(_wrap_dim(d, input.ndim) for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return _permute(input, dims)


@export
def movedim(input, source, destination) -> Tensor:
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    src = [_wrap_dim(d, input.ndim) for d in src]
    dst = [_wrap_dim(d, input.ndim) for d in dst]
    if input.ndim == 0:  # nothing to move: torch returns an alias
        from .indexing import _alias

        return _alias(input)
    order = [d for d in range(input.ndim) if d not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return permute(input, order)


moveaxis = export(movedim, name="moveaxis")


@defop(
    batch=batch_rules.along("dim0", "dim1"),
    name="transpose",
    view=True,
    input=lambda grad, dim0, dim1: grad.transpose(dim0, dim1),
    jvp=_transpose_jvp,
)
def _transpose(input, dim0, dim1):
    return xp.swapaxes(input, dim0, dim1) if input.ndim else input.view()


@export
def transpose(input, dim0, dim1) -> Tensor:
    """Swap two dims."""
    return _transpose(input, _wrap_dim(dim0, input.ndim), _wrap_dim(dim1, input.ndim))


swapaxes = export(transpose, name="swapaxes")
swapdims = export(transpose, name="swapdims")


@defop(
    batch=batch_rules.transpose_last,
    name="t",
    view=True,
    input=lambda grad: grad.t(),
    jvp=_t_jvp,
)
def _t(input):
    return input.T


@export
def t(input) -> Tensor:
    """Transpose a tensor of at most 2 dims."""
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return _t(input)


Tensor.T = property(
    lambda self: _permute(self, tuple(range(self.ndim - 1, -1, -1))),
    doc="The tensor with its dims reversed.",
)


def _matrix_transpose(self, name: str, conjugate: bool, warn_name: str) -> Tensor:
    if self.ndim == 0:  # deprecated in torch: the identity
        hint = (
            "Consider using x.conj()."
            if conjugate
            else "This function is the identity in these cases."
        )
        warnings.warn(
            f"{warn_name} is deprecated on 0-D tensors. {hint}", UserWarning, stacklevel=3
        )
        return self
    if self.ndim < 2:
        raise RuntimeError(
            f"{name} is only supported on matrices or batches of matrices. Got {self.ndim}-D "
            "tensor."
        )
    out = transpose(self, -2, -1)
    return out.conj() if conjugate and self.is_complex() else out


def _hermitian(self) -> Tensor:
    if self.ndim not in (0, 2):
        extra = " For batches of matrices, consider using tensor.mH" if self.ndim > 2 else ""
        raise RuntimeError(
            f"tensor.H is only supported on matrices (2-D tensors). Got {self.ndim}-D "
            f"tensor.{extra}"
        )
    return _matrix_transpose(self, "tensor.H", True, "Tensor.H")


@export
def adjoint(input) -> Tensor:
    """The conjugate transpose of the last two dims (a view)."""
    return _matrix_transpose(input, "tensor.adjoint()", True, "adjoint()")


Tensor.mT = property(
    lambda self: _matrix_transpose(self, "tensor.mT", False, "Tensor.mT"),
    doc="Transpose of the last 2 dims.",
)
Tensor.mH = property(
    lambda self: _matrix_transpose(self, "tensor.mH", True, "Tensor.mH"),
    doc="Conjugate transpose of the last 2 dims.",
)
Tensor.H = property(_hermitian, doc="Conjugate transpose of a matrix.")


@defop(
    batch=batch_rules.expand,
    name="expand",
    view=True,
    input=lambda grad, input_shape: grad.sum_to_size(input_shape),
    jvp=_expand_jvp,
)
def _expand(input, shape):
    if math.prod(shape) == input.size:
        # nothing repeats (only size-1 dims are added): a writable view, as in torch, where
        # a stride of 0 on a size-1 dim is no overlap (broadcast_to's view is read-only)
        return input.reshape(shape)
    # torch's strides: 0 only on the dims that grow; a kept dim (of size 1 too) keeps its
    # stride and a new one that stays 1 gets the next's size times stride (broadcast_to
    # would give every size-1 dim a 0, which torch's layout checks read differently)
    out = xp.broadcast_to(input, shape)
    strides = [0] * len(shape)
    step = input.itemsize
    lead = len(shape) - input.ndim
    for i in range(len(shape) - 1, -1, -1):
        size = input.shape[i - lead] if i >= lead else 1
        stride = input.strides[i - lead] if i >= lead else step
        strides[i] = 0 if size != shape[i] else stride
        step = shape[i] * strides[i]
    if tuple(strides) == out.strides:
        return out
    return xp.lib.stride_tricks.as_strided(input, shape, strides, writeable=False)


@export
def expand(input, *sizes, size=None, implicit=False) -> Tensor:
    """Broadcast size-1 dims to ``sizes`` without copying (-1 keeps a size)."""
    sizes = shape_arg(keyword_size(sizes, size, "expand"), "expand")
    shape = input.shape
    lead = len(sizes) - len(shape)
    if lead < 0:
        raise RuntimeError(
            f"expand(torch.{input.dtype._tag}{{{list(shape)}}}, size={list(sizes)}): the number "
            "of sizes provided (" + str(len(sizes)) + ") must be greater or equal to the number "
            "of dimensions in the tensor (" + str(len(shape)) + ")"
        )
    target = []
    for i, s in enumerate(sizes):
        if i < lead:
            if s < 0:
                raise RuntimeError(
                    f"The expanded size of the tensor ({s}) isn't allowed in a leading, "
                    f"non-existing dimension {i}"
                )
            target.append(s)
            continue
        have = shape[i - lead]
        if s == -1:
            s = have
        elif have != 1 and have != s:
            raise RuntimeError(
                f"The expanded size of the tensor ({s}) must match the existing size ({have}) at "
                f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                f"{list(shape)}"
            )
        target.append(s)
    return _expand(input, tuple(target))


@export
def expand_as(input, other) -> Tensor:
    return expand(input, other._data.shape)


@export(method=False)
def broadcast_to(input, size) -> Tensor:
    return expand(input, size)


Tensor.broadcast_to = broadcast_to


@export(method=False)
def broadcast_tensors(*tensors):
    shape = broadcast_shape(*(t._data.shape for t in tensors))
    # torch hands back a tensor of the full shape itself (no ExpandBackward0)
    return tuple(t if t._data.shape == shape else expand(t, shape) for t in tensors)


@export(method=False)
def broadcast_shapes(*shapes) -> Size:
    return Size(broadcast_shape(*shapes))


@export
def sum_to_size(input, *size) -> Tensor:
    """Sum broadcast dims away so the result has shape ``size`` (the inverse of expand)."""
    size = shape_arg(size, "sum_to_size")
    shape = input._data.shape
    if tuple(shape) == size:
        return input
    lead = len(shape) - len(size)
    try:
        expandable = lead >= 0 and broadcast_shape(size, shape) == tuple(shape)
    except RuntimeError:
        expandable = False
    if not expandable:
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
    if not size:  # as torch's sum_to: a full sum (SumBackward0)
        return input.sum()
    dims = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(size) if s == 1 and shape[lead + i] != 1
    )
    out = input.sum(dims, keepdim=True) if dims else input
    return out.view(size) if lead else out


# -- copies and casts ------------------------------------------------------------------------
@defop(
    batch=batch_rules.pointwise,
    name="clone",
    input=lambda grad: grad,
    jvp="elementwise",
)
def _clone(input):
    return input.copy(order="K")


@export
def clone(input, *, memory_format=None) -> Tensor:
    """A copy of the data that stays in the graph (its gradient flows to ``input``); strides
    are kept unless ``memory_format=torch.contiguous_format``."""
    if memory_format is not None and repr(memory_format) == "torch.contiguous_format":
        return _clone_contiguous(input)
    return _clone(input)


@export
def contiguous(input, memory_format=None) -> Tensor:
    return input if input._data.flags.c_contiguous else _clone_contiguous(input)


@defop(
    batch=batch_rules.pointwise,
    name="clone_contiguous",
    aten="clone",
    node="CloneBackward0",
    input=lambda grad: grad,
    jvp="elementwise",
)
def _clone_contiguous(input):
    return xp.array(input, order="C", copy=True)


def _to_copy_grad(grad, input_dtype):
    if grad._data.dtype.kind == "c" and not input_dtype.is_complex:
        grad = grad.real  # the gradient of a real input is real (no cast warning)
    return grad.to(input_dtype)


@batched
def _to_copy_jvp(input_t, dtype):
    return _to_copy(input_t, dtype)


@defop(
    batch=batch_rules.pointwise,
    name="_to_copy",
    node="ToCopyBackward0",
    input=_to_copy_grad,
    jvp=_to_copy_jvp,
)
def _to_copy(input, dtype):
    if input.dtype.kind == "c" and dtype.np.kind != "c":
        warnings.warn("Casting complex values to real discards the imaginary part", UserWarning, 2)
        input = input.real
    return input.astype(dtype.np)


def _parse_to(args, kwargs):
    dtype = kwargs.pop("dtype", None)
    copy = kwargs.pop("copy", False)
    device = kwargs.pop("device", None)
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"to() got unexpected keyword arguments {list(kwargs)}")
    for a in args:
        if isinstance(a, Tensor):
            dtype = a.dtype
        elif isinstance(a, _dtypes.dtype):
            dtype = a
        elif isinstance(a, bool):
            copy = a
        elif a is not None:
            device = a
    if device is not None and not is_meta_device(device):
        from .._creation import check_device

        check_device(device)
    return dtype, copy, device


@export(function=False)
def to(input, *args, **kwargs) -> Tensor:
    """Convert dtype (``to(torch.float64)``) or device (``'cpu'`` only); returns ``input``
    itself when nothing changes."""
    dtype, copy, device = _parse_to(args, kwargs)
    if device is not None and is_meta_device(device) != input.is_meta:
        if input.is_meta:  # to the CPU: there are no values to copy
            no_data()
        out = _to_copy(input, _dtypes.to_dtype(dtype or input.dtype))
        return metafy(out)
    if dtype is None or _dtypes.to_dtype(dtype).np == input._data.dtype:
        return clone(input) if copy else input
    return _to_copy(input, _dtypes.to_dtype(dtype))


def _caster(name, dtype):
    def cast(self, memory_format=None):
        return to(self, dtype)

    cast.__name__ = name
    cast.__doc__ = f"``self.to({dtype})``."
    setattr(Tensor, name, cast)


for _name, _dt in (
    ("float", _dtypes.float32),
    ("double", _dtypes.float64),
    ("half", _dtypes.float16),
    ("bfloat16", _dtypes.bfloat16),
    ("long", _dtypes.int64),
    ("int", _dtypes.int32),
    ("short", _dtypes.int16),
    ("char", _dtypes.int8),
    ("byte", _dtypes.uint8),
    ("bool", _dtypes.bool_),
    ("cfloat", _dtypes.complex64),
    ("cdouble", _dtypes.complex128),
):
    _caster(_name, _dt)


def _type(self, dtype=None, non_blocking=False, **kwargs):
    if dtype is None:
        dtype = kwargs.pop("dtype", None)
    if kwargs:
        raise TypeError(f"type() got unexpected keyword arguments {list(kwargs)}")
    if dtype is None:
        return f"torch.sparse.{self.dtype._tag}" if self.is_sparse else f"torch.{self.dtype._tag}"
    return to(self, dtype_of_type(dtype))


Tensor.type = _type
Tensor.cpu = lambda self, memory_format=None: no_data() if self.is_meta else self
Tensor.type_as = lambda self, other: to(self, other.dtype)


def _no_cuda(self, *args, **kwargs):
    raise AssertionError("Torch not compiled with CUDA enabled (numtorch runs on the CPU only)")


Tensor.cuda = _no_cuda


def _pin_memory(self, device=None):
    raise RuntimeError("Cannot access accelerator device when none is available.")


# CPU-only: memory is never pinned (DataLoader(pin_memory=True) leaves batches as they are)
Tensor.is_pinned = lambda self, device=None: False
Tensor.pin_memory = _pin_memory


# -- joining and splitting -------------------------------------------------------------------
def _split_grads(grad, tensors_shape, dim, keep):
    # a skipped 1-D empty input still gets its (empty) gradient, as in torch
    parts = iter(grad.split([s[dim] for s, k in zip(tensors_shape, keep) if k], dim))
    return [next(parts) if k else grad.new_zeros(s) for s, k in zip(tensors_shape, keep)]


@defop(
    batch=batch_rules.joined,
    name="cat",
    schema_args=2,  # cat(tensors, dim)
    lists=("tensors",),
    tensors=lambda grad, tensors_shape, dim, keep: _split_grads(grad, tensors_shape, dim, keep),
    jvp=_cat_jvp,
)
def _cat(tensors, dim, dtype, keep):
    return xp.concatenate([t for t, k in zip(tensors, keep) if k], axis=dim, dtype=dtype)


def _check_cat(tensors, name):
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(
            f"{name}(): argument 'tensors' must be tuple of Tensors, not {type(tensors).__name__}"
        )
    if not tensors:
        if name in ("stack", "hstack", "vstack", "dstack", "column_stack"):
            raise RuntimeError(f"{name} expects a non-empty TensorList")
        raise ValueError(f"{name}(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {typename(t)}")


@export(method=False)
def cat(tensors, dim=0) -> Tensor:
    """Concatenate along an existing dim (1-D empty tensors are skipped, as in torch)."""
    _check_cat(tensors, "torch.cat")
    if any(t.is_sparse for t in tensors):
        return sparse_cat(tensors, dim, cat)
    for i, t in enumerate(tensors):
        if t.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    dt = _dtypes.result_type(*tensors) if len(tensors) > 1 else tensors[0].dtype
    ref = next((t for t in tensors if t._data.shape != (0,)), tensors[0])
    keep = tuple(t._data.shape != (0,) or ref._data.shape == (0,) for t in tensors)
    dim = _wrap_dim(dim, ref.ndim)
    for i, (t, k) in enumerate(zip(tensors, keep)):
        if not k:
            continue
        if t.ndim != ref.ndim:
            raise RuntimeError(
                f"Tensors must have same number of dimensions: got {ref.ndim} and {t.ndim}"
            )
        for d in range(ref.ndim):
            if d != dim and t.shape[d] != ref.shape[d]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {dim}. Expected size "
                    f"{ref.shape[d]} but got size {t.shape[d]} for tensor number {i} in the list."
                )
    return _cat(list(tensors), dim, dt.np, keep)


concat = export(cat, name="concat", method=False)
concatenate = export(cat, name="concatenate", method=False)


@defop(
    batch=batch_rules.joined,
    name="stack",
    schema_args=2,
    lists=("tensors",),
    tensors=lambda grad, dim: grad.unbind(dim),
    jvp=_stack_jvp,
)
def _stack(tensors, dim, dtype):
    return xp.stack(tensors, axis=dim, dtype=dtype)


@export(method=False)
def stack(tensors, dim=0) -> Tensor:
    """Join equally shaped tensors along a new dim."""
    _check_cat(tensors, "stack")
    shape = tensors[0]._data.shape
    for i, t in enumerate(tensors):
        if t._data.shape != shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got "
                f"{list(shape)} at entry 0 and {list(t._data.shape)} at entry {i}"
            )
    dt = _dtypes.result_type(*tensors) if len(tensors) > 1 else tensors[0].dtype
    return _stack(list(tensors), _wrap_dim(dim, len(shape) + 1), dt.np)


def _join_grads(grads, input_shape, dim, sizes):
    parts = []
    for g, n in zip(grads, sizes):
        if g is None:
            shape = list(input_shape)
            shape[dim] = n
            g = zeros(shape, dtype=next(x for x in grads if x is not None).dtype)
        parts.append(g)
    return cat(parts, dim)


def _section_sizes(length, split_size, dim=0):
    if isinstance(split_size, int):
        if split_size == 0 and length:
            raise RuntimeError(
                f"split_size can only be 0 if dimension size is 0, but got "
                f"dimension size of {length}"
            )
        if split_size < 0:
            raise RuntimeError(
                f"split expects split_size be non-negative, but got split_size={split_size}"
            )
        if length == 0:
            return [0]
        return [min(split_size, length - i) for i in range(0, length, split_size)]
    sizes = list(split_size)
    if sum(sizes) != length:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {length} (input tensor's "
            f"size at dimension {dim}), but got split_sizes={sizes}"
        )
    return sizes


@batched
def _split_jvp(input_t, input, split_size, dim):
    return _split(input_t, split_size, dim + batch_shift(input_t, input))


@batched
def _split_with_sizes_jvp(input_t, input, split_size, dim):
    return _split_with_sizes(input_t, split_size, dim + batch_shift(input_t, input))


@batched
def _unbind_jvp(input_t, input, dim):
    return _unbind(input_t, dim + batch_shift(input_t, input))


@defop(
    batch=batch_rules.along("dim"),
    name="split",
    outputs="many",
    view=True,
    input=lambda grads, input_shape, split_size, dim: _join_grads(
        grads, input_shape, dim, _section_sizes(input_shape[dim], split_size)
    ),
    jvp=_split_jvp,
)
def _split(input, split_size, dim):
    sizes = _section_sizes(input.shape[dim], split_size, dim)
    edges = list(xp.cumsum(sizes)[:-1])
    return xp.split(input, edges, axis=dim)


@defop(
    batch=batch_rules.along("dim"),
    name="split_with_sizes",
    node="SplitWithSizesBackward0",
    outputs="many",
    view=True,
    input=lambda grads, input_shape, split_size, dim: _join_grads(
        grads, input_shape, dim, list(split_size)
    ),
    jvp=_split_with_sizes_jvp,
)
def _split_with_sizes(input, split_size, dim):
    sizes = _section_sizes(input.shape[dim], split_size, dim)
    edges = list(xp.cumsum(sizes)[:-1])
    return xp.split(input, edges, axis=dim)


@export
def split(input, split_size_or_sections, dim=0):
    """Split into chunks of a size (int) or of given sizes (list) along ``dim``."""
    if input.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim = _wrap_dim(dim, input.ndim)
    if isinstance(split_size_or_sections, int):
        return _split(input, split_size_or_sections, dim)
    return _split_with_sizes(input, tuple(split_size_or_sections), dim)


@export
def chunk(input, chunks, dim=0):
    """Split into ``chunks`` nearly equal pieces (the last may be smaller)."""
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    if input.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    dim = _wrap_dim(dim, input.ndim)
    n = input.shape[dim]
    if n == 0:  # torch gives ``chunks`` empty pieces
        return _split_with_sizes(input, (0,) * chunks, dim)
    return _split(input, -(-n // chunks), dim)


@defop(
    batch=batch_rules.along("dim"),
    name="unbind",
    outputs="many",
    view=True,
    input=lambda grads, input_shape, dim: _unbind_backward(grads, input_shape, dim),
    jvp=_unbind_jvp,
)
def _unbind(input, dim):
    lead = (slice(None),) * dim
    return tuple(
        input[lead + (i, ...)] for i in range(input.shape[dim])
    )  # "...": 0-d views, not scalars


def _unbind_backward(grads, input_shape, dim):
    ref = next(g for g in grads if g is not None)
    shape = list(input_shape)
    del shape[dim]
    parts = [g if g is not None else zeros(shape, dtype=ref.dtype) for g in grads]
    return stack(parts, dim)


@export
def unbind(input, dim=0):
    """The slices along ``dim``, as a tuple of views."""
    if input.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    return _unbind(input, _wrap_dim(dim, input.ndim))


@defop(
    batch=batch_rules.along("dims"),
    name="flip",
    input=lambda grad, dims: grad.flip(dims),
    jvp="linear",
)
def _flip(input, dims):
    return xp.flip(input, dims).copy() if input.ndim else input.copy()


@export
def flip(input, *order, dims=None) -> Tensor:
    dims = shape_arg(keyword_size(order, dims, "flip", "dims"), "flip")
    return _flip(input, tuple(_wrap_dim(d, input.ndim) for d in dims))


@export
def fliplr(input) -> Tensor:
    return flip(input, 1)


@export
def flipud(input) -> Tensor:
    return flip(input, 0)


def _repeat_backward(grad, input_shape, repeats):
    # torch's order, so the nodes recorded under create_graph match: a zero repeat gives
    # zeros, leading dims are summed one by one, then one reshape and sum over the axes
    # repeated more than once (none when every repeat is 1: the gradient passes as is)
    if 0 in repeats:
        return grad.new_zeros(tuple(input_shape))
    lead = len(repeats) - len(input_shape)
    for _ in range(lead):
        grad = grad.sum(0)
    size, dims = [], []
    for r, s in zip(repeats[lead:], input_shape):
        if r != 1:
            size.append(r)
            dims.append(len(size) - 1)
        size.append(s)
    if dims:
        grad = grad.reshape(size).sum(tuple(dims))
    return grad


@defop(
    batch=batch_rules.repeat,
    name="repeat",
    input=_repeat_backward,
    jvp="linear",
)
def _repeat(input, repeats):
    return xp.tile(input, repeats)


@export
def repeat(input, *counts, repeats=None) -> Tensor:
    """Tile the tensor ``repeats[i]`` times along each dim."""
    repeats = shape_arg(keyword_size(counts, repeats, "repeat", "repeats"), "repeat")
    if len(repeats) < input.ndim:
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number "
            "of dimensions of tensor"
        )
    if any(r < 0 for r in repeats):
        shape = [r * s for r, s in zip(repeats, (1,) * (len(repeats) - input.ndim) + input.shape)]
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(shape)}: {shape}")
    return _repeat(input, repeats)


@export(method=False)
def tile(input, dims) -> Tensor:
    dims = tuple(dims)
    return repeat(input, (1,) * (input.ndim - len(dims)) + dims)


def _tile_method(self, *counts, dims=None) -> Tensor:  # x.tile(2, 2) and x.tile(dims=...) too
    return tile(self, shape_arg(keyword_size(counts, dims, "tile", "dims"), "tile"))


Tensor.tile = _tile_method


@defop(
    batch=batch_rules.roll,
    name="roll",
    input=lambda grad, shifts, dims: grad.roll(tuple(-s for s in shifts), dims),
    jvp="linear",
)
def _roll(input, shifts, dims):
    return xp.roll(input, shifts, dims)


@export
def roll(input, shifts, dims=None) -> Tensor:
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    if not shifts:  # torch's check (fftshift of a 0-d tensor rolls by no shifts)
        raise RuntimeError("`shifts` required")
    if dims is None:
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
        return _roll(input, shifts, None)  # over the flattened tensor, one node as torch
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if input.ndim == 0 and dims:
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    return _roll(input, shifts, tuple(_wrap_dim(d, input.ndim) for d in dims))

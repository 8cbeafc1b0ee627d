"""Shape ops: views (view, reshape, permute, transpose, squeeze, expand, ...) and broadcasting."""

from __future__ import annotations

import math
import warnings

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.dispatch import broadcast_shape, require_tensor
from .._core.observers import composite
from .._core.op import defop, export
from .._core.tensor import Size, Tensor, _wrap_dim, int_argument
from .._core.warn_once import warn_once
from .._creation import keyword_size, shape_arg, zeros
from ..autograd.forward_grad import align, batch_shift, batched
from ..backend import layout, xp


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
        if known == 0 and numel == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                "unspecified dimension size -1 can be any value and is ambiguous"
            )
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


# -- views -----------------------------------------------------------------------------------
# Note [Strides of size-1 dims]: a size-1 dim is never stepped over, so NumPy gives it a
# stride of its own choosing where a view of a non-contiguous array inserts one; torch's
# rules fix it, and they show in stride() and in the layout checks of torch's kernels (the
# fused attention wants a last stride of 1). Contiguous inputs get the same strides both ways.
def _torch_view(out, input):
    """``out``, a view NumPy made of ``input``, with the strides torch's computeStride gives
    it (``layout.view_strides``; NumPy's byte strides scale through it unchanged)."""
    if 1 in out.shape and input.ndim and not input.flags.c_contiguous and out.size:
        strides = layout.view_strides(input.shape, input.strides, out.shape)
        if strides is not None:  # (NumPy made the view, so torch's rule finds one too)
            return _with_strides(out, strides)
    return out


def _with_strides(out, strides):
    if out.strides == strides:
        return out
    return xp.lib.stride_tricks.as_strided(out, out.shape, strides)


def _reshaped_view(input, shape):
    """``input.reshape(shape)`` sharing its memory, with torch's strides for size-1 dims
    (Note [Strides of size-1 dims])."""
    return _torch_view(input.reshape(shape), input)


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
    return _torch_view(out, input)


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
    return _reshaped_view(input, shape)


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
    require_tensor("view_as", "other", 1, other)  # a method: no boundary names a number
    return view(input, other._data.shape)


@export
def reshape_as(input, other) -> Tensor:
    require_tensor("reshape_as", "other", 1, other)  # a method: no boundary names a number
    return reshape(input, other._data.shape)


@export
@composite("aten::flatten")
def flatten(input, start_dim=0, end_dim=-1) -> Tensor:
    """Merge dims ``start_dim``..``end_dim`` into one."""
    if end_dim.__class__ is not int:  # both kinds are checked before either range
        end_dim = int_argument(end_dim, "end_dim", "flatten")
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
    if not isinstance(sizes, (tuple, list)):
        raise TypeError(
            f"unflatten(): argument 'sizes' (position 2) must be tuple of ints, not "
            f"{type(sizes).__name__}"
        )
    sizes = shape_arg((sizes,), "unflatten") if sizes else ()
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if -1 not in sizes and math.prod(sizes) != shape[dim]:
        raise RuntimeError(
            f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim "
            f"{dim} ({shape[dim]}) in the input tensor"
        )
    try:
        sizes = infer_shape(sizes, shape[dim])
    except RuntimeError as error:
        if "is invalid for input of size" in str(error):  # one -1 that cannot be filled
            raise RuntimeError(
                f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim "
                f"{dim} ({shape[dim]}) in the input tensor"
            ) from None
        raise RuntimeError(f"unflatten got an unexpected error:\n{error}") from None
    return view(input, shape[:dim] + sizes + shape[dim + 1 :])


def _unsqueeze_to(grad, input_shape, dims=None):
    """torch's unsqueeze_to: an unsqueeze for each size-1 dim (of ``dims``) in order, so
    double backward records torch's UnsqueezeBackward0 nodes (none where nothing was
    squeezed)."""
    for d, size in enumerate(input_shape):
        if size == 1 and (dims is None or d in dims):
            grad = grad.unsqueeze(d)
    return grad


@defop(
    batch=batch_rules.squeeze_all,
    name="squeeze_all",
    aten="squeeze",
    node="SqueezeBackward0",
    view=True,
    input=lambda grad, input_shape: _unsqueeze_to(grad, input_shape),
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
    input=lambda grad, input_shape, dims: _unsqueeze_to(grad, input_shape, dims),
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
        dims = tuple(_wrap_dim(d, input.ndim) for d in dim)
        repeated = [d for d in dims if dims.count(d) > 1]
        if repeated:
            raise RuntimeError(f"dim {repeated[0]} appears multiple times in the list of dims")
        return _squeeze_dims(input, dims)
    return _squeeze_dim(input, _wrap_dim(dim, input.ndim))


@defop(
    batch=batch_rules.unsqueeze,
    name="unsqueeze",
    view=True,
    input=lambda grad, dim: _squeeze_dim(grad, dim),  # an op call: it runs on arrays too
    jvp=_reshape_jvp,
)
def _unsqueeze(input, dim):
    out = xp.expand_dims(input, dim)
    if input.flags.c_contiguous or not input.size:
        return out
    # torch's stride for the new dim: 1 at the end, else the span of the dim it precedes
    # (Note [Strides of size-1 dims])
    step = input.itemsize if dim == input.ndim else input.shape[dim] * input.strides[dim]
    return _with_strides(out, (*input.strides[:dim], step, *input.strides[dim:]))


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
    # torch's two overloads: an int each (a NumPy integer or 0-d tensor counts as one), or a
    # sequence each; a mix matches neither
    one = not isinstance(source, (list, tuple))
    if one == isinstance(destination, (list, tuple)):
        raise TypeError(
            f"movedim(): source and destination must both be ints or both sequences of ints, "
            f"got {type(source).__name__} and {type(destination).__name__}"
        )
    src = [source] if one else list(source)
    dst = [destination] if one else list(destination)
    if len(src) != len(dst):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({list(src)} dims) should "
            f"contain the same number of dims as destination ({list(dst)} dims)"
        )
    given = (src, dst)
    src = [_wrap_dim(d, input.ndim) for d in src]
    dst = [_wrap_dim(d, input.ndim) for d in dst]
    for what, dims, original in (("source", src, given[0]), ("destination", dst, given[1])):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{what}` ({list(original)})")
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
    input=lambda grad, dim0, dim1: _transpose(grad, dim0, dim1),  # runs on arrays too
    jvp=_transpose_jvp,
)
def _transpose(input, dim0, dim1):
    return xp.swapaxes(input, dim0, dim1) if input.ndim else input.view()


@export
def transpose(input, dim0, dim1) -> Tensor:
    """Swap two dims."""
    if dim1.__class__ is not int:  # both kinds are checked before either range
        dim1 = int_argument(dim1, "dim1", "transpose")
    return _transpose(input, _wrap_dim(dim0, input.ndim), _wrap_dim(dim1, input.ndim))


swapaxes = export(transpose, name="swapaxes")
swapdims = export(transpose, name="swapdims")


@defop(
    batch=batch_rules.transpose_last,
    name="t",
    view=True,
    input=lambda grad: _t(grad),  # a call, not a method: it runs on arrays too
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


def _reversed_dims(self) -> Tensor:
    if self.ndim != 2:  # deprecated in torch, which warns once per process for each case
        if self.ndim == 0:
            warn_once(
                "Tensor.T is deprecated on 0-D tensors. This function is the identity in these "
                "cases.",
                stacklevel=2,
            )
        else:
            warn_once(
                "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
                "deprecated and it will throw an error in a future release. Consider `x.mT` to "
                "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` "
                "to reverse the dimensions of a tensor.",
                stacklevel=2,
            )
    return _permute(self, tuple(range(self.ndim - 1, -1, -1)))


Tensor.T = property(_reversed_dims, doc="The tensor with its dims reversed.")


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
    require_tensor("expand_as", "other", 1, other)  # a method: no boundary names a number
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

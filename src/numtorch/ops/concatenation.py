"""cat and stack, and their inverses split, chunk and unbind."""

from __future__ import annotations

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim
from .._creation import zeros
from .._runtime import typename
from ..autograd.forward_grad import batch_shift, batched
from ..backend import xp
from .overload_names import overload_names
from .shape import _tangents_or_zeros
from .sparse import sparse_cat


@batched
def _stack_jvp(tensors_t, tensors, dim, dtype):
    tangents, shift = _tangents_or_zeros(tensors_t, tensors)
    return _stack(tangents, dim % (tensors[0].ndim + 1) + shift, dtype)


@batched
def _cat_jvp(tensors_t, tensors, dim, dtype, keep):
    tangents, shift = _tangents_or_zeros(tensors_t, tensors)
    return _cat(tangents, dim + shift, dtype, keep)


# -- joining and splitting -------------------------------------------------------------------
def _split_grads(grad, tensors_shape, dim, keep):
    # torch narrows the gradient for each input (SliceBackward0 in a create_graph gradient);
    # a skipped 1-D empty input still gets its (empty) gradient, as in torch
    parts, start = [], 0
    for shape, kept in zip(tensors_shape, keep):
        if kept:
            parts.append(grad.narrow(dim, start, shape[dim]))
            start += shape[dim]
        else:
            parts.append(grad.new_zeros(shape))
    return parts


@defop(
    batch=batch_rules.joined,
    name="cat",
    schema_args=2,  # cat(tensors, dim)
    lists=("tensors",),
    tensors=lambda grad, tensors_shape, dim, keep: _split_grads(grad, tensors_shape, dim, keep),
    jvp=_cat_jvp,
)
def _cat(tensors, dim, dtype, keep):
    # torch's cat writes a new row-major tensor (channels_last inputs aside, which numtorch
    # does not model); NumPy's follows its inputs' memory order
    joined = xp.concatenate([t for t, k in zip(tensors, keep) if k], axis=dim, dtype=dtype)
    return xp.ascontiguousarray(joined)


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
    # (torch selects each input's slice: SelectBackward0 in a create_graph gradient)
    tensors=lambda grad, dim: tuple(grad.select(dim, i) for i in range(grad.shape[dim])),
    jvp=_stack_jvp,
)
def _stack(tensors, dim, dtype):
    if len(tensors) == 1:  # (one copy; np.stack's list handling takes twice as long here)
        a = tensors[0]
        return a.reshape(a.shape[:dim] + (1,) + a.shape[dim:]).astype(dtype, order="C")
    return xp.ascontiguousarray(xp.stack(tensors, axis=dim, dtype=dtype))  # (as cat's)


@export(method=False)
def stack(tensors, dim=0) -> Tensor:
    """Join equally shaped tensors along a new dim."""
    _check_cat(tensors, "stack")
    shape = tensors[0]._data.shape
    dim = _wrap_dim(dim, len(shape) + 1)  # torch checks the dim before the shapes
    for i, t in enumerate(tensors):
        if t._data.shape != shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got "
                f"{list(shape)} at entry 0 and {list(t._data.shape)} at entry {i}"
            )
    dt = _dtypes.result_type(*tensors) if len(tensors) > 1 else tensors[0].dtype
    return _stack(list(tensors), dim, dt.np)


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
@overload_names(tensor="input", split_size="split_size_or_sections")  # torch.split, Tensor.split
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

"""numpy-style joins and splits (atleast_*, column_stack, dstack, hsplit, ...), ravel,
narrow_copy and repeat_interleave, composed from views, ``cat`` and ``index_select`` as
torch composes them (so their grad_fn names match)."""

from __future__ import annotations

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim
from ..autograd.forward_grad import batch_shift, batched
from ..backend import xp
from .concatenation import _check_cat, _split_with_sizes, cat
from .copies import _clone_contiguous
from .gather_scatter import index_select
from .indexing import _slice_backward, check_narrow_start, narrow_slice
from .overload_names import overload_names
from .sorting import sort
from .sparse import SparseTensor, sparse_narrow_copy


# -- at least n dims -------------------------------------------------------------------------
def _at_least(tensors, grow):
    if len(tensors) == 1 and isinstance(tensors[0], Tensor):
        return grow(tensors[0])
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    return tuple(grow(t) for t in tensors)


def _1d(t):
    return t.reshape(1) if t.ndim == 0 else t


def _2d(t):
    return t.reshape(1, 1) if t.ndim == 0 else t.unsqueeze(0) if t.ndim == 1 else t


def _3d(t):
    if t.ndim == 0:
        return t.reshape(1, 1, 1)
    if t.ndim == 1:
        return t.unsqueeze(0).unsqueeze(-1)
    return t.unsqueeze(-1) if t.ndim == 2 else t


@export(method=False)
def atleast_1d(*tensors):
    """Each tensor viewed with at least one dim (a tuple for several tensors).

    Example:
        >>> import numtorch as torch
        >>> torch.atleast_1d(torch.tensor(1.5))
        tensor([1.5000])
    """
    return _at_least(tensors, _1d)


@export(method=False)
def atleast_2d(*tensors):
    """Each tensor viewed with at least two dims (1-D gets a leading dim)."""
    return _at_least(tensors, _2d)


@export(method=False)
def atleast_3d(*tensors):
    """Each tensor viewed with at least three dims (1-D: ``(1, n, 1)``; 2-D: ``(m, n, 1)``)."""
    return _at_least(tensors, _3d)


# -- stacking --------------------------------------------------------------------------------
@export(method=False)
def column_stack(tensors) -> Tensor:
    """Join as columns: 0-D and 1-D tensors become columns, others join along dim 1.

    Example:
        >>> import numtorch as torch
        >>> torch.column_stack([torch.tensor([1, 2]), torch.tensor([3, 4])])
        tensor([[1, 3],
                [2, 4]])
    """
    _check_cat(tensors, "column_stack")
    return cat([t.reshape(t.numel(), 1) if t.ndim <= 1 else t for t in tensors], 1)


@export(method=False)
def dstack(tensors) -> Tensor:
    """Join along the third dim, after ``atleast_3d``."""
    _check_cat(tensors, "dstack")
    return cat([_3d(t) for t in tensors], 2)


@export(method=False)
def hstack(tensors) -> Tensor:
    """Join along dim 1 (dim 0 when the tensors are 1-D), after ``atleast_1d``."""
    _check_cat(tensors, "hstack")
    tensors = [_1d(t) for t in tensors]
    return cat(tensors, 0 if tensors[0].ndim == 1 else 1)


@export(method=False)
def vstack(tensors) -> Tensor:
    """Join along dim 0, after ``atleast_2d``."""
    _check_cat(tensors, "vstack")
    return cat([_2d(t) for t in tensors], 0)


row_stack = export(vstack, name="row_stack", method=False)


# -- splitting -------------------------------------------------------------------------------
@export
@overload_names(
    sections="indices_or_sections",
    indices="indices_or_sections",
    tensor_indices_or_sections="indices_or_sections",
)
def tensor_split(input, indices_or_sections, dim=0):
    """Split into ``n`` nearly equal parts (int) or at the given indices (list or tensor),
    each a slice of ``input``.

    Example:
        >>> import numtorch as torch
        >>> [t.tolist() for t in torch.arange(5).tensor_split(2)]
        [[0, 1, 2], [3, 4]]
    """
    if input.ndim == 0:
        raise RuntimeError(
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"
        )
    sections = indices_or_sections
    if isinstance(sections, Tensor):
        if sections._data.dtype.kind not in "iu":
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to have integral dtype, but "
                f"got {sections.dtype.scalar_name}"
            )
        if sections.ndim > 1:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                f"one-dimensional tensor, but got a tensor with {sections.ndim} dims"
            )
        sections = sections.item() if sections.ndim == 0 else sections.tolist()
    dim = _wrap_dim(dim, input.ndim)
    n = input.shape[dim]
    if isinstance(sections, int):
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        sizes = [n // sections + (1 if i < n % sections else 0) for i in range(sections)]
        bounds = [sum(sizes[:i]) for i in range(sections + 1)]
    else:
        bounds = [0, *sections, n]
    # Each part is input[start:end] with slice rules: a negative index counts from the end
    # and an end before its start gives an empty part.
    return tuple(narrow_slice(input, dim, start, end) for start, end in zip(bounds, bounds[1:]))


def _directional_split(input, sections, dim, name, min_dims):
    if input.ndim < min_dims:
        raise RuntimeError(
            f"torch.{name} requires a tensor with at least {min_dims} dimension, but got a "
            f"tensor with {input.ndim} dimensions!"
        )
    if isinstance(sections, int) and (sections == 0 or input.shape[dim] % sections):
        raise RuntimeError(
            f"torch.{name} attempted to split along dimension {dim}, but the size of the "
            f"dimension {input.shape[dim]} is not divisible by the split_size {sections}!"
        )
    return tensor_split(input, sections, dim)


@export
@overload_names(sections="indices_or_sections", indices="indices_or_sections")
def hsplit(input, indices_or_sections):
    """Split along dim 1 (dim 0 for 1-D tensors)."""
    dim = 0 if input.ndim == 1 else 1
    return _directional_split(input, indices_or_sections, dim, "hsplit", 1)


@export
@overload_names(sections="indices_or_sections", indices="indices_or_sections")
def vsplit(input, indices_or_sections):
    """Split along dim 0 (at least 2-D)."""
    return _directional_split(input, indices_or_sections, 0, "vsplit", 2)


@export
@overload_names(sections="indices_or_sections", indices="indices_or_sections")
def dsplit(input, indices_or_sections):
    """Split along dim 2 (at least 3-D)."""
    return _directional_split(input, indices_or_sections, 2, "dsplit", 3)


@export
def split_with_sizes(input, split_sizes, dim=0):
    """Split into parts of the given sizes along ``dim`` (they must sum to its length)."""
    return _split_with_sizes(input, tuple(split_sizes), _wrap_dim(dim, input.ndim))


# -- copies ----------------------------------------------------------------------------------
@export
def ravel(input) -> Tensor:
    """The elements as a 1-D tensor (a view of a contiguous copy when ``input`` is not)."""
    return input.contiguous().view(-1)


@export
def msort(input) -> Tensor:
    """Sorted along dim 0."""
    return sort(input, 0)[0]


@defop(
    batch=batch_rules.along("dim"),
    name="narrow_copy",
    input=lambda grad, input_shape, dim, start, length: _slice_backward(
        grad, input_shape, dim, start, start + length, 1
    ),
    jvp=batched(
        lambda input_t, input, dim, start, length: _narrow_copy(
            input_t, dim + batch_shift(input_t, input), start, length
        )
    ),
)
def _narrow_copy(input, dim, start, length):
    return input[(slice(None),) * dim + (slice(start, start + length),)].copy()


@export
def narrow_copy(input, dim, start, length) -> Tensor:
    """A copy of ``input.narrow(dim, start, length)``."""
    if not -input.ndim <= dim < input.ndim:  # torch checks this one in C++ (RuntimeError)
        raise RuntimeError(f"narrow_copy(): dim {dim} out of range for a {input.ndim}-D tensor")
    if isinstance(input, SparseTensor):
        return sparse_narrow_copy(input, dim, start, length, narrow_copy, index_select)
    dim = _wrap_dim(dim, input.ndim)
    size = input.shape[dim]
    start = check_narrow_start(start, size)
    if length < 0 or start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return _narrow_copy(input, dim, start, length)


# -- repeat_interleave -----------------------------------------------------------------------
def _repeat_indices(repeats: Tensor) -> Tensor:
    data = repeats._data
    if data.dtype.kind not in "iu":
        name = _dtypes.from_numpy_dtype(data.dtype).scalar_name
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{name}'")
    if data.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if (data < 0).any():
        raise RuntimeError("repeats can not be negative")
    return Tensor._make(xp.repeat(xp.arange(data.shape[0]), data).astype(data.dtype))


@export
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None) -> Tensor:
    """Repeat each element (or each slice along ``dim``) ``repeats`` times; with only a
    tensor of counts, the indices ``i`` repeated ``counts[i]`` times.

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([1, 2]).repeat_interleave(torch.tensor([2, 1]))
        tensor([1, 1, 2])
    """
    if repeats is None:
        out = _repeat_indices(input)
    elif isinstance(repeats, Tensor) and repeats.numel() != 1:
        if repeats.ndim > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        if dim is None:
            input, dim = input.reshape(-1), 0
        dim = _wrap_dim(dim, input.ndim)
        if repeats.shape[0] != input.shape[dim]:
            raise RuntimeError(
                "repeats must have the same size as input along dim, but got "
                f"repeats.size(0) = {repeats.shape[0]} and input.size({dim}) = "
                f"{input.shape[dim]}"
            )
        out = input.index_select(dim, _repeat_indices(repeats))
    else:
        count = int(repeats.item() if isinstance(repeats, Tensor) else repeats)
        if count < 0:
            raise RuntimeError("Repeats must be non-negative")
        if dim is None:
            input, dim = input.reshape(-1), 0
        dim = _wrap_dim(dim, max(input.ndim, 1))
        if isinstance(repeats, Tensor):  # a one-element tensor broadcasts as counts
            counts = Tensor._make(xp.full(input.shape[dim] if input.ndim else 1, count))
            out = input.index_select(dim, _repeat_indices(counts))
        else:
            # torch expands a new dim and flattens a contiguous copy: a view of that copy,
            # a copy even where the expand is already contiguous (one repeat, no elements)
            if input.ndim == 0:
                input = input.reshape(1)
            shape = list(input.shape)
            expanded = input.unsqueeze(dim + 1).expand(*shape[: dim + 1], count, *shape[dim + 1 :])
            shape[dim] *= count
            out = _clone_contiguous(expanded).view(shape)
    if output_size is not None and out.shape[dim if dim is not None else 0] != output_size:
        raise RuntimeError("allocated size does not match required size")
    return out

"""Indexed reads and writes beyond ``indexing.py``: take_along_dim, index_fill, index_copy,
masked_scatter, and ``where(condition)`` (the indices where a condition holds)."""

from __future__ import annotations

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.dispatch import broadcast_shape, fill_scalar
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim
from .._creation import zeros
from ..autograd.forward_grad import batch_shift, batched
from ..backend import layout, xp
from .concatenation import cat, stack
from .gather_scatter import lift_0d
from .masks import nonzero
from .pointwise import where as _where_op


def _lead(dim):
    return (slice(None),) * dim


# -- take_along_dim (composite: gather on broadcast operands) --------------------------------
@export
def take_along_dim(input, indices, dim=None) -> Tensor:
    """Values of ``input`` at ``indices`` along ``dim`` (both broadcast against each other
    elsewhere); with no ``dim``, at flat indices.

    Example:
        >>> import numtorch as torch
        >>> x = torch.tensor([[10, 30, 20], [60, 40, 50]])
        >>> torch.take_along_dim(x, x.argmax(1, keepdim=True), dim=1)
        tensor([[30],
                [60]])
    """
    if indices._data.dtype != xp.int64:
        raise RuntimeError(
            "torch.take_along_dim(): dtype of indices should be Long but got "
            f"{indices.dtype.scalar_name}"
        )
    if dim is None:
        # torch flattens both with view(-1): a tensor whose strides cannot be flattened
        # without a copy (a transpose, an expanded tensor) raises its view error
        return input.view(-1).gather(0, indices.view(-1))
    if input.ndim != indices.ndim:
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of "
            f"dimensions, but got {input.ndim} dimensions for input, and {indices.ndim} "
            "dimensions for indices"
        )
    dim = _wrap_dim(dim, input.ndim)
    sizes = list(input.shape)
    sizes[dim] = indices.shape[dim]
    index_shape = broadcast_shape(tuple(sizes), indices.shape)
    sizes = list(indices.shape)
    sizes[dim] = input.shape[dim]
    input_shape = broadcast_shape(tuple(sizes), input.shape)
    if indices.shape != index_shape:
        indices = indices.expand(index_shape)
    if input.shape != input_shape:
        input = input.expand(input_shape)
    return input.gather(dim, indices)


# -- index_fill and index_copy ---------------------------------------------------------------
def _check_index(index, name):
    if index._data.dtype != xp.int64:
        raise IndexError(f"{name}(): Expected dtype int64 for index.")
    if index.ndim > 1:
        raise IndexError(f"{name}(): Index is supposed to be a vector")


# Forward derivatives (linear in input, and in value or source): the same op on the tangents
# along ``dim`` past a leading batch of them; the 0-d cases and a batch of values go row by row
def _rows(fn, tangents):
    return stack([fn(*row) for row in zip(*tangents)])


def _batch_of(tangent, primal) -> tuple:
    return tuple(tangent.shape[: batch_shift(tangent, primal)])


@batched
def _index_fill_jvp(input_t, input, dim, index):
    # the filled value is a constant: its places get a zero tangent
    if batch_shift(input_t, input) and input.ndim == 0:
        return _rows(lambda t: _index_fill(t, dim, index, 0), [input_t])
    return _index_fill(input_t, dim + batch_shift(input_t, input), index, 0)


@batched
def _index_fill_tensor_jvp(input_t, value_t, input, dim, index, value):
    lead = _batch_of(input_t, input) if input_t is not None else _batch_of(value_t, value)
    input_t = zeros(lead + tuple(input.shape), dtype=input.dtype) if input_t is None else input_t
    if not lead:
        return _index_fill_tensor(input_t, dim, index, 0.0 if value_t is None else value_t)
    if value_t is not None or input.ndim == 0:
        values = value_t if value_t is not None else zeros(lead, dtype=input.dtype)
        return _rows(lambda t, v: _index_fill_tensor(t, dim, index, v), [input_t, values])
    return _index_fill_tensor(input_t, dim + len(lead), index, 0.0)


@batched
def _index_copy_jvp(input_t, source_t, input, dim, index, source):
    lead = _batch_of(input_t, input) if input_t is not None else _batch_of(source_t, source)
    input_t = zeros(lead + tuple(input.shape), dtype=input.dtype) if input_t is None else input_t
    source_t = (
        zeros(lead + tuple(source.shape), dtype=source.dtype) if source_t is None else source_t
    )
    if lead and (input.ndim == 0 or source.ndim != input.ndim):
        return _rows(lambda t, s: _index_copy(t, dim, index, s), [input_t, source_t])
    return _index_copy(input_t, dim + len(lead), index, source_t)


def _check_bounds(index, input, dim, prefix, allow_negative):
    """torch checks every index against the dim's size before writing (index_copy_ refuses
    negative ones, index_fill_ wraps them)."""
    size = input.shape[dim] if input.ndim else 1
    values = index._data.reshape(-1)
    low = -size if allow_negative else 0
    bad = values[(values < low) | (values >= size)]
    if bad.size:
        raise IndexError(
            f"{prefix}index {int(bad[0])} is out of bounds for dimension {dim} with size {size}"
        )


@defop(
    batch=batch_rules.unbatched_index("index"),
    name="index_fill",
    input=lambda grad, dim, index: grad.index_fill(dim, index, 0.0),
    jvp=_index_fill_jvp,
)
def _index_fill(input, dim, index, value):
    shape = input.shape
    input, index = lift_0d(input, index)
    out = layout.copy(input)  # torch fills a clone in the input's layout
    out[_lead(dim) + (index,)] = fill_scalar(value, out.dtype)
    return out.reshape(shape)


@defop(
    batch=batch_rules.unbatched_index("index", "value"),
    name="index_fill_tensor",
    node="IndexFillBackward1",
    input=lambda grad, dim, index: grad.index_fill(dim, index, 0.0),
    value=lambda grad, dim, index: grad.index_select(dim, index).sum(),
    jvp=_index_fill_tensor_jvp,
)
def _index_fill_tensor(input, dim, index, value):
    shape = input.shape
    input, index = lift_0d(input, index)
    out = layout.copy(input)  # torch fills a clone in the input's layout
    out[_lead(dim) + (index,)] = value
    return out.reshape(shape)


@export(inplace=True)
def index_fill(input, dim, index, value) -> Tensor:
    """Copy of ``input`` with the slices at ``index`` along ``dim`` set to ``value`` (a
    number or a 0-D tensor).

    Example:
        >>> import numtorch as torch
        >>> torch.zeros(2, 3).index_fill(1, torch.tensor([0, 2]), 1.0)
        tensor([[1., 0., 1.],
                [1., 0., 1.]])
    """
    if isinstance(value, Tensor) and value.ndim:  # torch's first check, before the index's
        raise RuntimeError(
            "index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{value.ndim} dimension(s)."
        )
    _check_index(index, "index_fill_")
    dim = _wrap_dim(dim, max(input.ndim, 1))
    _refuse_empty_dim(input, dim, index, "index_fill_")
    _check_bounds(index, input, dim, "", allow_negative=True)
    if isinstance(value, Tensor):
        return _index_fill_tensor(input, dim, index, value.to(input.dtype))
    return _index_fill(input, dim, index, value)


@defop(
    batch=batch_rules.unbatched_index("index"),
    name="index_copy",
    input=lambda grad, dim, index: grad.index_fill(dim, index, 0.0),
    # a 0-d input's slice is read back 0-d; a 1-D source of it takes the grad as its shape
    source=lambda grad, dim, index, source: grad.index_select(dim, index).reshape(source.shape),
    jvp=_index_copy_jvp,
)
def _index_copy(input, dim, index, source):
    shape = input.shape
    input, index, source = lift_0d(input, index, source)
    out = input.copy()
    out[_lead(dim) + (index,)] = source
    return out.reshape(shape)


@export(inplace=True)
def index_copy(input, dim, index, source) -> Tensor:
    """Copy of ``input`` with slice ``i`` of ``source`` written at ``index[i]`` along
    ``dim``.

    Example:
        >>> import numtorch as torch
        >>> torch.zeros(3).index_copy(0, torch.tensor([2, 0]), torch.tensor([5.0, 7.0]))
        tensor([7., 0., 5.])
    """
    # torch's order of checks: dim, the index's rank, the shapes, then the dtypes
    dim = _wrap_dim(dim, max(input.ndim, 1))
    if index.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.ndim})")
    if source.ndim == 0 and index.numel() != 1:
        raise IndexError(
            "index_copy_(): When source is scalar, index should have one element (got "
            f"{index.numel()})"
        )
    if source.ndim and input.ndim and source.ndim != input.ndim:
        raise IndexError(
            "index_copy_(): When source and destination are not scalars, their dimensionality "
            f"must match. Source dimensionality ({source.ndim}), destination dimensionality "
            f"({input.ndim})"
        )
    if index._data.dtype != xp.int64:
        raise RuntimeError(
            f"index_copy_(): Expected a long tensor for index, but got {index.dtype.scalar_name}"
        )
    if input._data.dtype != source._data.dtype:
        raise RuntimeError(
            "index_copy_(): self and source expected to have the same dtype, but got (self) "
            f"{input.dtype.scalar_name} and (source) {source.dtype.scalar_name}"
        )
    # the slices (shapes without dim) must agree, then the index count
    dest_slice = [s for d, s in enumerate(input.shape) if d != dim]
    source_slice = [s for d, s in enumerate(source.shape) if d != dim]
    if dest_slice != source_slice:  # a 0-d source has no slice: only a 0-d or 1-D input fits
        raise RuntimeError(
            "index_copy_(): Source/destination tensor must have same slice shapes. "
            f"Destination slice shape: {' '.join(map(str, dest_slice))} at dimension {dim} and "
            f"source slice shape: {' '.join(map(str, source_slice))} at dimension 0."
        )
    n = index.numel()
    length = source.shape[dim] if source.ndim else 1
    if n != length:
        raise IndexError(
            f"index_copy_(): Number of indices ({n}) should be equal to source.size(dim) ({length})"
        )
    if index.ndim == 0 and source.ndim:
        # a 0-d index names one slice that source still has as a length-1 dim
        index = index.reshape(1)
    _refuse_empty_dim(input, dim, index, "index_copy_")
    _check_bounds(index, input, dim, "index_copy_(): ", allow_negative=False)
    return _index_copy(input, dim, index, source)


def _refuse_empty_dim(input, dim, index, name) -> None:
    # torch's index_fill_/index_copy_ kernels restride the input to one slice along dim
    # before any bound check: along a dim of size 0 that fails with a RuntimeError
    if index.numel() and (input.shape[dim] if input.ndim else 1) == 0:
        raise RuntimeError(
            f"{name}(): cannot index dimension {dim} of size 0 of a tensor of shape "
            f"{list(input.shape)} (torch's setStorage: out of bounds for storage of size 0)"
        )


# -- masked_scatter --------------------------------------------------------------------------
def _masked_scatter_source(grad, mask, source_shape):
    selected = grad.masked_select(mask)
    total = 1
    for s in source_shape:
        total *= s
    missing = total - selected.numel()
    if missing > 0:
        selected = cat([selected, zeros(missing, dtype=grad.dtype)])
    return selected.view(source_shape)


@defop(
    name="masked_scatter",
    input=lambda grad, mask: grad.masked_fill(mask, 0.0),
    source=lambda grad, mask, source_shape: _masked_scatter_source(grad, mask, source_shape),
    jvp="linear",
)
def _masked_scatter(input, mask, source):
    shape = broadcast_shape(input.shape, mask.shape)
    out = xp.array(xp.broadcast_to(input, shape), order="C")  # torch's contiguous clone
    full = xp.broadcast_to(mask, shape)
    out[full] = source.reshape(-1)[: int(full.sum())]
    return out


@export(inplace=True)
def masked_scatter(input, mask, source) -> Tensor:
    """Copy of ``input`` with the elements of ``source``, in order, written where ``mask``
    is True.

    Example:
        >>> import numtorch as torch
        >>> mask = torch.tensor([True, False, True])
        >>> torch.zeros(3).masked_scatter(mask, torch.tensor([1.0, 2.0]))
        tensor([1., 0., 2.])
    """
    if mask._data.dtype != xp.bool_:
        raise RuntimeError(
            "masked_scatter_ only supports boolean masks, but got mask with dtype "
            f"{_dtypes.from_numpy_dtype(mask._data.dtype).name}"
        )
    if input._data.dtype != source._data.dtype:
        raise RuntimeError(
            "masked_scatter_: expected self and source to have same dtypes but got "
            f"{input.dtype.scalar_name} and {source.dtype.scalar_name}"
        )
    shape = broadcast_shape(input.shape, mask.shape)
    # under vmap the mask's values are not readable here; each sample is checked as it runs
    if not mask._batched and int(xp.broadcast_to(mask._data, shape).sum()) > source.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return _masked_scatter(input, mask, source)


# -- where: one argument gives indices -------------------------------------------------------
@export(method=False)
def where(condition, input=None, other=None):
    """``where(condition, input, other)`` picks ``input`` where ``condition`` holds, else
    ``other``; ``where(condition)`` gives the indices where it holds (one tensor per dim).

    Example:
        >>> import numtorch as torch
        >>> torch.where(torch.tensor([[0, 1], [1, 0]]))
        (tensor([0, 1]), tensor([1, 0]))
    """
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    return _where_op(condition, input, other)


def _tensor_where(self, condition, other) -> Tensor:
    """``self`` where ``condition`` holds, else ``other``."""
    return _where_op(condition, self, other)


Tensor.where = _tensor_where


# -- unravel_index ---------------------------------------------------------------------------
@export(method=False)
def unravel_index(indices, shape):
    """The coordinates in ``shape`` of flat ``indices``: one int64 tensor per dim
    (negative and out-of-range indices wrap, as torch's modular arithmetic gives).

    Example:
        >>> import numtorch as torch
        >>> torch.unravel_index(torch.tensor([4, 7]), (3, 4))
        (tensor([1, 1]), tensor([0, 3]))
    """
    if isinstance(shape, int):
        shape = (shape,)
    for dim in shape:
        if not isinstance(dim, int):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(dim)}")
    if indices._data.dtype.kind not in "iu":
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if any(dim < 0 for dim in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {tuple(shape)}")
    coefs = [1] * len(shape)
    for d in reversed(range(len(shape) - 1)):
        coefs[d] = coefs[d + 1] * shape[d + 1]
    flat = indices._data.astype(xp.int64)[..., None]
    with xp.errstate(divide="ignore"):
        coords = xp.floor_divide(flat, xp.array(coefs)) % xp.array(shape)
    return tuple(Tensor._make(coords[..., d]) for d in range(len(shape)))

"""Masks and flat indices: masked_fill, masked_select, take, nonzero and argwhere."""

from __future__ import annotations

from .._core import batch_rules, index_batch_rules, unsigned
from .._core.dispatch import broadcast_shape, fill_scalar, require_tensor
from .._core.meta import refuse_meta
from .._core.op import defop, export
from .._core.tensor import Tensor
from .._creation import zeros
from ..autograd.forward_grad import align, batch_shift, batched
from ..backend import layout, xp
from .indexing import _lead_shape
from .pointwise import where

# -- masks -----------------------------------------------------------------------------------
# torch names the mask's dtype by its C++ type here
_CPP_NAMES = {
    "int64": "long int",
    "int32": "int",
    "int16": "short int",
    "int8": "signed char",
    "uint8": "unsigned char",
    "float32": "float",
    "float64": "double",
    "float16": "c10::Half",
}


def _check_mask(mask, name):
    require_tensor(name.rstrip("_"), "mask", 2, mask)  # a NumPy mask is refused by type
    if mask._data.dtype != xp.bool_:
        dtype = mask._data.dtype.name
        raise RuntimeError(
            f"{name} only supports boolean masks, but got mask with dtype "
            f"{_CPP_NAMES.get(dtype, dtype)}"
        )


def _fill_masked(input, mask, value):
    # torch fills a contiguous clone of the (expanded) input, whatever the input's strides
    return layout.row_major(xp.where(mask, xp.asarray(value).astype(input.dtype), input))


@defop(
    batch=batch_rules.pointwise,
    name="masked_fill",
    scalars=("value",),
    input=lambda grad, mask: where(mask, 0.0, grad),
    jvp=batched(lambda input_t, mask: where(mask, 0.0, input_t)),
)
def _masked_fill(input, mask, value):
    if input.dtype.kind != "c":  # a number converts into a real input's type as a fill
        value = fill_scalar(value, input.dtype)
    return _fill_masked(input, mask, value)


@batched
def _masked_fill_tensor_jvp(input_t, value_t, input, mask, value, result):
    fill = 0.0 if value_t is None else align(value_t, value, result.ndim)
    return where(mask, fill, 0.0 if input_t is None else input_t)


@defop(
    batch=batch_rules.pointwise_into,
    name="masked_fill_tensor",
    node="MaskedFillBackward1",
    input=lambda grad, mask: where(mask, 0.0, grad),
    value=lambda grad, mask: where(mask, grad, 0.0).sum(),
    jvp=_masked_fill_tensor_jvp,
)
def _masked_fill_tensor(input, mask, value):
    return _fill_masked(input, mask, value)


@export(inplace=True)
def masked_fill(input, mask, value) -> Tensor:
    """Copy of ``input`` with ``value`` where ``mask`` is True."""
    _check_mask(mask, "masked_fill_")
    broadcast_shape(mask._data.shape, input._data.shape)
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(
                "masked_fill_ only supports a 0-dimensional value tensor, but got "
                f"tensor with {value.ndim} dimension(s)."
            )
        return _masked_fill_tensor(input, mask, value)
    return _masked_fill(input, mask, value)


def _masked_select_backward(grad, input_shape, mask):
    # the mask broadcasts against the input: index with its full-shape expansion
    shape = broadcast_shape(tuple(input_shape), mask.shape)
    return zeros(shape, dtype=grad.dtype).index_put((mask.expand(shape),), grad, accumulate=True)


@batched
def _masked_select_jvp(input_t, input, mask, result):
    if not batch_shift(input_t, input):
        return _masked_select(input_t, mask)
    shape = broadcast_shape(tuple(input.shape), tuple(mask.shape))
    rows = align(input_t, input, len(shape)).expand(_lead_shape(input_t, input, shape))
    return rows.reshape(rows.shape[0], -1)[:, mask.expand(shape).reshape(-1)]


@defop(
    name="masked_select",
    batch=batch_rules.masked_select,
    # torch saves the input itself (not only its shape): changing it in place fails backward
    input=lambda grad, input, mask: _masked_select_backward(grad, input.shape, mask),
    jvp=_masked_select_jvp,
)
def _masked_select(input, mask):
    shape = broadcast_shape(input.shape, mask.shape)
    return xp.broadcast_to(input, shape)[xp.broadcast_to(mask, shape)]


@export
def masked_select(input, mask) -> Tensor:
    _check_mask(mask, "masked_select")
    refuse_meta("masked_select", input, mask)
    return _masked_select(input, mask)


@batched
def _take_jvp(input_t, input, index):
    if not batch_shift(input_t, input):
        return _take(input_t, index)
    return input_t.reshape(input_t.shape[0], -1)[:, index]


@defop(
    batch=index_batch_rules.take,
    name="take",
    # the formula names ``input`` (not only its shape) because torch saves self here: an
    # in-place change of it before backward then raises, as in torch
    input=lambda grad, input, index: (
        zeros(input.shape, dtype=grad.dtype)
        .reshape(-1)
        .index_put((index.reshape(-1),), grad.reshape(-1), accumulate=True)
        .reshape(input.shape)
    ),
    jvp=_take_jvp,
)
def _take(input, index):
    return xp.take(input.reshape(-1), index)


@export
def take(input, index) -> Tensor:
    if index._data.dtype != xp.int64:
        raise RuntimeError(
            f"take(): Expected a long tensor for index, but got {index.dtype.scalar_name}"
        )
    return _take(input, index)


@export
def nonzero(input, *, as_tuple=False):
    """Indices of nonzero elements: an (n, ndim) tensor, or one tensor per dim."""
    refuse_meta("nonzero", input)
    unsigned.refuse("nonzero_count_cpu", input.dtype)
    found = xp.nonzero(input._data) if input.ndim else xp.nonzero(input._data.reshape(1))
    # torch's kernel writes the indices one dim after another: the (n, ndim) result is the
    # transpose of a row-major (ndim, n) block (strides (1, n)), and the tuple form's parts
    # are its rows (storage offsets 0, n, 2n, ...)
    block = xp.empty((len(found), found[0].size if found else 0), xp.int64)
    for row, indices in zip(block, found):
        row[...] = indices
    if as_tuple:
        return tuple(Tensor._make(row) for row in block)
    if not input.ndim:  # one row per nonzero (0 or 1), no columns
        return Tensor._make(xp.zeros((block.shape[1], 0), xp.int64))
    return Tensor._make(block.T)


@export
def argwhere(input) -> Tensor:
    return nonzero(input)

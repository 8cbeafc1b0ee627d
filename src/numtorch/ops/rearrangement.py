"""flip, repeat, tile and roll: elements rearranged into a new tensor."""

from __future__ import annotations

from .._core import batch_rules
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim
from .._creation import keyword_size, shape_arg
from ..backend import xp


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
    if not order and dims is None:  # dims has no default in torch
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
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
    # torch's kernel writes a row-major result; NumPy's roll keeps the input's memory order
    return xp.asarray(xp.roll(input, shifts, dims), order="C")


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

"""Padding: ``constant_pad_nd`` (grad_fn ``ConstantPadNdBackward0``) and the reflect,
replicate and circular modes of ``F.pad``.

Negative pads crop, as in torch. The adjoint of padding by ``p`` is padding by ``-p``, so the
derivative of ``constant_pad_nd`` is ``constant_pad_nd`` again (double backward for free).
The other modes gather with an index array per padded dim; their backward is the indexing
op's scatter-add, which accumulates the edge elements that were copied several times.
"""

from __future__ import annotations

from ..._tensor import Tensor
from ...backend import xp
from ..registry import defop, export


def _pairs(pad, ndim):
    """F.pad's flat (left, right) list, last dim first -> {dim: (left, right)}."""
    return {ndim - 1 - i: (pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)}


@defop(
    name="constant_pad_nd",
    node="ConstantPadNdBackward0",
    input=lambda grad, pad: constant_pad_nd_op(grad, tuple(-p for p in pad), 0),
)
def constant_pad_nd_op(input, pad, value=0):
    pairs = _pairs(pad, input.ndim)
    shape = list(input.shape)
    source, target = [slice(None)] * input.ndim, [slice(None)] * input.ndim
    for dim, (left, right) in pairs.items():
        size = input.shape[dim]
        shape[dim] = size + left + right
        if shape[dim] < 0:
            raise RuntimeError(
                f"The input size {size}, plus negative padding {left} and {right} resulted in a "
                f"negative output size, which is invalid. Check dimension {dim} of your input."
            )
        source[dim] = slice(max(-left, 0), size - max(-right, 0))
        target[dim] = slice(max(left, 0), shape[dim] - max(right, 0))
    out = xp.full(shape, value, dtype=input.dtype)
    out[tuple(target)] = input[tuple(source)]
    return out


@export(method=False)
def constant_pad_nd(input, pad, value=0) -> Tensor:
    """Pad (or crop, with negative values) with ``value``; ``pad`` lists (left, right) pairs
    from the last dim backwards."""
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2:
        raise RuntimeError("Length of pad must be even but instead it equals " + str(len(pad)))
    if len(pad) // 2 > input.ndim:
        raise RuntimeError(
            f"Length of pad should be no more than twice the number of dimensions of the input. "
            f"Pad length is {len(pad)} while the input has {input.ndim} dimensions."
        )
    return constant_pad_nd_op(input, pad, value)


def _mode_index(size: int, left: int, right: int, mode: str):
    positions = xp.arange(-left, size + right)
    if mode == "reflect":
        if left >= size or right >= size:
            raise RuntimeError(
                f"Argument #4: Padding size should be less than the corresponding input "
                f"dimension, but got: padding ({left}, {right}) at dimension of input {size}"
            )
        period = 2 * (size - 1)
        positions = xp.abs(positions) % period if period else positions * 0
        return xp.where(positions >= size, period - positions, positions)
    if mode == "replicate":
        return xp.clip(positions, 0, size - 1)
    if left > size or right > size:
        raise RuntimeError("Padding value causes wrapping around more than once.")
    return positions % size  # circular


def mode_pad(input, pad, mode):
    """reflect / replicate / circular padding of the trailing ``len(pad) // 2`` dims."""
    dims = len(pad) // 2
    if input.ndim < dims + 1:
        raise NotImplementedError(
            f"Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now "
            f"(got {input.ndim}D input and pad of length {len(pad)})"
        )
    out = input
    for dim, (left, right) in _pairs(pad, input.ndim).items():
        index = _mode_index(input.shape[dim], left, right, mode)
        key = (slice(None),) * dim + (Tensor._make(index),)
        out = out[key]
    return out

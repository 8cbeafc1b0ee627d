"""channel_shuffle: interleave the channel groups of (N, C, *) inputs (ShuffleNet)."""

from __future__ import annotations

from ..._core.op import defop, export, not_implemented
from ..._core.tensor import Tensor
from ...autograd.forward_grad import no_forward_derivative
from ...backend import xp


# The backward shuffles with C // groups groups through the checked entry, as torch does: with
# zero channels that is zero groups, and backward raises torch's error for it.
@defop(
    name="channel_shuffle",
    input=lambda grad, groups: channel_shuffle(grad, grad.shape[1] // groups),
    jvp="linear",
)
def _channel_shuffle(input, groups):
    n, c = input.shape[:2]
    grouped = input.reshape((n, groups, c // groups) + input.shape[2:])
    return xp.ascontiguousarray(xp.swapaxes(grouped, 1, 2)).reshape(input.shape)


@export(method=False)
def channel_shuffle(input, groups) -> Tensor:
    """Split the channels into ``groups`` and interleave them: channel ``g * (C // groups) +
    k`` moves to ``k * groups + g``.

    Example:
        >>> import numtorch as torch
        >>> torch.channel_shuffle(torch.arange(4.0).reshape(1, 4, 1), 2).flatten()
        tensor([0., 2., 1., 3.])
    """
    if input.ndim <= 2:
        raise RuntimeError(
            f"channel_shuffle expects input with > 2 dims, but got input with sizes "
            f"{list(input.shape)}"
        )
    if groups <= 0:
        raise RuntimeError(
            f"Number of groups to divide channels in must be positive. Value of groups:{groups}"
        )
    c = input.shape[1]
    if c % groups:
        raise RuntimeError(
            f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups."
        )
    return _channel_shuffle(input, groups)


# torch registers no derivative for native_channel_shuffle: its node refuses backward
@defop(
    name="native_channel_shuffle",
    node="NotImplemented",
    input=not_implemented("native_channel_shuffle"),
    jvp=no_forward_derivative("native_channel_shuffle"),
)
def _native_channel_shuffle(input, groups):
    return _channel_shuffle.spec.forward(input, groups)


@export(method=False)
def native_channel_shuffle(input, groups) -> Tensor:
    """``channel_shuffle`` without a derivative (torch's kernel behind it)."""
    channel_shuffle(input.detach(), groups)  # torch's checks
    return _native_channel_shuffle(input, groups)

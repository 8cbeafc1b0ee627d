"""Max unpooling (grad_fn ``MaxUnpool2DBackward0`` / ``MaxUnpool3DBackward0``) and channel
shuffling (``ChannelShuffleBackward0``).

Unpooling writes each input value at the flat position (within its channel's output plane)
that max pooling's ``indices`` recorded, zeros elsewhere; its gradient gathers the output
gradient back from those positions. A channel shuffle is a permutation of channels, so its
gradient is the inverse shuffle.
"""

from __future__ import annotations

from ..._tensor import Tensor
from ...backend import xp
from ..registry import defop, export


def _unpool_grad(grad, indices, input_shape, output_size):
    lead = tuple(input_shape[: len(input_shape) - len(output_size)])
    flat_grad = grad.reshape(*lead, -1)
    flat_indices = indices.reshape(*lead, -1)
    return flat_grad.gather(len(lead), flat_indices).reshape(input_shape)


def _unpool_forward(input, indices, output_size):
    dims = len(output_size)
    lead = input.shape[: input.ndim - dims]
    plane = int(xp.prod(output_size))
    flat_indices = indices.reshape(*lead, -1)
    if flat_indices.size and (flat_indices.min() < 0 or flat_indices.max() >= plane):
        bad = flat_indices[(flat_indices < 0) | (flat_indices >= plane)][0]
        sizes = "x".join(str(s) for s in output_size)
        raise RuntimeError(
            f"Found an invalid max index: {bad} (output volumes are of size {sizes})"
        )
    out = xp.zeros((*lead, plane), input.dtype)
    xp.put_along_axis(out, flat_indices, input.reshape(*lead, -1), axis=len(lead))
    return out.reshape(*lead, *output_size)


def _register_unpool(dims: int):
    @defop(
        name=f"max_unpool{dims}d",
        node=f"MaxUnpool{dims}DBackward0",
        input=lambda grad, indices, input_shape, output_size: _unpool_grad(
            grad, indices, input_shape, output_size
        ),
    )
    def max_unpool(input, indices, output_size):
        return _unpool_forward(input, indices, tuple(output_size))

    return max_unpool


max_unpool2d_op = _register_unpool(2)
max_unpool3d_op = _register_unpool(3)


def _shuffle(x, groups):
    n, c = x.shape[:2]
    return x.reshape(n, groups, c // groups, *x.shape[2:]).swapaxes(1, 2).reshape(x.shape)


@defop(
    name="channel_shuffle",
    node="ChannelShuffleBackward0",
    input=lambda grad, input_shape, groups: channel_shuffle_op(grad, input_shape[1] // groups),
)
def channel_shuffle_op(input, groups):
    return _shuffle(input, groups)


@export(method=False)
def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Split the channels into ``groups`` groups and interleave them (ShuffleNet).

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
    if input.shape[1] % groups:
        raise RuntimeError(
            "Number of channels must be divisible by groups. Got "
            f"{input.shape[1]} channels and {groups} groups."
        )
    return channel_shuffle_op(input, groups)

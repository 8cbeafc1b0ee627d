"""Max unpooling (grad_fn ``MaxUnpool2DBackward0`` / ``MaxUnpool3DBackward0``).

Unpooling writes each input value at the flat position (within its channel's output plane)
that max pooling's ``indices`` recorded, zeros elsewhere; its gradient gathers the output
gradient back from those positions. A channel shuffle is a permutation of channels, so its
gradient is the inverse shuffle.
"""

from __future__ import annotations

from ..._core.kernel_dtypes import FLOATS, kernel
from ..._core.op import defop
from ...backend import xp


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
        dtypes=kernel(f"max_unpool{dims}d", FLOATS),  # (1-D runs as 2-D)
        input=lambda grad, indices, input_shape, output_size: _unpool_grad(
            grad, indices, input_shape, output_size
        ),
        jvp="linear",
    )
    def max_unpool(input, indices, output_size):
        return _unpool_forward(input, indices, tuple(output_size))

    return max_unpool


max_unpool2d_op = _register_unpool(2)
max_unpool3d_op = _register_unpool(3)

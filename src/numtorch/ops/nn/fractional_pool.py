"""Fractional max pooling (Graham, 2014): max over windows whose starts advance by a
pseudo-random mix of steps, fixed by one uniform sample per plane and spatial dim.

Window ``i`` of a dim starts at ``int((i + u) * alpha) - int(u * alpha)`` with
``alpha = (in - k) / (out - 1)``, computed in the input's float type as torch does, and the
last window ends at the input's edge. Indices are flat within each plane; a window's max
is its first largest value, or its last NaN.
"""

from __future__ import annotations

import math

from ..._core.op import defop
from ...autograd.forward_grad import batched
from ...backend import xp
from .activation import rowwise, zero_gradient
from .adaptive_pooling import _plane_gather, _plane_scatter

# which sample of a plane drives each spatial dim: (W, H) for 2-D, (T, H, W) for 3-D
_SAMPLE_OF_DIM = {2: (1, 0), 3: (0, 1, 2)}


def _starts(samples, size, out, kernel, dtype):
    """Window starts per plane: (N, C, out)."""
    u = samples.astype(dtype, copy=False)[..., None]
    starts = xp.empty(samples.shape + (out,), xp.int64)
    if out > 1:
        alpha = dtype.type(size - kernel) / dtype.type(out - 1)
        steps = xp.arange(out - 1).astype(dtype)
        starts[..., :-1] = ((steps + u) * alpha).astype(xp.int64) - (u * alpha).astype(xp.int64)
    if out > 0:
        starts[..., -1] = size - kernel
    return starts


def _fractional_max(input, kernel_size, output_size, samples):
    dims = len(kernel_size)
    n, c = input.shape[:2]
    spatial = input.shape[2:]
    dtype = input.dtype if input.dtype in (xp.float32, xp.float64) else xp.dtype(xp.float32)
    flat = xp.zeros((n, c) + (1,) * (2 * dims), xp.int64)
    for j, (size, out, k) in enumerate(zip(spatial, output_size, kernel_size)):
        starts = _starts(samples[:, :, _SAMPLE_OF_DIM[dims][j]], size, out, k, dtype)
        shape = [n, c] + [1] * (2 * dims)
        shape[2 + j] = out
        offsets = [1] * (2 * dims)
        offsets[dims + j] = k
        position = starts.reshape(shape) + xp.arange(k).reshape(offsets)
        flat = flat * size + position
    windows = flat.reshape((n, c) + tuple(output_size) + (math.prod(kernel_size),))
    values = _plane_gather(input, windows, dims)
    nan = xp.isnan(values) if values.dtype.kind == "f" else xp.zeros(values.shape, bool)
    last_nan = values.shape[-1] - 1 - xp.argmax(nan[..., ::-1], axis=-1)
    choice = xp.where(nan.any(-1), last_nan, xp.argmax(values, axis=-1))[..., None]
    picked = xp.take_along_axis(values, choice, -1)[..., 0]
    return picked, xp.take_along_axis(windows, choice, -1)[..., 0]


def _register(dims: int):
    node = f"FractionalMaxPool{dims}D"

    @batched
    def backward_jvp(grad_output_t, grad_output, input_shape, indices):
        # linear in grad_output; ``self`` is read for nothing but its edge
        return rowwise(backward, grad_output_t, grad_output, None, input_shape, indices)

    @defop(
        name=f"fractional_max_pool{dims}d_backward",
        schema_args=5,
        node=node + "BackwardBackward0",
        grad_output=lambda grad, input_shape, indices: gather(grad, input_shape, indices),
        self=zero_gradient,
        jvp=backward_jvp,
    )
    def backward(grad_output, self, input_shape, indices):
        return _plane_scatter(grad_output, indices, input_shape, dims)

    @defop(
        name=f"fractional_max_pool{dims}d_gather",
        aten="gather",
        schema_args=4,
        node=node + "Gather0",
        input=lambda grad, input_shape, indices: backward(grad, None, input_shape, indices),
        jvp="linear",
    )
    def gather(input, input_shape, indices):
        return _plane_gather(input, indices, dims)

    def forward_grad(input_t, input, result1):
        return gather(input_t, input.shape, result1), None

    @defop(
        name=f"fractional_max_pool{dims}d",
        node=node + "Backward0",
        outputs=2,
        input=lambda grad, input, result1: backward(grad, input, input.shape, result1),
        jvp=forward_grad,
    )
    def forward(input, kernel_size, output_size, random_samples):
        if input.ndim == dims + 1:  # unbatched (C, ...): one sample row
            values, indices = _fractional_max(
                input[None], tuple(kernel_size), tuple(output_size), random_samples[:1]
            )
            return values[0], indices[0]
        return _fractional_max(input, tuple(kernel_size), tuple(output_size), random_samples)

    return forward


fractional_max_pool2d_op = _register(2)
fractional_max_pool3d_op = _register(3)


def check_windows_fit(input_shape, kernel_size, output_size, name) -> None:
    """torch's check that every window fits: out + k - 1 <= in per spatial dim in 2-D; its
    3-D kernel asks for out + k - 1 < in (one window fewer), and so does this."""
    words = ("time", "height", "width")[3 - len(kernel_size) :]
    spatial = input_shape[-len(kernel_size) :]
    slack = 1 if len(kernel_size) == 3 else 0
    for word, size, out, k in zip(words, spatial, output_size, kernel_size):
        if out + k - 1 + slack > size:
            raise RuntimeError(
                f"{name}(): pool {word} {k} too large relative to input {word} {size}"
            )

"""Adaptive pooling ops: average and max over torch's adaptive windows (window i of an
output of size o over an input of size n spans [floor(i * n / o), ceil((i + 1) * n / o))).

Average pooling applies one averaging matrix per pooled dim (a window-by-window pass where
the input holds inf or NaN); max pooling keeps each window's first maximum, or its last NaN.
Each backward is an op whose derivative is the forward selection (or average) again.
"""

from __future__ import annotations

import itertools
import math

from ..._core import batch_rules, spatial_batch_rules
from ..._core.dtypes import from_numpy_dtype
from ..._core.op import defop
from ...autograd.forward_grad import batched
from ...backend import xp
from .activation import float_only, rowwise, zero_gradient


# -- adaptive average pooling ----------------------------------------------------------------
def _averaging_matrix(size: int, out: int, dtype):
    """(out, size) matrix whose row i averages torch's adaptive window i."""
    matrix = xp.zeros((out, size), dtype)
    for i in range(out):
        start = (i * size) // out
        end = -((-(i + 1) * size) // out)  # ceil
        matrix[i, start:end] = 1.0 / (end - start)
    return matrix


def _apply_matrices(x, matrices):
    """Multiply each of the last len(matrices) dims of x by its matrix (a separable map)."""
    dims = len(matrices)
    for d, matrix in enumerate(matrices):
        axis = x.ndim - dims + d
        moved = xp.moveaxis(x, axis, -1)
        x = xp.moveaxis(moved @ matrix.T, -1, axis)
    return xp.ascontiguousarray(x)


def _windows(size: int, out: int):
    return [((i * size) // out, -((-(i + 1) * size) // out)) for i in range(out)]


def _window_sum_may_overflow(x, output_size):
    """Whether a window's sum may pass the dtype's largest value: torch sums a window and
    then divides (the sum overflows to inf), where weights of 1/n would not."""
    if x.dtype.kind != "f" or not x.size:
        return False
    count = math.prod(
        -(-i // o) + 1 for i, o in zip(x.shape[-len(output_size) :], output_size) if o
    )
    return bool(xp.abs(x).max() * count >= xp.finfo(x.dtype).max)


def _window_means(x, output_size):
    """Adaptive averages window by window, as torch's kernel sums them: a non-finite value
    reaches only its own windows (a matrix product would spread 0 * inf = NaN to all)."""
    dims = len(output_size)
    axes = tuple(range(x.ndim - dims, x.ndim))
    out = xp.empty(x.shape[:-dims] + tuple(output_size), x.dtype)
    spans = [_windows(i, o) for i, o in zip(x.shape[-dims:], output_size)]
    for index in itertools.product(*(range(o) for o in output_size)):
        window = tuple(slice(*spans[d][i]) for d, i in enumerate(index))
        total = x[(Ellipsis,) + window].sum(axis=axes)
        for start, end in (spans[d][i] for d, i in enumerate(index)):
            total = total / (end - start)
        out[(Ellipsis,) + index] = total
    return out


def _window_gradients(grad_output, input_size):
    """The adjoint of ``_window_means``: each window gets its output's gradient over its size."""
    dims = len(input_size)
    output_size = grad_output.shape[-dims:]
    grad = xp.zeros(grad_output.shape[:-dims] + tuple(input_size), grad_output.dtype)
    spans = [_windows(i, o) for i, o in zip(input_size, output_size)]
    for index in itertools.product(*(range(o) for o in output_size)):
        window = tuple(slice(*spans[d][i]) for d, i in enumerate(index))
        share = grad_output[(Ellipsis,) + index]
        for start, end in (spans[d][i] for d, i in enumerate(index)):
            share = share / (end - start)
        grad[(Ellipsis,) + window] += share[(Ellipsis,) + (None,) * dims]
    return grad


def _check_adaptive_avg_dtype(input, output_size, dims):
    # torch's paths: a mean() for a global pool (which runs complex numbers), else the 2-D
    # kernel (1-D runs as 2-D) or 3-D, for real floats only
    if all(o == 1 for o in output_size):
        if input.dtype.kind == "c":
            return
        name = from_numpy_dtype(input.dtype).scalar_name
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {name}"
        )
    float_only(input, "adaptive_avg_pool3d_cpu" if dims == 3 else "adaptive_avg_pool2d")


def _register_adaptive(dims: int):
    @defop(
        batch=spatial_batch_rules.fold_into_n(dims),
        name=f"adaptive_avg_pool{dims}d_backward",
        node=f"AdaptiveAvgPool{dims}DBackwardBackward0",
        grad_output=lambda grad, output_size: forward(grad, output_size),
        self=zero_gradient,
        jvp=batched(
            lambda grad_output_t, grad_output, self, output_size: rowwise(
                backward, grad_output_t, grad_output, self, output_size
            )
        ),
    )
    def backward(grad_output, self, output_size):
        # torch's 2-D backward refuses an empty channel dim that its forward let through
        empty = [d for d in range(1, grad_output.ndim) if grad_output.shape[d] == 0]
        if dims == 2 and empty:
            raise RuntimeError(
                "adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size for "
                f"non-batch dimensions, but grad_output has sizes {list(grad_output.shape)} "
                f"with dimension {empty[0]} being empty"
            )
        if not xp.isfinite(grad_output).all():
            return _window_gradients(grad_output, self.shape[-dims:])
        matrices = [
            _averaging_matrix(i, o, grad_output.dtype).T
            for i, o in zip(self.shape[-dims:], output_size)
        ]
        return _apply_matrices(grad_output, matrices)

    @defop(
        batch=batch_rules.leading(dims),
        name=f"adaptive_avg_pool{dims}d",
        node=f"AdaptiveAvgPool{dims}DBackward0",
        input=lambda grad, input, output_size: backward(grad, input, output_size),
        jvp=batched(lambda input_t, output_size: forward(input_t, output_size)),
    )
    def forward(input, output_size):
        if input.dtype.kind not in "fV":
            _check_adaptive_avg_dtype(input, output_size, dims)
        elif not xp.isfinite(input).all() or _window_sum_may_overflow(input, output_size):
            return _window_means(input, output_size)
        matrices = [
            _averaging_matrix(i, o, input.dtype) for i, o in zip(input.shape[-dims:], output_size)
        ]
        return _apply_matrices(input, matrices)

    return forward


adaptive_avg_pool2d_op = _register_adaptive(2)
adaptive_avg_pool3d_op = _register_adaptive(3)


# -- adaptive max pooling --------------------------------------------------------------------
def _adaptive_windows(size: int, out: int):
    """Start and end (exclusive) of torch's adaptive window for every output position."""
    i = xp.arange(out)
    return (i * size) // out, -((-(i + 1) * size) // out)


def _adaptive_max_blocks(x, output_size):
    """Windows that tile the input evenly: one argmax over (..., *out, window)."""
    dims = len(output_size)
    lead, spatial = x.shape[:-dims], x.shape[-dims:]
    kernel = tuple(s // o for s, o in zip(spatial, output_size))
    split = x.reshape(lead + tuple(v for o, k in zip(output_size, kernel) for v in (o, k)))
    k = len(lead)
    order = tuple(range(k)) + tuple(k + 2 * d for d in range(dims))
    order += tuple(k + 2 * d + 1 for d in range(dims))
    windows = split.transpose(order).reshape(lead + tuple(output_size) + (-1,))
    arg = windows.argmax(axis=-1)
    values = xp.take_along_axis(windows, arg[..., None], axis=-1)[..., 0]
    offsets = xp.unravel_index(arg, kernel)
    index = xp.zeros(arg.shape, xp.int64)
    for d in range(dims):
        shape = [1] * dims
        shape[d] = output_size[d]
        start = xp.arange(output_size[d]).reshape(shape) * kernel[d]
        index = index * spatial[d] + start + offsets[d]
    return values, index


def _adaptive_max_scan(x, output_size):
    """Any windows: a scan over the offsets inside the largest window (clamped to the
    window's end), keeping the first maximum and the last NaN, as torch."""
    dims = len(output_size)
    spatial = x.shape[-dims:]
    grids = []
    for d, (size, out) in enumerate(zip(spatial, output_size)):
        start, end = _adaptive_windows(size, out)
        shape = [1] * dims
        shape[d] = out
        grids.append(
            [xp.minimum(start + k, end - 1).reshape(shape) for k in range(max(end - start))]
        )
    best = index = None
    for offset in xp.ndindex(*(len(g) for g in grids)):
        positions = [grids[d][k] for d, k in enumerate(offset)]
        values = x[(Ellipsis, *positions)]
        flat = positions[0]
        for d in range(1, dims):
            flat = flat * spatial[d] + positions[d]
        if best is None:
            best, index = values.copy(), xp.broadcast_to(flat, values.shape).copy()
            continue
        better = (values > best) | xp.isnan(values)
        xp.copyto(best, values, where=better)
        xp.copyto(index, xp.broadcast_to(flat, values.shape), where=better)
    return best, index


def _adaptive_max(x, output_size):
    spatial = x.shape[-len(output_size) :]
    if 0 in output_size or 0 in x.shape:
        shape = x.shape[: -len(output_size)] + tuple(output_size)
        return xp.zeros(shape, x.dtype), xp.zeros(shape, xp.int64)
    even = all(s % o == 0 for s, o in zip(spatial, output_size))
    if even and not (x.dtype.kind in "fV" and xp.isnan(x).any()):
        return _adaptive_max_blocks(x, output_size)
    return _adaptive_max_scan(x, output_size)


def _plane_scatter(grad, index, input_shape, dims):
    """Add each gradient into its input position (``index``: flat within each plane)."""
    plane = math.prod(input_shape[-dims:])
    lead = math.prod(input_shape[:-dims])
    offsets = (xp.arange(lead) * plane).reshape(tuple(input_shape[:-dims]) + (1,) * dims)
    flat = (index + offsets).ravel()
    out = xp.bincount(flat, weights=grad.ravel(), minlength=lead * plane)
    return out.astype(grad.dtype, copy=False).reshape(input_shape)


def _plane_gather(source, index, dims):
    lead = source.shape[:-dims]
    # plane sizes spelled out: a -1 is ambiguous for an empty batch
    flat = source.reshape(lead + (math.prod(source.shape[-dims:]),))
    count = math.prod(lead)
    rows = index.reshape(lead + (index.size // count if count else 0,))
    return xp.take_along_axis(flat, rows, axis=-1).reshape(index.shape)


def _register_adaptive_max(dims: int):
    node = f"AdaptiveMaxPool{dims}D"

    @defop(
        batch=spatial_batch_rules.fold_into_n(dims, ("input_shape",)),
        name=f"adaptive_max_pool{dims}d_backward",
        node=node + "BackwardBackward0",
        grad_output=lambda grad, indices: gather(grad, indices),
        self=zero_gradient,
        jvp=batched(
            lambda grad_output_t, grad_output, input_shape, indices: rowwise(
                backward, grad_output_t, grad_output, None, input_shape, indices
            )
        ),
    )
    def backward(grad_output, self, input_shape, indices):
        return _plane_scatter(grad_output, indices, input_shape, dims)

    @defop(
        batch=spatial_batch_rules.fold_into_n(dims),
        name=f"adaptive_max_pool{dims}d_gather",
        node=node + "Gather0",
        input=lambda grad, input_shape, indices: backward(grad, None, input_shape, indices),
        jvp="linear",
    )
    def gather(input, indices):
        return _plane_gather(input, indices, dims)

    @defop(
        batch=batch_rules.leading(dims),
        name=f"adaptive_max_pool{dims}d",
        node=node + "Backward0",
        outputs=2,
        input=lambda grad, input, result1: backward(grad, input, input.shape, result1),
        jvp=lambda input_t, result1: (gather(input_t, result1), None),
    )
    def forward(input, output_size):
        float_only(input, f"adaptive_max_pool{dims}d")
        return _adaptive_max(input, tuple(output_size))

    return forward


adaptive_max_pool2d_op = _register_adaptive_max(2)
adaptive_max_pool3d_op = _register_adaptive_max(3)

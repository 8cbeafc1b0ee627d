"""Pooling ops: max (with torch's indices), average, adaptive average and adaptive max.

Every kernel works on strided slices of the padded input, one slice per kernel offset
(``x[..., i::stride, j::stride]``): a loop over the few kernel offsets, each a vectorised pass
over the whole batch. Backward scatters the same way with ``add`` into the slices, so
overlapping windows accumulate.

Max pooling records, per output, which kernel offset won (a small int array); torch's flat
indices are derived from it only when ``return_indices=True`` asks for them. Each backward is
an op whose own derivative is the forward selection again, so double backward works.
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


class PoolGeometry:
    """Output size and slices of a pooling over the last ``len(kernel)`` dims."""

    def __init__(self, shape, kernel, stride, padding, dilation, ceil_mode):
        dims = len(kernel)
        self.lead = tuple(shape[:-dims])
        self.spatial = tuple(shape[-dims:])
        self.kernel, self.stride, self.padding = tuple(kernel), tuple(stride), tuple(padding)
        self.dilation = tuple(dilation)
        self.out = tuple(
            _output_size(i, k, s, p, d, ceil_mode)
            for i, k, s, p, d in zip(self.spatial, kernel, stride, padding, dilation)
        )
        # extent read by the last window (ceil_mode may reach past the right padding)
        self.padded = tuple(
            max(i + 2 * p, (o - 1) * s + d * (k - 1) + 1)
            for i, o, k, s, p, d in zip(self.spatial, self.out, kernel, stride, padding, dilation)
        )

    @property
    def needs_padding(self) -> bool:
        return self.padded != self.spatial

    def pad(self, x, value):
        if not self.needs_padding:
            return x
        out = xp.full(self.lead + self.padded, value, dtype=x.dtype)
        out[self.interior()] = x
        return out

    def interior(self):
        dims = (slice(p, p + i) for p, i in zip(self.padding, self.spatial))
        return (Ellipsis, *dims)

    def offsets(self):
        return list(xp.ndindex(*self.kernel))

    def window(self, offset):
        """The slice holding, for every output, the input element at kernel ``offset``."""
        dims = (
            slice(i * d, i * d + s * (o - 1) + 1, s)
            for i, d, s, o in zip(offset, self.dilation, self.stride, self.out)
        )
        return (Ellipsis, *dims)


def _output_size(size, kernel, stride, pad, dilation, ceil_mode):
    # torch's pooling_output_shape: in ceil mode the last window must start inside the input
    span = size + 2 * pad - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)
    out = span // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad:
        out -= 1
    return out


def _lowest(dtype):
    return -xp.inf if dtype.kind in "fV" else xp.iinfo(dtype).min


# -- max pooling -----------------------------------------------------------------------------
def max_pool_values(x, kernel, stride, padding, dilation, ceil_mode):
    """The pooled maxima only (inference: no indices to track).

    The padding is never materialised (a padded copy would be the largest buffer of an
    inference forward): each kernel offset updates only the outputs whose window element
    at that offset lies inside the input.
    """
    geo = PoolGeometry(x.shape, kernel, stride, padding, dilation, ceil_mode)
    best = xp.full(geo.lead + geo.out, _lowest(x.dtype), x.dtype)
    for offset in geo.offsets():
        outputs, inputs = [], []
        for i, d, s, o, p, n in zip(
            offset, geo.dilation, geo.stride, geo.out, geo.padding, geo.spatial
        ):
            first = i * d - p  # output j reads input j * s + first; keep 0 <= that < n
            lo, hi = max(0, -(first // s)), min(o, (n - 1 - first) // s + 1)
            outputs.append(slice(lo, max(lo, hi)))
            inputs.append(slice(lo * s + first, (hi - 1) * s + first + 1, s))
        if all(out.stop > out.start for out in outputs):
            target = best[(Ellipsis, *outputs)]
            xp.maximum(target, x[(Ellipsis, *inputs)], out=target)
    return best


def _max_pool_with_offsets(x, kernel, stride, padding, dilation, ceil_mode):
    geo = PoolGeometry(x.shape, kernel, stride, padding, dilation, ceil_mode)
    xpad = geo.pad(x, _lowest(x.dtype))
    offsets = geo.offsets()
    best = xpad[geo.window(offsets[0])].copy()
    for offset in offsets[1:]:
        xp.maximum(best, xpad[geo.window(offset)], out=best)
    # Which offset won: the first one equal to the maximum (torch keeps the first on ties).
    # Walking the offsets backwards, each match overwrites arg, arithmetically: np.where and
    # masked copies are ~10x slower on such random masks (branch mispredictions).
    kind = xp.int8 if len(offsets) < 128 else xp.int32
    arg = xp.zeros(best.shape, kind)
    for k in range(len(offsets) - 1, -1, -1):
        match = xpad[geo.window(offsets[k])] == best
        arg *= ~match
        arg += kind(k) * match
    if x.dtype.kind in "fV":
        nan = xp.isnan(best)
        if nan.any():  # torch points at the last NaN of the window
            for k, offset in enumerate(offsets):
                xp.copyto(arg, k, where=nan & xp.isnan(xpad[geo.window(offset)]))
    return best, arg


def _windows_overlap(geo) -> bool:
    return any(s < d * (k - 1) + 1 for s, d, k in zip(geo.stride, geo.dilation, geo.kernel))


def _max_pool_scatter(grad, arg, input_shape, kernel, stride, padding, dilation, ceil_mode):
    geo = PoolGeometry(input_shape, kernel, stride, padding, dilation, ceil_mode)
    exact = not xp.isfinite(grad).all()  # 0 * inf would leak NaN into the losers
    overlap = _windows_overlap(geo)
    tiled = not (overlap or exact or geo.needs_padding) and all(
        k == s and d == 1 and o * s == i
        for k, s, d, o, i in zip(geo.kernel, geo.stride, geo.dilation, geo.out, geo.spatial)
    )
    # when the windows tile the input exactly, every element is written below: no zeroing
    gpad = (xp.empty if tiled else xp.zeros)(geo.lead + geo.padded, grad.dtype)
    for k, offset in enumerate(geo.offsets()):
        target = gpad[geo.window(offset)]
        if exact:
            xp.add(target, grad, out=target, where=arg == k)
        elif overlap:
            target += grad * (arg == k)
        else:  # each input element belongs to one window at most: write, no read
            xp.multiply(grad, arg == k, out=target)
    return xp.ascontiguousarray(gpad[geo.interior()]) if geo.needs_padding else gpad


def _max_pool_gather(source, arg, kernel, stride, padding, dilation, ceil_mode):
    geo = PoolGeometry(source.shape, kernel, stride, padding, dilation, ceil_mode)
    spad = geo.pad(source, 0)
    # the source may have a leading batch dimension over the offsets (batched tangents)
    out = xp.zeros(geo.lead + geo.out, source.dtype)
    for k, offset in enumerate(geo.offsets()):
        xp.copyto(out, spad[geo.window(offset)], where=arg == k)
    return out


def max_pool_indices(arg, input_shape, kernel, stride, padding, dilation, ceil_mode):
    """torch's indices (flat positions in each input plane) from the winning offsets."""
    geo = PoolGeometry(input_shape, kernel, stride, padding, dilation, ceil_mode)
    dims = len(kernel)
    unravelled = xp.unravel_index(arg.astype(xp.int64), geo.kernel)
    index = xp.zeros(arg.shape, xp.int64)
    for d in range(dims):
        shape = [1] * dims
        shape[d] = geo.out[d]
        start = xp.arange(geo.out[d]).reshape(shape) * geo.stride[d] - geo.padding[d]
        position = start + unravelled[d] * geo.dilation[d]
        index = index * geo.spatial[d] + position
    return index


def _register_max_pool(dims: int):
    node = f"MaxPool{dims}DWithIndices"

    @batched
    def backward_jvp(
        grad_output_t,
        grad_output,
        input_shape,
        kernel,
        stride,
        padding,
        dilation,
        ceil_mode,
        indices,
    ):
        # linear in grad_output; ``self`` is not read
        args = (input_shape, kernel, stride, padding, dilation, ceil_mode, indices)
        return rowwise(backward, grad_output_t, grad_output, None, *args)

    @defop(
        batch=spatial_batch_rules.fold_into_n(dims, ("input_shape",)),
        name=f"max_pool{dims}d_backward",
        node=node + "BackwardBackward0",
        grad_output=lambda grad, indices, kernel, stride, padding, dilation, ceil_mode: gather(
            grad, indices, kernel, stride, padding, dilation, ceil_mode
        ),
        self=zero_gradient,
        jvp=backward_jvp,
    )
    def backward(
        grad_output, self, input_shape, kernel, stride, padding, dilation, ceil_mode, indices
    ):
        return _max_pool_scatter(
            grad_output, indices, input_shape, kernel, stride, padding, dilation, ceil_mode
        )

    @defop(
        batch=spatial_batch_rules.fold_into_n(dims),
        name=f"max_pool{dims}d_gather",
        node=node + "Gather0",
        input=lambda grad, input_shape, kernel, stride, padding, dilation, ceil_mode, indices: (
            backward(grad, None, input_shape, kernel, stride, padding, dilation, ceil_mode, indices)
        ),
        jvp="linear",
    )
    def gather(input, indices, kernel, stride, padding, dilation, ceil_mode):
        return _max_pool_gather(input, indices, kernel, stride, padding, dilation, ceil_mode)

    @defop(
        batch=batch_rules.leading(dims),
        name=f"max_pool{dims}d_with_indices",
        node=node + "Backward0",
        outputs=2,
        input=lambda grad, input, kernel, stride, padding, dilation, ceil_mode, result1: backward(
            grad, input, input.shape, kernel, stride, padding, dilation, ceil_mode, result1
        ),
        # the tangent at each window's winner; the indices have none
        jvp=batched(
            lambda input_t, kernel, stride, padding, dilation, ceil_mode, result1: (
                gather(input_t, result1, kernel, stride, padding, dilation, ceil_mode),
                None,
            )
        ),
    )
    def forward(input, kernel, stride, padding, dilation, ceil_mode):
        return _max_pool_with_offsets(input, kernel, stride, padding, dilation, ceil_mode)

    return forward


max_pool2d_op = _register_max_pool(2)
max_pool3d_op = _register_max_pool(3)


@defop(batch=spatial_batch_rules.fold_into_n(None), name="max_pool_values")
def max_pool_values_op(input, kernel, stride, padding, dilation, ceil_mode):
    return max_pool_values(input, kernel, stride, padding, dilation, ceil_mode)


# -- average pooling -------------------------------------------------------------------------
def _divisor(geo, count_include_pad, divisor_override):
    """Per-output divisor (or a number when all are equal), as torch's avg_pool."""
    if divisor_override:
        return divisor_override
    sizes = []
    for o, k, s, p, i in zip(geo.out, geo.kernel, geo.stride, geo.padding, geo.spatial):
        start = xp.arange(o) * s - p
        end = xp.minimum(start + k, i + p)
        if count_include_pad:
            sizes.append(end - start)
        else:
            sizes.append(xp.minimum(end, i) - xp.maximum(start, 0))
    divisor = sizes[0]
    for size in sizes[1:]:
        divisor = divisor[..., None] * size
    first = divisor.flat[0] if divisor.size else 1
    return int(first) if (divisor == first).all() else divisor


def _avg_pool(x, kernel, stride, padding, ceil_mode, include_pad, divisor_override):
    geo = PoolGeometry(x.shape, kernel, stride, padding, (1,) * len(kernel), ceil_mode)
    xpad = geo.pad(x, 0)
    offsets = geo.offsets()
    work = x.dtype if x.dtype.kind in "fV" else xp.float64
    total = xpad[geo.window(offsets[0])].astype(work, copy=True)
    for offset in offsets[1:]:
        xp.add(total, xpad[geo.window(offset)], out=total)
    divisor = _divisor(geo, include_pad, divisor_override)
    total /= divisor
    return total if x.dtype.kind in "fV" else xp.trunc(total).astype(x.dtype)


def _avg_pool_scatter(
    grad, input_shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override
):
    geo = PoolGeometry(input_shape, kernel, stride, padding, (1,) * len(kernel), ceil_mode)
    share = grad / _divisor(geo, count_include_pad, divisor_override)
    gpad = xp.zeros(geo.lead + geo.padded, grad.dtype)
    for offset in geo.offsets():
        target = gpad[geo.window(offset)]
        xp.add(target, share, out=target)
    return xp.ascontiguousarray(gpad[geo.interior()]) if geo.needs_padding else gpad


def _register_avg_pool(dims: int):
    @batched
    def backward_jvp(
        grad_output_t, grad_output, self, kernel, stride, padding, ceil_mode, include_pad, divisor
    ):
        # linear in grad_output; ``self`` gives the shape only
        args = (self, kernel, stride, padding, ceil_mode, include_pad, divisor)
        return rowwise(backward, grad_output_t, grad_output, *args)

    @defop(
        batch=spatial_batch_rules.fold_into_n(dims),
        name=f"avg_pool{dims}d_backward",
        node=f"AvgPool{dims}DBackwardBackward0",
        grad_output=lambda grad, kernel, stride, padding, ceil_mode, include_pad, divisor: forward(
            grad, kernel, stride, padding, ceil_mode, include_pad, divisor
        ),
        self=zero_gradient,
        jvp=backward_jvp,
    )
    def backward(grad_output, self, kernel, stride, padding, ceil_mode, include_pad, divisor):
        return _avg_pool_scatter(
            grad_output,
            self.shape,
            kernel,
            stride,
            padding,
            ceil_mode,
            include_pad,
            divisor,
        )

    @batched  # pools the trailing dims only
    def forward_jvp(input_t, kernel, stride, padding, ceil_mode, include_pad, divisor):
        return forward(input_t, kernel, stride, padding, ceil_mode, include_pad, divisor)

    @defop(
        batch=batch_rules.leading(dims),
        name=f"avg_pool{dims}d",
        node=f"AvgPool{dims}DBackward0",
        input=lambda grad, input, kernel, stride, padding, ceil_mode, include_pad, divisor: (
            backward(grad, input, kernel, stride, padding, ceil_mode, include_pad, divisor)
        ),
        jvp=forward_jvp,
    )
    def forward(input, kernel, stride, padding, ceil_mode, include_pad, divisor):
        return _avg_pool(input, kernel, stride, padding, ceil_mode, include_pad, divisor)

    return forward


avg_pool2d_op = _register_avg_pool(2)
avg_pool3d_op = _register_avg_pool(3)


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


def _adaptive_avg_integer_error(input, output_size, dims):
    # torch's paths: a mean() for a global pool, else the 2-D kernel (1-D runs as 2-D) or 3-D
    if all(o == 1 for o in output_size):
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
        if input.dtype.kind not in "fcV":
            _adaptive_avg_integer_error(input, output_size, dims)
        elif not xp.isfinite(input).all():
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
    flat = source.reshape(lead + (-1,))
    picked = xp.take_along_axis(flat, index.reshape(lead + (-1,)), axis=-1)
    return picked.reshape(index.shape)


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

"""Pooling ops: max (with torch's indices) and average (adaptive pooling: adaptive_pooling.py).

Every kernel works on strided slices of the padded input, one slice per kernel offset
(``x[..., i::stride, j::stride]``): a loop over the few kernel offsets, each a vectorised pass
over the whole batch. Backward scatters the same way with ``add`` into the slices, so
overlapping windows accumulate.

Max pooling records, per output, which kernel offset won (a small int array); torch's flat
indices are derived from it only when ``return_indices=True`` asks for them. Each backward is
an op whose own derivative is the forward selection again, so double backward works.
"""

from __future__ import annotations

import math

from ..._core import batch_rules, spatial_batch_rules
from ..._core.kernel_dtypes import BOOL, FLOATING, FLOATS, REAL, kernel
from ..._core.op import defop
from ...autograd.forward_grad import batched
from ...backend import xp
from .activation import rowwise, zero_gradient


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

    def windows(self, x, value):
        """``pad(x, value)[window(offset)]`` for every kernel offset, in order. Where the
        input is padded and strided along the last dim, the padded copy is made split by
        that stride (phase r holds the padded columns r, r + s, ...): each window then runs
        along contiguous columns, which NumPy's vector loops take, instead of every s-th
        element (ResNet-18's 3x3 stride-2 pooling inside its step: 0.66-0.69x the time).
        Without padding the windows stay views of x: splitting it would be a copy of its
        own, which the small CNN's 2x2 pooling does not repay (1.12x)."""
        if self.stride[-1] == 1 or not self.needs_padding:
            xpad = self.pad(x, value)
            return [xpad[self.window(offset)] for offset in self.offsets()]
        phases = {}
        views = []
        for offset in self.offsets():
            first, phase = divmod(offset[-1] * self.dilation[-1], self.stride[-1])
            if phase not in phases:
                phases[phase] = self._padded_phase(x, value, phase)
            dims = (
                slice(i * d, i * d + s * (o - 1) + 1, s)
                for i, d, s, o in zip(offset, self.dilation, self.stride, self.out[:-1])
            )
            views.append(phases[phase][(Ellipsis, *dims, slice(first, first + self.out[-1]))])
        return views

    def _padded_phase(self, x, value, phase):
        """The padded input's columns ``phase``, ``phase + s``, ... (s the last stride), in
        a copy made from x directly (no padded copy first)."""
        stride, left = self.stride[-1], self.padding[-1]
        shape = self.lead + self.padded[:-1] + (len(range(phase, self.padded[-1], stride)),)
        out = xp.full(shape, value, dtype=x.dtype)
        first = (phase - left) % stride  # the first input column in this phase, and its place
        start, count = (first + left) // stride, len(range(first, self.spatial[-1], stride))
        rows = (slice(p, p + i) for p, i in zip(self.padding[:-1], self.spatial[:-1]))
        out[(Ellipsis, *rows, slice(start, start + count))] = x[..., first::stride]
        return out


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
    reads = []
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
            reads.append((target, x[(Ellipsis, *inputs)]))
    _first_zero_sign(best, reads, x)
    return best


def _first_zero_sign(best, reads, x) -> None:
    """Where a window's maximum is a zero, the sign of its first zero: torch's kernel keeps
    the first of equal values (it replaces only a greater one), and +0 and -0 are equal;
    NumPy's maximum may take either. ``reads`` pairs views of ``best`` with the input
    elements read into them, in window order. Nothing to do unless the input ``x`` holds
    a -0 (one pass; after a ReLU, where most maxima are zeros, there is none)."""
    if best.dtype.kind not in "fV":
        return
    if not (best == 0).any() or not xp.signbit(x).any():
        return
    for target, values in reversed(reads):  # the earliest read writes last
        xp.copyto(target, values, where=(target == 0) & (values == 0))


def _max_pool_with_offsets(x, kernel, stride, padding, dilation, ceil_mode):
    geo = PoolGeometry(x.shape, kernel, stride, padding, dilation, ceil_mode)
    offsets = geo.offsets()
    windows = geo.windows(x, _lowest(x.dtype))
    best = windows[0].copy()
    for window in windows[1:]:
        xp.maximum(best, window, out=best)
    # Which offset won: the first one equal to the maximum (torch keeps the first on ties).
    # Walking the offsets backwards, each match overwrites arg, arithmetically: np.where and
    # masked copies are ~10x slower on such random masks (branch mispredictions). Where no
    # earlier offset matches, the last one holds the maximum, so it is never compared; the
    # update arg += (k - arg) * match is three passes into buffers made once (0.8x the time
    # of multiplying by ~match and adding k * match).
    kind = xp.int8 if len(offsets) < 128 else xp.int32
    arg = xp.full(best.shape, len(offsets) - 1, kind)
    match = xp.empty(best.shape, xp.bool_)
    step = xp.empty(best.shape, kind)
    for k in range(len(offsets) - 2, -1, -1):
        xp.equal(windows[k], best, out=match)
        xp.subtract(kind(k), arg, out=step)
        xp.multiply(step, match, out=step)
        arg += step
    if geo.needs_padding:
        low = best == _lowest(x.dtype)
        if low.any():  # the padding ties a window of lowest values: torch keeps its start
            xp.copyto(arg, _window_starts(geo).astype(kind), where=low)
    _first_zero_sign(best, [(best, window) for window in windows], x)
    if x.dtype.kind in "fV":
        nan = xp.isnan(best)
        if nan.any():  # torch points at the last NaN of the window
            for k, window in enumerate(windows):
                xp.copyto(arg, k, where=nan & xp.isnan(window))
    return best, arg


def _window_starts(geo):
    """The offset of each window's start as torch's kernel takes it: along each dim the
    first offset at or past the left padding (past the input too when the window holds
    padding only there, which ceil mode or the right padding allow)."""
    start = xp.zeros((1,) * len(geo.kernel), xp.int64)
    for d, (k, s, p, dl, o) in enumerate(
        zip(geo.kernel, geo.stride, geo.padding, geo.dilation, geo.out)
    ):
        shape = [1] * len(geo.kernel)
        shape[d] = o
        left = xp.maximum(p - xp.arange(o) * s, 0)  # padding before the window's first read
        start = start * k + ((left + dl - 1) // dl).reshape(shape)
    return start


def _padding_only_windows(geo):
    """The windows that read no input element (in some dim they lie in the padding, which
    dilation allows at a short input or with ceil mode), as a mask over the outputs, and the
    flat position torch's index gives each (its start, past the input in that dim, yet
    often inside the plane, where torch's backward adds the gradient and its double
    backward reads). None when there are none: the common case costs a pass over each
    dim's outputs."""
    # a start lies past the input only where the last window starts there or where a window
    # in the left padding steps (by the dilation) past a short input: scalar tests first
    if all(
        dl <= n and (o - 1) * s - p < n
        for s, p, dl, o, n in zip(geo.stride, geo.padding, geo.dilation, geo.out, geo.spatial)
    ):
        return None
    empty = []
    for s, p, dl, o, n in zip(geo.stride, geo.padding, geo.dilation, geo.out, geo.spatial):
        first = xp.arange(o) * s - p
        start = first + (xp.maximum(-first, 0) + dl - 1) // dl * dl
        empty.append(start >= n)  # (the first read at or past the left padding)
    if not any(e.any() for e in empty):
        return None
    dims = len(empty)
    mask = xp.zeros(geo.out, xp.bool_)
    for d, e in enumerate(empty):
        shape = [1] * dims
        shape[d] = geo.out[d]
        mask = mask | e.reshape(shape)
    index = _flat_positions(_window_starts(geo), geo)
    return mask, index[mask]


def _add_padding_only_windows(grad_input, grad, geo):
    """torch's backward adds a padding-only window's gradient at its index when that lies
    in the plane (past it, its kernel writes out of bounds: left out here)."""
    found = _padding_only_windows(geo)
    if found is None:
        return grad_input
    mask, index = found
    plane = math.prod(geo.spatial)
    keep = index < plane
    rows = grad_input.reshape(-1, plane)
    picked = grad.reshape(rows.shape[0], -1)[:, mask.reshape(-1)][:, keep]
    xp.add.at(rows, (slice(None), index[keep]), picked)
    return rows.reshape(grad_input.shape)


def _windows_overlap(geo) -> bool:
    return any(s < d * (k - 1) + 1 for s, d, k in zip(geo.stride, geo.dilation, geo.kernel))


def _max_pool_scatter(grad, arg, input_shape, kernel, stride, padding, dilation, ceil_mode):
    geo = PoolGeometry(input_shape, kernel, stride, padding, dilation, ceil_mode)
    overlap = _windows_overlap(geo)
    if overlap and grad.dtype in (xp.float32, xp.float64):
        return _add_padding_only_windows(_max_pool_scatter_by_position(grad, arg, geo), grad, geo)
    exact = not xp.isfinite(grad).all()  # 0 * inf would leak NaN into the losers
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
    if not (exact or overlap):
        # torch adds each gradient into zeros: a loser is +0.0 where grad * False is -0.0
        # for a negative grad (and so is a winner's -0.0). One more pass: 1.6 against 1.5 ms
        # on the small CNN's 2x2 pooling, where selecting with where() took 4.1 ms
        gpad += 0.0
    if not geo.needs_padding:
        return gpad
    return _add_padding_only_windows(xp.ascontiguousarray(gpad[geo.interior()]), grad, geo)


def _max_pool_scatter_by_position(grad, arg, geo):
    """Overlapping windows: each gradient added at its winner's flat position in the padded
    input by one ``add.at``, in the outputs' order and the gradient's dtype, as torch's
    kernel adds them (so a winner of several windows gets torch's sum, bit for bit), instead
    of a masked pass per kernel offset; non-finite gradients land on their winner alone.
    ResNet-18's 3x3 stride-2 pooling backward: 4.1 ms masked, 3.6 ms by a float64
    ``bincount``, 2.5 ms this way into a padded buffer (torch: 0.4-0.6 ms)."""
    dims = len(geo.kernel)
    # Positions in the input itself where no window lies in the padding alone: every winner
    # is then an input element (the padding holds the lowest value, and a window of lowest
    # values points at its start in the input), so no padded buffer is zeroed and cropped
    # (ResNet-18's pooling backward inside its step: 0.65-0.74x the time)
    inside = not geo.needs_padding or _padding_only_windows(geo) is None
    extent, shift = (geo.spatial, geo.padding) if inside else (geo.padded, (0,) * dims)
    rows = [math.prod(extent[d + 1 :]) for d in range(dims)]
    # flat position of each output's window origin, and of each kernel offset within it
    origin = xp.zeros((1,) * dims, xp.int64)
    for d in range(dims):
        shape = [1] * dims
        shape[d] = geo.out[d]
        origin = origin + (xp.arange(geo.out[d]) * (geo.stride[d] * rows[d])).reshape(shape)
    table = xp.array(
        [
            sum((i * dl - p) * r for i, dl, p, r in zip(o, geo.dilation, shift, rows))
            for o in geo.offsets()
        ],
        xp.int64,
    )
    planes = math.prod(geo.lead)
    plane = math.prod(extent)
    position = table[arg.reshape((planes,) + geo.out)]
    position += origin
    position += (xp.arange(planes, dtype=xp.int64) * plane).reshape((planes,) + (1,) * dims)
    gx = xp.zeros(geo.lead + extent, grad.dtype)
    xp.add.at(gx.reshape(-1), position.reshape(-1), grad.reshape(-1))
    return gx if inside else xp.ascontiguousarray(gx[geo.interior()])


def _max_pool_gather(source, arg, kernel, stride, padding, dilation, ceil_mode):
    geo = PoolGeometry(source.shape, kernel, stride, padding, dilation, ceil_mode)
    spad = geo.pad(source, 0)
    # the source may have a leading batch dimension over the offsets (batched tangents)
    out = xp.zeros(geo.lead + geo.out, source.dtype)
    for k, offset in enumerate(geo.offsets()):
        xp.copyto(out, spad[geo.window(offset)], where=arg == k)
    found = _padding_only_windows(geo) if geo.needs_padding else None
    if found is not None:  # (torch reads those windows at their index in the plane)
        mask, index = found
        plane = math.prod(geo.spatial)
        keep = index < plane
        rows = source.reshape(-1, plane)[:, index[keep]]
        chosen = out.reshape(rows.shape[0], -1)
        chosen[:, xp.flatnonzero(mask.reshape(-1))[keep]] = rows
    return out


def max_pool_indices(arg, input_shape, kernel, stride, padding, dilation, ceil_mode):
    """torch's indices (flat positions in each input plane) from the winning offsets."""
    geo = PoolGeometry(input_shape, kernel, stride, padding, dilation, ceil_mode)
    return _flat_positions(arg, geo)


def _flat_positions(arg, geo):
    dims = len(geo.kernel)
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
        dtypes=kernel(f"max_pool{dims}d", REAL - BOOL),
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


@defop(
    batch=spatial_batch_rules.fold_into_n(None),
    name="max_pool_values",
    dtypes=kernel("max_pool2d", REAL - BOOL),
)
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
    total += 0  # torch sums each window from +0: a lone -0.0 averages to +0.0
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


# torch's average pooling kernels: of the integer types only int64, and no halves in 3-D
_LONG = frozenset({xp.dtype(xp.int64)})
_AVG_POOL_DTYPES = {
    2: kernel("avg_pool2d", FLOATS | _LONG),
    3: kernel("avg_pool3d_out_frame", FLOATING | _LONG),
}


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
        dtypes=_AVG_POOL_DTYPES[dims],
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

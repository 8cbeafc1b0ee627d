"""Interpolation primitives behind ``F.interpolate``: nearest, nearest-exact, (bi/tri)linear
and bicubic resampling (grad_fns ``UpsampleNearest2DBackward0``, ``UpsampleBilinear2DBackward0``,
...).

Every mode is separable: along each spatial axis an output position reads a few input
positions ("taps": 1 for nearest, 2 for linear, 4 for cubic) with one weight each. The forward
gathers the taps axis by axis (``take`` along the axis, times the weights); the backward
scatters the other way. Tap indices never decrease along the output, so the scatter is a
``reduceat`` over runs of equal indices instead of an ``add.at`` per element. Source
positions follow torch's formulas (``area_pixel_compute_source_index`` and friends),
computed in the input's precision as torch's kernels do.
"""

from __future__ import annotations

from ..._core import batch_rules, spatial_batch_rules
from ..._core.kernel_dtypes import FLOATING, FLOATS, kernel
from ..._core.op import defop
from ...autograd.forward_grad import batched
from ...backend import xp

_CUBIC_A = -0.75


def _scale(in_size, out_size, align_corners, scale, dtype):
    """torch's area_pixel_compute_scale: source positions per output position."""
    if align_corners:
        if out_size <= 1:
            return dtype.type(0)
        return dtype.type(dtype.type(in_size - 1) / dtype.type(out_size - 1))
    if scale is not None and scale > 0:
        return dtype.type(1.0 / scale)
    return dtype.type(dtype.type(in_size) / dtype.type(out_size))


def _source(ratio, out_size, align_corners, cubic, dtype):
    dst = xp.arange(out_size, dtype=dtype)
    if align_corners:
        return ratio * dst
    src = ratio * (dst + dtype.type(0.5)) - dtype.type(0.5)
    return src if cubic else xp.maximum(src, dtype.type(0))


def _nearest_taps(in_size, out_size, scale, exact, shortcuts):
    # torch's nearest_idx copies an axis whose size it keeps and halves the index of one it
    # doubles, whatever the scale; only its 2-D forward and the backwards take those
    # shortcuts (its 1-D and 3-D forwards always go by the scale)
    dst = xp.arange(out_size)
    if shortcuts and not exact and out_size == in_size:
        return [(dst, None)]
    if shortcuts and not exact and out_size == 2 * in_size:
        return [(dst >> 1, None)]
    # torch computes these in single precision
    if scale is not None and scale > 0:
        ratio = xp.float32(1.0 / scale)
    else:
        ratio = xp.float32(in_size) / xp.float32(out_size)
    if exact:
        position = ((dst + 0.5) * xp.float64(ratio)).astype(xp.float32)
    else:
        position = dst.astype(xp.float32) * ratio
    return [(xp.minimum(xp.floor(position).astype(xp.int64), in_size - 1), None)]


def _linear_taps(in_size, out_size, align_corners, scale, dtype):
    if out_size == in_size:
        # torch reads each element twice here, with weights 1 and 0: inf becomes NaN
        index = xp.arange(out_size)
        return [(index, None), (index, xp.zeros(out_size, dtype))]
    ratio = _scale(in_size, out_size, align_corners, scale, dtype)
    src = _source(ratio, out_size, align_corners, False, dtype)
    index0 = xp.minimum(xp.floor(src).astype(xp.int64), in_size - 1)
    lambda1 = xp.clip(src - index0.astype(dtype), 0, 1)
    index1 = index0 + (index0 < in_size - 1)
    return [(index0, (1 - lambda1).astype(dtype)), (index1, lambda1)]


def _cubic_weights(t):
    a = _CUBIC_A

    def near(x):  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _cubic_taps(in_size, out_size, align_corners, scale, dtype):
    ratio = _scale(in_size, out_size, align_corners, scale, dtype)
    src = _source(ratio, out_size, align_corners, True, dtype)
    floor = xp.floor(src)
    weights = _cubic_weights((src - floor).astype(dtype))
    base = floor.astype(xp.int64)
    return [(xp.clip(base - 1 + k, 0, in_size - 1), w) for k, w in enumerate(weights)]


def _aa_filter(x, cubic):
    """The antialiasing filters: a triangle, or Keys' cubic with a = -0.5."""
    x = xp.abs(x)
    if not cubic:
        return xp.where(x < 1, 1 - x, 0.0)
    a = -0.5
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return xp.where(x < 1, near, xp.where(x < 2, far, 0.0))


def _aa_taps(in_size, out_size, align_corners, scale, dtype, cubic):
    """torch's antialiased taps: when shrinking, the filter is widened by the scale so every
    input position under an output pixel contributes; weights are normalized per output."""
    ratio = float(_scale(in_size, out_size, align_corners, scale, xp.dtype(xp.float64)))
    support = (2.0 if cubic else 1.0) * (ratio if ratio >= 1.0 else 1.0)
    invscale = 1.0 / ratio if ratio >= 1.0 else 1.0
    center = ratio * (xp.arange(out_size) + 0.5)
    low = xp.maximum((center - support + 0.5).astype(xp.int64), 0)
    high = xp.minimum((center + support + 0.5).astype(xp.int64), in_size)
    width = int((high - low).max()) if out_size else 0
    offsets = xp.arange(width)
    index = low[:, None] + offsets
    weight = _aa_filter((index - center[:, None] + 0.5) * invscale, cubic)
    weight = xp.where(index < high[:, None], weight, 0.0)
    total = weight.sum(1, keepdims=True)
    weight = weight / xp.where(total == 0, 1.0, total)
    # tap k of every output; past an output's window the index is -1: torch's loop never
    # reads there, so _gather and _scatter drop the tap (a NaN or inf there must not leak in)
    index = xp.where(index < high[:, None], index, -1)
    return [(index[:, k], weight[:, k].astype(dtype)) for k in range(width)]


def taps(mode, in_size, out_size, align_corners, scale, dtype, shortcuts=True):
    """[(index (out,), weight (out,) or None)] for one axis (``shortcuts``: see
    ``_nearest_taps``)."""
    if mode in ("linear-aa", "cubic-aa"):
        return _aa_taps(in_size, out_size, align_corners, scale, dtype, mode == "cubic-aa")
    if mode in ("nearest", "nearest-exact"):
        return _nearest_taps(in_size, out_size, scale, mode == "nearest-exact", shortcuts)
    if mode == "cubic":
        return _cubic_taps(in_size, out_size, align_corners, scale, dtype)
    return _linear_taps(in_size, out_size, align_corners, scale, dtype)


def _weighted(x, weight, axis):
    if weight is None:
        return x
    return x * weight.reshape((-1,) + (1,) * (x.ndim - axis - 1))


def _dropped(part, index, axis):
    """``part`` with the taps of index -1 (past an antialiased window) set to 0."""
    if index.size and index.min() < 0:
        part = xp.where((index < 0).reshape((-1,) + (1,) * (part.ndim - axis - 1)), 0, part)
    return part


def _gather(x, axis_taps, axis):
    out = None
    for index, weight in axis_taps:
        part = _dropped(_weighted(xp.take(x, index, axis=axis), weight, axis), index, axis)
        out = part if out is None else out + part
    return out


def _scatter(g, axis_taps, size, axis):
    moved = xp.moveaxis(g, axis, 0)
    out = xp.zeros((size,) + moved.shape[1:], g.dtype)
    for index, weight in axis_taps:
        part = moved if weight is None else moved * weight.reshape((-1,) + (1,) * (g.ndim - 1))
        if index.size and index.min() < 0:
            keep = index >= 0
            index, part = index[keep], part[keep]
            if not index.size:
                continue
        starts = xp.flatnonzero(xp.diff(index, prepend=-1))  # runs of equal indices
        out[index[starts]] += xp.add.reduceat(part, starts, axis=0)
    return xp.moveaxis(out, 0, axis)


def _plan(mode, input_shape, output_size, align_corners, scales, dtype, shortcuts=True):
    dims = len(output_size)
    scales = scales or (None,) * dims
    lead = len(input_shape) - dims
    return [
        (
            lead + d,
            taps(mode, input_shape[lead + d], output_size[d], align_corners, s, dtype, shortcuts),
        )
        for d, s in enumerate(scales)
    ]


def _resample(x, mode, output_size, align_corners, scales):
    shortcuts = len(output_size) == 2
    plan = _plan(mode, x.shape, output_size, align_corners, scales, x.dtype, shortcuts)
    for axis, axis_taps in plan:
        # torch's antialiased forward copies an axis whose size it keeps (its backward
        # still scatters through the taps, weight-0 ones included)
        if mode.endswith("-aa") and axis_taps and x.shape[axis] == len(axis_taps[0][0]):
            continue
        x = _gather(x, axis_taps, axis)
    return xp.ascontiguousarray(x)


def _resample_backward(g, mode, input_shape, output_size, align_corners, scales):
    plan = _plan(mode, input_shape, output_size, align_corners, scales, g.dtype)
    for axis, axis_taps in reversed(plan):
        g = _scatter(g, axis_taps, input_shape[axis], axis)
    return g


_NODES = {
    "nearest": "UpsampleNearest",
    "nearest-exact": "UpsampleNearestExact",
    "linear": ("UpsampleLinear", "UpsampleBilinear", "UpsampleTrilinear"),
    "cubic": "UpsampleBicubic",
    "linear-aa": ("", "UpsampleBilinear"),
    "cubic-aa": "UpsampleBicubic",
}


def _register(mode: str, dims: int):
    prefix = _NODES[mode]
    prefix = (prefix[dims - 1] if isinstance(prefix, tuple) else prefix) + f"{dims}D"
    if mode.endswith("-aa"):
        prefix += "Aa"
    name = f"upsample_{mode.replace('-', '_')}{dims}d"
    if mode.endswith("-aa"):  # aten's _upsample_bilinear2d_aa / _upsample_bicubic2d_aa
        name = f"_upsample_bi{mode[:-3]}{dims}d_aa"

    @defop(
        batch=spatial_batch_rules.fold_into_n(dims, ("input_shape",)),
        name=name + "_backward",
        # torch's aa backward schemas have 6 arguments (scales_h, scales_w apart)
        schema_args=6 if mode.endswith("-aa") else None,
        node=prefix + "BackwardBackward0",
        grad_output=lambda grad, output_size, align_corners, scales: forward(
            grad, output_size, align_corners, scales
        ),
        jvp="linear",
    )
    def backward(grad_output, input_shape, output_size, align_corners, scales):
        return _resample_backward(
            grad_output, mode, input_shape, output_size, align_corners, scales
        )

    @batched  # resampling reads the trailing dims only
    def forward_jvp(input_t, output_size, align_corners, scales):
        return forward(input_t, output_size, align_corners, scales)

    # Note [Kernel dtypes]: the floats, and bytes for the nearest modes (numtorch leaves
    # torch's fixed-point byte interpolation out); antialiasing computes its weights apart,
    # in float32 or float64 only
    if mode.endswith("-aa"):
        dtypes = kernel("compute_index_ranges_weights", FLOATING)
    elif "nearest" in mode:
        dtypes = kernel("compute_indices_weights_nearest", FLOATS | {xp.dtype(xp.uint8)})
    else:
        dtypes = kernel(f"compute_indices_weights_{mode}", FLOATS)

    @defop(
        batch=batch_rules.leading(dims),
        name=name,
        node=prefix + "Backward0",
        dtypes=dtypes,
        input=lambda grad, input_shape, output_size, align_corners, scales: backward(
            grad, input_shape, output_size, align_corners, scales
        ),
        jvp=forward_jvp,
    )
    def forward(input, output_size, align_corners, scales):
        return _resample(input, mode, output_size, align_corners, scales)

    return forward


UPSAMPLE = {
    (mode, dims): _register(mode, dims)
    for mode, all_dims in (
        ("nearest", (1, 2, 3)),
        ("nearest-exact", (1, 2, 3)),
        ("linear", (1, 2, 3)),
        ("cubic", (2,)),
        ("linear-aa", (2,)),
        ("cubic-aa", (2,)),
    )
    for dims in all_dims
}


def output_size(input_shape, scales) -> tuple:
    """torch's output size for scale factors: ``size * scale`` truncated, per spatial dim."""
    dims = len(scales)
    return tuple(int(s * f) for s, f in zip(input_shape[-dims:], scales))

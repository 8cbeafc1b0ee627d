"""Fake quantization: round to the quantization grid and back in float, with torch's
straight-through gradient (the incoming gradient where the value fell inside
[quant_min, quant_max] on the grid, zero where it was clamped).

torch's kernel rounds ``x * (1 / scale)`` half to even, adds the zero point, clamps, and
maps back with ``(q - zero_point) * scale`` in float32; ``1 / scale`` is float32 too. A
float zero point (per channel) is added before the rounding instead.
"""

from __future__ import annotations

from .._core import batch_rules
from .._core.op import defop
from ..autograd.forward_grad import no_forward_derivative
from ..backend import xp


def _grid(x, scale, zero_point):
    """The unclamped grid index of each value of ``x`` (float; NaN stays NaN)."""
    inverse = (xp.float32(1.0) / xp.asarray(scale, dtype=xp.float32)).astype(x.dtype)
    if getattr(zero_point, "dtype", None) is not None and zero_point.dtype.kind == "f":
        # a float zero point (per channel) is added before rounding, in float32, as the
        # affine quantizer's equation reads: round(x / scale + zero_point)
        return xp.rint(x.astype(xp.float32) * inverse + zero_point.astype(xp.float32))
    return xp.rint(x * inverse) + zero_point


def _with_mask(x, scale, zero_point, quant_min, quant_max, per_channel=False):
    """The fake-quantized values and torch's cache mask: where the value landed inside the
    grid's range (its straight-through gradient passes there, is 0 where it was clamped).
    torch saves that mask for backward, not the input, so an in-place change of the input
    after the call does not fail the backward."""
    compute = x if x.dtype.itemsize >= 4 else x.astype(xp.float32)
    grid = _grid(compute, scale, zero_point)
    # Values off the grid's integers (NaN, infinities, beyond int64) follow torch's kernels on
    # x86: the per-tensor kernel clamps in float with fmax/fmin (NaN goes to quant_min), the
    # per-channel one converts to int64 first, where x86 gives INT64_MIN (so quant_min)
    q = xp.fmin(xp.fmax(grid, quant_min), quant_max)
    if per_channel:
        q = xp.where(xp.abs(grid) < 2.0**63, q, quant_min)  # NaN compares False too
    # torch maps back in float32 whatever the input's dtype: (q - zero_point) is an integer
    # times a float scale in its kernel; with a float zero point its kernel's difference and
    # product are in double, rounded once
    single = xp.asarray(scale, dtype=xp.float32)
    if q.dtype == xp.float32 and getattr(zero_point, "dtype", None) == xp.float32:
        out = ((q - zero_point.astype(xp.float64)) * single.astype(xp.float64)).astype(x.dtype)
    else:
        out = ((q - zero_point).astype(xp.float32) * single).astype(x.dtype, copy=False)
    return out, (grid >= quant_min) & (grid <= quant_max)


@defop(
    batch=batch_rules.pointwise,
    name="_fake_quantize_per_tensor",
    node="FakeQuantizePerTensorAffineCachemaskBackward0",
    aten="fake_quantize_per_tensor_affine",
    outputs=2,
    input=lambda grad, result1: grad * result1,
    jvp=no_forward_derivative("fake_quantize_per_tensor_affine_cachemask"),
)
def _fake_quantize_per_tensor(input, scale, zero_point, quant_min, quant_max):
    return _with_mask(input, scale, zero_point, quant_min, quant_max)


@defop(
    batch=batch_rules.pointwise,
    name="_fake_quantize_per_tensor_tensor_qparams",
    node="FakeQuantizePerTensorAffineCachemaskTensorQparamsBackward0",
    aten="fake_quantize_per_tensor_affine",
    outputs=2,
    input=lambda grad, result1: grad * result1,
    jvp=no_forward_derivative("_fake_quantize_per_tensor_affine_cachemask_tensor_qparams"),
)
def _fake_quantize_per_tensor_tensor_qparams(input, scale, zero_point, quant_min, quant_max):
    return _with_mask(input, scale, zero_point, quant_min, quant_max)


@defop(
    name="_fake_quantize_per_channel",
    node="FakeQuantizePerChannelAffineCachemaskBackward0",
    aten="fake_quantize_per_channel_affine",
    schema_args=6,  # (input, scale, zero_point, axis, quant_min, quant_max)
    outputs=2,
    input=lambda grad, result1: grad * result1,
    jvp=no_forward_derivative("fake_quantize_per_channel_affine_cachemask"),
)
def _fake_quantize_per_channel(input, scale, zero_point, quant_min, quant_max):
    # scale and zero_point arrive shaped to broadcast along the channel axis
    return _with_mask(input, scale, zero_point, quant_min, quant_max, per_channel=True)

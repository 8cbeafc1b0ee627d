"""torch.quantize_per_tensor, quantize_per_channel, quantize_per_tensor_dynamic.

The arithmetic is FBGEMM's (torch's x86 engine), in float32:
``q = clamp(rint(zero_point + x * (1 / scale)), qmin, qmax)``: the product and the sum each
round to float32, then the sum rounds half to even.
"""

from __future__ import annotations

import warnings

from .._core import dtypes as _dtypes
from .._core.dispatch import require_tensor
from .._core.tensor import Tensor
from ..backend import xp
from .tensor import (
    QUANT_RANGE,
    QParams,
    make_quantized,
    per_channel_affine,
    per_tensor_affine,
)

_warned = [False]


def _deprecated() -> None:
    # torch warns once per process that its quantized dtypes are deprecated
    if not _warned[0]:
        _warned[0] = True
        warnings.warn(
            "torch.quantize_per_tensor, torch.quantize_per_channel and other quantized tensor "
            "creation functions that produce tensors with dtype torch.quint8, torch.qint8, "
            "and torch.qint32 are deprecated and will be removed in a future PyTorch "
            "release. Please see https://github.com/pytorch/pytorch/issues/184982 for more "
            "information.",
            UserWarning,
            stacklevel=3,
        )


def _check_dtype(dtype) -> None:
    if dtype not in QUANT_RANGE:
        name = getattr(dtype, "scalar_name", dtype)
        raise RuntimeError(f"ScalarType {name} is not supported in new_qtensor.")
    if dtype not in (_dtypes.qint8, _dtypes.quint8, _dtypes.qint32):
        raise NotImplementedError(
            f"quantizing to {dtype} (sub-byte packed values) is not implemented in numtorch; "
            "use torch.quint8, torch.qint8 or torch.qint32"
        )


def _check_input(op: str, input) -> None:
    require_tensor(op, "input", 1, input)
    if input.is_quantized:
        raise NotImplementedError(
            f"Could not run 'aten::{op}' with arguments from the 'QuantizedCPU' backend: "
            "its input is quantized already (call .dequantize() first)"
        )
    if input.dtype is not _dtypes.float32:
        raise RuntimeError(f"Quantize only works on Float Tensor, got {input.dtype.scalar_name}")


def quantize_array(x, scale, zero_point, dtype):
    """FBGEMM's quantization of float32 array ``x`` (scale and zero point broadcast)."""
    low, high = QUANT_RANGE[dtype]
    inverse = xp.float32(1.0) / xp.asarray(scale, dtype=xp.float32)
    shifted = x * inverse + xp.asarray(zero_point, dtype=xp.float32)
    with xp.errstate(invalid="ignore", over="ignore"):
        rounded = xp.clip(xp.rint(shifted.astype(xp.float64)), low, high)
    rounded = xp.nan_to_num(rounded, nan=0.0)
    return rounded.astype(dtype.np)


def _number(value, kind, op: str, name: str, position: int):
    if isinstance(value, Tensor):
        return kind(value._data.reshape(-1)[0]) if value._data.size == 1 else kind(value.item())
    if kind is int and isinstance(value, float) or isinstance(value, bool):
        raise TypeError(
            f"{op}() received an invalid combination of arguments - argument '{name}' "
            f"(position {position}) must be {kind.__name__}, not {type(value).__name__}"
        )
    return kind(value)


def quantize_per_tensor(input, scale, zero_point, dtype):
    """Quantize ``input`` with one scale and zero point (a list of tensors takes tensors of
    scales and zero points, one per tensor).

    Example:
        >>> import numtorch as torch
        >>> x = torch.tensor([-1.0, 0.0, 1.0, 2.0])
        >>> torch.quantize_per_tensor(x, 0.1, 10, torch.quint8).int_repr()
        tensor([ 0, 10, 20, 30], dtype=torch.uint8)
    """
    if isinstance(input, (list, tuple)):
        scales = scale._data.reshape(-1) if isinstance(scale, Tensor) else scale
        zeros = zero_point._data.reshape(-1) if isinstance(zero_point, Tensor) else zero_point
        return [
            quantize_per_tensor(t, float(s), int(z), dtype) for t, s, z in zip(input, scales, zeros)
        ]
    _check_input("quantize_per_tensor", input)
    _check_dtype(dtype)
    scale = _number(scale, float, "quantize_per_tensor", "scale", 2)
    zero_point = _number(zero_point, int, "quantize_per_tensor", "zero_point", 3)
    low, high = QUANT_RANGE[dtype]
    if zero_point > high:
        raise RuntimeError(
            f"quantize_tensor_per_tensor_affine zero_point {zero_point} is above upper bound."
        )
    if zero_point < low:
        raise RuntimeError(
            f"quantize_tensor_per_tensor_affine zero_point {zero_point} is below lower bound."
        )
    _deprecated()
    data = quantize_array(input._data, scale, zero_point, dtype)
    return make_quantized(data, QParams(dtype, per_tensor_affine, scale, zero_point))


def quantize_per_channel(input, scales, zero_points, axis: int, dtype):
    """Quantize ``input`` with one scale and zero point per index along ``axis``.

    Example:
        >>> import numtorch as torch
        >>> x = torch.tensor([[-1.0, 0.0], [1.0, 2.0]])
        >>> scales, zero_points = torch.tensor([0.1, 0.01]), torch.tensor([10, 0])
        >>> torch.quantize_per_channel(x, scales, zero_points, 0, torch.quint8).int_repr()
        tensor([[  0,  10],
                [100, 200]], dtype=torch.uint8)
    """
    op = "quantize_per_channel"
    require_tensor(op, "scales", 2, scales)
    require_tensor(op, "zero_points", 3, zero_points)
    _check_input(op, input)
    _check_dtype(dtype)
    if zero_points.dtype.is_floating_point:
        raise NotImplementedError(
            "quantize_per_channel with float zero points (per_channel_affine_float_qparams) "
            "is not implemented in numtorch; give integer zero points"
        )
    ndim = input.ndim
    if not 0 <= axis < ndim:
        raise RuntimeError(
            "Channel axis out of range in per channel affine quantization. Got: "
            f"{axis}Expected: [0, {ndim})"
        )
    scale = scales._data.reshape(-1).astype(xp.float64)
    zero = zero_points._data.reshape(-1).astype(xp.int64)
    if scale.size != zero.size:
        raise RuntimeError("number of elements in scales and zero_points must match")
    if scale.size != input.shape[axis]:
        raise RuntimeError("length of scales must equal to channel")
    _deprecated()
    shape = [1] * ndim
    shape[axis] = -1
    data = quantize_array(input._data, scale.reshape(shape), zero.reshape(shape), dtype)
    return make_quantized(data, QParams(dtype, per_channel_affine, scale, zero, axis))


def choose_qparams(low: float, high: float, qmin: int, qmax: int) -> tuple[float, int]:
    """FBGEMM's scale and zero point for the range [low, high] (widened to hold 0)."""
    low, high = min(float(low), 0.0), max(float(high), 0.0)
    scale = (high - low) / (qmax - qmin)
    single = float(xp.float32(scale))
    if single == 0.0 or xp.isinf(xp.float32(1.0) / xp.float32(single)):
        scale = 0.1
    from_min = qmin - low / scale
    from_max = qmax - high / scale
    error_min = abs(qmin) - abs(low / scale)
    error_max = abs(qmax) - abs(high / scale)
    initial = from_min if error_min < error_max else from_max
    if initial < qmin:
        zero = qmin
    elif initial > qmax:
        zero = qmax
    else:
        zero = int(xp.rint(initial))
    return float(scale), zero


def dynamic_range(dtype, reduce_range: bool) -> tuple[int, int]:
    low, high = QUANT_RANGE[dtype]
    if reduce_range:
        return low // 2, high // 2
    return low, high


def quantize_per_tensor_dynamic(input, dtype, reduce_range: bool):
    """Quantize ``input`` with a scale and zero point chosen from its own range.

    Example:
        >>> import numtorch as torch
        >>> x = torch.tensor([-1.0, 0.0, 1.0, 2.0])
        >>> t = torch.quantize_per_tensor_dynamic(x, torch.quint8, False)
        >>> t.q_zero_point()
        85
    """
    _check_input("quantize_per_tensor_dynamic", input)
    if dtype not in (_dtypes.qint8, _dtypes.quint8):
        raise RuntimeError(f"dtype {dtype.scalar_name}not supported")
    qmin, qmax = dynamic_range(dtype, reduce_range)
    data = input._data
    low = float(data.min()) if data.size else 0.0
    high = float(data.max()) if data.size else 0.0
    scale, zero = choose_qparams(low, high, qmin, qmax)
    _deprecated()
    return make_quantized(
        quantize_array(data, scale, zero, dtype),
        QParams(dtype, per_tensor_affine, scale, zero),
    )

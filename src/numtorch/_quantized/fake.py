"""torch.fake_quantize_per_tensor_affine and fake_quantize_per_channel_affine: argument
checks and overload choice around the entries of ``ops/fake_quantize.py``."""

from __future__ import annotations

from .._core import dtypes as _dtypes
from .._core.dispatch import require_tensor
from .._core.tensor import Tensor
from ..ops.fake_quantize import (
    _fake_quantize_per_channel,
    _fake_quantize_per_tensor,
    _fake_quantize_per_tensor_tensor_qparams,
)


def _check_range(op: str, input, zero_points, quant_min, quant_max) -> None:
    for name, value in (("quant_min", quant_min), ("quant_max", quant_max)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{op}(): argument '{name}' must be int, not {type(value).__name__}")
    require_tensor(op, "input", 1, input)
    if not input.dtype.is_floating_point or input.is_quantized:
        raise NotImplementedError(
            f'"fake_quantize_tensor_cachemask_kernel_type_handling" not implemented for '
            f"'{input.dtype.scalar_name}'"
        )
    if quant_min > quant_max:
        raise RuntimeError("`quant_min` should be less than or         equal to `quant_max`.")
    for z in zero_points:
        if not quant_min <= z <= quant_max:
            raise RuntimeError("`zero_point` must be between `quant_min` and `quant_max`.")


def fake_quantize_per_tensor_affine(input, scale, zero_point, quant_min: int, quant_max: int):
    """Quantize and dequantize ``input`` on one grid; the gradient passes straight through
    where the value is inside [quant_min, quant_max].

    Example:
        >>> import numtorch as torch
        >>> torch.fake_quantize_per_tensor_affine(torch.tensor([0.04, 0.26, 9.0]), 0.1, 0, 0, 50)
        tensor([0.0000, 0.3000, 5.0000])
    """
    op = "fake_quantize_per_tensor_affine"
    if isinstance(scale, Tensor) or isinstance(zero_point, Tensor):
        # the overload of tensor qparams: one-element tensors, read as numbers
        scale_value = float(scale.item() if isinstance(scale, Tensor) else scale)
        zero_value = int(zero_point.item() if isinstance(zero_point, Tensor) else zero_point)
        _check_range(op, input, (zero_value,), quant_min, quant_max)
        entry = _fake_quantize_per_tensor_tensor_qparams
    else:
        if isinstance(zero_point, float) or isinstance(scale, bool):
            raise TypeError(
                f"{op}() received an invalid combination of arguments - got "
                f"(Tensor, {type(scale).__name__}, {type(zero_point).__name__}, int, int)"
            )
        scale_value, zero_value = float(scale), int(zero_point)
        _check_range(op, input, (zero_value,), quant_min, quant_max)
        entry = _fake_quantize_per_tensor
    return entry(input, scale_value, zero_value, quant_min, quant_max)[0]


def fake_quantize_per_channel_affine(
    input, scale, zero_point, axis: int, quant_min: int, quant_max: int
):
    """Quantize and dequantize ``input`` with one grid per index along ``axis``; the
    gradient passes straight through where the value is inside [quant_min, quant_max].

    Example:
        >>> import numtorch as torch
        >>> x = torch.tensor([[0.04, 0.26], [0.5, 9.0]])
        >>> scales, zero_points = torch.tensor([0.1, 1.0]), torch.tensor([0, 0], dtype=torch.int32)
        >>> torch.fake_quantize_per_channel_affine(x, scales, zero_points, 0, 0, 5)
        tensor([[0.0000, 0.3000],
                [0.0000, 5.0000]])
    """
    op = "fake_quantize_per_channel_affine"
    require_tensor(op, "scale", 2, scale)
    require_tensor(op, "zero_point", 3, zero_point)
    if scale.dtype not in (_dtypes.float32, _dtypes.bfloat16):
        raise RuntimeError(f"Scale must be Float or BFloat16, found {scale.dtype.scalar_name}")
    if zero_point.dtype not in (_dtypes.int32, _dtypes.float32, _dtypes.float16):
        raise RuntimeError(
            f"Zero-point must be Int32, Float or Half, found {zero_point.dtype.scalar_name}"
        )
    if scale.ndim != 1:
        raise RuntimeError("scale should be a 1-D tensor")
    if zero_point.ndim != 1:
        raise RuntimeError("zero_point should be a 1-D tensor")
    if scale.numel() != zero_point.numel():
        raise RuntimeError("scale and zero-point need to have the same dimensions")
    require_tensor(op, "input", 1, input)
    ndim = input.ndim
    if not -ndim <= axis < ndim:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], "
            f"but got {axis})"
        )
    axis %= ndim
    channels = input.shape[axis]
    if scale.numel() != channels:
        raise RuntimeError(
            "dimensions of scale and zero-point are not consistent with input tensor"
        )
    if zero_point.dtype.is_floating_point:  # torch checks no range for float zero points
        zeros = zero_point._data.astype("float32")
        _check_range(op, input, (), quant_min, quant_max)
    else:
        zeros = zero_point._data.astype("int64")
        _check_range(op, input, zeros.tolist(), quant_min, quant_max)
    shape = [1] * input.ndim
    shape[axis] = channels
    return _fake_quantize_per_channel(
        input,
        scale._data.astype("float32").reshape(shape),
        zeros.reshape(shape),
        quant_min,
        quant_max,
    )[0]

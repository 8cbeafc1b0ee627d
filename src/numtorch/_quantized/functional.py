"""torch's quantized kernels at the top level: quantized_batch_norm, quantized_max_pool1d/2d.

They read the integers of a per-tensor quantized input and give a quantized result:
max pooling keeps the input's scale (the maximum of integers is the integer of the maximum,
for a positive scale), batch norm requantizes to the scale and zero point it is given.
"""

from __future__ import annotations

from .._core.dispatch import require_tensor
from .._core.tensor import Tensor
from ..backend import xp
from ..nn import functional as F
from .quantize import quantize_array
from .tensor import QParams, make_quantized


def _quantized_input(op: str, input) -> None:
    require_tensor(op, "input", 1, input)
    if not input.is_quantized:
        raise NotImplementedError(
            f"Could not run 'aten::{op}' with arguments from the 'CPU' backend: {op} takes a "
            "quantized tensor (torch.quantize_per_tensor makes one)"
        )
    if input._q.per_channel:
        raise RuntimeError(f"{op}: only per-tensor quantized inputs are supported")


def _pooled(pool, input, *args):
    """``pool`` run on the integers (exact in float64), back as ``input``'s integers."""
    values = Tensor._make(input._data.astype(xp.float64))
    out = pool(values, *args)
    return make_quantized(out._data.astype(input._data.dtype), input._q)


def quantized_max_pool1d(
    input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False
) -> Tensor:
    """1-D max pooling of a quantized tensor of shape (C, L) or (N, C, L)."""
    _quantized_input("quantized_max_pool1d", input)
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"max_pool1d() Expected 2D or 3D input tensor, but got {list(input.shape)}"
        )
    stride = stride if stride not in ((), []) else None
    return _pooled(F.max_pool1d, input, kernel_size, stride, padding, dilation, ceil_mode)


def quantized_max_pool2d(
    input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False
) -> Tensor:
    """2-D max pooling of a quantized tensor of shape (C, H, W) or (N, C, H, W).

    Example:
        >>> import numtorch as torch
        >>> x = torch.arange(16.0).reshape(1, 1, 4, 4)
        >>> qx = torch.quantize_per_tensor(x, 1.0, 0, torch.quint8)
        >>> torch.quantized_max_pool2d(qx, [2, 2]).int_repr()
        tensor([[[[ 5,  7],
                  [13, 15]]]], dtype=torch.uint8)
    """
    _quantized_input("quantized_max_pool2d", input)
    if input.ndim not in (3, 4):
        raise RuntimeError("Expecting the input tensor of rank 3 or 4.")
    stride = stride if stride not in ((), []) else None
    return _pooled(F.max_pool2d, input, kernel_size, stride, padding, dilation, ceil_mode)


def quantized_batch_norm(
    input, weight, bias, mean, var, eps: float, output_scale: float, output_zero_point: int
) -> Tensor:
    """Batch norm (inference) of a quantized tensor, requantized to ``output_scale`` and
    ``output_zero_point``; channels along dim 1.

    FBGEMM folds everything into one multiply-add per value on the integers:
    ``q_out = rint((q - zero_point) * alpha * scale / output_scale + beta / output_scale
    + output_zero_point)``, alpha = weight / sqrt(var + eps), beta = bias - mean * alpha.
    """
    _quantized_input("quantized_batch_norm", input)
    channels = input.shape[1] if input.ndim > 1 else 0
    arrays = []
    for t in (weight, bias, mean, var):
        if not isinstance(t, Tensor) or t.numel() != channels:
            raise RuntimeError("Expect weight size to match C")
        arrays.append(t._data.astype(xp.float32))
    w, b, m, v = arrays
    params = input._q
    alpha = w / xp.sqrt(v + xp.float32(eps))
    beta = b - m * alpha
    out_scale = xp.float32(output_scale)
    scaled_alpha = alpha * xp.float32(params.scale) / out_scale
    shifted_beta = beta / out_scale + xp.float32(output_zero_point)
    shape = [1] * input.ndim
    shape[1] = channels
    shifted = (input._data.astype(xp.float32) - xp.float32(params.zero_point)) * (
        scaled_alpha.reshape(shape)
    ) + shifted_beta.reshape(shape)
    # the values are on the output grid already: quantize with scale 1 and zero point 0
    data = quantize_array(shifted, 1.0, 0, params.dtype)
    out = QParams(params.dtype, params.qscheme, float(output_scale), int(output_zero_point))
    return make_quantized(data, out)

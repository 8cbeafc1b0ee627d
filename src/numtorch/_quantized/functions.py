"""torch's top-level names for quantized tensors' methods (``torch.dequantize(t)``)."""

from __future__ import annotations

from .._core.tensor import Tensor


def dequantize(tensor):
    """The float tensor of a quantized one (a list of them gives a list).

    Example:
        >>> import numtorch as torch
        >>> q = torch.quantize_per_tensor(torch.tensor([0.5, 1.0]), 0.5, 0, torch.qint8)
        >>> torch.dequantize(q)
        tensor([0.5000, 1.0000])
    """
    if isinstance(tensor, (list, tuple)):
        for t in tensor:
            if not t.is_quantized:
                t.int_repr()  # torch's error for a tensor that is not quantized
        return [t.dequantize() for t in tensor]
    return tensor.dequantize()


def int_repr(input: Tensor) -> Tensor:
    return input.int_repr()


def q_scale(input: Tensor) -> float:
    return input.q_scale()


def q_zero_point(input: Tensor) -> int:
    return input.q_zero_point()


def q_per_channel_scales(input: Tensor) -> Tensor:
    return input.q_per_channel_scales()


def q_per_channel_zero_points(input: Tensor) -> Tensor:
    return input.q_per_channel_zero_points()


def q_per_channel_axis(input: Tensor) -> int:
    return input.q_per_channel_axis()

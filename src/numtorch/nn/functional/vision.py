"""Resampling and rearranging of images in ``numtorch.nn.functional``: ``interpolate``,
``pixel_shuffle``/``pixel_unshuffle`` and ``unfold``/``fold``, with torch's argument checks."""

from __future__ import annotations

import math
import numbers
import warnings

from ..._core.tensor import Tensor, _read_dim
from ...ops.nn import fold as fold_ops
from ...ops.nn import upsample as U
from .pooling import adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d

_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"
_LINEAR = {"linear": 3, "bilinear": 4, "trilinear": 5}


def _resolve_size(input, size, scale_factor, recompute_scale_factor, mode):
    """torch's interpolate logic: (output size or None, scale factors or None)."""
    dim = input.ndim - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {list(input.shape[2:])} and output size "
                    f"of {size}. Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                    "and output size in (o1, o2, ...,oK) format."
                )
            if not all(isinstance(s, numbers.Integral) for s in size):
                raise TypeError(
                    "expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                    f"Tuple[int, int, int], but got size with types {[type(s) for s in size]}"
                )
            output_size = tuple(int(s) for s in size)
        else:
            output_size = (int(size),) * dim
        scales = None
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but "
                    f"got input with spatial dimensions of {list(input.shape[2:])} and "
                    f"scale_factor of shape {scale_factor}. Please provide input tensor in (N, "
                    "C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format."
                )
            scales = tuple(float(s) for s in scale_factor)
        else:
            scales = (float(scale_factor),) * dim
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if recompute_scale_factor or (mode == "area" and output_size is None):
        output_size = tuple(math.floor(input.shape[i + 2] * scales[i]) for i in range(dim))
        scales = None
    return output_size, scales


def _check_sizes(input, output_size):
    spatial = input.shape[2:]
    if any(s <= 0 for s in output_size) or any(s <= 0 for s in spatial):
        names = {1: "W", 2: "HW", 3: "DHW"}[len(spatial)]
        given = ", ".join(f"{n}: {s}" for n, s in zip(names, spatial))
        wanted = ", ".join(f"{n}: {s}" for n, s in zip(names, output_size))
        joint = " and" if len(spatial) == 1 else ""
        raise RuntimeError(
            f"Input and output sizes should be greater than 0, but got input ({given}){joint} "
            f"output ({wanted})"
        )
    if input.numel() == 0 and math.prod(input.shape[1:]) == 0:  # only the batch may be empty
        raise RuntimeError(
            f"Non-empty {input.ndim}D data tensor expected but got a tensor with sizes "
            f"{list(input.shape)}"
        )


def interpolate(
    input: Tensor,
    size=None,
    scale_factor=None,
    mode: str = "nearest",
    align_corners=None,
    recompute_scale_factor=None,
    antialias: bool = False,
) -> Tensor:
    """Resample the spatial dims of an (N, C, ...) input to ``size`` or by ``scale_factor``.

    Modes: ``nearest``, ``nearest-exact``, ``linear`` (3-D input), ``bilinear`` (4-D),
    ``bicubic`` (4-D), ``trilinear`` (5-D) and ``area`` (adaptive average pooling). Source
    positions follow torch exactly, including ``align_corners`` and the use of
    ``scale_factor`` itself (not the size ratio) unless ``recompute_scale_factor``.

    Example:
        >>> import numtorch as torch
        >>> x = torch.tensor([[[1.0, 2.0]]])
        >>> torch.nn.functional.interpolate(x, scale_factor=2, mode="linear")
        tensor([[[1.0000, 1.2500, 1.7500, 2.0000]]])
    """
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError(
                "align_corners option can only be set with the interpolating modes: linear | "
                "bilinear | bicubic | trilinear"
            )
    elif align_corners is None:
        align_corners = False
    output_size, scales = _resolve_size(input, size, scale_factor, recompute_scale_factor, mode)
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.ndim == 4):
        raise ValueError(
            "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and "
            "requires a 4-D tensor as input"
        )
    ndim = input.ndim
    dims = ndim - 2
    supported = ndim in (3, 4, 5) and (
        mode in ("nearest", "nearest-exact", "area")
        or _LINEAR.get(mode) == ndim
        or (mode == "bicubic" and ndim == 4)
    )
    if supported:
        if mode == "area":
            pool = (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d)[dims - 1]
            return pool(input, output_size if dims > 1 else output_size[0])
        if output_size is None:
            output_size = U.output_size(input.shape, scales)
        _check_sizes(input, output_size)
        kind = "cubic" if mode == "bicubic" else "linear" if mode in _LINEAR else mode
        if antialias and mode != "lanczos":
            kind += "-aa"
        return U.UPSAMPLE[(kind, dims)](input, output_size, bool(align_corners), scales)
    if mode in _LINEAR and ndim in (3, 4, 5):
        raise NotImplementedError(
            f"Got {ndim}D input, but {mode} mode needs {_LINEAR[mode]}D input"
        )
    raise NotImplementedError(
        f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {ndim}D) for the modes: "
        f"{_MODES} (got {mode})"
    )


# -- pixel shuffle ---------------------------------------------------------------------------
def _check_shuffle(name, input, factor, what):
    if input.ndim < 3:
        raise RuntimeError(
            f"{name} expects input to have at least 3 dimensions, but got input with "
            f"{input.ndim} dimension(s)"
        )
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {what}, but got {factor}")


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """(*, C r^2, H, W) -> (*, C, H r, W r): channels become sub-pixel positions.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.pixel_shuffle(torch.arange(4.0).reshape(1, 4, 1, 1), 2)
        tensor([[[[0., 1.],
                  [2., 3.]]]])
    """
    _check_shuffle("pixel_shuffle", input, upscale_factor, "upscale_factor")
    channels = input.shape[-3]
    if channels % (upscale_factor * upscale_factor):
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
            f"of upscale_factor, but input.size(-3)={channels} is not divisible by "
            f"{upscale_factor * upscale_factor}"
        )
    return fold_ops.pixel_shuffle_op(input, upscale_factor)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """(*, C, H r, W r) -> (*, C r^2, H, W), the inverse of ``pixel_shuffle``."""
    _check_shuffle("pixel_unshuffle", input, downscale_factor, "downscale_factor")
    for name, dim in (("height", -2), ("width", -1)):
        if input.shape[dim] % downscale_factor:
            raise RuntimeError(
                f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                f"input.size({dim})={input.shape[dim]} is not divisible by {downscale_factor}"
            )
    return fold_ops.pixel_unshuffle_op(input, downscale_factor)


# -- unfold, fold ----------------------------------------------------------------------------
def _pair(value, name):
    if isinstance(value, numbers.Integral):
        return (int(value),) * 2
    value = tuple(value)
    if len(value) != 2:
        raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(value)}")
    return value


def _check_window(kernel, dilation, padding, stride):
    checks = (
        (kernel, 1, "kernel size should be greater than zero", "kernel"),
        (dilation, 1, "dilation should be greater than zero", "dilation"),
        (padding, 0, "padding should be non-negative", "pad"),
        (stride, 1, "stride should be greater than zero", "stride"),
    )
    for values, least, message, name in checks:
        if any(v < least for v in values):
            raise RuntimeError(
                f"{message}, but got {name}_height: {values[0]} {name}_width: {values[1]}"
            )


def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Sliding blocks of a (N, C, H, W) input as columns: (N, C * kH * kW, L) (im2col).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.unfold(torch.arange(9.0).reshape(1, 1, 3, 3), 2)
        tensor([[[0., 1., 3., 4.],
                 [1., 2., 4., 5.],
                 [3., 4., 6., 7.],
                 [4., 5., 7., 8.]]])
    """
    kernel, dilation = _pair(kernel_size, "kernel_size"), _pair(dilation, "dilation")
    padding, stride = _pair(padding, "padding"), _pair(stride, "stride")
    _check_window(kernel, dilation, padding, stride)
    if input.ndim < 3:  # torch reads the channel and spatial sizes before the rank check
        for d in (1, 2, 3):
            _read_dim(input.ndim, d)
    if input.ndim not in (3, 4) or any(s == 0 for s in input.shape[-3:]):
        raise RuntimeError(
            "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
            f"dimensions for input, but got: {list(input.shape)}"
        )
    blocks = fold_ops.block_counts(input.shape[-2:], kernel, dilation, padding, stride)
    if any(b < 1 for b in blocks):
        raise RuntimeError(
            f"Given input with spatial size {tuple(input.shape[-2:])}, kernel_size={kernel}, "
            f"dilation={dilation}, padding={padding}, calculated shape of the array of sliding "
            f"blocks as {blocks}, but its components must be at least one."
        )
    return fold_ops.im2col_op(input, kernel, dilation, padding, stride)


def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Sum columns of sliding blocks back into an image (col2im), the adjoint of ``unfold``."""
    output_size = _pair(output_size, "output_size")
    kernel, dilation = _pair(kernel_size, "kernel_size"), _pair(dilation, "dilation")
    padding, stride = _pair(padding, "padding"), _pair(stride, "stride")
    _check_window(kernel, dilation, padding, stride)
    if input.ndim not in (2, 3) or any(s == 0 for s in input.shape[-2:]):
        raise RuntimeError(
            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
            f"non-zero dimensions for input, but got: {list(input.shape)}"
        )
    columns = input.shape[-2]
    if columns % (kernel[0] * kernel[1]):
        raise RuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of "
            f"kernel_size, but got input.size(1)={columns} and kernel_size={kernel}."
        )
    blocks = fold_ops.block_counts(output_size, kernel, dilation, padding, stride)
    if any(b < 1 for b in blocks) or input.shape[-1] != blocks[0] * blocks[1]:
        raise RuntimeError(
            f"Given output_size={output_size}, kernel_size={kernel}, dilation={dilation}, "
            f"padding={padding}, stride={stride}, expected size of input's dimension 2 to match "
            f"the calculated number of sliding blocks {blocks[0]} * {blocks[1]} = "
            f"{blocks[0] * blocks[1]}, but got input.size(2)={input.shape[-1]}."
        )
    return fold_ops.col2im_op(input, output_size, kernel, dilation, padding, stride)


# The deprecated spellings older code still calls: interpolate with their fixed modes, and
# torch's warning.
def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated ``interpolate``."""
    warnings.warn(
        "`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated ``interpolate(mode="nearest")``."""
    warnings.warn(
        "`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated ``interpolate(mode="bilinear", align_corners=True)``."""
    warnings.warn(
        "`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)

"""Pooling layers: MaxPool1d/2d/3d, AvgPool1d/2d/3d, AdaptiveAvgPool1d/2d/3d,
AdaptiveMaxPool1d/2d/3d, LPPool1d/2d/3d and MaxUnpool1d/2d/3d."""

from __future__ import annotations

from .. import functional as F
from .module import Module


class _MaxPoolNd(Module):
    def __init__(
        self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
        )

    def _pool(self, input, fn):
        return fn(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )


class MaxPool1d(_MaxPoolNd):
    def forward(self, input):
        return self._pool(input, F.max_pool1d)


class MaxPool2d(_MaxPoolNd):
    """Max over (kH, kW) windows (grad_fn ``MaxPool2DWithIndicesBackward0``).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.MaxPool2d(2)(torch.ones(1, 1, 4, 4)).shape
        torch.Size([1, 1, 2, 2])
    """

    def forward(self, input):
        return self._pool(input, F.max_pool2d)


class MaxPool3d(_MaxPoolNd):
    def forward(self, input):
        return self._pool(input, F.max_pool3d)


class _AvgPoolNd(Module):
    _dims = 2

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode=False,
        count_include_pad=True,
        divisor_override=None,
    ):
        super().__init__()
        if self._dims == 1:
            kernel_size = _single(kernel_size)
            stride = _single(stride if stride is not None else kernel_size)
            padding = _single(padding)
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


def _single(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class AvgPool1d(_AvgPoolNd):
    _dims = 1

    def __init__(
        self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True
    ):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)

    def forward(self, input):
        return F.avg_pool1d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
        )


class AvgPool2d(_AvgPoolNd):
    """Mean over (kH, kW) windows (grad_fn ``AvgPool2DBackward0``).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.AvgPool2d(2)(torch.ones(1, 1, 4, 4))
        tensor([[[[1., 1.],
                  [1., 1.]]]])
    """

    def forward(self, input):
        return F.avg_pool2d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )


class AvgPool3d(_AvgPoolNd):
    _dims = 3

    def forward(self, input):
        return F.avg_pool3d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )


class _AdaptiveAvgPoolNd(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """Average pooling to a fixed output size (e.g. ``(1, 1)`` for global pooling).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.AdaptiveAvgPool2d((1, 1))(torch.ones(2, 3, 7, 7)).shape
        torch.Size([2, 3, 1, 1])
    """

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    def forward(self, input):
        return F.adaptive_avg_pool3d(input, self.output_size)


class _AdaptiveMaxPoolNd(Module):
    def __init__(self, output_size, return_indices: bool = False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    def forward(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Max pooling to a fixed output size (grad_fn ``AdaptiveMaxPool2DBackward0``).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.AdaptiveMaxPool2d((None, 2))(torch.ones(1, 3, 5, 4)).shape
        torch.Size([1, 3, 5, 2])
    """

    def forward(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    def forward(self, input):
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class _LPPoolNd(Module):
    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}, ceil_mode={self.ceil_mode}"
        )


class LPPool1d(_LPPoolNd):
    """``(sum over each window of x**p) ** (1/p)``: p=1 is sum pooling, p=inf max pooling."""

    def forward(self, input):
        return F.lp_pool1d(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(_LPPoolNd):
    """2-D power-average pooling over (kH, kW) windows.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.LPPool2d(2, 2)(torch.full((1, 1, 2, 2), 3.0))
        tensor([[[[6.]]]])
    """

    def forward(self, input):
        return F.lp_pool2d(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool3d(_LPPoolNd):
    """3-D power-average pooling over (kD, kH, kW) windows."""

    def forward(self, input):
        return F.lp_pool3d(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


def _ntuple(value, n: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _MaxUnpoolNd(Module):
    _dims = 2

    def __init__(self, kernel_size, stride=None, padding=0) -> None:
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, self._dims)
        self.stride = _ntuple(stride if stride is not None else kernel_size, self._dims)
        self.padding = _ntuple(padding, self._dims)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"

    def forward(self, input, indices, output_size=None):
        unpool = (F.max_unpool1d, F.max_unpool2d, F.max_unpool3d)[self._dims - 1]
        return unpool(input, indices, self.kernel_size, self.stride, self.padding, output_size)


class MaxUnpool1d(_MaxUnpoolNd):
    """Inverse of ``MaxPool1d``: values back at their recorded positions, zeros elsewhere."""

    _dims = 1


class MaxUnpool2d(_MaxUnpoolNd):
    """Inverse of ``MaxPool2d(return_indices=True)``; ``output_size`` resolves the sizes
    that pooling maps to the same output.

    Example:
        >>> import numtorch as torch
        >>> pool, unpool = torch.nn.MaxPool2d(2, return_indices=True), torch.nn.MaxUnpool2d(2)
        >>> unpool(*pool(torch.ones(1, 1, 2, 2)))
        tensor([[[[1., 0.],
                  [0., 0.]]]])
    """

    _dims = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """Inverse of ``MaxPool3d(return_indices=True)``."""

    _dims = 3


class _FractionalMaxPoolNd(Module):
    _dims = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None,
                 return_indices: bool = False, _random_samples=None):  # fmt: skip
        super().__init__()
        n, name = self._dims, type(self).__name__
        self.kernel_size = _ntuple(kernel_size, n)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = None if output_size is None else _ntuple(output_size, n)
        self.output_ratio = None if output_ratio is None else _ntuple(output_ratio, n)
        if output_size is None and output_ratio is None:
            raise ValueError(
                f"{name} requires specifying either an output size, or a pooling ratio"
            )
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):
        pool = F.fractional_max_pool2d if self._dims == 2 else F.fractional_max_pool3d
        return pool(input, self.kernel_size, self.output_size, self.output_ratio,
                    self.return_indices, _random_samples=self._random_samples)  # fmt: skip


def _ntuple(value, n: int) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Fractional max pooling over (N, C, H, W) (grad_fn ``FractionalMaxPool2DBackward0``).

    Example:
        >>> import numtorch as torch
        >>> pool = torch.nn.FractionalMaxPool2d(2, output_ratio=0.5)
        >>> pool(torch.ones(1, 3, 8, 8)).shape
        torch.Size([1, 3, 4, 4])
    """

    _dims = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    _dims = 3

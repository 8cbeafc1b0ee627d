"""Convolution layers: Conv1d/2d/3d and ConvTranspose1d/2d/3d."""

from __future__ import annotations

import math

from ... import _creation
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


def _ntuple(value, n: int) -> tuple:
    if isinstance(value, (tuple, list)):
        return tuple(value) if len(value) != 1 else tuple(value) * n
    return (value,) * n


class _ConvNd(Module):
    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride,
        padding,
        dilation,
        transposed,
        output_padding,
        groups,
        bias,
        padding_mode,
        dtype,
        dims,
    ):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(
                    f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}"
                )
            if padding == "same" and any(s != 1 for s in _ntuple(stride, dims)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(
                f"padding_mode must be one of {_PADDING_MODES}, but got "
                f"padding_mode='{padding_mode}'"
            )
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _ntuple(kernel_size, dims)
        self.stride = _ntuple(stride, dims)
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, dims)
        self.dilation = _ntuple(dilation, dims)
        self.transposed = transposed
        self.output_padding = _ntuple(output_padding, dims)
        self.groups = groups
        self.padding_mode = padding_mode
        # F.pad's (left, right) pairs, last dim first, for the non-zero padding modes
        if isinstance(self.padding, str):
            pairs = [(0, 0)] * dims
            if padding == "same":
                totals = [d * (k - 1) for d, k in zip(self.dilation, self.kernel_size)]
                pairs = [(t // 2, t - t // 2) for t in totals]
        else:
            pairs = [(p, p) for p in self.padding]
        self._reversed_padding_repeated_twice = [x for pair in reversed(pairs) for x in pair]
        if transposed:
            shape = (in_channels, out_channels // groups, *self.kernel_size)
        else:
            shape = (out_channels, in_channels // groups, *self.kernel_size)
        self.weight = Parameter(_creation.empty(shape, dtype=dtype))
        if bias:
            self.bias = Parameter(_creation.empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        # torch's default: kaiming_uniform_(a=sqrt(5)), bias U(-1/sqrt(fan_in), 1/sqrt(fan_in))
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        s = (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}"
        )
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s

    def _conv_forward(self, input, conv):
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return conv(padded, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)
        return conv(
            input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups
        )


class Conv1d(_ConvNd):
    """1-D convolution over (N, C_in, L) inputs; weight (C_out, C_in/groups, k)."""

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups=1,
        bias=True,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            False,
            0,
            groups,
            bias,
            padding_mode,
            dtype,
            1,
        )

    def forward(self, input):
        return self._conv_forward(input, F.conv1d)


class Conv2d(_ConvNd):
    """2-D convolution over (N, C_in, H, W) inputs; weight (C_out, C_in/groups, kH, kW).

    Example:
        >>> import numtorch as torch
        >>> conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        >>> conv(torch.ones(2, 3, 5, 5)).shape
        torch.Size([2, 8, 5, 5])
        >>> conv
        Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))
    """

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups=1,
        bias=True,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            False,
            0,
            groups,
            bias,
            padding_mode,
            dtype,
            2,
        )

    def forward(self, input):
        return self._conv_forward(input, F.conv2d)


class Conv3d(_ConvNd):
    """3-D convolution over (N, C_in, D, H, W) inputs."""

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups=1,
        bias=True,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            False,
            0,
            groups,
            bias,
            padding_mode,
            dtype,
            3,
        )

    def forward(self, input):
        return self._conv_forward(input, F.conv3d)


class _ConvTransposeNd(_ConvNd):
    _dims = 2

    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        groups=1,
        bias=True,
        dilation=1,
        padding_mode="zeros",
        device=None,
        dtype=None,
    ):
        if padding_mode != "zeros":
            raise ValueError(
                f'Only "zeros" padding mode is supported for {self.__class__.__name__}'
            )
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            True,
            output_padding,
            groups,
            bias,
            padding_mode,
            dtype,
            self._dims,
        )

    def _output_padding(self, input, output_size):
        if output_size is None:
            return self.output_padding
        dims = self._dims
        output_size = list(output_size)[-dims:]
        padding = []
        for d in range(dims):
            size = input.shape[d - dims]
            smallest = (
                (size - 1) * self.stride[d]
                - 2 * self.padding[d]
                + (self.dilation[d] * (self.kernel_size[d] - 1) + 1)
            )
            largest = smallest + self.stride[d] - 1
            if not smallest <= output_size[d] <= largest:
                raise ValueError(
                    f"requested an output size of {output_size}, but valid sizes range from "
                    f"{smallest} to {largest} (for an input of {list(input.shape[-dims:])})"
                )
            padding.append(output_size[d] - smallest)
        return tuple(padding)

    def forward(self, input, output_size=None):
        conv = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[self._dims]
        output_padding = self._output_padding(input, output_size)
        return conv(
            input,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            output_padding,
            self.groups,
            self.dilation,
        )


class ConvTranspose1d(_ConvTransposeNd):
    """1-D transposed convolution; weight (C_in, C_out/groups, k)."""

    _dims = 1


class ConvTranspose2d(_ConvTransposeNd):
    """2-D transposed convolution ("deconvolution"); weight (C_in, C_out/groups, kH, kW).

    Example:
        >>> import numtorch as torch
        >>> up = torch.nn.ConvTranspose2d(4, 2, 2, stride=2)
        >>> up(torch.ones(1, 4, 3, 3)).shape
        torch.Size([1, 2, 6, 6])
    """

    _dims = 2


class ConvTranspose3d(_ConvTransposeNd):
    _dims = 3

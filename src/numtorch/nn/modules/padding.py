"""Padding layers: zero, constant, reflection, replication and circular padding of the last
1, 2 or 3 dims (all through ``F.pad``)."""

from __future__ import annotations

from .. import functional as F
from .module import Module


def _ntuple(padding, n: int) -> tuple:
    return tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * n


class _PadNd(Module):
    _mode = "constant"
    _dims = 1

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(padding, 2 * self._dims)

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value: float):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dim with ``value``.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.ConstantPad1d((1, 2), 0.5)(torch.ones(1, 2))
        tensor([[0.5000, 1.0000, 1.0000, 0.5000, 0.5000]])
    """


class ConstantPad2d(_ConstantPadNd):
    _dims = 2


class ConstantPad3d(_ConstantPadNd):
    _dims = 3


class _ZeroPad:
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(_ZeroPad, ConstantPad1d):
    pass


class ZeroPad2d(_ZeroPad, ConstantPad2d):
    pass


class ZeroPad3d(_ZeroPad, ConstantPad3d):
    pass


class _ReflectionPadNd(_PadNd):
    _mode = "reflect"


class ReflectionPad1d(_ReflectionPadNd):
    pass


class ReflectionPad2d(_ReflectionPadNd):
    _dims = 2


class ReflectionPad3d(_ReflectionPadNd):
    _dims = 3


class _ReplicationPadNd(_PadNd):
    _mode = "replicate"


class ReplicationPad1d(_ReplicationPadNd):
    pass


class ReplicationPad2d(_ReplicationPadNd):
    _dims = 2


class ReplicationPad3d(_ReplicationPadNd):
    _dims = 3


class _CircularPadNd(_PadNd):
    _mode = "circular"

    def forward(self, input):
        low = self._dims + 1
        if input.ndim not in (low, low + 1):
            raise ValueError(f"expected {low}D or {low + 1}D input (got {input.ndim}D input)")
        return F.pad(input, self.padding, "circular")


class CircularPad1d(_CircularPadNd):
    pass


class CircularPad2d(_CircularPadNd):
    _dims = 2


class CircularPad3d(_CircularPadNd):
    _dims = 3

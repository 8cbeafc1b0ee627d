"""Activation layers."""

from __future__ import annotations

from .. import functional as F
from .module import Module


class ReLU(Module):
    """max(x, 0).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.ReLU()(torch.tensor([-1.0, 1.0]))
        tensor([0., 1.])
    """

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class ReLU6(ReLU):
    def forward(self, input):
        return F.relu6(input, inplace=self.inplace)


class LeakyReLU(Module):
    """x for x > 0, else ``negative_slope * x``."""

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class GELU(Module):
    """x * Phi(x) (Phi: the standard normal CDF, via erf), or its tanh approximation."""

    def __init__(self, approximate: str = "none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    """x * sigmoid(x)."""

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    """1 / (1 + exp(-x))."""

    def forward(self, input):
        return input.sigmoid()


class Tanh(Module):
    def forward(self, input):
        return input.tanh()


class Hardtanh(Module):
    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False):
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        extra = ", inplace=True" if self.inplace else ""
        return f"min_val={self.min_val}, max_val={self.max_val}{extra}"


class Softplus(Module):
    def __init__(self, beta: float = 1.0, threshold: float = 20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class Softmax(Module):
    """exp(x) / sum(exp(x)) along ``dim``.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.Softmax(dim=1)(torch.zeros(1, 4))
        tensor([[0.2500, 0.2500, 0.2500, 0.2500]])
    """

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmin(Softmax):
    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)


class LogSoftmax(Softmax):
    """log(softmax(x)) along ``dim``."""

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)

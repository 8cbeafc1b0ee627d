"""Activation layers: ReLU and its relatives, smooth activations, shrinkage, softmax."""

from __future__ import annotations

import warnings

from ... import _creation
from ..._core.dispatch import require_tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class _InPlace(Module):
    """An activation with only an ``inplace`` flag."""

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class ReLU(_InPlace):
    """max(x, 0).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.ReLU()(torch.tensor([-1.0, 1.0]))
        tensor([0., 1.])
    """

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)


class SiLU(_InPlace):
    """x * sigmoid(x)."""

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)


class Mish(_InPlace):
    """x * tanh(softplus(x))."""

    def forward(self, input):
        return F.mish(input, inplace=self.inplace)


class SELU(_InPlace):
    """Scaled ELU with the self-normalizing constants."""

    def forward(self, input):
        return F.selu(input, self.inplace)


class Hardsigmoid(_InPlace):
    """0 below -3, 1 above 3, x / 6 + 1/2 in between."""

    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)

    def extra_repr(self) -> str:
        return ""


class Hardswish(Hardsigmoid):
    """x * hardsigmoid(x)."""

    def forward(self, input):
        return F.hardswish(input, self.inplace)


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


class ELU(Module):
    """x for x > 0, else ``alpha * (exp(x) - 1)``.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.ELU(alpha=0.5)
        ELU(alpha=0.5)
    """

    def __init__(self, alpha: float = 1.0, inplace: bool = False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class CELU(ELU):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)


class RReLU(Module):
    """Leaky ReLU with a random negative slope from ``U(lower, upper)`` in training, the
    mean slope in evaluation."""

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        extra = ", inplace=True" if self.inplace else ""
        return f"lower={self.lower}, upper={self.upper}{extra}"


class Threshold(Module):
    """x where ``x > threshold``, else ``value``."""

    def __init__(self, threshold: float, value: float, inplace: bool = False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        extra = ", inplace=True" if self.inplace else ""
        return f"threshold={self.threshold}, value={self.value}{extra}"


class PReLU(Module):
    """x for x > 0, else ``weight * x``: one learnable slope, or one per channel.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.PReLU(3)
        PReLU(num_parameters=3)
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None, dtype=None):
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(_creation.empty(num_parameters, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class GLU(Module):
    """``a * sigmoid(b)`` for the halves ``a, b`` of the input along ``dim``."""

    def __init__(self, dim: int = -1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class GELU(Module):
    """x * Phi(x) (Phi: the standard normal CDF, via erf), or its tanh approximation."""

    def __init__(self, approximate: str = "none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class Sigmoid(Module):
    """1 / (1 + exp(-x))."""

    def forward(self, input):
        require_tensor("sigmoid", "input", 1, input)
        return input.sigmoid()


class Tanh(Module):
    def forward(self, input):
        require_tensor("tanh", "input", 1, input)
        return input.tanh()


class LogSigmoid(Module):
    """log(sigmoid(x))."""

    def forward(self, input):
        return F.logsigmoid(input)


class Softsign(Module):
    """x / (1 + |x|)."""

    def forward(self, input):
        return F.softsign(input)


class Tanhshrink(Module):
    """x - tanh(x)."""

    def forward(self, input):
        return F.tanhshrink(input)


class Hardshrink(Module):
    """0 on ``[-lambd, lambd]``, x elsewhere."""

    def __init__(self, lambd: float = 0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """x shrunk towards 0 by ``lambd``."""

    def forward(self, input):
        return F.softshrink(input, self.lambd)


class Hardtanh(Module):
    """Clamp to ``[min_val, max_val]``."""

    def __init__(
        self,
        min_val: float = -1.0,
        max_val: float = 1.0,
        inplace: bool = False,
        min_value: float | None = None,
        max_value: float | None = None,
    ):
        super().__init__()
        for old, new in (("min_value", min_value), ("max_value", max_value)):
            if new is not None:
                warnings.warn(
                    f"keyword argument `{old}` is deprecated and renamed to `{old[:3]}_val`",
                    FutureWarning,
                    stacklevel=2,
                )
        min_val = min_val if min_value is None else min_value
        max_val = max_val if max_value is None else max_value
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        if self.max_val <= self.min_val:
            raise AssertionError(
                f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})"
            )

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        extra = ", inplace=True" if self.inplace else ""
        return f"min_val={self.min_val}, max_val={self.max_val}{extra}"


class ReLU6(Hardtanh):
    """min(max(x, 0), 6)."""

    def __init__(self, inplace: bool = False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Softplus(Module):
    """``log(1 + exp(beta x)) / beta``, linear where ``beta x > threshold``."""

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


class Softmax2d(Module):
    """Softmax over the channels (dim -3) of (N, C, H, W) or (C, H, W) inputs."""

    def forward(self, input):
        if input.ndim not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.ndim}D instead")
        return F.softmax(input, -3, _stacklevel=5)


# torch defines MultiheadAttention in this module; programs import it from here
from .attention import MultiheadAttention as MultiheadAttention  # noqa: E402

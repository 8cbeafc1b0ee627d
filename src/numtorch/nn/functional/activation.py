"""Activation functions of ``numtorch.nn.functional``."""

from __future__ import annotations

import warnings

from ... import _tensor
from ...ops.inplace import inplace_variant
from ...ops.nn.activation import check_approximate, gelu_op, leaky_relu_op, silu_op
from ...ops.nn.activation import hardtanh as _hardtanh
from ...ops.nn.activation import softplus as _softplus
from ...ops.reduction import log_softmax as _log_softmax
from ...ops.reduction import softmax as _softmax

Tensor = _tensor.Tensor
_leaky_relu_ = inplace_variant(leaky_relu_op, "leaky_relu_")
_silu_ = inplace_variant(silu_op, "silu_")


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(x, 0).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.relu(torch.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """
    return input.relu_() if inplace else input.relu()


def relu_(input: Tensor) -> Tensor:
    return input.relu_()


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """x where x > 0, else ``negative_slope * x``."""
    if inplace:
        return _leaky_relu_(input, negative_slope)
    return leaky_relu_op(input, negative_slope)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    return _leaky_relu_(input, negative_slope)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """x * Phi(x) (``approximate='tanh'``: torch's tanh approximation).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.gelu(torch.tensor([0.0, 1.0]))
        tensor([0.0000, 0.8413])
    """
    check_approximate(approximate)
    return gelu_op(input, approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """x * sigmoid(x) (also called swish)."""
    return _silu_(input) if inplace else silu_op(input)


def sigmoid(input: Tensor) -> Tensor:
    return input.sigmoid()


def tanh(input: Tensor) -> Tensor:
    return input.tanh()


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace=False):
    out = _hardtanh(input, min_val, max_val)
    return input.copy_(out) if inplace else out


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    return hardtanh(input, 0.0, 6.0, inplace)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return _softplus(input, beta, threshold)


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
        "dim=X as an argument.",
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim=None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """exp(x) / sum(exp(x)) along ``dim``.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.softmax(torch.tensor([0.0, 0.0]), dim=0)
        tensor([0.5000, 0.5000])
    """
    if dim is None:
        dim = _softmax_dim("softmax", input.ndim, _stacklevel)
    return _softmax(input, dim, dtype)


def softmin(input: Tensor, dim=None, _stacklevel: int = 3, dtype=None) -> Tensor:
    if dim is None:
        dim = _softmax_dim("softmin", input.ndim, _stacklevel)
    return _softmax(-input, dim, dtype)


def log_softmax(input: Tensor, dim=None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """log(softmax(x)) along ``dim``, computed stably."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.ndim, _stacklevel)
    return _log_softmax(input, dim, dtype)

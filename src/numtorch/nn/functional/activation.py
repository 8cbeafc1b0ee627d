"""Activation functions of ``numtorch.nn.functional``."""

from __future__ import annotations

import warnings

from ... import _creation
from ..._core import tensor as _tensor
from ..._core.dispatch import require_tensor
from ..._core.inplace import inplace_variant
from ..._core.observers import dispatch
from ...backend import xp
from ...ops.nn import activation as A
from ...ops.nn import piecewise as P
from ...ops.softmax import log_softmax as _log_softmax
from ...ops.softmax import softmax as _softmax

Tensor = _tensor.Tensor
_leaky_relu_ = inplace_variant(A.leaky_relu_result_op, "leaky_relu_")
_silu_ = inplace_variant(A.silu_op, "silu_")
_hardtanh_ = inplace_variant(A.hardtanh, "hardtanh_")
_elu_ = inplace_variant(P.elu_result_op, "elu_")
_celu_ = inplace_variant(P.celu_result_op, "celu_")
_threshold_ = inplace_variant(P.threshold_inplace_op, "threshold_")
_rrelu_ = inplace_variant(P.rrelu_result_op, "rrelu_")
_mish_ = inplace_variant(A.mish, "mish_")
_hardswish_ = inplace_variant(P.hardswish_op, "hardswish_")
_hardsigmoid_ = inplace_variant(P.hardsigmoid_op, "hardsigmoid_")


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(x, 0).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.relu(torch.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """
    require_tensor("relu", "input", 1, input)
    return input.relu_() if inplace else input.relu()


def relu_(input: Tensor) -> Tensor:
    return input.relu_()


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """x where x > 0, else ``negative_slope * x``."""
    if inplace:
        return _leaky_relu_(input, negative_slope)
    return A.leaky_relu_op(input, negative_slope)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    return _leaky_relu_(input, negative_slope)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """x * Phi(x) (``approximate='tanh'``: torch's tanh approximation).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.gelu(torch.tensor([0.0, 1.0]))
        tensor([0.0000, 0.8413])
    """
    A.check_approximate(approximate)
    return A.gelu_op(input, approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """x * sigmoid(x) (also called swish)."""
    return _silu_(input) if inplace else A.silu_op(input)


def sigmoid(input: Tensor) -> Tensor:
    return input.sigmoid()


def tanh(input: Tensor) -> Tensor:
    return input.tanh()


def hardtanh(
    input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False
) -> Tensor:
    """Clamp to ``[min_val, max_val]``."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return (_hardtanh_ if inplace else A.hardtanh)(input, min_val, max_val)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    return hardtanh(input, min_val, max_val, True)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """``min(max(x, 0), 6)`` (grad_fn ``HardtanhBackward0``, as torch)."""
    return hardtanh(input, 0.0, 6.0, inplace)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + exp(beta x)) / beta``, linear where ``beta x > threshold``."""
    return A.softplus(input, beta, threshold)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """x for x > 0, else ``alpha * (exp(x) - 1)``.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.elu(torch.tensor([-1.0, 2.0]))
        tensor([-0.6321,  2.0000])
    """
    return _elu_(input, alpha, 1.0, 1.0) if inplace else P.elu_op(input, alpha, 1.0, 1.0)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return _elu_(input, alpha, 1.0, 1.0)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """``scale * elu(x, alpha)`` with the self-normalizing constants of Klambauer et al."""
    op = _elu_ if inplace else P.elu_op
    return op(input, P.SELU_ALPHA, P.SELU_SCALE, 1.0)


def selu_(input: Tensor) -> Tensor:
    return selu(input, True)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    op = _celu_ if inplace else P.celu_op
    return op(input, alpha, 1.0, 1.0 / alpha)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return celu(input, alpha, True)


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """x where ``x > threshold``, else ``value``."""
    return (_threshold_ if inplace else P.threshold_op)(input, threshold, value)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    return _threshold_(input, threshold, value)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """0 on ``[-lambd, lambd]``, x elsewhere."""
    return P.hardshrink_op(input, lambd)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """x shrunk towards 0 by ``lambd`` (0 on ``[-lambd, lambd]``)."""
    if lambd < 0:
        limit = float(xp.finfo(input._data.dtype).max) if input.is_floating_point() else 0.0
        raise RuntimeError(
            f"lambda must be in range [0, {limit:g}] for input dtype "
            f"{input.dtype.scalar_name}, but found {lambd:g}"
        )
    return P.softshrink_op(input, lambd)


def tanhshrink(input: Tensor) -> Tensor:
    """``x - tanh(x)``."""
    return input - input.tanh()


def softsign(input: Tensor) -> Tensor:
    """``x / (1 + |x|)``."""
    return input / (input.abs() + 1)


def logsigmoid(input: Tensor) -> Tensor:
    """``log(sigmoid(x))``, computed stably."""
    return A.log_sigmoid(input)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * tanh(softplus(x))``."""
    return _mish_(input) if inplace else A.mish(input)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """0 below -3, 1 above 3, ``x / 6 + 1/2`` in between."""
    return _hardsigmoid_(input) if inplace else P.hardsigmoid_op(input)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """``x * hardsigmoid(x)``."""
    return _hardswish_(input) if inplace else P.hardswish_op(input)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """x for x > 0, else ``weight * x``, with one weight or one per channel (dim 1).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.prelu(torch.tensor([-2.0, 2.0]), torch.tensor([0.25]))
        tensor([-0.5000,  2.0000])
    """
    if dispatch.autocast is not None:  # cast before the dtype check, as torch's autocast does
        input, weight = dispatch.autocast.cast_op("_prelu_kernel", (input, weight))
    if input.dtype != weight.dtype:
        raise RuntimeError(
            f"prelu: Type promoting not supported. Got {input.dtype.scalar_name} and "
            f"{weight.dtype.scalar_name}"
        )
    if weight.numel() != 1:
        if input.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.ndim > 1 else 1
        if channels != weight.numel():
            raise RuntimeError(
                "Mismatch of parameter numbers and input channel size. Found parameter numbers "
                f"= {weight.numel()} and channel size = {channels}."
            )
    if weight.ndim > 1:
        raise RuntimeError(
            f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.ndim}"
        )
    if input.ndim != weight.ndim:
        shape = [1] * input.ndim
        if input.ndim > 1:
            shape[1] = weight.numel()
        weight = weight.reshape(shape)
    return P.prelu_kernel_op(input, weight)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """``a * sigmoid(b)`` where ``a`` and ``b`` are the halves of ``input`` along ``dim``."""
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    dim = _tensor._wrap_dim(dim, input.ndim)
    if input.shape[dim] % 2:
        raise RuntimeError(
            f"Halving dimension must be even, but dimension {dim} is size {input.shape[dim]}"
        )
    return A.glu(input, dim)


def rrelu(
    input: Tensor,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """Leaky ReLU with a random slope from ``U(lower, upper)`` per negative element when
    ``training`` (the global generator), else the slope ``(lower + upper) / 2``."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    noise = None
    if training:
        data = input._data
        # torch draws one double uniform per non-positive element, in order, between the
        # bounds rounded to the computation type (float for float32 and below)
        negative = data <= 0
        kind = xp.float64 if data.dtype == xp.float64 else xp.float32
        slopes = _creation.uniform_doubles(int(negative.sum()), kind(lower), kind(upper))
        noise = xp.ones(data.shape, data.dtype)
        noise[negative] = slopes
        noise = Tensor._make(noise)
    op = _rrelu_ if inplace else P.rrelu_op
    return op(input, noise, lower, upper, training)


def rrelu_(
    input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False
) -> Tensor:
    return rrelu(input, lower, upper, training, True)


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


def gumbel_softmax(
    logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10, dim: int = -1
) -> Tensor:
    """A sample of the Gumbel-softmax (relaxed categorical) distribution over ``dim``:
    ``softmax((logits + g) / tau)`` with Gumbel(0, 1) noise ``g``; ``hard`` returns one-hot
    vectors whose gradient is the soft sample's (straight-through).

    Example:
        >>> import numtorch as torch
        >>> y = torch.nn.functional.gumbel_softmax(torch.zeros(2, 3), hard=True)
        >>> y.sum(-1)
        tensor([1., 1.])
    """
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -_creation.empty_like(logits).exponential_().log()  # ~ Gumbel(0, 1)
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft  # the reparameterization trick
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = _creation.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft

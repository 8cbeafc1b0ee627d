"""``numtorch.nn.init``: in-place initialisers, run under ``no_grad`` (as torch's).

After the same ``manual_seed`` the numbers are torch's: the initialisers draw through the
same in-place samplers (``uniform_``, ``normal_``) and ``randperm``, in torch's order.
"""

from __future__ import annotations

import math
import warnings

from .._core import grad_mode
from .._core.tensor import Tensor
from ..backend import xp


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The recommended gain for an activation (torch's table).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.init.calculate_gain("relu")
        1.4142135623730951
    """
    linear = (
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv_transpose1d",
        "conv_transpose2d",
        "conv_transpose3d",
        "sigmoid",
    )
    if nonlinearity in linear:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif (not isinstance(param, bool) and isinstance(param, int)) or isinstance(param, float):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor):
    if tensor.ndim < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = math.prod(tensor.shape[2:])
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
    """Fill with samples of U(a, b).

    Example:
        >>> import numtorch as torch
        >>> w = torch.nn.init.uniform_(torch.empty(3), -1, 1)
        >>> bool((w.abs() <= 1).all())
        True
    """
    with grad_mode.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
    """Fill with samples of N(mean, std^2)."""
    with grad_mode.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None) -> Tensor:
    """Fill with N(mean, std^2) samples restricted to [a, b], drawn by rejection as torch
    draws them: normal samples redrawn where outside when [a, b] holds more than 30% of the
    mass, else uniform candidates on [a, b] accepted with the normal density's ratio."""
    from .. import _creation

    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
            "The distribution of values may be incorrect.",
            stacklevel=2,
        )
    with grad_mode.no_grad():
        if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
            lo, hi = (tensor.new_tensor(v).item() for v in (a, b))
            result = tensor.normal_(mean, std, generator=generator)
            mask = (result < lo) | (result > hi)
            while mask.any():
                redraw = _creation.empty_like(result).normal_(mean, std, generator=generator)
                result = redraw.where(mask, result)
                mask = (result < lo) | (result > hi)
            if result is not tensor:
                tensor.copy_(result)
            return tensor
        log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2

        def rejected(candidates):
            log_pdf = ((candidates - mean) / std).pow(2) * -0.5 - log_peak
            accept = _creation.empty_like(tensor).uniform_(generator=generator)
            return accept.log() > log_pdf

        tensor.uniform_(a, b, generator=generator)
        pending = rejected(tensor)
        result = tensor
        while pending.any():
            candidates = _creation.empty_like(tensor).uniform_(a, b, generator=generator)
            result = candidates.where(pending, result)
            pending = rejected(candidates).where(pending, pending)
        if result is not tensor:
            tensor.copy_(result)
        return tensor


def _fill(tensor: Tensor, values) -> Tensor:
    with grad_mode.no_grad():
        tensor._data[...] = values
        tensor._bump_version()
    return tensor


def constant_(tensor: Tensor, val: float) -> Tensor:
    with grad_mode.no_grad():
        return tensor.fill_(val)


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


def zeros_(tensor: Tensor) -> Tensor:
    with grad_mode.no_grad():
        return tensor.zero_()


def eye_(tensor: Tensor) -> Tensor:
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, xp.eye(*tensor.shape))


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Identity-preserving conv weights: the centre tap of channel i in filter i is 1."""
    if tensor.ndim not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    out_per_group = tensor.shape[0] // groups
    values = xp.zeros(tensor.shape)
    centre = tuple(s // 2 for s in tensor.shape[2:])
    for g in range(groups):
        for d in range(min(out_per_group, tensor.shape[1])):
            values[(g * out_per_group + d, d) + centre] = 1
    return _fill(tensor, values)


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """U(-a, a) with ``a = gain * sqrt(6 / (fan_in + fan_out))`` (Glorot)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """N(0, std^2) with ``std = gain * sqrt(2 / (fan_in + fan_out))`` (Glorot)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def _kaiming_std(tensor, a, mode, nonlinearity):
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return None
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator=None,
) -> Tensor:
    """U(-b, b) with ``b = gain * sqrt(3 / fan)`` (He); Linear and Conv use ``a=sqrt(5)``.

    Example:
        >>> import numtorch as torch
        >>> w = torch.nn.init.kaiming_uniform_(torch.empty(4, 3), a=5 ** 0.5)
        >>> bool((w.abs() <= 1 / 3 ** 0.5).all())
        True
    """
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    return uniform_(tensor, -math.sqrt(3.0) * std, math.sqrt(3.0) * std, generator)


def kaiming_normal_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator=None,
) -> Tensor:
    """N(0, std^2) with ``std = gain / sqrt(fan)`` (He)."""
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    return normal_(tensor, 0.0, std, generator)


def orthogonal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """A (semi-)orthogonal matrix from the QR decomposition of a Gaussian one."""
    from .. import _creation

    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flat = _creation.empty((rows, cols), dtype=tensor.dtype)
    flat = flat.normal_(0.0, 1.0, generator=generator)._data
    if rows < cols:
        flat = flat.T
    q, r = xp.linalg.qr(flat)
    q *= xp.sign(xp.diag(r))
    if rows < cols:
        q = q.T
    return _fill(tensor, gain * q.reshape(tensor.shape))


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator=None) -> Tensor:
    """N(0, std^2) samples with ``ceil(sparsity * rows)`` random entries of each column
    set to zero (Martens 2010)."""
    from .. import _creation

    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    zeros = int(math.ceil(sparsity * rows))
    with grad_mode.no_grad():
        tensor.normal_(0.0, std, generator=generator)
    values = tensor._data.copy()
    for column in range(cols):  # one permutation per column from the global generator
        values[_creation.randperm(rows)._data[:zeros], column] = 0
    return _fill(tensor, values)


def _deprecated_alias(method):
    # torch keeps the pre-0.4 names (``xavier_uniform``) as wrappers that warn and then
    # initialize in place exactly as the underscore form does.
    old_name = method.__name__[:-1]

    def deprecated(*args, **kwargs):
        warnings.warn(
            f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{method.__name__}`.",
            FutureWarning,
            stacklevel=2,
        )
        return method(*args, **kwargs)

    deprecated.__name__ = deprecated.__qualname__ = old_name
    deprecated.__doc__ = f"Deprecated: warns, then runs ``{method.__name__}``."
    return deprecated


uniform = _deprecated_alias(uniform_)
normal = _deprecated_alias(normal_)
constant = _deprecated_alias(constant_)
eye = _deprecated_alias(eye_)
dirac = _deprecated_alias(dirac_)
xavier_uniform = _deprecated_alias(xavier_uniform_)
xavier_normal = _deprecated_alias(xavier_normal_)
kaiming_uniform = _deprecated_alias(kaiming_uniform_)
kaiming_normal = _deprecated_alias(kaiming_normal_)
orthogonal = _deprecated_alias(orthogonal_)
sparse = _deprecated_alias(sparse_)

__all__ = [
    "calculate_gain",
    "constant_",
    "dirac_",
    "eye_",
    "kaiming_normal_",
    "kaiming_uniform_",
    "normal_",
    "ones_",
    "orthogonal_",
    "sparse_",
    "trunc_normal_",
    "uniform_",
    "xavier_normal_",
    "xavier_uniform_",
    "zeros_",
]

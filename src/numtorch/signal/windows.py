"""``torch.signal.windows``: window functions of length ``M``, as SciPy and torch define them.

A symmetric window (``sym=True``) is its formula over ``M`` points; a periodic one
(``sym=False``, for spectral analysis) is the symmetric window of ``M + 1`` points without its
last point. Values are computed in float64 and given in ``dtype`` (the default float dtype).
"""

from __future__ import annotations

import math

from .._core import dtypes as _dtypes
from .._creation import tensor
from ..backend import xp

__all__ = [
    "bartlett",
    "blackman",
    "cosine",
    "exponential",
    "gaussian",
    "general_cosine",
    "general_hamming",
    "hamming",
    "hann",
    "kaiser",
    "nuttall",
]


def _window(name, M, sym, dtype, requires_grad, values):
    """Check the arguments, then ``values(N)`` over the extended length, truncated."""
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    dtype = _dtypes.get_default_dtype() if dtype is None else dtype
    if dtype not in (_dtypes.float32, _dtypes.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")
    if M <= 1:
        data = xp.ones(M)
    else:
        length = M if sym else M + 1
        data = values(length)[:M]
    return tensor(data, dtype=dtype, requires_grad=requires_grad)


def _positive(label, value):
    if value <= 0:
        raise ValueError(f"{label} must be positive, got: {value} instead.")


def general_cosine(M, *, a, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """``w_n = sum_i (-1)^i a_i cos(2 pi i n / (M - 1))``."""
    coefficients = list(a)

    def values(n):
        phase = xp.linspace(-math.pi, math.pi, n)
        return sum(c * xp.cos(i * phase) for i, c in enumerate(coefficients))

    return _window("general_cosine", M, sym, dtype, requires_grad, values)


def general_hamming(
    M, *, alpha=0.54, sym=True, dtype=None, layout=None, device=None, requires_grad=False
):
    """``w_n = alpha - (1 - alpha) cos(2 pi n / (M - 1))``."""
    return general_cosine(
        M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, requires_grad=requires_grad
    )


def hamming(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """The general Hamming window with ``alpha = 0.54``."""
    return general_hamming(M, alpha=0.54, sym=sym, dtype=dtype, requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """``w_n = sin^2(pi n / (M - 1))``: the general Hamming window with ``alpha = 0.5``."""
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """``w_n = 0.42 - 0.5 cos(2 pi n / (M - 1)) + 0.08 cos(4 pi n / (M - 1))``."""
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, requires_grad=requires_grad)


def nuttall(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """Nuttall's minimum 4-term Blackman-Harris window."""
    return general_cosine(
        M,
        a=[0.3635819, 0.4891775, 0.1365995, 0.0106411],
        sym=sym,
        dtype=dtype,
        requires_grad=requires_grad,
    )


def bartlett(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """``w_n = 1 - |2n / (M - 1) - 1|``: a triangle."""

    def values(n):
        return 1.0 - xp.abs(2.0 * xp.arange(n) / (n - 1) - 1.0)

    return _window("bartlett", M, sym, dtype, requires_grad, values)


def cosine(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """``w_n = sin(pi (n + 0.5) / M)`` (the sine window, as SciPy's)."""

    def values(n):
        return xp.sin(math.pi * (xp.arange(n) + 0.5) / n)

    return _window("cosine", M, sym, dtype, requires_grad, values)


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """``w_n = exp(-(n - (M - 1) / 2)^2 / (2 std^2))``."""
    _positive("Standard deviation", std)

    def values(n):
        offset = xp.arange(n) - (n - 1) / 2.0
        return xp.exp(-(offset**2) / (2.0 * std * std))

    return _window("gaussian", M, sym, dtype, requires_grad, values)


def exponential(
    M,
    *,
    center=None,
    tau=1.0,
    sym=True,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
):
    """``w_n = exp(-|n - center| / tau)``, centred by default (a periodic window may move it)."""
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    _positive("Tau", tau)

    def values(n):
        middle = (n - 1) / 2.0 if center is None else center
        return xp.exp(-xp.abs(xp.arange(n) - middle) / tau)

    return _window("exponential", M, sym, dtype, requires_grad, values)


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    """``w_n = I0(beta sqrt(1 - ((n - N/2) / (N/2))^2)) / I0(beta)``, ``N = M - 1``."""
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")

    def values(n):
        half = (n - 1) / 2.0
        ratio = (xp.arange(n) - half) / half
        return xp.i0(beta * xp.sqrt(xp.clip(1.0 - ratio**2, 0.0, None))) / xp.i0(beta)

    return _window("kaiser", M, sym, dtype, requires_grad, values)

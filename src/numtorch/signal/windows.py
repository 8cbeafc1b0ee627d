"""``torch.signal.windows``: window functions, each ``w[n]`` for ``n = 0 .. M-1`` computed in
the requested dtype from one ``linspace`` over the window's argument, as torch does, so the
values round alike.

Example:
    >>> import numtorch as torch
    >>> torch.signal.windows.bartlett(5)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numtorch as _t

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


def _checks(name: str, M: int, dtype, layout):
    dtype = _t.get_default_dtype() if dtype is None else dtype
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not _t.strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (_t.float32, _t.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")
    return dtype


def _grid(start, step, M, dtype, device, requires_grad):
    """``start + n * step`` for n < M, as torch's linspace gives it."""
    return _t.linspace(
        start, start + (M - 1) * step, M, dtype=dtype, device=device, requires_grad=requires_grad
    )


def _trivial(M, dtype, device, requires_grad):
    """The windows of length 0 and 1 (empty, and a single one)."""
    factory = _t.empty if M == 0 else _t.ones
    return factory((M,), dtype=dtype, device=device, requires_grad=requires_grad)


def exponential(
    M,
    *,
    center=None,
    tau=1.0,
    sym=True,
    dtype=None,
    layout=_t.strided,
    device=None,
    requires_grad=False,
):
    """``exp(-|n - center| / tau)``."""
    dtype = _checks("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return _trivial(M, dtype, device, requires_grad)
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    k = _grid(-center / tau, 1 / tau, M, dtype, device, requires_grad)
    return _t.exp(-_t.abs(k))


def cosine(M, *, sym=True, dtype=None, layout=_t.strided, device=None, requires_grad=False):
    """``sin(pi (n + 1/2) / M)``."""
    dtype = _checks("cosine", M, dtype, layout)
    if M == 0:
        return _trivial(M, dtype, device, requires_grad)
    step = math.pi / (M + 1 if not sym and M > 1 else M)
    return _t.sin(_grid(0.5 * step, step, M, dtype, device, requires_grad))


def gaussian(
    M, *, std=1.0, sym=True, dtype=None, layout=_t.strided, device=None, requires_grad=False
):
    """``exp(-(n - (M-1)/2)^2 / (2 std^2))``."""
    dtype = _checks("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return _trivial(M, dtype, device, requires_grad)
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    step = 1 / (std * math.sqrt(2))
    k = _grid(start * step, step, M, dtype, device, requires_grad)
    return _t.exp(-(k**2))


def kaiser(
    M, *, beta=12.0, sym=True, dtype=None, layout=_t.strided, device=None, requires_grad=False
):
    """``I0(beta sqrt(1 - (2n/(M-1) - 1)^2)) / I0(beta)``."""
    dtype = _checks("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    beta_t = _t.tensor(beta, dtype=dtype, device=device)
    step = 2.0 * beta / (M if not sym else M - 1)
    end = _t.minimum(_t.tensor(-beta + (M - 1) * step, dtype=dtype, device=device), beta_t)
    k = _t.linspace(-beta, end, M, dtype=dtype, device=device, requires_grad=requires_grad)
    return _t.i0(_t.sqrt(beta * beta - _t.pow(k, 2))) / _t.i0(beta_t)


def bartlett(M, *, sym=True, dtype=None, layout=_t.strided, device=None, requires_grad=False):
    """``1 - |2n/(M-1) - 1|``, the triangle."""
    dtype = _checks("bartlett", M, dtype, layout)
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    k = _grid(-1, 2 / (M if not sym else M - 1), M, dtype, device, requires_grad)
    return 1 - _t.abs(k)


def general_cosine(
    M, *, a, sym=True, dtype=None, layout=_t.strided, device=None, requires_grad=False
):
    """``sum_i (-1)^i a_i cos(2 pi i n / (M-1))``."""
    dtype = _checks("general_cosine", M, dtype, layout)
    if M <= 1:
        return _trivial(M, dtype, device, requires_grad)
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    k = _grid(0, 2 * math.pi / (M if not sym else M - 1), M, dtype, device, requires_grad)
    signed = [(-1) ** i * w for i, w in enumerate(a)]
    a_i = _t.tensor(signed, device=device, dtype=dtype, requires_grad=requires_grad)
    i = _t.arange(a_i.shape[0], dtype=a_i.dtype, device=a_i.device, requires_grad=a_i.requires_grad)
    return (a_i.unsqueeze(-1) * _t.cos(i.unsqueeze(-1) * k)).sum(0)


def general_hamming(
    M, *, alpha=0.54, sym=True, dtype=None, layout=_t.strided, device=None, requires_grad=False
):
    """``alpha - (1 - alpha) cos(2 pi n / (M-1))``."""
    return general_cosine(
        M,
        a=[alpha, 1.0 - alpha],
        sym=sym,
        dtype=dtype,
        layout=layout,
        device=device,
        requires_grad=requires_grad,
    )


def hamming(M, *, sym=True, dtype=None, layout=_t.strided, device=None, requires_grad=False):
    return general_hamming(
        M, sym=sym, dtype=dtype, layout=layout, device=device, requires_grad=requires_grad
    )


def hann(M, *, sym=True, dtype=None, layout=_t.strided, device=None, requires_grad=False):
    return general_hamming(
        M,
        alpha=0.5,
        sym=sym,
        dtype=dtype,
        layout=layout,
        device=device,
        requires_grad=requires_grad,
    )


def blackman(M, *, sym=True, dtype=None, layout=_t.strided, device=None, requires_grad=False):
    dtype = _checks("blackman", M, dtype, layout)
    return general_cosine(
        M,
        a=[0.42, 0.50, 0.08],
        sym=sym,
        dtype=dtype,
        layout=layout,
        device=device,
        requires_grad=requires_grad,
    )


def nuttall(M, *, sym=True, dtype=None, layout=_t.strided, device=None, requires_grad=False):
    return general_cosine(
        M,
        a=[0.3635819, 0.4891775, 0.1365995, 0.0106411],
        sym=sym,
        dtype=dtype,
        layout=layout,
        device=device,
        requires_grad=requires_grad,
    )

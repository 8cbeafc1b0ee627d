"""Window functions for spectral analysis: hann, hamming, blackman, bartlett, kaiser.

A periodic window of length N is the symmetric window of length N + 1 without its last
point (the default, as in torch: it tiles seamlessly for short-time transforms)."""

from __future__ import annotations

from .. import _dtypes
from .._tensor import Tensor
from ..backend import xp
from .registry import FUNCTIONS


def _window(name, formula):
    def window(
        window_length,
        periodic=True,
        *args,
        dtype=None,
        layout=None,
        device=None,
        requires_grad=False,
    ):
        dt = _dtypes.get_default_dtype() if dtype is None else _dtypes.to_dtype(dtype)
        if not dt.is_floating_point:
            raise RuntimeError(f"{name} expects floating point dtypes, got: {dt}")
        if window_length < 0:
            raise RuntimeError(
                f"{name} requires non-negative window_length, got window_length={window_length}"
            )
        if window_length <= 1:
            values = xp.ones(window_length)
        else:
            n = window_length + 1 if periodic else window_length
            values = formula(xp.arange(n, dtype=xp.float64), n, *args)[:window_length]
        out = Tensor._make(values.astype(dt.np))
        return out.requires_grad_(requires_grad)

    window.__name__ = window.__qualname__ = name
    window.__doc__ = f"The {name.split('_')[0]} window of ``window_length`` points."
    FUNCTIONS[name] = window
    return window


def _cosines(*coefficients):
    def formula(k, n):
        phase = 2 * xp.pi * k / (n - 1)
        return sum(c * (-1) ** i * xp.cos(i * phase) for i, c in enumerate(coefficients))

    return formula


def _hamming(k, n, alpha=0.54, beta=0.46):
    return alpha - beta * xp.cos(2 * xp.pi * k / (n - 1))


def _kaiser(k, n, beta=12.0):
    ratio = 2 * k / (n - 1) - 1
    return xp.i0(beta * xp.sqrt(xp.clip(1 - ratio * ratio, 0, None))) / xp.i0(beta)


hann_window = _window("hann_window", _cosines(0.5, 0.5))
hamming_window = _window("hamming_window", _hamming)
blackman_window = _window("blackman_window", _cosines(0.42, 0.5, 0.08))
bartlett_window = _window("bartlett_window", lambda k, n: 1 - xp.abs(2 * k / (n - 1) - 1))
kaiser_window = _window("kaiser_window", _kaiser)

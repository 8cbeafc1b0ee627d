"""Window functions for spectral analysis: hann, hamming, blackman, bartlett, kaiser.

Computed in the requested dtype with torch's sequence of operations (so float32 windows
round as torch's do). A periodic window of length N is the symmetric window of length N + 1
without its last point.
"""

from __future__ import annotations

import math

from .. import _creation
from .._core import dtypes as _dtypes
from .._core.op import export
from ..backend import xp
from .bessel import i0_array

_UNSET = object()


def _window(name, window_length, periodic, dtype, requires_grad, compute):
    if isinstance(window_length, bool) or not isinstance(window_length, int):
        raise TypeError(
            f"{name}(): argument 'window_length' (position 1) must be int, not "
            f"{type(window_length).__name__}"
        )
    dt = _dtypes.get_default_dtype() if dtype is None else _dtypes.to_dtype(dtype)
    if window_length < 0:
        raise RuntimeError(
            f"{name} requires non-negative window_length, got window_length={window_length}"
        )
    if not (dt.is_floating_point or dt.is_complex):
        raise RuntimeError(
            f"{name} expects floating point dtypes, got: TensorOptions(dtype={dt.c_name}, "
            "device=cpu, layout=Strided (default), requires_grad=false (default), "
            "pinned_memory=false (default), memory_format=(nullopt))"
        )
    if window_length <= 1:
        data = xp.ones(window_length, dt.np)
    else:
        length = window_length + 1 if periodic else window_length
        data = compute(length, dt.np)[:window_length]
    return _creation._finish(xp.ascontiguousarray(data), requires_grad, f"{name}()")


def _positional(name, given: dict):
    # torch's overloads add these arguments one at a time: each needs the ones before it
    names = list(given)
    for i, key in enumerate(names):
        if given[key] is not _UNSET and any(given[k] is _UNSET for k in names[:i]):
            passed = ", ".join(
                f"{k}={type(v).__name__}" for k, v in given.items() if v is not _UNSET
            )
            raise TypeError(
                f"{name}() received an invalid combination of arguments - got (int, {passed})"
            )
    return [None if v is _UNSET else v for v in given.values()]


def _cosine_sum(length, dtype, alpha, beta):
    # alpha - beta cos(2 pi n / (N - 1))
    step = xp.arange(length, dtype=dtype) * dtype.type(2 * math.pi / (length - 1))
    return xp.cos(step) * dtype.type(-beta) + dtype.type(alpha)


@export(method=False)
def hann_window(
    window_length,
    periodic=True,
    *,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
    pin_memory=False,
):
    """The Hann window ``0.5 - 0.5 cos(2 pi n / (N - 1))`` (periodic by default).

    Example:
        >>> import numtorch as torch
        >>> torch.hann_window(4)
        tensor([0.0000, 0.5000, 1.0000, 0.5000])
    """

    def compute(length, dt):
        return _cosine_sum(length, dt, 0.5, 0.5)

    return _window("hann_window", window_length, periodic, dtype, requires_grad, compute)


@export(method=False)
def hamming_window(
    window_length,
    periodic=_UNSET,
    alpha=_UNSET,
    beta=_UNSET,
    *,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
    pin_memory=False,
):
    """The generalized Hamming window ``alpha - beta cos(2 pi n / (N - 1))`` (alpha 0.54,
    beta 0.46 by default).

    Example:
        >>> import numtorch as torch
        >>> torch.hamming_window(3, False)
        tensor([0.0800, 1.0000, 0.0800])
    """
    given = {"periodic": periodic, "alpha": alpha, "beta": beta}
    periodic, alpha, beta = _positional("hamming_window", given)
    periodic = True if periodic is None else periodic
    alpha = 0.54 if alpha is None else alpha
    beta = 0.46 if beta is None else beta

    def compute(length, dt):
        return _cosine_sum(length, dt, alpha, beta)

    return _window("hamming_window", window_length, periodic, dtype, requires_grad, compute)


@export(method=False)
def blackman_window(
    window_length,
    periodic=True,
    *,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
    pin_memory=False,
):
    """The Blackman window ``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``."""

    def compute(length, dt):
        step = xp.arange(length, dtype=dt) * dt.type(math.pi / (length - 1))
        return (
            xp.cos(step * dt.type(4)) * dt.type(0.08)
            - xp.cos(step * dt.type(2)) * dt.type(0.5)
            + dt.type(0.42)
        )

    return _window("blackman_window", window_length, periodic, dtype, requires_grad, compute)


@export(method=False)
def bartlett_window(
    window_length,
    periodic=True,
    *,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
    pin_memory=False,
):
    """The triangular Bartlett window: ``2n / (N - 1)`` up to the middle, then back down."""

    def compute(length, dt):
        window = xp.arange(length, dtype=dt) * dt.type(2.0 / (length - 1))
        half = ((length - 1) >> 1) + 1
        window[half:] = window[half:] * dt.type(-1) + dt.type(2)
        return window

    return _window("bartlett_window", window_length, periodic, dtype, requires_grad, compute)


@export(method=False)
def kaiser_window(
    window_length,
    periodic=_UNSET,
    beta=_UNSET,
    *,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
    pin_memory=False,
):
    """The Kaiser window ``I0(beta sqrt(1 - ((n - a) / a)^2)) / I0(beta)`` with ``a = (N -
    1) / 2`` (beta 12 by default)."""
    periodic, beta = _positional("kaiser_window", {"periodic": periodic, "beta": beta})
    periodic = True if periodic is None else periodic
    beta = 12.0 if beta is None else beta

    def compute(length, dt):
        middle = (length - 1) / 2.0
        ratio = (xp.arange(length, dtype=xp.float64) - middle) / middle
        values = i0_array(beta * xp.sqrt(xp.maximum(1 - ratio * ratio, 0.0)))
        return (values / i0_array(xp.asarray(float(beta)))).astype(dt)

    return _window("kaiser_window", window_length, periodic, dtype, requires_grad, compute)

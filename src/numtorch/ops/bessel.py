"""Modified Bessel functions of the first kind: i0, i1 and their exponentially scaled forms
``i0e = exp(-|x|) i0``, ``i1e = exp(-|x|) i1`` (``torch.special``).

Below 20 the power series ``I_nu(x) = sum_k (x/2)^(2k+nu) / (k! (k+nu)!)`` (all terms
positive; ``(x/2)^2``'s rounding error is carried separately); from 20 on the asymptotic
series ``I_nu(x) ~ e^x / sqrt(2 pi x) sum_k (-1)^k prod_j (4 nu^2 - (2j-1)^2) / (k! (8x)^k)``.
Float64 results are within a few units in the last place; torch's edge values are kept
(``i0(inf)`` is NaN, ``i0e(inf)`` is 0).
"""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.kernel_dtypes import FLOATS, kernel
from .._core.op import defop, export
from ..backend import xp
from .gamma import float64_kernel
from .pointwise import where

_SERIES_LIMIT = 20.0
_SQRT_2PI = math.sqrt(2.0 * math.pi)
_SERIES_TERMS = 60
_ASYMPTOTIC_TERMS = 40
_SPLITTER = 134217729.0  # 2**27 + 1: Dekker's split of a double into two halves


def _square_with_error(h):
    """``h * h`` and its rounding error (Dekker's exact product)."""
    square = h * h
    c = h * _SPLITTER
    high = c - (c - h)
    low = h - high
    return square, ((high * high - square) + 2.0 * high * low) + low * low


def _series(x, nu):
    """I_nu(x) for 0 <= x <= 20."""
    h = 0.5 * x
    y, y_error = _square_with_error(h)
    term = xp.ones_like(x)
    total = term.copy()
    slope = xp.zeros_like(x)  # y d(total)/dy, to correct for y's rounding
    for k in range(1, _SERIES_TERMS):
        term = term * y / (k * (k + nu))  # (x/2)^(2k) / (k! (k+nu)!/nu!)
        total += term
        slope += k * term
    with xp.errstate(invalid="ignore", divide="ignore"):
        correction = xp.where(y > 0, y_error * slope / y, 0.0)
    total = total + correction
    return total if nu == 0 else x * (0.5 * total)


def _asymptotic_scaled(x, nu):
    """exp(-x) I_nu(x) for x > 20."""
    mu = 4.0 * nu * nu
    term = xp.ones_like(x)
    total = term.copy()
    for k in range(1, _ASYMPTOTIC_TERMS):
        term = term * (-(mu - (2 * k - 1) ** 2) / (8.0 * k)) / x
        total += term
    return total / (_SQRT_2PI * xp.sqrt(x))


@float64_kernel
def _bessel(x, nu, scaled):
    """I_nu(|x|) (exp(-|x|) I_nu(|x|) when ``scaled``) of a float array, in float64."""
    work = xp.abs(x)
    out = xp.empty_like(work)
    small = work <= _SERIES_LIMIT
    if small.any():
        v = work[small]
        out[small] = _series(v, nu) * (xp.exp(-v) if scaled else 1.0)
    large = ~small  # NaN too: every branch propagates it
    if large.any():
        v = work[large]
        out[large] = _asymptotic_scaled(v, nu) * (1.0 if scaled else xp.exp(v))
    return out


def i0_array(x):
    return _bessel(x, 0, False).astype(x.dtype, copy=False)


def i0e_array(x):
    return _bessel(x, 0, True).astype(x.dtype, copy=False)


def i1_array(x):
    return (xp.sign(x) * _bessel(x, 1, False)).astype(x.dtype, copy=False)


def i1e_array(x):
    return (xp.sign(x) * _bessel(x, 1, True)).astype(x.dtype, copy=False)


def _safe_input(input):
    # where |x| is tiny, 1/x would blow up: the derivative there is the limit 1/2
    eps = float(xp.finfo(input._data.dtype).eps)
    not_tiny = input.abs() > eps
    return not_tiny, where(not_tiny, input, eps)


def _refuse_halves(input, name):
    # torch's kernels for these derivatives have no half-precision versions
    if input.dtype in (_dtypes.float16, _dtypes.bfloat16):
        raise NotImplementedError(f"\"{name}\" not implemented for '{input.dtype.scalar_name}'")


def _i1_backward(grad, input, result):
    # d/dx I1(x) = I0(x) - I1(x) / x
    _refuse_halves(input, "i1_backward")
    not_tiny, safe = _safe_input(input)
    return grad * where(not_tiny, i0(safe) - result * safe.reciprocal(), 0.5)


def _i1e_backward(grad, input, result):
    # d/dx i1e(x) = i0e(x) - i1e(x) (sgn(x) + 1/x)
    _refuse_halves(input, "i1e_backward")
    not_tiny, safe = _safe_input(input)
    return grad * where(not_tiny, i0e(safe) - result * (safe.sgn() + safe.reciprocal()), 0.5)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="float",
    input=lambda grad, input: grad * i1(input),
    dtypes=kernel("i0_vml_cpu", FLOATS),
    jvp="elementwise",
)
def i0(input):
    """The modified Bessel function of the first kind of order 0.

    Example:
        >>> import numtorch as torch
        >>> torch.i0(torch.tensor([0.0, 1.0, 2.0]))
        tensor([1.0000, 1.2661, 2.2796])
    """
    return i0_array(input)


@defop(
    batch=batch_rules.pointwise,
    name="i0e",
    dtypes=kernel("i0e_cpu", FLOATS),
    node="SpecialI0EBackward0",
    promote="float",
    input=lambda grad, input, result: grad * (i1e(input) - input.sgn() * result),
    jvp="elementwise",
)
def i0e(input):
    """``exp(-|x|) i0(x)``, without overflow for large ``|x|``.

    Example:
        >>> import numtorch as torch
        >>> torch.special.i0e(torch.tensor([0.0, 1.0, 100.0]))
        tensor([1.0000, 0.4658, 0.0399])
    """
    return i0e_array(input)


@defop(
    batch=batch_rules.pointwise,
    name="i1",
    dtypes=kernel("i1_cpu", FLOATS),
    node="SpecialI1Backward0",
    promote="float",
    input=_i1_backward,
    jvp="elementwise",
)
def i1(input):
    """The modified Bessel function of the first kind of order 1.

    Example:
        >>> import numtorch as torch
        >>> torch.special.i1(torch.tensor([0.0, 1.0, -2.0]))
        tensor([ 0.0000,  0.5652, -1.5906])
    """
    return i1_array(input)


@defop(
    batch=batch_rules.pointwise,
    name="i1e",
    dtypes=kernel("i1e_cpu", FLOATS),
    node="SpecialI1EBackward0",
    promote="float",
    input=_i1e_backward,
    jvp="elementwise",
)
def i1e(input):
    """``exp(-|x|) i1(x)``.

    Example:
        >>> import numtorch as torch
        >>> torch.special.i1e(torch.tensor([1.0, 100.0]))
        tensor([0.2079, 0.0397])
    """
    return i1e_array(input)

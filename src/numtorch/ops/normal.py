"""The error function's relatives and the normal distribution: erfinv, erfcx (the scaled
complementary error function), ndtr, ndtri and log_ndtr.

The inverses solve ``erf(x) = y`` by Halley's method where ``|y| <= 1/2``, and beyond it
``log(erfc(x)) = log(1 - |y|)`` by Newton's method in log space (``1 - |y|`` is exact
there, and the log keeps the far tail, down to the smallest subnormal, well scaled).
Float64 results are within a few units in the last place.
"""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.kernel_dtypes import FLOATING, FLOATS, kernel
from .._core.op import defop, export
from ..backend import xp
from .gamma import float64_kernel, refuse_half
from .nn.activation import erf
from .nn.erf import erf_array, erfc_array
from .pointwise import _add_scalar, _mul_scalar

_SQRT_PI = math.sqrt(math.pi)
_TWO_OVER_SQRT_PI = 2.0 / _SQRT_PI
_SQRT_2 = math.sqrt(2.0)
_SQRT_HALF = math.sqrt(0.5)
_SPLITTER = 134217729.0  # 2**27 + 1
# sqrt(1/2) = _SQRT_HALF + _SQRT_HALF_TAIL; _SQRT_HALF split into 26-bit halves
_SQRT_HALF_TAIL = -4.833646656726457e-17
_SQRT_HALF_HIGH = 0.7071067839860916
_SQRT_HALF_LOW = _SQRT_HALF - _SQRT_HALF_HIGH


def _float64(x):
    return xp.asarray(x, dtype=xp.float64)


def _exp_square(x):
    """``exp(x^2)`` with ``x^2``'s rounding error carried (Dekker's exact product)."""
    square = x * x
    c = x * _SPLITTER
    high = c - (c - x)
    low = x - high
    error = ((high * high - square) + 2.0 * high * low) + low * low
    # (beyond 1000, exp overflows anyway and the error term is no longer small)
    return xp.exp(square) * (1.0 + xp.where(square < 1e3, error, 0.0))


# -- erfcx -----------------------------------------------------------------------------------
_ERFCX_ASYMPTOTIC = 26.0


def _erfcx_positive(x):
    """exp(x^2) erfc(x) for x >= 0 (NaN passes through)."""
    out = xp.empty_like(x)
    middle = x < _ERFCX_ASYMPTOTIC
    if middle.any():
        v = x[middle]
        out[middle] = erfc_array(v) * _exp_square(v)
    tail = ~middle
    if tail.any():
        # erfcx(x) ~ 1 / (x sqrt(pi)) sum_k (-1)^k (2k-1)!! / (2x^2)^k
        v = x[tail]
        with xp.errstate(over="ignore"):
            w = 1.0 / (2.0 * v * v)
        term = xp.ones_like(v)
        total = term.copy()
        for k in range(1, 9):
            term = term * -(2 * k - 1) * w
            total += term
        out[tail] = total / (v * _SQRT_PI)
    return out


@float64_kernel
def erfcx_array(x):
    """``exp(x^2) erfc(x)`` of a float array, in float64."""
    x = _float64(x)
    out = xp.empty_like(x)
    negative = x < 0
    out[~negative] = _erfcx_positive(x[~negative])
    if negative.any():
        v = x[negative]
        with xp.errstate(over="ignore"):
            out[negative] = 2.0 * _exp_square(v) - _erfcx_positive(-v)
    return out


# -- inverses --------------------------------------------------------------------------------
def _erfinv_central(y):
    """erfinv for |y| <= 1/2: Taylor start, then Halley's method on erf(x) = y."""
    y2 = y * y
    x = 0.5 * _SQRT_PI * y * (1.0 + y2 * (math.pi / 12 + y2 * 7 * math.pi**2 / 480))
    for _ in range(3):
        f = erf_array(x) - y
        slope = _TWO_OVER_SQRT_PI * xp.exp(-x * x)
        x = x - f / (slope * (1.0 + x * f / slope))
    return x


def _erfcinv_tail(z):
    """The x > 0 with erfc(x) = z, for 0 < z <= 1/2 (Newton's method on log erfc)."""
    # Winitzki's closed form as a start (relative error below 2e-3)
    log_z = xp.log(z)
    log_1my2 = log_z + xp.log(2.0 - z)  # log(1 - y^2) with y = 1 - z
    a = 0.147
    t = 2.0 / (math.pi * a) + 0.5 * log_1my2
    x = xp.sqrt(xp.sqrt(t * t - log_1my2 / a) - t)
    for _ in range(4):
        scaled = _erfcx_positive(x)
        residual = xp.log(scaled) - x * x - log_z
        x = x + residual * (0.5 * _SQRT_PI) * scaled
    return x


@float64_kernel
def erfinv_array(y):
    """The inverse error function; +-inf at +-1, NaN outside [-1, 1]."""
    y = _float64(y)
    out = xp.full(y.shape, xp.nan)
    a = xp.abs(y)
    central = a <= 0.5
    if central.any():
        out[central] = _erfinv_central(y[central])
    tail = (a > 0.5) & (a < 1.0)
    if tail.any():
        out[tail] = xp.copysign(_erfcinv_tail(1.0 - a[tail]), y[tail])
    one = a == 1.0
    out[one] = xp.copysign(xp.inf, y[one])
    return out


@float64_kernel
def ndtri_array(p):
    """The quantile function of the standard normal: ``ndtr(ndtri(p)) == p``."""
    p = _float64(p)
    out = xp.full(p.shape, xp.nan)
    # ndtri(p) = -sqrt(2) erfcinv(2p), with 2p or 2(1 - p) as the smaller side (both exact)
    q = xp.where(p < 0.5, p, 1.0 - p)
    sign = xp.where(p < 0.5, -_SQRT_2, _SQRT_2)
    z = 2.0 * q
    tail = (q > 0) & (z <= 0.5)
    if tail.any():
        out[tail] = sign[tail] * _erfcinv_tail(z[tail])
    central = (z > 0.5) & (q <= 0.5)
    if central.any():
        out[central] = sign[central] * _erfinv_central(1.0 - z[central])
    out[p == 0] = -xp.inf
    out[p == 1] = xp.inf
    return out


def _times_sqrt_half(x):
    """``x / sqrt(2)`` rounded, and the part of the exact value the rounding lost."""
    t = x * _SQRT_HALF
    c = x * _SPLITTER
    high = c - (c - x)
    low = x - high
    error = ((high * _SQRT_HALF_HIGH - t) + high * _SQRT_HALF_LOW + low * _SQRT_HALF_HIGH) + (
        low * _SQRT_HALF_LOW
    )
    return t, error + x * _SQRT_HALF_TAIL


@float64_kernel
def log_ndtr_array(x):
    """``log(ndtr(x))``: through erfcx below -1, log1p above (as torch), with the rounding of
    ``x / sqrt(2)`` corrected in the upper tail (torch loses ~x^2 ulp there)."""
    x = _float64(x)
    t = x * _SQRT_HALF
    out = xp.empty_like(x)
    low = x < -1.0
    out[low] = xp.log(erfcx_array(-t[low]) / 2.0) - t[low] * t[low]
    high = ~low
    if high.any():
        t, error = _times_sqrt_half(x[high])
        # erfc(t + e) = erfc(t) (1 - 2 e / (sqrt(pi) erfcx(t))) to first order
        with xp.errstate(invalid="ignore", over="ignore"):
            correction = _TWO_OVER_SQRT_PI * error / erfcx_array(t)
        correction = xp.where(xp.isfinite(correction), correction, 0.0)
        out[high] = xp.log1p(-erfc_array(t) / 2.0 * (1.0 - correction))
    return out


# -- ops -------------------------------------------------------------------------------------
def _cast(out, input):
    return out.astype(input.dtype, copy=False)


def _erfinv_backward(grad, input):
    # d/dy erfinv(y) = sqrt(pi)/2 exp(erfinv(y)^2)
    return 0.5 * _SQRT_PI * input.erfinv().pow(2).exp() * grad


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="float",
    input=_erfinv_backward,
    dtypes=kernel("erfinv_vml_cpu", FLOATS),
    jvp="elementwise",
)
def erfinv(input):
    """The inverse error function: ``erf(erfinv(y)) == y`` on (-1, 1).

    Example:
        >>> import numtorch as torch
        >>> torch.erfinv(torch.tensor([0.0, 0.5, -1.0]))
        tensor([ 0.0000,  0.4769,    -inf])
    """
    return _cast(erfinv_array(input), input)


@defop(
    batch=batch_rules.pointwise,
    name="erfcx",
    dtypes=kernel("erfcx_cpu", FLOATING | {xp.dtype(xp.float16)}),
    node="SpecialErfcxBackward0",
    promote="float",
    input=lambda grad, input, result: (2.0 * input * result - 2.0 / _SQRT_PI) * grad,
    jvp="elementwise",
)
def erfcx(input):
    """The scaled complementary error function ``exp(x^2) erfc(x)``.

    Example:
        >>> import numtorch as torch
        >>> torch.special.erfcx(torch.tensor([0.0, 1.0, 30.0]))
        tensor([1.0000, 0.4276, 0.0188])
    """
    refuse_half(input, "erfcx_cpu")
    return _cast(erfcx_array(input), input)


@defop(
    batch=batch_rules.pointwise,
    name="ndtri",
    dtypes=kernel("ndtri_cpu", FLOATING | {xp.dtype(xp.float16)}),
    node="SpecialNdtriBackward0",
    promote="float",
    input=lambda grad, result: grad * math.sqrt(2 * math.pi) * (result.square() / 2).exp(),
    jvp="elementwise",
)
def ndtri(input):
    """The standard normal quantile function (the inverse of ``ndtr``).

    Example:
        >>> import numtorch as torch
        >>> torch.special.ndtri(torch.tensor([0.5, 0.975]))
        tensor([0.0000, 1.9600])
    """
    refuse_half(input, "ndtri_cpu")
    return _cast(ndtri_array(input), input)


def _log_ndtr_backward(grad, input, result):
    # d/dx log ndtr(x) = pdf(x) / ndtr(x) = exp(-(result + x^2/2)) / sqrt(2 pi)
    return grad / math.sqrt(2 * math.pi) * (result + input.pow(2) / 2).neg().exp()


@defop(
    batch=batch_rules.pointwise,
    name="log_ndtr",
    dtypes=kernel("log_ndtr_cpu", FLOATING | {xp.dtype(xp.float16)}),
    node="SpecialLogNdtrBackward0",
    promote="float",
    input=_log_ndtr_backward,
    jvp="elementwise",
)
def log_ndtr(input):
    """The log of the standard normal CDF, accurate far into the lower tail.

    Example:
        >>> import numtorch as torch
        >>> torch.special.log_ndtr(torch.tensor([0.0, -10.0]))
        tensor([ -0.6931, -53.2312])
    """
    refuse_half(input, "log_ndtr_cpu")
    return _cast(log_ndtr_array(input), input)


# torch composes ndtr from ops taking a Scalar (mul.Scalar, add.Scalar): its grad_fn is a
# MulBackward1 (pointwise._mul_scalar, _add_scalar).
def ndtr(input):
    """The standard normal CDF, ``(1 + erf(x / sqrt(2))) / 2`` (composed as torch does).

    Example:
        >>> import numtorch as torch
        >>> torch.special.ndtr(torch.tensor([0.0, 1.96]))
        tensor([0.5000, 0.9750])
    """
    if not (input.dtype.is_floating_point or input.is_complex()):  # (erf refuses complex)
        input = input.to(_dtypes.get_default_dtype())
    return _mul_scalar(_add_scalar(erf(_mul_scalar(input, _SQRT_HALF)), 1.0), 0.5)

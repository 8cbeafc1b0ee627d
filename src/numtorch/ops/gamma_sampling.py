"""``torch._standard_gamma`` (Gamma(alpha, 1) draws that carry a gradient) and
``torch._standard_gamma_grad``, the implicit reparametrisation gradient behind the
``rsample`` of Gamma, Beta, Dirichlet, Chi2 and StudentT.

A draw ``x`` solves ``P(alpha, x) = u`` for a uniform ``u`` held fixed, with ``P`` the
regularised lower incomplete gamma function, so ``dx/dalpha = -(dP/dalpha) / (dP/dx)``
where ``dP/dx`` is the Gamma density. ``dP/dalpha`` has no closed form; torch approximates
the whole ratio in three regions, and numtorch evaluates the same approximations (in
float64, as torch's kernel does) so that gradients match torch's to rounding rather than to
the approximations' ~1e-4 relative error:

- ``x < 0.8``: six terms of the series ``P(alpha, x) = x^alpha sum_k (-x)^k / (k! (alpha +
  k))`` and of its derivative in ``alpha``; an undefined result there is 0.
- ``alpha > 8``: Rice's saddle-point expansion (a rational polynomial in ``alpha`` and
  ``x`` within 10% of the mode, the expansion in ``log(x / alpha)`` further out).
- otherwise: a bivariate rational approximation in ``u = log(x / alpha)`` and ``v = log
  alpha``, ``exp(p(u, v) / q(u, v))``.
"""

from __future__ import annotations

import contextlib
import math

from .. import _serial_samplers as serial
from .._core import batch_rules
from .._core.kernel_dtypes import FLOATING, kernel
from .._core.op import defop, export
from .._generator import generator_or_default
from ..autograd.forward_grad import no_forward_derivative
from ..backend import xp
from .gamma import _DIGAMMA_SERIES, _PSI_10
from .special import _floats_only, derivative_not_implemented


def _gamma_derivative(grad, input, result):
    return grad * _standard_gamma_grad(input, result)


@defop(
    batch=batch_rules.pointwise,
    name="_standard_gamma",
    dtypes=kernel("gamma_cpu", FLOATING),
    node="StandardGammaBackward0",
    input=_gamma_derivative,
    jvp=no_forward_derivative("_standard_gamma"),  # none in torch either,
)
def _draw_standard_gamma(input, generator):
    # as torch: never exactly zero, so that log(x) stays finite
    return serial.standard_gamma(generator_or_default(generator), xp.asarray(input))


@export(method=False)
def _standard_gamma(input, generator=None):
    """Gamma(``input``, 1) samples; the gradient with respect to ``input`` is the implicit
    reparametrisation gradient."""
    return _draw_standard_gamma(input, generator)


_floats_for_gamma_grad = _floats_only("_standard_gamma_grad_cpu")


def _check_gamma_grad(args):
    _floats_for_gamma_grad(args)
    input, output = args[0], args[1]
    if output._data.dtype != input._data.dtype:  # torch's kernel takes no mixed operands
        raise RuntimeError(
            f"Found dtype {output.dtype.scalar_name} but expected {input.dtype.scalar_name}"
        )


@export(method=False)
@defop(
    node="StandardGammaGradBackward0",
    promote="same",
    check=_check_gamma_grad,
    dtypes=kernel("_standard_gamma_grad_cpu", FLOATING),
    # torch's formula is not_implemented(...): NotImplementedError, not a NotImplemented node
    input=derivative_not_implemented("_standard_gamma_grad"),
    jvp=no_forward_derivative("_standard_gamma_grad"),
)
def _standard_gamma_grad(input, output):
    alpha = xp.asarray(input, dtype=xp.float64)
    x = xp.asarray(output, dtype=xp.float64)
    with xp.errstate(all="ignore"):
        result = _rational_gradient(alpha, x)
        large = alpha > 8.0
        result = xp.where(large, _saddle_point_gradient(alpha, x), result)
        small = x < _SINGLE_0_8
        result = xp.where(small, _series_gradient(alpha, x), result)
    return result.astype(input.dtype, copy=False)


# torch's kernel compares its double arguments with single-precision literals
_SINGLE_0_8 = float(xp.float32(0.8))
_SINGLE_0_9 = float(xp.float32(0.9))
_SINGLE_1_1 = float(xp.float32(1.1))


def _series_gradient(alpha, x):
    numer = xp.ones_like(x)
    denom = alpha.copy()
    series1 = numer / denom
    series2 = numer / (denom * denom)
    for i in range(1, 6):
        numer = numer * (-x / i)
        denom = denom + 1
        series1 = series1 + numer / denom
        series2 = series2 + numer / (denom * denom)
    # near alpha = 0 the two terms of cdf_alpha cancel to ~eps / alpha: there the C
    # library's pow, exp and log are taken, as torch's kernel does (NumPy's own SIMD ones
    # differ in the last bit, which that cancellation makes visible)
    near_zero = (alpha > 0) & (alpha < 1e-8) & (x > 0)
    pow_x_alpha = _libm(math.pow, near_zero, x, alpha)
    density = _libm(math.pow, near_zero, x, alpha - 1) * _libm(math.exp, near_zero, -x)
    cdf = pow_x_alpha * series1
    cdf_alpha = (_libm(math.log, near_zero, x) - _digamma_one(alpha)) * cdf
    cdf_alpha = cdf_alpha - pow_x_alpha * series2
    result = -cdf_alpha / density
    return xp.where(xp.isnan(result), 0.0, result)


_NUMPY_FORMS = {math.pow: xp.power, math.exp: xp.exp, math.log: xp.log}


def _libm(function, where, *arrays):
    """``function`` of the arrays, elementwise: the C library's own (Python's math) where
    ``where`` holds, NumPy's elsewhere and where the C one signals a range error."""
    out = xp.array(_NUMPY_FORMS[function](*arrays), dtype=xp.float64)  # (0-d stays an array)
    for index in map(tuple, xp.argwhere(where)):
        with contextlib.suppress(OverflowError, ValueError):
            out[index] = function(*(float(a[index]) for a in arrays))
    return out


# the asymptotic series' coefficients in torch's digamma_one, highest power first: its
# calc_digamma's (Note [Digamma as torch's kernel])
_DIGAMMA_ONE = _DIGAMMA_SERIES


def _digamma_one(alpha):
    """digamma as torch's sampling kernels compute it (digamma_one): ``+inf`` at 0 and the
    negative integers, the reflection below 0, ``psi(x) = psi(x + 1) - 1 / x`` step by step
    up to 10, then the asymptotic series. Its rounding is what the series gradient's
    cancellation amplifies near alpha = 0, so it is followed operation by operation."""
    x = alpha.astype(xp.float64, copy=True)
    pole = (x == 0) | ((x < 0) & (x == xp.floor(x)))
    extra = xp.zeros_like(x)
    reflected = (x < 0) & ~pole
    extra[reflected] = -math.pi / xp.tan(math.pi * x[reflected])
    x[reflected] = 1 - x[reflected]
    result = xp.zeros_like(x)
    low = (x < 10) & ~pole  # (-inf is a pole)
    while low.any():
        result[low] -= 1 / x[low]
        x[low] += 1
        low = (x < 10) & ~pole
    with xp.errstate(all="ignore"):
        z = 1.0 / (x * x)
        series = xp.full_like(x, _DIGAMMA_ONE[0])
        for coefficient in _DIGAMMA_ONE[1:]:
            series = series * z + coefficient
        y = xp.where(x < 1.0e17, z * series, 0.0)
        out = result + xp.log(x) - 0.5 / x - y + extra
    out = xp.where(x == 10, result + _PSI_10 + extra, out)
    return xp.where(pole, xp.inf, out)


def _saddle_point_gradient(alpha, x):
    # d x / d alpha near the mode: a rational polynomial
    numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
    numer_2 = (
        1440 * (alpha * alpha)
        + 6 * x * (53 - 120 * x)
        - 65 * x * x / alpha
        + alpha * (107 + 3600 * x)
    )
    near_mode = numer_1 * numer_2 / (1244160 * (alpha * alpha) * (alpha * alpha))
    denom = xp.sqrt(8 * alpha)
    term2 = denom / (alpha - x)
    term3 = xp.power(x - alpha - alpha * xp.log(x / alpha), -1.5)
    term23 = xp.where(x < alpha, term2 - term3, term2 + term3)
    term1 = xp.log(x / alpha) * term23 - xp.sqrt(2 / alpha) * (alpha + x) / (
        (alpha - x) * (alpha - x)
    )
    stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
    tails = -stirling * (x * term1) / denom
    mode = (_SINGLE_0_9 * alpha <= x) & (x <= _SINGLE_1_1 * alpha)
    return xp.where(mode, near_mode, tails)


# rows: the constant, linear and quadratic coefficients in u; columns: p's and q's
# coefficients of 1, v, v^2, v^3
_RATIONAL_UV = (
    (0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084),
    (
        0.53487893,
        0.1298071,
        0.065735949,
        -0.0015649758,
        0.16639465,
        0.020070113,
        -0.0035938915,
        -0.00058392623,
    ),
    (
        0.040121004,
        -0.0065914022,
        -0.0026286047,
        -0.0013441777,
        0.017050642,
        -0.0021309326,
        0.00085092367,
        -1.5247877e-07,
    ),
)


def _rational_gradient(alpha, x):
    u = xp.log(x / alpha)
    v = xp.log(alpha)
    c = [a + u * (b + u * d) for a, b, d in zip(*_RATIONAL_UV)]
    p = c[0] + v * (c[1] + v * (c[2] + v * c[3]))
    q = c[4] + v * (c[5] + v * (c[6] + v * c[7]))
    return xp.exp(p / q)

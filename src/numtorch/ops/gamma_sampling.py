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

from .. import _serial_samplers as serial
from .._core import batch_rules
from .._core.op import defop, export
from .._generator import generator_or_default
from ..autograd.forward_grad import no_forward_derivative
from ..backend import xp
from .gamma import digamma_array
from .special import _floats_only, derivative_not_implemented


def _gamma_derivative(grad, input, result):
    return grad * _standard_gamma_grad(input, result)


@defop(
    batch=batch_rules.pointwise,
    name="_standard_gamma",
    node="StandardGammaBackward0",
    check=_floats_only("gamma_cpu"),
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
    pow_x_alpha = xp.power(x, alpha)
    density = xp.power(x, alpha - 1) * xp.exp(-x)
    cdf = pow_x_alpha * series1
    cdf_alpha = (xp.log(x) - _pole_digamma(alpha)) * cdf - pow_x_alpha * series2
    result = -cdf_alpha / density
    return xp.where(xp.isnan(result), 0.0, result)


def _pole_digamma(alpha):
    """digamma as torch's sampling kernels take it: ``+inf`` at 0 and the negative
    integers, where ``digamma_array`` gives a signed infinity or NaN."""
    pole = (alpha == 0) | ((alpha < 0) & (alpha == xp.floor(alpha)))
    return xp.where(pole, xp.inf, digamma_array(alpha))


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

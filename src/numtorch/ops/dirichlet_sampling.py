"""``torch._sample_dirichlet`` (Dirichlet draws as normalised Gamma draws) and
``torch._dirichlet_grad``, the implicit reparametrisation gradient behind the Dirichlet's
and the Beta's ``rsample``.

A Dirichlet coordinate ``x`` with concentration ``alpha`` out of a total ``total`` is
Beta(alpha, total - alpha) distributed; its gradient is ``-(dF/dalpha) / f / (1 - x)`` for
the Beta cdf ``F`` and density ``f``. As for the Gamma (ops/gamma_sampling.py), that ratio
has no closed form and torch approximates it by regions, evaluated here the same way (the
two series in the input's dtype, the rest in float64, as torch's kernel does) so that
gradients match torch's to rounding rather than to the approximations' error:

- ``x`` near 0 (``x <= 0.5`` and ``total x (1 - x) < 2.5``): ten terms of the Taylor series
  in ``x`` of the cdf's derivative in ``alpha``;
- ``x`` near 1 (``x >= 0.5`` and ``total x (1 - x) < 0.75``): eight terms of the series of
  its derivative in ``beta`` at ``1 - x``, with the roles of alpha and beta swapped;
- ``alpha`` and ``beta`` both above 6: Rice's saddle-point expansion (a polynomial within a
  tenth of a standard deviation of the mean, where the expansion is singular);
- otherwise: ``x (psi(total) - psi(alpha)) / beta`` corrected by a rational function of
  ``log x``, ``log(alpha / x)`` and ``log(total x / alpha)``.
"""

from __future__ import annotations

import math

from .. import _serial_samplers as serial
from .._core.kernel_dtypes import FLOATING, kernel
from .._core.op import defop, export, not_implemented
from .._generator import generator_or_default
from ..autograd.forward_grad import no_forward_derivative
from ..backend import xp
from .gamma_sampling import _DIGAMMA_ONE, _PSI_10, _digamma_one


@defop(
    name="_sample_dirichlet",
    dtypes=kernel("dirichlet", FLOATING),
    node="NotImplemented",
    input=not_implemented("_sample_dirichlet"),
    jvp=no_forward_derivative("_sample_dirichlet"),
)
def _draw_dirichlet(input, generator):
    # Gamma draws in double (no underflow for small concentrations), normalised in double,
    # rounded once and kept strictly inside (0, 1) as torch's kernel does
    alpha = xp.asarray(input)
    gamma = serial.standard_gamma(generator_or_default(generator), alpha.astype(xp.float64))
    ratio = (gamma / gamma.sum(-1, keepdims=True)).astype(alpha.dtype)
    # fmax, not clip: an infinite concentration's inf / inf is NaN, which torch's clamp turns
    # into the smallest normal number
    low = xp.fmax(ratio, xp.finfo(alpha.dtype).tiny)
    return xp.fmin(low, xp.nextafter(alpha.dtype.type(1), 0))


@export(method=False)
def _sample_dirichlet(input, generator=None):
    """Dirichlet(``input``) samples along the last dimension (no gradient)."""
    return _draw_dirichlet(input, generator)


def _same_dtypes(args):
    dtypes = [a.dtype for a in args[:3]]
    for dtype in dtypes[1:]:
        if dtype != dtypes[0]:  # torch's kernel takes no mixed operands
            raise RuntimeError(
                f"Found dtype {dtype.scalar_name} but expected {dtypes[0].scalar_name}"
            )


@export(method=False)
@defop(
    name="_dirichlet_grad",
    promote="same",
    check=_same_dtypes,
    dtypes=kernel("_dirichlet_grad_cpu", FLOATING),
    node="NotImplemented",
    x=not_implemented("_dirichlet_grad"),
    alpha=not_implemented("_dirichlet_grad"),
    total=not_implemented("_dirichlet_grad"),
    jvp=no_forward_derivative("_dirichlet_grad"),
)
def _dirichlet_grad(x, alpha, total):
    # the series run in the input's dtype, as torch's kernel runs them; the saddle point
    # and the rational correction in double
    kind = x.dtype.type
    x, alpha, total = xp.broadcast_arrays(x, alpha, total)
    beta = total - alpha
    boundary = total * x * (1 - x)
    wide = [xp.asarray(a, xp.float64) for a in (x, alpha, total)]
    wide_beta = wide[2] - wide[1]
    with xp.errstate(all="ignore"):
        result = _rational_correction(*wide, wide_beta, kind)
        mid = (alpha > 6) & (beta > 6)
        result = xp.where(mid, _saddle_point(wide[0], wide[1], wide_beta), result)
        near_one = (x >= 0.5) & (boundary < 0.75)
        result = xp.where(near_one, -_beta_series(1 - x, beta, alpha, kind), result)
        near_zero = (x <= 0.5) & (boundary < 2.5)
        result = xp.where(near_zero, _alpha_series(x, alpha, beta, kind), result)
    return result.astype(kind)


def _alpha_series(x, alpha, beta, kind):
    """d/dalpha near x = 0: ten terms of the Taylor series (an undefined result is 0)."""
    factor = _digamma(alpha, kind) - _digamma(alpha + beta, kind) - _libm(xp.log, kind, x)
    numer = xp.ones_like(x)
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        numer = numer * ((kind(i) - beta) * x / kind(i))
        denom = alpha + kind(i)
        series = series + numer / denom * (factor + 1 / denom)
    result = x * _libm(xp.power, kind, 1 - x, -beta) * series
    return xp.where(xp.isnan(result), kind(0), result)


def _digamma(value, kind):
    """torch's digamma_one in the kernel's dtype: for float32 its steps ``1 / x``, ``x + 1``,
    ``log x`` and ``0.5 / x`` round to single precision, the sums stay double."""
    value = xp.asarray(value)
    if kind is xp.float64:
        return _digamma_one(value)
    x = value.astype(xp.float32, copy=True)
    pole = (x == 0) | ((x < 0) & (x == xp.floor(x)))
    extra = xp.zeros(x.shape)
    reflected = (x < 0) & ~pole
    pi = xp.float32(math.pi)
    extra[reflected] = -pi / _libm(xp.tan, xp.float32, pi * x[reflected])
    x[reflected] = 1 - x[reflected]
    result = xp.zeros(x.shape)
    low = (x < 10) & ~pole
    while low.any():
        result[low] -= 1 / x[low]
        x[low] += 1
        low = (x < 10) & ~pole
    with xp.errstate(all="ignore"):
        z = 1.0 / (x * x).astype(xp.float64)
        series = xp.full(x.shape, _DIGAMMA_ONE[0])
        for coefficient in _DIGAMMA_ONE[1:]:
            series = series * z + coefficient
        y = xp.where(x < xp.float32(1.0e17), z * series, 0.0)
        out = result + _libm(xp.log, xp.float32, x) - xp.float32(0.5) / x - y + extra
    out = xp.where(x == 10, result + _PSI_10 + extra, out)
    return xp.where(pole, xp.inf, out).astype(xp.float32)


def _libm(function, kind, *arrays):
    """``function`` rounded once to ``kind``, as the C library's single-precision logf and
    powf are (NumPy's own float32 loops are off by an ulp now and then, which the series'
    cancellation amplifies)."""
    return function(*(xp.asarray(a, xp.float64) for a in arrays)).astype(kind)


def _beta_series(x, alpha, beta, kind):
    """d/dbeta near x = 0: eight terms of the Taylor series (an undefined result is 0)."""
    factor = _digamma(alpha + beta, kind) - _digamma(beta, kind)
    numer, betas, dbetas = xp.ones_like(x), xp.ones_like(x), xp.zeros_like(x)
    series = factor / alpha
    for i in range(1, 9):
        numer = numer * (-x / kind(i))
        dbetas = dbetas * (beta - kind(i)) + betas
        betas = betas * (beta - kind(i))
        series = series + numer / (alpha + kind(i)) * (dbetas + factor * betas)
    result = -_libm(xp.power, kind, 1 - x, 1 - beta) * series
    return xp.where(xp.isnan(result), kind(0), result)


def _saddle_point(x, alpha, beta):
    """d/dalpha for large alpha and beta: Rice's saddle-point expansion."""
    total = alpha + beta
    mean = alpha / total
    std = xp.sqrt(alpha * beta / (total + 1)) / total
    # at the mean the expansion is singular: a polynomial in x, alpha and beta there
    poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
        (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta
        + alpha
        * (
            3 * (59 + 180 * beta - 90 * x) * (beta * beta)
            + alpha
            * (
                (453 + 1620 * beta * (1 - x) - 455 * x) * beta
                + alpha * (8 * (1 - x) * (135 * beta - 11))
            )
        )
    )
    prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
    prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
    at_mean = prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / xp.sqrt(2 * alpha * beta / total)
    stirling = (
        (1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
        * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
        / (1 + 1 / (12 * total) + 1 / (288 * total * total))
    )
    axbx = alpha * (x - 1) + beta * x
    term1 = (2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)) / (
        xp.sqrt(2 * alpha / beta) * xp.power(total, 1.5) * axbx * axbx
    )
    term2 = 0.5 * xp.log(alpha / (total * x))
    term3 = xp.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4 = xp.power(
        beta * xp.log(beta / (total * (1 - x))) + alpha * xp.log(alpha / (total * x)), -1.5
    )
    tails = stirling * prefactor * (term1 + term2 * (term3 + xp.where(x < mean, term4, -term4)))
    near_mean = (mean - _SINGLE_0_1 * std <= x) & (x <= mean + _SINGLE_0_1 * std)
    return xp.where(near_mean, at_mean, tails)


_SINGLE_0_1 = float(xp.float32(0.1))  # torch compares with a single-precision literal

# the rational correction's coefficients: [p, q][power of u][power of a][power of b]
_CORRECTION = xp.array(
    [
        [
            [
                [1.003668233, -0.01061107488, -0.0657888334, 0.01201642863],
                [0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033],
                [-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013],
            ],
            [
                [0.221950385, -0.3187676331, 0.01799915743, 0.01074823814],
                [-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057],
                [0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05],
            ],
            [
                [-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565],
                [0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181],
                [0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05],
            ],
        ],
        [
            [
                [1, -0.02924021934, -0.04438342661, 0.007285809825],
                [0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521],
                [-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149],
            ],
            [
                [0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273],
                [0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956],
                [-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05],
            ],
            [
                [0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05],
                [0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05],
                [-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06],
            ],
        ],
    ]
)


def _rational_correction(x, alpha, total, beta, kind):
    u = xp.log(x)
    a = xp.log(alpha) - u
    b = xp.log(total) - a
    p = q = 0.0
    for i, u_power in enumerate((1.0, u, u * u)):
        for j, a_power in enumerate((1.0, a, a * a)):
            cp, cq = _CORRECTION[0, i, j], _CORRECTION[1, i, j]
            p = p + u_power * a_power * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])))
            q = q + u_power * a_power * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])))
    # torch's digamma_one gives the input's dtype here too
    approx = x * (_digamma(total, kind) - _digamma(alpha, kind)) / beta
    return p / q * approx

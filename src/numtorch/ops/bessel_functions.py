"""The Bessel and Airy functions of ``torch.special`` that torch gives no derivatives: J0, J1,
Y0, Y1, modified I0, I1, K0, K1 (and exp(x)-scaled K0, K1), spherical j0, Airy Ai.
Results never require grad.

Computed in float64 from exponentially convergent quadratures rather than fitted
polynomials, then cast to the input's dtype:
- K_nu for x <= 25: ``exp(x) K_nu(x) = int_0^inf exp(-x (cosh t - 1)) cosh(nu t) dt`` by the
  trapezoid rule, which converges geometrically for integrands analytic in a strip; beyond
  25 the asymptotic series ``sqrt(pi / 2x) sum_k prod_j (4 nu^2 - (2j-1)^2) / (k! (8x)^k)``.
- J_n for |x| <= 25: ``J_n(x) = (1/2 pi) int_0^2pi cos(n tau - x sin tau) d tau``, a periodic
  integrand on which the trapezoid rule is exact to rounding once it has more nodes than x;
  beyond 25 Hankel's asymptotic series (its smallest term is about exp(-2x)).
- Y_n: below 2 the logarithmic power series; up to 25
  ``Y_n(x) = (1/pi) int_0^pi sin(x sin t - n t) dt - (1/pi) int_0^inf (e^(nt) + (-1)^n e^(-nt))
  exp(-x sinh t) dt`` by Gauss-Legendre and (after u = sinh t) Gauss-Laguerre rules; beyond,
  Hankel's series. Negative x and inf give NaN and 0 gives -inf, as torch's.
"""

from __future__ import annotations

import math

from .._core import dtypes
from .._core.tensor import Tensor
from ..backend import xp
from ..backend.quadrature import gauss_laguerre, gauss_legendre
from .bessel import i0_array, i1_array

_STEP = 0.1
# log(cosh t - 1) stays finite on the whole grid; 760 covers x down to the smallest subnormal
_NODES = xp.arange(0.0, 760.0, _STEP)
_LOG_COSH_MINUS_ONE = _NODES[1:] - math.log(2.0) + 2.0 * xp.log1p(-xp.exp(-_NODES[1:]))
_CHUNK = 512
_PERIODIC_NODES = 2.0 * math.pi * xp.arange(128) / 128
_HANKEL_LIMIT = 25.0
_HANKEL_TERMS = 30


def _float_array(name, input):
    if not isinstance(input, Tensor):
        raise TypeError(
            f"special.{name}(): argument 'input' (position 1) must be Tensor, "
            f"not {type(input).__name__}"
        )
    dtype = input.dtype
    if dtype.is_complex:
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{dtype.scalar_name}'")
    if not dtypes.is_floating_point_dtype(dtype):
        dtype = dtypes.get_default_dtype()
    return input._data.astype(xp.float64), dtype


def _result(values, dtype):
    return Tensor._make(xp.asarray(values.astype(dtype.np, copy=False)))


def _scaled_k(x, nu):
    """exp(x) K_nu(x) for finite x > 0."""
    out = xp.empty_like(x)
    # cosh(nu t) = exp(nu t) (1 + exp(-2 nu t)) / 2, kept in log form against overflow
    log_cosh_nu = nu * _NODES[1:] + xp.log1p(xp.exp(-2.0 * nu * _NODES[1:])) - math.log(2.0)
    for start in range(0, x.size, _CHUNK):
        part = x[start : start + _CHUNK, None]
        exponent = -xp.exp(xp.log(part) + _LOG_COSH_MINUS_ONE) + log_cosh_nu
        out[start : start + _CHUNK] = _STEP * (0.5 + xp.exp(exponent).sum(axis=1))
    return out


def _asymptotic_scaled_k(x, nu):
    """exp(x) K_nu(x) for x > 25."""
    mu = 4.0 * nu * nu
    term = xp.ones_like(x)
    total = term.copy()
    for k in range(1, 2 * _HANKEL_TERMS):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        total = total + term
    return xp.sqrt(math.pi / (2.0 * x)) * total


def _k(name, input, nu, scaled):
    x, dtype = _float_array(name, input)
    flat = x.reshape(-1)
    out = xp.full_like(flat, xp.nan)
    out[flat == 0] = xp.inf
    out[flat == xp.inf] = 0.0
    inside = (flat > 0) & (flat < xp.inf)
    values = xp.empty(int(inside.sum()))
    near = flat[inside] <= _HANKEL_LIMIT
    values[near] = _scaled_k(flat[inside][near], nu)
    values[~near] = _asymptotic_scaled_k(flat[inside][~near], nu)
    with xp.errstate(under="ignore"):
        out[inside] = values if scaled else values * xp.exp(-flat[inside])
    return _result(out.reshape(x.shape), dtype)


def _hankel(x, n, second_kind=False):
    """J_n(x) (Y_n(x) with ``second_kind``) for x > 25 from Hankel's asymptotic series."""
    mu = 4.0 * n * n
    p, q = xp.ones_like(x), xp.zeros_like(x)
    term = xp.ones_like(x)
    for k in range(1, 2 * _HANKEL_TERMS):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        sign = -1.0 if (k // 2) % 2 else 1.0
        if k % 2:
            q = q + sign * term
        else:
            p = p + sign * term
    chi = x - (0.5 * n + 0.25) * math.pi
    if second_kind:
        return xp.sqrt(2.0 / (math.pi * x)) * (p * xp.sin(chi) + q * xp.cos(chi))
    return xp.sqrt(2.0 / (math.pi * x)) * (p * xp.cos(chi) - q * xp.sin(chi))


def _j(name, input, n):
    x, dtype = _float_array(name, input)
    flat = x.reshape(-1)
    magnitude = xp.abs(flat)
    out = xp.full_like(flat, xp.nan)
    small = magnitude <= _HANKEL_LIMIT
    values = magnitude[small][:, None]
    out[small] = xp.cos(n * _PERIODIC_NODES - values * xp.sin(_PERIODIC_NODES)).mean(axis=1)
    large = (magnitude > _HANKEL_LIMIT) & (magnitude < xp.inf)
    out[large] = _hankel(magnitude[large], n)
    # below 1 the power series sum_k (-1)^k (x/2)^(2k+n) / (k! (k+n)!) keeps relative accuracy
    tiny = magnitude < 1.0
    half = magnitude[tiny] / 2.0
    term = half**n / math.factorial(n)
    series = term.copy()
    for k in range(1, 12):
        term = -term * half * half / (k * (k + n))
        series = series + term
    out[tiny] = series
    if n % 2:
        out = xp.where(flat < 0, -out, out)
    return _result(out.reshape(x.shape), dtype)


def bessel_j0(input):
    """torch.special.bessel_j0: the Bessel function of the first kind of order 0."""
    return _j("bessel_j0", input, 0)


def bessel_j1(input):
    """torch.special.bessel_j1: the Bessel function of the first kind of order 1."""
    return _j("bessel_j1", input, 1)


def modified_bessel_i0(input):
    """torch.special.modified_bessel_i0: I0, without gradient (torch.special.i0 has one)."""
    x, dtype = _float_array("modified_bessel_i0", input)
    return _result(i0_array(x), dtype)


def modified_bessel_i1(input):
    """torch.special.modified_bessel_i1: I1, without gradient (torch.special.i1 has one)."""
    x, dtype = _float_array("modified_bessel_i1", input)
    return _result(i1_array(x), dtype)


def modified_bessel_k0(input):
    """torch.special.modified_bessel_k0: K0; NaN below 0, inf at 0."""
    return _k("modified_bessel_k0", input, 0, False)


def modified_bessel_k1(input):
    """torch.special.modified_bessel_k1: K1; NaN below 0, inf at 0."""
    return _k("modified_bessel_k1", input, 1, False)


def scaled_modified_bessel_k0(input):
    """torch.special.scaled_modified_bessel_k0: ``exp(x) K0(x)``."""
    return _k("scaled_modified_bessel_k0", input, 0, True)


def scaled_modified_bessel_k1(input):
    """torch.special.scaled_modified_bessel_k1: ``exp(x) K1(x)``."""
    return _k("scaled_modified_bessel_k1", input, 1, True)


def spherical_bessel_j0(input):
    """torch.special.spherical_bessel_j0: ``sin(x) / x``, 1 at 0 and 0 at infinity."""
    x, dtype = _float_array("spherical_bessel_j0", input)
    with xp.errstate(all="ignore"):
        out = xp.sin(x) / x
        # near 0, the series 1 - x^2/6 + x^4/120 - ... avoids 0/0
        square = x * x
        series = 1.0 - square / 6.0 * (1.0 - square / 20.0 * (1.0 - square / 42.0))
    out = xp.where(xp.abs(x) < 1e-3, series, out)
    out = xp.where(xp.isinf(x), 0.0, out)
    return _result(out, dtype)


_EULER = 0.5772156649015329
_SERIES_LIMIT = 2.0


def _j_series(x, n):
    half = x / 2.0
    term = half**n / math.factorial(n)
    total = term.copy()
    for k in range(1, 30):
        term = -term * half * half / (k * (k + n))
        total = total + term
    return total


def _y_series(x, n):
    """Y_n(x) for 0 < x < 2 from the power series with its logarithmic part."""
    half = x / 2.0
    square = half * half
    if n == 0:
        # Y0 = (2/pi) [(ln(x/2) + gamma) J0 + sum_k (-1)^(k+1) H_k (x/2)^(2k) / (k!)^2]
        term, total, harmonic = xp.ones_like(x), xp.zeros_like(x), 0.0
        for k in range(1, 30):
            term = -term * square / (k * k)
            harmonic += 1.0 / k
            total = total - term * harmonic
        return 2.0 / math.pi * ((xp.log(half) + _EULER) * _j_series(x, 0) + total)
    # Y1 = (2/pi) ln(x/2) J1 - 2/(pi x)
    #      - (1/pi) sum_k (-1)^k (psi(k+1) + psi(k+2)) (x/2)^(2k+1) / (k! (k+1)!)
    psi = [-_EULER]
    for k in range(1, 32):
        psi.append(psi[-1] + 1.0 / k)
    term = half.copy()
    total = (psi[0] + psi[1]) * term
    for k in range(1, 30):
        term = -term * square / (k * (k + 1))
        total = total + (psi[k] + psi[k + 1]) * term
    return 2.0 / math.pi * xp.log(half) * _j_series(x, 1) - 2.0 / (math.pi * x) - total / math.pi


def _y_quadrature(x, n):
    """Y_n(x) for 2 <= x <= 25 from its two integrals."""
    theta, theta_weights = gauss_legendre(80, 0.0, math.pi)
    u, u_weights = gauss_laguerre(120)
    x = x[:, None]
    oscillating = (xp.sin(x * xp.sin(theta) - n * theta) * theta_weights).sum(axis=1)
    # u = sinh t, then v = x u: int_0^inf e^(-v) g(v / x) dv / x
    s = u / x
    g = 2.0 / xp.sqrt(1.0 + s * s) if n == 0 else 2.0 * s / xp.sqrt(1.0 + s * s)
    decaying = (g * u_weights).sum(axis=1) / x[:, 0]
    return (oscillating - decaying) / math.pi


def _y(name, input, n):
    x, dtype = _float_array(name, input)
    flat = x.reshape(-1)
    out = xp.full_like(flat, xp.nan)
    out[flat == 0] = -xp.inf
    small = (flat > 0) & (flat < _SERIES_LIMIT)
    middle = (flat >= _SERIES_LIMIT) & (flat <= _HANKEL_LIMIT)
    large = (flat > _HANKEL_LIMIT) & (flat < xp.inf)
    out[small] = _y_series(flat[small], n)
    out[middle] = _y_quadrature(flat[middle], n)
    out[large] = _hankel(flat[large], n, second_kind=True)
    return _result(out.reshape(x.shape), dtype)


def bessel_y0(input):
    """torch.special.bessel_y0: the Bessel function of the second kind of order 0."""
    return _y("bessel_y0", input, 0)


def bessel_y1(input):
    """torch.special.bessel_y1: the Bessel function of the second kind of order 1."""
    return _y("bessel_y1", input, 1)


_AI_0 = 0.355028053887817239  # Ai(0)
_AI_PRIME_0 = 0.258819403792806798  # -Ai'(0)


def _airy_series(x):
    """Ai(x) = Ai(0) f(x) + Ai'(0) g(x) from the Maclaurin series of f and g (|x| <= 8)."""
    cube = x * x * x
    f_term, g_term = xp.ones_like(x), x.copy()
    f, g = f_term.copy(), g_term.copy()
    for k in range(1, 80):
        f_term = f_term * cube / ((3 * k - 1) * (3 * k))
        g_term = g_term * cube / ((3 * k) * (3 * k + 1))
        f, g = f + f_term, g + g_term
    return _AI_0 * f - _AI_PRIME_0 * g


def _airy_oscillating(z):
    """Ai(-z) for z > 8 from its asymptotic series in zeta = (2/3) z^(3/2)."""
    zeta = 2.0 / 3.0 * z**1.5
    term, even, odd = xp.ones_like(z), xp.ones_like(z), xp.zeros_like(z)
    for k in range(1, 40):
        # u_k = u_{k-1} (6k-5)(6k-3)(6k-1) / (216 k (2k-1))
        term = term * ((6 * k - 5) * (6 * k - 3) * (6 * k - 1)) / (216.0 * k * (2 * k - 1)) / zeta
        sign = -1.0 if (k // 2) % 2 else 1.0
        if k % 2:
            odd = odd + sign * term
        else:
            even = even + sign * term
    phase = zeta + math.pi / 4.0
    return (xp.sin(phase) * even - xp.cos(phase) * odd) / (math.sqrt(math.pi) * z**0.25)


def airy_ai(input):
    """torch.special.airy_ai: the Airy function Ai, ``Ai(x) = sqrt(x/3) K_{1/3}(zeta) / pi``
    with ``zeta = (2/3) x^(3/2)`` for x > 2, its Maclaurin series on [-8, 2], and the
    oscillating asymptotic series below -8."""
    x, dtype = _float_array("airy_ai", input)
    flat = x.reshape(-1)
    out = xp.full_like(flat, xp.nan)  # Ai(inf) is NaN in torch too
    series = (flat >= -8.0) & (flat <= 2.0)
    out[series] = _airy_series(flat[series])
    negative = (flat < -8.0) & (flat > -xp.inf)
    out[negative] = _airy_oscillating(-flat[negative])
    positive = (flat > 2.0) & (flat < xp.inf)
    v = flat[positive]
    zeta = 2.0 / 3.0 * v**1.5
    near = zeta <= _HANKEL_LIMIT
    scaled = xp.empty_like(v)
    scaled[near] = _scaled_k(zeta[near], 1.0 / 3.0)
    scaled[~near] = _asymptotic_scaled_k(zeta[~near], 1.0 / 3.0)
    with xp.errstate(under="ignore"):
        out[positive] = xp.sqrt(v / 3.0) / math.pi * scaled * xp.exp(-zeta)
    return _result(out.reshape(x.shape), dtype)

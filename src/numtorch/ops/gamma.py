"""The gamma function family: lgamma, digamma, polygamma, mvlgamma and the Hurwitz zeta.

NumPy has none of these vectorised, so the kernels are here, computed in float64 (float32
inputs too) to a few units in the last place:

- ``lgamma``: ``lgamma(2 + z)``'s Taylor series for ``|z| <= 1/2`` (coefficients
  ``(-1)^k (zeta(k) - 1) / k``), the recurrence ``lgamma(x + 1) = lgamma(x) + log(x)`` to
  reach it from below 13, Stirling's series from 13 on, reflection for negative ``x``.
- ``digamma``: the asymptotic series from 10 on, reached by ``psi(x + 1) = psi(x) + 1/x``;
  near its positive root a Taylor series about the root (the recurrence cancels there).
- ``polygamma(n >= 1)``: ``(-1)^(n+1) n! zeta(n + 1, x)``.
- ``zeta(x, q)``: direct summation then the Euler-Maclaurin tail, with Cephes' edge values
  (torch's), e.g. ``zeta(x, q)`` is ``inf`` at ``x == 1`` and at integers ``q <= 0``.

Coefficients were computed with mpmath at 40 digits.
"""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.inplace import inplace_variant
from .._core.kernel_dtypes import FLOATING, FLOATS, kernel
from .._core.op import defop, export
from .._core.tensor import Tensor
from .._creation import arange
from ..autograd.forward_grad import no_forward_derivative
from ..backend import xp
from .special import derivative_not_implemented

_LOG_PI = math.log(math.pi)
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)
_EPS = 1.11022302462515654042e-16  # 2**-53

# lgamma(2 + z) = sum_k _LGAMMA2[k] z^(k+1): (1 - euler) z + sum_{k>=2} (-1)^k (zeta(k)-1)/k z^k
_LGAMMA2 = (
    0.42278433509846713939,
    0.322467033424113218,
    -0.0673523010531980951,
    0.0205808084277845479,
    -0.00738555102867398527,
    0.00289051033074152329,
    -0.00119275391170326098,
    0.000509669524743042422,
    -0.00022315475845357938,
    0.0000994575127818085337,
    -0.0000449262367381331417,
    0.0000205072127756706916,
    -9.4394882752683959e-6,
    4.3748667899074878e-6,
    -2.03921575380136624e-6,
    9.55141213040741983e-7,
    -4.49246919876456604e-7,
    2.12071848055546659e-7,
    -1.00432248239680996e-7,
    4.76981016936398057e-8,
    -2.27110946089431649e-8,
    1.08386592148969541e-8,
    -5.18347504197004666e-9,
    2.48367454380247832e-9,
    -1.19214014058609121e-9,
    5.73136724167886201e-10,
    -2.75952288512423315e-10,
    1.33047643742444895e-10,
    -6.42296456383810002e-11,
    3.10442477473222728e-11,
    -1.50213840807541422e-11,
    7.27597448023907966e-12,
)
# lgamma(1 + z) = sum_k _LGAMMA1[k] z^(k+1): -euler z + sum_{k>=2} (-1)^k zeta(k)/k z^k
_LGAMMA1 = (
    -0.577215664901532861,
    0.822467033424113218,
    -0.400685634386531428,
    0.270580808427784548,
    -0.207385551028673985,
    0.16955717699740819,
    -0.144049896768846118,
    0.125509669524743042,
    -0.11133426586956469,
    0.100099457512781809,
    -0.0909540171458290422,
    0.083353840546109004,
    -0.0769325164113521915,
    0.0714329462953613361,
    -0.066668705882420468,
    0.0625009551412130407,
    -0.0588239786586845823,
    0.0555557676274036111,
    -0.0526316793796166607,
    0.0500000476981016936,
    -0.047619070330142228,
    0.0454545562932046694,
    -0.0434782660530402594,
    0.0416666691503412105,
    -0.0400000011921401406,
    0.0384615390346751857,
    -0.0370370373129893255,
    0.035714285847333358,
    -0.0344827586849193008,
    0.0333333333643775811,
    -0.0322580645311504163,
)
# Stirling: lgamma(x) ~ (x - 1/2) log x - x + log(2 pi)/2 + sum B_2k / (2k (2k-1) x^(2k-1))
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156)
# digamma's positive root, as a double plus its rounding error
_PSI_ROOT_HI = 1.4616321449683622
_PSI_ROOT_LO = 9.549995429965697e-17
# psi(root + h) = sum_k _PSI_ROOT[k] h^(k+1), coefficients psi^(k)(root) / k!
_PSI_ROOT = (
    0.96767224544762117,
    -0.442763168983592106,
    0.258499760955651011,
    -0.163942705442406528,
    0.107824050691262366,
    -0.0721995612564547109,
    0.0488042881641431072,
    -0.0331611264748473593,
    0.0225976482322181047,
    -0.0154247659049489591,
    0.0105387916166121754,
    -0.00720453438635686824,
    0.00492678139572985345,
    -0.00336980165543932808,
    0.00230512632673492784,
    -0.00157693677143019726,
    0.00107882520191629658,
    -0.00073807093899600513,
    0.000504953265834602035,
    -0.0003454680251063077,
    0.000236356015640270528,
    -0.000161706220919748034,
    0.000110633727687474109,
    -0.0000756917958219506592,
    0.0000517857579522208087,
    -0.0000354300709476596063,
    0.0000242400661186013177,
    -0.0000165842422718541334,
    0.0000113463845846638498,
    -7.76281766846209443e-6,
    5.31106092088986339e-6,
    -3.63365078980104567e-6,
    2.48602273312953795e-6,
    -1.70085388543326066e-6,
    1.16366753635488427e-6,
    -7.9614254312419704e-7,
    5.44694193066944528e-7,
    -3.72661612834382296e-7,
    2.54962655202155426e-7,
    -1.74436951177277452e-7,
    1.19343948298302428e-7,
    -8.16511518948840884e-8,
)
# lgamma(root + h) = _LGAMMA_MIN + sum_k _PSI_ROOT[k] / (k + 2) h^(k+2)
_LGAMMA_MIN = -0.1214862905358496081


def _horner(z, coefficients):
    """``sum_k coefficients[k] z^(k+1)``."""
    out = xp.zeros_like(z)
    for c in reversed(coefficients):
        out = (out + c) * z
    return out


def _float64(x):
    return xp.asarray(x, dtype=xp.float64)


def float64_kernel(fn):
    """Run an elementwise kernel on 1-D float64 copies of its array arguments (broadcast
    together), reshaping the result back: kernels index with masks, which 0-D arrays lack."""

    def run(*args):
        arrays = [i for i, a in enumerate(args) if isinstance(a, (xp.ndarray, xp.generic))]
        shape = xp.broadcast_shapes(*[xp.shape(args[i]) for i in arrays])
        args = list(args)
        for i in arrays:
            args[i] = xp.array(xp.broadcast_to(args[i], shape), dtype=xp.float64).reshape(-1)
        return fn(*args).reshape(shape)

    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


def _fill(out, mask, fn, *arrays):
    """``out[mask] = fn(*(a[mask] for a in arrays))`` when ``mask`` selects anything."""
    if mask.any():
        out[mask] = fn(*(a[mask] for a in arrays))


def _is_integer(x):
    return x == xp.floor(x)


def sinpi_abs(x):
    """``|sin(pi x)|`` with exact argument reduction (0 at every integer)."""
    r = xp.abs(x - 2.0 * xp.round(x / 2.0))
    return xp.sin(math.pi * xp.minimum(r, 1.0 - r))


# -- lgamma ----------------------------------------------------------------------------------
_LGAMMA_ROOT = tuple(c / (k + 2) for k, c in enumerate(_PSI_ROOT[:28]))


def _root_offset(x):
    """``x - root`` for x in [0.5, 2.5), carrying the root's rounding error."""
    return (x - _PSI_ROOT_HI) - _PSI_ROOT_LO


def _lgamma_near_minimum(x):
    """lgamma of x in [0.5, 2.5): series about 1, the minimum and 2 (no cancellation near the
    zeros at 1 and 2)."""
    out = xp.empty_like(x)
    _fill(out, x < 0.75, lambda v: _horner(v - 1.0, _LGAMMA2) - xp.log(v), x)
    _fill(out, (x >= 0.75) & (x < 1.25), lambda v: _horner(v - 1.0, _LGAMMA1), x)
    minimum = (x >= 1.25) & (x < 1.75)
    _fill(out, minimum, lambda v: _horner(_root_offset(v), _LGAMMA_ROOT), x)
    _fill(out, x >= 1.75, lambda v: _horner(v - 2.0, _LGAMMA2), x)
    if minimum.any():  # the series starts at h^2; the constant goes on last
        h = _root_offset(x[minimum])
        out[minimum] = out[minimum] * h + _LGAMMA_MIN
    return out


def _lgamma_positive(x):
    """lgamma of finite x > 0."""
    out = xp.empty_like(x)
    _fill(out, x < 0.5, lambda v: _horner(v, _LGAMMA2) - xp.log(v) - xp.log1p(v), x)
    _fill(out, (x >= 0.5) & (x < 2.5), _lgamma_near_minimum, x)
    _fill(out, (x >= 2.5) & (x < 13.0), _lgamma_shifted, x)
    _fill(out, x >= 13.0, _lgamma_stirling, x)
    return out


def _lgamma_shifted(x):
    # lgamma(x) = lgamma(y) + log(y (y+1) ... (x-1)) with y = x - n in [1.5, 2.5)
    n = xp.floor(x - 1.5)
    y = x - n
    product = y.copy()
    for k in range(1, int(n.max())):
        product *= xp.where(k < n, y + k, 1.0)
    return _lgamma_near_minimum(y) + xp.log(product)


def _lgamma_stirling(x):
    inverse = 1.0 / x
    series = _horner(inverse * inverse, _STIRLING[1:]) * inverse + _STIRLING[0] * inverse
    log_x = xp.log(x)
    # x (log x - 1) overflows only where lgamma does (beyond ~2.5e305)
    return x * (log_x - 1.0) - 0.5 * log_x + _HALF_LOG_2PI + series


@float64_kernel
def lgamma_array(x):
    """``log|Gamma(x)|``; ``inf`` at poles and at +-inf (as glibc's lgamma)."""
    x = _float64(x)
    out = xp.full(x.shape, xp.inf)
    finite = xp.isfinite(x)
    out[xp.isnan(x)] = xp.nan
    _fill(out, finite & (x > 0), _lgamma_positive, x)
    # lgamma(x) = lgamma(x + 1) - log(-x) near 0; reflection further out
    _fill(out, (x < 0) & (x > -0.5), lambda v: _lgamma_positive(v + 1.0) - xp.log(-v), x)
    negative = finite & (x <= -0.5) & ~_is_integer(x)
    _fill(out, negative, lambda v: xp.log(math.pi / sinpi_abs(v)) - _lgamma_positive(1.0 - v), x)
    return out + 0.0  # lgamma(1) and lgamma(2) are +0


# -- digamma ---------------------------------------------------------------------------------
# Note [Digamma as torch's kernel]
# torch's digamma kernel (calc_digamma, scalar code) works in the input's precision (float
# for float32 and the halves, double for float64): psi(x) = psi(x + 1) - 1/x added up step
# by step to 10, then PSI_10 at exactly 10 or the asymptotic series, and the reflection
# pi / tan(pi r) on the fractional part r in double below 0. Those roundings differ from the
# accurately rounded psi by a few ulps (psi(1) in float32 is -0.5772159, not -0.5772157);
# following them gives torch's bits in nearly every value where the accurate psi gave half.
_DIGAMMA_SERIES = (
    8.33333333333333333333e-2,
    -2.10927960927960927961e-2,
    7.57575757575757575758e-3,
    -4.16666666666666666667e-3,
    3.96825396825396825397e-3,
    -8.33333333333333333333e-3,
    8.33333333333333333333e-2,
)
_PSI_10 = 2.25175258906672110764


def kernel_digamma(x):
    """psi of a float32 or float64 array in that precision, as torch's kernel computes it."""
    real = x.dtype.type
    flat = x.reshape(-1)
    out = xp.empty_like(flat)
    zero = flat == 0
    out[zero] = xp.copysign(real(xp.inf), -flat[zero])
    pole = (flat < 0) & (flat == xp.trunc(flat))  # the negative integers and -inf
    out[pole] = xp.nan
    reflected = (flat < 0) & ~pole
    rest = ~zero & ~pole
    v = flat[rest].copy()
    mirrored = reflected[rest]
    v[mirrored] = real(1) - v[mirrored]
    result = xp.zeros_like(v)
    low = v < 10
    while low.any():
        result[low] -= real(1) / v[low]
        v[low] += real(1)
        low = v < 10
    with xp.errstate(all="ignore"):
        z = real(1) / (v * v)
        series = xp.full_like(v, _DIGAMMA_SERIES[0])
        for coefficient in _DIGAMMA_SERIES[1:]:
            series = series * z + real(coefficient)
        y = xp.where(v < real(1.0e17), z * series, real(0))
        log = xp.log(v.astype(xp.float64)).astype(x.dtype)  # a correctly rounded logf
        psi = result + log - real(0.5) / v - y
    psi = xp.where(v == 10, result + real(_PSI_10), psi)
    if mirrored.any():
        below = flat[rest][mirrored].astype(xp.float64)
        fraction = below - xp.trunc(below)
        psi[mirrored] -= (math.pi / xp.tan(math.pi * fraction)).astype(x.dtype)
    out[rest] = psi
    return out.reshape(x.shape)


def _digamma_in_kernel_precision(input):
    if input.dtype == xp.float64:
        return kernel_digamma(input)
    return kernel_digamma(input.astype(xp.float32)).astype(input.dtype)


# -- Hurwitz zeta ----------------------------------------------------------------------------
# (2k)! / B_2k: the Euler-Maclaurin correction denominators
_ZETA_DENOMINATORS = (
    12.0,
    -720.0,
    30240.0,
    -1209600.0,
    47900160.0,
    -1.8924375803183791606e9,
    7.47242496e10,
    -2.950130727918164224e12,
    1.1646782814350067249e14,
    -4.5979787224074726105e15,
    1.8152105401943546773e17,
    -7.1661652561756670113e18,
)


def _zeta_sum(x, q):
    """zeta(x, q) by direct summation until q + n > 9 (n >= 9), then the Euler-Maclaurin
    tail; either stops once its terms fall below the rounding of the sum."""
    s = q**-x
    a = q.copy()
    b = xp.zeros_like(s)
    done = xp.zeros(s.shape, bool)
    i = 0
    while True:
        active = ~done & ((i < 9) | (a <= 9.0))
        if not active.any():
            break
        i += 1
        a = xp.where(active, a + 1.0, a)
        term = a**-x
        s = xp.where(active, s + term, s)
        b = xp.where(active, term, b)
        done |= active & (-_EPS * s < b) & (b < _EPS * s)
    live = ~done
    w = a
    s = xp.where(live, s + w ** (1.0 - x) / (x - 1.0) - 0.5 * b, s)  # (no underflow in b w)
    rising = xp.ones_like(s)
    k = 0.0
    for denominator in _ZETA_DENOMINATORS:
        rising = rising * (x + k)
        b = b / w
        t = rising * b / denominator
        s = xp.where(live, s + t, s)
        live &= ~(xp.abs(t / s) < _EPS)
        k += 1.0
        rising = rising * (x + k)
        b = b / w
        k += 1.0
    return s


@float64_kernel
def zeta_array(x, q):
    """The Hurwitz zeta function ``sum_k (k + q)^-x`` with Cephes' conventions (torch's)."""
    x, q = xp.broadcast_arrays(_float64(x), _float64(q))
    out = xp.empty(x.shape)
    out[x == 1.0] = xp.inf
    out[x < 1.0] = xp.nan
    rest = ~((x == 1.0) | (x < 1.0))
    pole = rest & (q <= 0) & _is_integer(q)
    out[pole] = xp.inf
    undefined = rest & (((q <= 0) & ~pole & ~_is_integer(x)) | (q == xp.inf))
    out[undefined] = xp.nan
    _fill(out, rest & ~pole & ~undefined, _zeta_sum, x, q)
    return out


_REFLECT_BELOW = 1000.0


def _cot_derivative(n: int, x):
    """``d^n/dx^n cot(pi x)``: ``pi^n P_n(cot(pi x))`` with ``P_0(c) = c`` and
    ``P_{k+1}(c) = -(1 + c^2) P_k'(c)``; cot is taken of x's fraction, exact for floats."""
    poly = xp.polynomial.Polynomial([0.0, 1.0])
    for _ in range(n):
        poly = -poly.deriv() * xp.polynomial.Polynomial([1.0, 0.0, 1.0])
    fraction = x - xp.floor(x)
    return math.pi**n * poly(1.0 / xp.tan(math.pi * fraction))


def _polygamma_reflected(n: int, x):
    """``psi^(n)(x) = (-1)^n psi^(n)(1 - x) - pi d^n/dx^n cot(pi x)``, for x < 0."""
    sign = -1.0 if n % 2 else 1.0
    return sign * polygamma_array(n, 1.0 - x) - math.pi * _cot_derivative(n, x)


def trigamma_array(x):
    """polygamma(1, x): the zeta series from 0 up; below 0 the reflection
    ``pi^2 / sin(pi x)^2 - psi1(1 - x)`` with sin of the unreduced argument in x's own
    precision, as torch's kernel takes it, so its poles give torch's large finite values
    (~6.6e32 at -1 in float64, ~1.3e15 in float32) rather than inf."""
    out = polygamma_array(1, x)
    negative = x < 0
    if negative.any():
        below = x[negative]
        if below.dtype == xp.float16:
            below = below.astype(xp.float32)  # a half's kernel runs in float (its opmath)
        pi = below.dtype.type(math.pi)
        with xp.errstate(divide="ignore", invalid="ignore"):
            sin_pi_x = xp.sin(pi * below)
            reflected = (pi * pi) / (sin_pi_x * sin_pi_x)
        out[negative] = reflected.astype(xp.float64) - polygamma_array(1, 1 - below)
    return out


@float64_kernel
def polygamma_array(n: int, x):
    """The n-th derivative of digamma."""
    if n == 0:
        return kernel_digamma(x)
    x = _float64(x)
    sign = 1.0 if n % 2 else -1.0
    # far below 0 the zeta series would sum one term per unit step up to 0 (torch's kernel
    # does, taking minutes); the reflection formula gives the same values at once
    far = (x < -_REFLECT_BELOW) & ~_is_integer(x)
    out = sign * float(math.factorial(n)) * zeta_array(n + 1.0, xp.where(far, 0.5, x))
    _fill(out, far, lambda far_x: _polygamma_reflected(n, far_x), x)
    if n == 1:  # torch's trigamma: 0 at inf, NaN at -inf
        out[x == xp.inf] = 0.0
        out[x == -xp.inf] = xp.nan
    return out


# -- ops -------------------------------------------------------------------------------------
def _cast(out, input):
    return out.astype(input.dtype, copy=False)


def refuse_half(array, name):
    """torch's error for CPU kernels without a float16 version (inputs arrive promoted)."""
    if array.dtype == xp.float16:
        raise NotImplementedError(f"\"{name}\" not implemented for 'Half'")


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="float",
    input=lambda grad, input: grad * digamma(input),
    dtypes=kernel("lgamma_vml_cpu", FLOATS),
    jvp="elementwise",
)
def lgamma(input):
    """The log of the absolute value of the gamma function.

    Example:
        >>> import numtorch as torch
        >>> torch.lgamma(torch.tensor([0.5, 1.0, 10.0]))
        tensor([ 0.5724,  0.0000, 12.8018])
    """
    return _cast(lgamma_array(input), input)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="float",
    input=lambda grad, input: grad * polygamma(1, input),
    dtypes=kernel("digamma", FLOATS),
    jvp="elementwise",
)
def digamma(input):
    """The logarithmic derivative of the gamma function, ``psi(x) = Gamma'(x) / Gamma(x)``.

    Example:
        >>> import numtorch as torch
        >>> torch.digamma(torch.tensor([1.0, 0.5]))
        tensor([-0.5772, -1.9635])
    """
    return _digamma_in_kernel_precision(input)  # Note [Digamma as torch's kernel]


@defop(
    batch=batch_rules.pointwise,
    name="polygamma",
    dtypes=kernel("polygamma", FLOATS),
    promote="float",
    input=lambda grad, n, input: grad * polygamma(n + 1, input),
    jvp="elementwise",
)
def _polygamma(input, n):
    if n == 0 and input.dtype.kind in "fV":  # torch's digamma kernel
        return _digamma_in_kernel_precision(input)
    if n == 1 and input.dtype.kind == "f":
        return _cast(trigamma_array(input), input)
    return _cast(polygamma_array(n, input), input)


def _check_order(n):
    n = int(n)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return n


@export(method=False)
def polygamma(n, input) -> Tensor:
    """The ``n``-th derivative of digamma (``n = 0`` is digamma itself).

    Example:
        >>> import numtorch as torch
        >>> torch.polygamma(1, torch.tensor([1.0, 2.0]))
        tensor([1.6449, 0.6449])
    """
    return _polygamma(input, _check_order(n))


def _polygamma_method(self, n) -> Tensor:
    """``polygamma(n, self)``."""
    return _polygamma(self, _check_order(n))


Tensor.polygamma = _polygamma_method
Tensor.polygamma_ = inplace_variant(_polygamma_method, "polygamma_")


def _mvlgamma_offsets(input, p):
    # (1 - p)/2, ..., -1/2, 0: the arguments are input + offsets
    return arange(-p / 2 + 0.5, 0.5, 0.5, dtype=input.dtype)


def _mvlgamma_backward(grad, input, p):
    return grad * (input.unsqueeze(-1) + _mvlgamma_offsets(input, p)).digamma().sum(-1)


@defop(
    batch=batch_rules.pointwise,
    name="mvlgamma",
    promote="float",
    input=_mvlgamma_backward,
    jvp="elementwise",
)
def _mvlgamma(input, p):
    # the arguments are rounded to the input's dtype, as torch forms them
    arguments = input[..., None] + xp.arange(-p / 2 + 0.5, 0.5, 0.5).astype(input.dtype)
    total = lgamma_array(arguments).sum(-1)
    return _cast(total + p * (p - 1) * 0.25 * _LOG_PI, input)


@export(inplace=True)
def mvlgamma(input, p) -> Tensor:
    """The multivariate log-gamma of dimension ``p``:
    ``p (p-1)/4 log(pi) + sum_{j<p} lgamma(input - j/2)``.

    Example:
        >>> import numtorch as torch
        >>> torch.mvlgamma(torch.tensor([2.5]), 2)
        tensor([0.8570])
    """
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    if input.dtype == _dtypes.bool_:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    return _mvlgamma(input, int(p))


# -- zeta: one primitive per tensor/number pairing, as torch's SpecialZetaBackward0/1/2 -------
# (torch gives none of them a forward derivative: forward AD refuses them)
def _zeta_other(grad, input, other):
    # d/dq zeta(x, q) = -x zeta(x + 1, q)
    return grad * -input * zeta(input + 1.0, other)


@defop(
    batch=batch_rules.pointwise,
    name="zeta",
    dtypes=kernel("zeta_cpu", FLOATING | {xp.dtype(xp.float16)}),
    node="SpecialZetaBackward0",
    promote="float",
    input=derivative_not_implemented("zeta"),
    other=_zeta_other,
    jvp=no_forward_derivative("special_zeta"),
)
def _zeta(input, other):
    refuse_half(input, "zeta_cpu")
    return zeta_array(input, other).astype(xp.result_type(input, other), copy=False)


@defop(
    batch=batch_rules.pointwise,
    name="zeta_self_scalar",
    dtypes=kernel("zeta_cpu", FLOATING | {xp.dtype(xp.float16)}),
    node="SpecialZetaBackward1",
    promote="float",
    scalars=("input",),
    other=_zeta_other,
    jvp=no_forward_derivative("special_zeta"),
)
def _zeta_self_scalar(input, other):
    refuse_half(other, "zeta_cpu")
    return _cast(zeta_array(input, other), other)


@defop(
    batch=batch_rules.pointwise,
    name="zeta_other_scalar",
    dtypes=kernel("zeta_cpu", FLOATING | {xp.dtype(xp.float16)}),
    node="SpecialZetaBackward2",
    promote="float",
    scalars=("other",),
    input=derivative_not_implemented("zeta"),
    jvp=no_forward_derivative("special_zeta"),
)
def _zeta_other_scalar(input, other):
    refuse_half(input, "zeta_cpu")
    return _cast(zeta_array(input, other), input)


def zeta(input, other) -> Tensor:
    """The Hurwitz zeta function ``sum_{k>=0} (k + other)^-input``; either argument may be a
    number.

    Example:
        >>> import numtorch as torch
        >>> torch.special.zeta(torch.tensor([2.0, 4.0]), 1.0)
        tensor([1.6449, 1.0823])
    """
    if not isinstance(other, Tensor):
        return _zeta_other_scalar(input, other)
    if not isinstance(input, Tensor):
        return _zeta_self_scalar(input, other)
    return _zeta(input, other)

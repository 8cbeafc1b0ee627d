"""The regularized incomplete gamma functions ``igamma(a, x) = P(a, x)`` (lower) and
``igammac(a, x) = Q(a, x) = 1 - P(a, x)`` (upper), ``torch.special.gammainc``/``gammaincc``.

Each element takes the method that computes its smaller side without cancellation:

- Temme's uniform asymptotic expansion for large ``a`` near ``x`` (where the others converge
  slowly): ``Q = erfc(eta sqrt(a/2)) / 2 + exp(-a eta^2 / 2) / sqrt(2 pi a) sum_k c_k(eta) / a^k``;
- the continued fraction for ``Q`` when ``x > a`` and ``x > 1``;
- the power series of ``P``, and for small ``x`` and ``a`` that of ``Q``, elsewhere.

The coefficients ``c_k(eta) = sum_n d[k][n] eta^n`` were generated in exact rational
arithmetic from ``c_0 = 1/(lambda - 1) - 1/eta`` and ``c_k = c_{k-1}' / eta +
(-1)^k gamma_k / (lambda - 1)`` (``lambda = x / a``, ``eta^2 / 2 = lambda - 1 - log lambda``,
``gamma_k`` the Stirling coefficients of ``Gamma(a)``). Edge values follow torch (and SciPy):
NaN for negative arguments, ``P(0, x > 0) = 1``, ``P(a, 0) = 0``, ``P(inf, x) = 0``.
Only ``x`` is differentiable, as in torch.
"""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core.op import defop, export
from ..backend import xp
from .gamma import _LGAMMA1, _STIRLING, _horner, float64_kernel, lgamma_array
from .nn.erf import erfc_array
from .special import _floats_only, _require_float, derivative_not_implemented

_EPS = 1.11022302462515654042e-16
_TINY = 1e-300
_MAX_ITERATIONS = 2000

_TEMME = [
    [float(v) for v in row.split()]
    for row in """
-0.3333333333333333 0.08333333333333333 -0.014814814814814815 0.0011574074074074073
0.0003527336860670194 -0.0001787551440329218 3.919263178522438e-05 -2.185448510679992e-06
-1.85406221071516e-06 8.296711340953087e-07 -1.7665952736826078e-07 6.707853543401498e-09
1.0261809784240309e-08 -4.382036018453353e-09 9.14769958223679e-10 -2.5514193994946248e-11
-5.830772132550426e-11 2.4361948020667415e-11 -5.0276692801141755e-12 1.1004392031956135e-13
3.371763262400985e-13 -1.392388722418162e-13 2.8534893807047445e-14 -5.139111834242572e-16
-1.9752288294349442e-15

-0.001851851851851852 -0.003472222222222222 0.0026455026455026454 -0.0009902263374485596
0.00020576131687242798 -4.018775720164609e-07 -1.8098550334489977e-05 7.64916091608111e-06
-1.6120900894563446e-06 4.647127802807434e-09 1.378633446915721e-07 -5.752545603517705e-08
1.1951628599778148e-08 -1.7543241719747647e-11 -1.0091543710600413e-09 4.162792991842583e-10
-8.56390702649298e-11 6.067215101604758e-14 7.1624989648114856e-12 -2.933186643771437e-12
5.996696365683689e-13 -2.1671786527323313e-16 -4.978339972369262e-14 2.0291628823713425e-14
-4.13125571381061e-15

0.004133597883597883 -0.0026813271604938273 0.0007716049382716049 2.0093878600823047e-06
-0.0001073665322636516 5.2923448829120125e-05 -1.2760635188618728e-05 3.423578734096138e-08
1.3721957309062934e-06 -6.298992138380055e-07 1.4280614206064242e-07 -2.0477098421990866e-10
-1.409252991086752e-08 6.228974084922022e-09 -1.3670488396617114e-09 9.428356159014678e-13
1.2872252400089318e-10 -5.5645956134363323e-11 1.197593554636698e-11 -4.1689782251838634e-15
-1.0940640427884595e-12 4.662239946390136e-13 -9.905105763906907e-14 1.8931876768373515e-17
8.859221872591127e-15

0.0006494341563786008 0.00022947209362139917 -0.0004691894943952557 0.00026772063206283885
-7.561801671883977e-05 -2.396505113867297e-07 1.1082654115347302e-05 -5.6749528269915965e-06
1.4230900732435883e-06 -2.7861080291528143e-11 -1.6958404091930278e-07 8.099464905388083e-08
-1.9111168485973655e-08 2.3928620439808118e-12 2.0620131815488797e-09 -9.460496661855133e-10
2.1541049775774907e-10 -1.388823336813903e-14 -2.1894761681963938e-11 9.790998951171684e-12
-2.178219188018096e-12 6.208819573407901e-17 2.126978363279737e-13 -9.344688791517433e-14
2.045367122678285e-14

-0.0008618882909167117 0.0007840392217200666 -0.0002990724803031902 -1.4638452578843418e-06
6.641498215465122e-05 -3.968365047179435e-05 1.1375726970678419e-05 2.507497226237533e-10
-1.6954149536558305e-06 8.907507532205309e-07 -2.292934834000805e-07 2.956794137544049e-11
2.8865829742708783e-08 -1.4189739437803219e-08 3.4463580499464896e-09
-2.3024517174528067e-13 -3.9409233028046403e-10 1.86023389685045e-10 -4.356323005056618e-11
1.278600101629623e-15 4.67927502665792e-12 -2.149246470613483e-12 4.908815614809652e-13
-6.33859148489156e-18 -5.045332069080094e-14

-0.00033679855336635813 -6.972813758365857e-05 0.0002772753244959392 -0.00019932570516188847
6.797780477937208e-05 1.419062920643967e-07 -1.3594048189768693e-05 8.018470256334202e-06
-2.291481176508095e-06 -3.252473551298454e-10 3.4652846491085265e-07 -1.8447187191171344e-07
4.8240967037894184e-08 -1.7989466721743514e-14 -6.306194500013523e-09 3.162417628774568e-09
-7.840924253697429e-10 5.192679165254041e-15 9.358944242306784e-11 -4.513426216163278e-11
1.0799129993116828e-11 -3.661886712685252e-17 -1.210902069055155e-12 5.680743584990564e-13
-1.3249659916340829e-13

0.0005313079364639922 -0.0005921664373536939 0.0002708782096718045 7.902353232660328e-07
-8.153969367561969e-05 5.61168275310625e-05 -1.8329116582843375e-05 -3.0796134506033047e-09
3.465155368803609e-06 -2.0291327396058603e-06 5.788792863149004e-07 2.338630673826657e-13
-8.828600746330484e-08 4.7435958880408125e-08 -1.2545415020710383e-08 8.649648858010293e-14
1.6846058979264062e-09 -8.575492823577594e-10 2.1598224929232125e-10 -7.613230520476153e-16
-2.6639822008536144e-11 1.3065700536611057e-11 -3.1799163902367977e-12 4.710976121367431e-18
3.6902800842763465e-13

0.00034436760689237765 5.171790908260592e-05 -0.00033493161081142234 0.0002812695154763237
-0.00010976582244684731 -1.2741009095484485e-07 2.7744451511563645e-05
-1.8263488805711332e-05 5.7876949497350525e-06 4.93875893393627e-10 -1.0595367014026043e-06
6.166714376110408e-07 -1.7562973359060463e-07 -1.297447328701544e-12 2.695423606288966e-08
-1.4578352908731272e-08 3.887645959386175e-09 -3.881002251019412e-17 -5.327994173877286e-10
2.7437977643314844e-10 -6.995796092070568e-11 2.589986387486848e-17 8.856689099669639e-12
-4.403168815871311e-12 1.0865561947091654e-12

-0.0006526239185953094 0.0008394987206720873 -0.000438297098541721 -6.969091458420552e-07
0.00016644846642067547 -0.00012783517679769218 4.629953263691304e-05 4.557909867922708e-09
-1.0595271125805195e-05 6.783342904865167e-06 -2.1075476666258803e-06
-1.7213731432817144e-11 3.773587741611098e-07 -2.1867506700122867e-07 6.220228804018927e-08
6.597703826733e-16 -9.590386497425686e-09 5.213214492280807e-09 -1.3991589583935709e-09
5.382058999060575e-16 1.9484714275467745e-10 -1.0127287556389682e-10 2.6077347197254926e-11
-5.090418699993299e-18 -3.3721464474854593e-12

-0.0005967612901927463 -7.204895416020011e-05 0.0006782308837667328 -0.0006401475260262758
0.00027750107634328704 1.819700838046515e-07 -8.479507117068503e-05 6.105192082501531e-05
-2.1073920183404862e-05 -8.858589014125599e-10 4.5284535953805374e-06
-2.8427815022504407e-06 8.708234177864641e-07 3.6886101871706966e-12 -1.534469519070206e-07
8.862466778790695e-08 -2.5184812301826817e-08 -1.0225912098215092e-14 3.896947075815478e-09
-2.1267304792235634e-09 5.737013552805138e-10 -1.8877498501697116e-19 -8.093153869465787e-11
4.23827232834492e-11 -1.1002224534207725e-11

0.0013324454494800656 -0.0019144384985654776 0.0011089369134596636 9.9324041226423e-07
-0.0005087450129309319 0.00042735056665392886 -0.00016858853767910798 -8.1301893922785e-09
4.5284402370562144e-05 -3.127053674781734e-05 1.044986828530338e-05 4.8435226265680926e-11
-2.148256587345626e-06 1.329369701097492e-06 -4.029569309210103e-07 -1.756787766632329e-13
7.014504316366825e-08 -4.040787734999483e-08 1.1474026743371964e-08 3.964274685356394e-18
-1.7804938269892715e-09 9.748026254873165e-10 -2.6405338676507616e-10 5.79487516340376e-18
3.764774955354384e-11

0.001579727660730835 0.00016251626278391583 -0.0020633421035543276 0.00213896861856891
-0.0010108559391263003 -3.99127055299192e-07 0.0003623502508476469 -0.00028143901463712157
0.00010449513336495887 2.12114184918303e-09 -2.5779417251947842e-05 1.7281818956040464e-05
-5.641377387290428e-06 -1.1024320105776174e-11 1.1223224418895174e-06 -6.869339637952674e-07
2.0653236975414888e-07 4.6714772409838506e-14 -3.5609886164949055e-08 2.0470855345905963e-08
-5.809173863328336e-09 -1.3328212875828647e-16 9.035460439133513e-10 -4.959878251733084e-10
1.3481607129399748e-10
""".strip().split("\n\n")
]


def _log1pmx(d):
    """``log(1 + d) - d`` without cancellation near 0 (through ``u = d / (2 + d)``:
    ``log(1 + d) = 2 atanh(u)``)."""
    out = xp.log1p(d) - d
    near = (d > -0.7) & (d < 1.5)
    if near.any():
        v = d[near]
        u = v / (2.0 + v)
        w = u * u
        total = xp.zeros_like(v)
        for k in range(36, 0, -1):
            total = total * w + 1.0 / (2 * k + 1)
        out[near] = -2.0 * w / (1.0 - u) + 2.0 * u * w * total
    return out


def _lgamma1p(a):
    """``lgamma(1 + a)``, accurate for small ``a``."""
    out = lgamma_array(1.0 + a)
    small = xp.abs(a) < 0.25
    out[small] = _horner(a[small], _LGAMMA1)
    return out


def _stirling_correction(a):
    """``lgamma(a) - ((a - 1/2) log a - a + log(2 pi) / 2)``."""
    out = lgamma_array(a) - ((a - 0.5) * xp.log(a) - a + 0.5 * math.log(2.0 * math.pi))
    large = a >= 10.0
    inverse = 1.0 / a[large]
    out[large] = _horner(inverse * inverse, _STIRLING[1:]) * inverse + _STIRLING[0] * inverse
    return out


def _prefactor(a, x):
    """``x^a exp(-x) / Gamma(a)``; from a = 1 on as
    ``sqrt(a / (2 pi)) exp(a log1pmx((x - a) / a) - stirling_correction(a))``."""
    out = xp.exp(a * xp.log(x) - x - lgamma_array(a))
    large = a >= 1.0
    if large.any():
        v, y = a[large], x[large]
        d = (y - v) / v
        # a log1pmx(d) = a log(x / a) + a - x: far from d = 0 the second form keeps x / a exact
        far = (d < -0.5) | (d > 1.0)
        power = xp.where(far, v * xp.log(y / v) + (v - y), v * _log1pmx(d))
        exponent = power - _stirling_correction(v)
        out[large] = xp.sqrt(v / (2.0 * math.pi)) * xp.exp(exponent)
    return out


def _lower_series(a, x, maxlog):
    """P(a, x) = x^a e^-x / Gamma(a + 1) sum_n x^n / ((a+1) ... (a+n))."""
    term = xp.ones_like(a)
    total = xp.ones_like(a)
    active = xp.ones(a.shape, bool)
    for n in range(1, _MAX_ITERATIONS):
        term = term * x / (a + n)
        total = xp.where(active, total + term, total)
        active &= term > _EPS * total
        if not active.any():
            break
    # torch's series is 0 where its factor x^a e^-x / Gamma(a), taken as exp of its log away
    # from a = x, is below the dtype's exp range (exp(-maxlog)), even where a tiny (subnormal)
    # a would bring the quotient back up to 1
    underflow = (xp.abs(a - x) > 0.4 * a) & (a * xp.log(x) - x - lgamma_array(a) < -maxlog)
    return xp.where(underflow, 0.0, _prefactor(a, x) / a * total)


def _upper_series(a, x):
    """Q(a, x) for small x: 1 - x^a / Gamma(a + 1) - x^a / Gamma(a) sum_n (-x)^n / (n! (a+n))."""
    factor = xp.ones_like(a)
    total = xp.zeros_like(a)
    active = xp.ones(a.shape, bool)
    for n in range(1, _MAX_ITERATIONS):
        factor = factor * -x / n
        term = factor / (a + n)
        total = xp.where(active, total + term, total)
        active &= xp.abs(term) > _EPS * xp.abs(total)
        if not active.any():
            break
    log_x = xp.log(x)
    return -xp.expm1(a * log_x - _lgamma1p(a)) - xp.exp(a * log_x - lgamma_array(a)) * total


def _upper_fraction(a, x):
    """Q(a, x) by its continued fraction (modified Lentz), for x > max(a, 1)."""
    b = x + 1.0 - a
    c = xp.full_like(a, 1.0 / _TINY)
    d = 1.0 / b
    h = d.copy()
    active = xp.ones(a.shape, bool)
    for i in range(1, _MAX_ITERATIONS):
        an = -i * (i - a)
        b = b + 2.0
        d = an * d + b
        d = xp.where(xp.abs(d) < _TINY, _TINY, d)
        c = b + an / c
        c = xp.where(xp.abs(c) < _TINY, _TINY, c)
        d = 1.0 / d
        delta = d * c
        h = xp.where(active, h * delta, h)
        active &= xp.abs(delta - 1.0) > _EPS
        if not active.any():
            break
    return _prefactor(a, x) * h


def _temme(a, x, upper):
    """Q(a, x) (P when not ``upper``) by Temme's uniform asymptotic expansion."""
    sigma = (x - a) / a
    log_factor = a * _log1pmx(sigma)  # -a eta^2 / 2
    eta = xp.sign(sigma) * xp.sqrt(-2.0 * _log1pmx(sigma))
    total = xp.zeros_like(a)
    previous = xp.full_like(a, xp.inf)
    scale = xp.ones_like(a)
    active = xp.ones(a.shape, bool)
    for row in _TEMME:
        coefficient = xp.zeros_like(a)
        for d in reversed(row):
            coefficient = coefficient * eta + d
        term = coefficient * scale
        active &= xp.abs(term) <= previous  # the series started to diverge
        total = xp.where(active, total + term, total)
        active &= xp.abs(term) >= _EPS * xp.abs(total)
        previous = xp.abs(term)
        scale = scale / a
    sign = 1.0 if upper else -1.0
    tail = xp.exp(log_factor) * total / xp.sqrt(2.0 * math.pi * a)
    return 0.5 * erfc_array(sign * eta * xp.sqrt(a / 2.0)) + sign * tail


def _compute(a, x, upper, maxlog):
    """P(a, x) or Q(a, x) (``upper``) for finite a > 0, x > 0."""
    out = xp.empty_like(a)
    ratio = xp.abs(x - a) / a
    temme = ((a > 20.0) & (ratio < 0.3)) | ((a > 200.0) & (ratio < 4.5 / xp.sqrt(a)))
    fraction = ~temme & (x > 1.0) & (x > a)
    small_x = ~temme & ~fraction & (x < 1.1)
    upper_series = small_x & xp.where(x < 0.5, -0.4 / xp.log(x) >= a, 1.1 * x >= a)
    lower = ~temme & ~fraction
    if upper:
        lower &= ~upper_series
    for mask, method in (
        (temme, lambda v, y: _temme(v, y, upper)),
        (fraction, lambda v, y: _upper_fraction(v, y) if upper else 1.0 - _upper_fraction(v, y)),
        (
            lower,
            lambda v, y: (
                1.0 - _lower_series(v, y, maxlog) if upper else _lower_series(v, y, maxlog)
            ),
        ),
    ):
        if mask.any():
            out[mask] = method(a[mask], x[mask])
    if upper:
        mask = upper_series & ~temme & ~fraction
        if mask.any():
            out[mask] = _upper_series(a[mask], x[mask])
    return out


# log of the largest finite double and float: torch computes halves in float
_MAXLOG_DOUBLE, _MAXLOG_FLOAT = 709.782712893384, 88.72283905206835


def _maxlog(input):
    return _MAXLOG_DOUBLE if input.dtype == xp.float64 else _MAXLOG_FLOAT


@float64_kernel
def incomplete_gamma_array(a, x, upper: bool, maxlog: float = _MAXLOG_DOUBLE):
    """P(a, x), or Q(a, x) when ``upper``, with torch's edge values."""
    out = xp.full(a.shape, xp.nan)
    one, zero = (0.0, 1.0) if upper else (1.0, 0.0)
    valid = ~((x < 0) | (a < 0))
    a_zero = valid & (a == 0)
    out[a_zero & (x > 0)] = one
    rest = valid & ~a_zero
    out[rest & (x == 0)] = zero
    rest &= x != 0
    a_inf = rest & (a == xp.inf)
    out[a_inf & (x != xp.inf)] = zero
    rest &= ~a_inf
    out[rest & (x == xp.inf)] = one
    rest &= (x != xp.inf) & ~xp.isnan(a) & ~xp.isnan(x)
    if rest.any():
        out[rest] = _compute(a[rest], x[rest], upper, maxlog)
    return out


def _igamma_other(grad, input, other):
    # d/dx P(a, x) = x^(a-1) e^-x / Gamma(a)
    return grad * ((input - 1) * other.log() - other - input.lgamma()).exp()


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="same",
    check=_floats_only("igamma_cpu"),
    input=derivative_not_implemented("igamma: input"),
    other=_igamma_other,
    jvp="elementwise",
)
def igamma(input, other):
    """The regularized lower incomplete gamma function
    ``P(a, x) = 1/Gamma(a) integral_0^x t^(a-1) e^-t dt`` with ``a = input``, ``x = other``.

    Example:
        >>> import numtorch as torch
        >>> torch.igamma(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0]))
        tensor([0.6321, 0.5940])
    """
    _require_float(input, "igamma_cpu", other)
    return incomplete_gamma_array(input, other, False, _maxlog(input)).astype(
        input.dtype, copy=False
    )


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="same",
    check=_floats_only("igammac_cpu"),
    input=derivative_not_implemented("igammac: input"),
    other=lambda grad, input, other: -_igamma_other(grad, input, other),
    jvp="elementwise",
)
def igammac(input, other):
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``.

    Example:
        >>> import numtorch as torch
        >>> torch.igammac(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0]))
        tensor([0.3679, 0.4060])
    """
    _require_float(input, "igammac_cpu", other)
    return incomplete_gamma_array(input, other, True, _maxlog(input)).astype(
        input.dtype, copy=False
    )

"""Op samples for the special functions: the gamma family, Bessel functions, the error
function's relatives and the incomplete gamma functions (part of the op sample table in
``opinfo.py``). NumPy has few of them, so most have no NumPy reference: their values are
checked against torch (``tests/ops/test_ops_parity.py``) and against mpmath reference values
(``tests/ops/test_special_functions.py``)."""

from __future__ import annotations

import math

import numpy as np

from .opinfo import OpInfo, Sample, _n, _off_integers, _pos, _shapes_unary


def _uniform(low, high):
    return lambda rng, *shape: rng.uniform(low, high, shape)


def _vectorized(fn):
    return lambda x: np.vectorize(fn, otypes=[float])(x)


def _ndtr_ref(x):
    return 0.5 * (1 + _vectorized(math.erf)(x * math.sqrt(0.5)))


def _xlog1py_ref(x, y):
    return np.where(x == 0, 0.0, x * np.log1p(y))


def _wide(rng, *shape):
    # both the power series (below 20) and the asymptotic series (beyond)
    return rng.uniform(-30.0, 30.0, shape)


def _constant(t, values, like):
    """A tensor that does not require grad (a first argument without a derivative)."""
    return t.tensor(values, dtype=like.dtype)


def _incomplete_gamma_samples(rng):
    # series (x < a), continued fraction (x > a, x > 1) and small-x regions; torch itself is
    # only accurate to ~1e-9 in its asymptotic region (a > 20 near x), so that stays out.
    # The first argument is a list: it becomes a tensor that does not require grad.
    return [
        Sample((rng.uniform(0.5, 5.0, (2, 3)).tolist(), rng.uniform(0.1, 8.0, (2, 3)))),
        Sample(([0.1, 0.3, 2.0, 12.0], np.array([0.9, 0.05, 7.5, 3.0]))),
        Sample((rng.uniform(1.0, 3.0, (3,)).tolist(), rng.uniform(0.5, 4.0, (2, 1)))),
    ]


GAMMA = [
    OpInfo(
        "lgamma", lambda t, x: t.lgamma(x), _shapes_unary(_off_integers), _vectorized(math.lgamma)
    ),
    OpInfo(
        "lgamma_large",
        lambda t, x: x.lgamma(),
        lambda rng: [Sample((rng.uniform(10.0, 200.0, (5,)),))],
        _vectorized(math.lgamma),
    ),
    # digamma's derivative is trigamma, which torch computes to ~1e-9 only
    OpInfo("digamma", lambda t, x: t.digamma(x), _shapes_unary(_off_integers), parity_rtol=1e-8),
    OpInfo("special_psi", lambda t, x: t.special.psi(x), _shapes_unary(_pos), parity_rtol=1e-8),
    OpInfo(
        "polygamma_1",
        lambda t, x: t.polygamma(1, x),
        _shapes_unary(_off_integers),
        parity_rtol=1e-8,
    ),
    OpInfo("polygamma_2", lambda t, x: x.polygamma(2), _shapes_unary(_off_integers)),
    OpInfo(
        "polygamma_3",
        lambda t, x: t.special.polygamma(3, x),
        lambda rng: [Sample((_pos(rng, 2, 3),)), Sample((rng.uniform(5.0, 40.0, (4,)),))],
    ),
    OpInfo(
        "mvlgamma",
        lambda t, x, p: t.mvlgamma(x, p),
        lambda rng: [
            Sample((rng.uniform(1.5, 4.0, (2, 3)), 3)),
            Sample((rng.uniform(0.3, 4.0, (4,)), 1)),
        ],
        parity_rtol=1e-8,
    ),
    OpInfo(
        "special_multigammaln",
        lambda t, x: t.special.multigammaln(x, 2),
        lambda rng: [Sample((rng.uniform(1.0, 4.0, (3,)),))],
        parity_rtol=1e-8,
    ),
    OpInfo(
        "special_zeta",
        lambda t, x, q: t.special.zeta(_constant(t, x, q), q),
        lambda rng: [
            Sample((rng.uniform(1.5, 6.0, (2, 3)).tolist(), _pos(rng, 2, 3))),
            Sample((rng.uniform(1.5, 6.0, (3,)).tolist(), rng.uniform(0.5, 30.0, (2, 1)))),
        ],
    ),
    OpInfo(
        "special_zeta_self_scalar",
        lambda t, q: t.special.zeta(3.5, q),
        _shapes_unary(_pos),
    ),
    # the first argument has no derivative: forward only
    OpInfo(
        "special_zeta_other_scalar",
        lambda t, x: t.special.zeta(x.detach(), 2.5),
        lambda rng: [Sample((rng.uniform(1.5, 6.0, (4,)),))],
        grad=False,
    ),
    OpInfo(
        "igamma",
        lambda t, a, x: t.igamma(_constant(t, a, x), x),
        _incomplete_gamma_samples,
    ),
    OpInfo(
        "igammac",
        lambda t, a, x: t.igammac(_constant(t, a, x), x),
        _incomplete_gamma_samples,
    ),
    OpInfo(
        "special_gammainc",
        lambda t, a, x: t.special.gammainc(_constant(t, a, x), x),
        lambda rng: [Sample(([0.7, 2.5, 4.0], rng.uniform(0.1, 8.0, (3,))))],
    ),
]

BESSEL = [
    OpInfo("i0", lambda t, x: t.i0(x), _shapes_unary(_wide), np.i0),
    OpInfo("special_i0e", lambda t, x: t.special.i0e(x), _shapes_unary(_wide)),
    OpInfo("special_i1", lambda t, x: t.special.i1(x), _shapes_unary(_wide)),
    OpInfo("special_i1e", lambda t, x: t.special.i1e(x), _shapes_unary(_wide)),
]

ERROR_FUNCTIONS = [
    OpInfo("erfinv", lambda t, x: t.erfinv(x), _shapes_unary(_uniform(-0.95, 0.95))),
    OpInfo(
        "erfinv_tails",
        lambda t, x: x.erfinv(),
        lambda rng: [Sample((np.array([-0.999999, 0.9999999999, 1e-12, -0.5]),))],
        grad=False,
    ),
    OpInfo("special_ndtri", lambda t, x: t.special.ndtri(x), _shapes_unary(_uniform(0.02, 0.98))),
    OpInfo(
        "special_ndtri_tails",
        lambda t, x: t.special.ndtri(x),
        lambda rng: [Sample((np.array([1e-10, 1e-40, 0.999999, 0.25]),))],
        grad=False,
    ),
    OpInfo("special_erfcx", lambda t, x: t.special.erfcx(x), _shapes_unary(_uniform(-4, 30))),
    OpInfo("special_log_ndtr", lambda t, x: t.special.log_ndtr(x), _shapes_unary(_uniform(-20, 6))),
    OpInfo("special_ndtr", lambda t, x: t.special.ndtr(x), _shapes_unary(_n), _ndtr_ref),
    OpInfo(
        "special_entr",
        lambda t, x: t.special.entr(x),
        _shapes_unary(_pos),
        lambda x: -x * np.log(x),
    ),
    OpInfo(
        "special_xlog1py",
        lambda t, a, b: t.special.xlog1py(a, b),
        lambda rng: [
            Sample((_n(rng, 2, 3), _pos(rng, 2, 3))),
            Sample((np.array([0.0, 1.5, 0.0, -0.5]), rng.uniform(-0.9, 2.0, (4,)))),
        ],
        _xlog1py_ref,
    ),
    OpInfo(
        "special_xlog1py_scalar_other",
        lambda t, a: t.special.xlog1py(a, 2.5),
        _shapes_unary(_n),
        lambda a: _xlog1py_ref(a, 2.5),
    ),
    OpInfo(
        "special_xlog1py_scalar_input",
        lambda t, b: t.special.xlog1py(1.5, b),
        _shapes_unary(_pos),
        lambda b: 1.5 * np.log1p(b),
    ),
    OpInfo(
        "round_decimals",
        lambda t, x: t.round(x, decimals=2),
        lambda rng: [Sample((rng.uniform(-3, 3, (2, 3)),))],
        lambda x: np.round(x, 2),
    ),
    OpInfo(
        "special_round",
        lambda t, x: t.special.round(x),
        _shapes_unary(_off_integers),
        np.round,
    ),
]

SPECIAL_OPS = GAMMA + BESSEL + ERROR_FUNCTIONS

"""Op samples for scans, extra pointwise functions, selection and counting ops (part of the
op sample table in ``opinfo.py``)."""

from __future__ import annotations

import numpy as np

from .opinfo import (
    OpInfo,
    Sample,
    _away,
    _binary_samples,
    _distinct,
    _n,
    _off_integers,
    _pos,
    _shapes_unary,
)


def _unit(rng, *shape):
    return rng.uniform(0.1, 0.9, shape)


def _reversed_cumsum(a, axis):
    return np.flip(np.cumsum(np.flip(a, axis), axis), axis)


CUMULATIVE = [
    OpInfo(
        "cumprod",
        lambda t, x, d: t.cumprod(x, d),
        lambda rng: [
            Sample((_n(rng, 2, 3), 1)),
            Sample((_n(rng, 4), 0)),
            Sample((np.array([[1.5, 0.0, 2.0, 0.0, 3.0], [0.5, 2.0, -1.0, 0.0, 1.0]]), 1)),
            Sample((np.array([[0.0, 1.5], [2.0, 0.5], [0.7, 0.0]]), 0)),
        ],
        lambda x, d: np.cumprod(x, axis=d),
    ),
    OpInfo(
        "cummax",
        lambda t, x, d: t.cummax(x, d).values,
        lambda rng: [Sample((_distinct(rng, 3, 4), 1)), Sample((_distinct(rng, 3, 2), 0))],
        lambda x, d: np.maximum.accumulate(x, axis=d),
    ),
    OpInfo(
        "cummin",
        lambda t, x: t.cummin(x, -1)[0],
        lambda rng: [Sample((_distinct(rng, 2, 5),))],
        lambda x: np.minimum.accumulate(x, axis=-1),
    ),
    OpInfo(
        "logcumsumexp",
        lambda t, x, d: t.logcumsumexp(x, d),
        lambda rng: [Sample((_n(rng, 2, 3), 1)), Sample((_n(rng, 4) * 30, 0))],
        lambda x, d: np.logaddexp.accumulate(x, axis=d),
    ),
    OpInfo(
        "diff",
        lambda t, x, **k: t.diff(x, **k),
        lambda rng: [
            Sample((_n(rng, 2, 4),)),
            Sample((_n(rng, 4, 3),), {"n": 2, "dim": 0}),
        ],
        lambda x, n=1, dim=-1: np.diff(x, n=n, axis=dim),
    ),
    OpInfo(
        "diff_prepend",
        lambda t, x, p, a: t.diff(x, dim=1, prepend=p, append=a),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2, 1), _n(rng, 2, 2)))],
        lambda x, p, a: np.diff(x, axis=1, prepend=p, append=a),
    ),
]


def _logit_ref(x, eps=None):
    if eps is not None:
        x = np.clip(x, eps, 1 - eps)
    return np.log(x / (1 - x))


def _xlogy_ref(x, y):
    return np.where(x == 0, 0.0, x * np.log(y))


POINTWISE = [
    OpInfo(
        "fmax",
        lambda t, a, b: t.fmax(a, b),
        lambda rng: [Sample((_distinct(rng, 2, 3), _distinct(rng, 3)))],
        np.fmax,
    ),
    OpInfo(
        "fmin",
        lambda t, a, b: t.fmin(a, b),
        lambda rng: [Sample((_distinct(rng, 2, 3), _distinct(rng, 2, 3) + 0.11))],  # no ties
        np.fmin,
    ),
    OpInfo(
        "atan2",
        lambda t, a, b: t.atan2(a, b),
        _binary_samples(_n, _away, scalar=False),
        np.arctan2,
    ),
    OpInfo(
        "hypot",
        lambda t, a, b: t.hypot(a, b),
        _binary_samples(_away, _away, scalar=False),
        np.hypot,
    ),
    OpInfo(
        "logaddexp",
        lambda t, a, b: t.logaddexp(a, b),
        _binary_samples(_n, _n, scalar=False),
        np.logaddexp,
    ),
    OpInfo(
        "logaddexp2",
        lambda t, a, b: t.logaddexp2(a, b),
        _binary_samples(_n, _n, scalar=False),
        np.logaddexp2,
    ),
    OpInfo(
        "xlogy",
        lambda t, a, b: t.xlogy(a, b),
        lambda rng: [
            Sample((_n(rng, 2, 3), _pos(rng, 2, 3))),
            Sample((np.array([0.0, 1.5, 0.0, -0.5]), _pos(rng, 4))),
            Sample((_n(rng, 2, 3), _pos(rng, 3))),
        ],
        _xlogy_ref,
    ),
    OpInfo(
        "xlogy_scalar_other",
        lambda t, a: t.xlogy(a, 2.5),
        _shapes_unary(_n),
        lambda a: _xlogy_ref(a, 2.5),
    ),
    OpInfo(
        "xlogy_scalar_input",
        lambda t, b: t.xlogy(1.5, b),
        _shapes_unary(_pos),
        lambda b: 1.5 * np.log(b),
    ),
    OpInfo("logit", lambda t, x: t.logit(x), _shapes_unary(_unit), _logit_ref),
    OpInfo(
        "logit_eps",
        lambda t, x: t.logit(x, 0.25),
        lambda rng: [Sample((np.array([0.05, 0.3, 0.6, 0.95]),))],
        lambda x: _logit_ref(x, 0.25),
    ),
    # (near 0 the derivative cancels badly in float32, differently in torch: kept away)
    OpInfo("sinc", lambda t, x: t.sinc(x), _shapes_unary(_away), np.sinc),
    # at 0 the first derivative is 0 (torch's convention); the second is not checked there
    OpInfo(
        "sinc_at_zero",
        lambda t, x: t.sinc(x),
        lambda rng: [Sample((np.array([0.0, 0.5, -1.5]),))],
        np.sinc,
        gradgrad=False,
    ),
    OpInfo("deg2rad", lambda t, x: t.deg2rad(x), _shapes_unary(_n), np.deg2rad),
    OpInfo("rad2deg", lambda t, x: t.rad2deg(x), _shapes_unary(_n), np.rad2deg),
    OpInfo(
        "copysign",
        lambda t, a, b: t.copysign(a, b),
        _binary_samples(_away, _away, scalar=False),
        np.copysign,
    ),
    OpInfo(
        "copysign_scalar",
        lambda t, a: t.copysign(a, -1.0),
        _shapes_unary(_away),
        lambda a: np.copysign(a, -1.0),
    ),
    OpInfo("sgn", lambda t, x: t.sgn(x), _shapes_unary(_away), np.sign),
    OpInfo(
        "angle",
        lambda t, x: t.angle(x),
        _shapes_unary(_away),
        lambda x: np.where(x < 0, np.pi, 0.0),
    ),
    OpInfo(
        "float_power",
        lambda t, x: t.float_power(x, 3),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x**3.0,
    ),
    OpInfo(
        "float_power_tensor",
        lambda t, x, e: t.float_power(x, e),
        lambda rng: [Sample((_pos(rng, 2, 3), _n(rng, 3)))],
        np.power,
    ),
    # not differentiable: torch records a NotImplemented node, so inputs are detached here
    OpInfo(
        "heaviside",
        lambda t, x, v: t.heaviside(x.detach(), v.detach()),
        lambda rng: [Sample((np.array([-1.0, 0.0, 2.0, 0.0]), np.array([0.5])))],
        np.heaviside,
        grad=False,
    ),
]


def _lower_median(x, axis=None):
    s = np.sort(x.reshape(-1) if axis is None else x, axis=-1 if axis is None else axis)
    n = s.shape[-1 if axis is None else axis]
    return np.take(s, (n - 1) // 2, axis=-1 if axis is None else axis)


SELECTION = [
    OpInfo("median", lambda t, x: t.median(x), _shapes_unary(_distinct), _lower_median),
    # ties share the gradient (a subgradient)
    OpInfo(
        "median_ties",
        lambda t, x: t.median(x),
        lambda rng: [Sample((np.array([2.0, 1.0, 2.0, 3.0]),))],
        _lower_median,
        grad=False,
    ),
    OpInfo(
        "median_dim",
        lambda t, x, d: t.median(x, d).values,
        lambda rng: [Sample((_distinct(rng, 3, 4), 1)), Sample((_distinct(rng, 4, 3), 0))],
        lambda x, d: _lower_median(x, d),
    ),
    OpInfo(
        "median_keepdim",
        lambda t, x: x.median(-1, keepdim=True)[0],
        lambda rng: [Sample((_distinct(rng, 2, 3),))],
        lambda x: _lower_median(x, -1)[..., None],
    ),
    OpInfo(
        "nanmedian",
        lambda t, x: t.nanmedian(x),
        lambda rng: [Sample((np.array([1.5, np.nan, -0.5, 3.0]),))],
        lambda x: _lower_median(x[~np.isnan(x)]),
    ),
    OpInfo(
        "nanmedian_dim",
        lambda t, x: t.nanmedian(x, 1).values,
        lambda rng: [Sample((np.array([[1.5, np.nan, -0.5, 3.0], [0.5, 0.25, 2.0, -1.0]]),))],
        lambda x: np.array([1.5, 0.25]),
    ),
    OpInfo(
        "kthvalue",
        lambda t, x, k, d: t.kthvalue(x, k, d).values,
        lambda rng: [Sample((_distinct(rng, 3, 4), 2, 1)), Sample((_distinct(rng, 5), 5, 0))],
        lambda x, k, d: np.take(np.sort(x, d), k - 1, d),
    ),
    OpInfo(
        "mode",
        lambda t, x: t.mode(x).values,
        lambda rng: [Sample((np.array([[2.0, 1.0, 2.0, 3.0], [0.5, 0.5, -1.0, -1.0]]),))],
        lambda x: np.array([2.0, -1.0]),
        grad=False,  # moving a tied value changes the mode: checked against torch only
    ),
    OpInfo(
        "quantile",
        lambda t, x, q, **k: t.quantile(x, q, **k),
        lambda rng: [
            Sample((_distinct(rng, 3, 4), 0.3)),
            Sample((_distinct(rng, 3, 4), 0.75), {"dim": 1}),
            Sample((_distinct(rng, 3, 4), 0.4), {"dim": 0, "keepdim": True}),
            Sample((_distinct(rng, 2, 5), 0.6), {"dim": 1, "interpolation": "midpoint"}),
            Sample((_distinct(rng, 2, 5), 0.6), {"dim": 1, "interpolation": "nearest"}),
        ],
        lambda x, q, dim=None, keepdim=False, interpolation="linear": np.quantile(
            x, q, axis=dim, keepdims=keepdim, method=interpolation
        ),
    ),
    OpInfo(
        "quantile_tensor_q",
        # q is data here, not a differentiable input (torch's gradient for q is not exact)
        lambda t, x, q: t.quantile(x, t.tensor(q, dtype=x.dtype), dim=1),
        lambda rng: [Sample((_distinct(rng, 3, 5), [0.1, 0.5, 0.95]))],
        lambda x, q: np.quantile(x, q, axis=1),
    ),
    OpInfo(
        "nanquantile",
        lambda t, x: t.nanquantile(x, 0.3, dim=1),
        lambda rng: [Sample((np.array([[1.5, np.nan, -0.5, 3.0], [0.5, 0.25, 2.0, -1.0]]),))],
        lambda x: np.nanquantile(x, 0.3, axis=1),
    ),
]


def _as(t, a):
    return t.tensor(a)


_INTS = np.array([[3, 1, 2, 1], [0, 3, 3, 1], [3, 1, 2, 1]])

# not differentiable (unique, bincount record a node that raises): integer samples
COUNTING = [
    OpInfo(
        "unique",
        lambda t, a: t.unique(_as(t, a)),
        lambda rng: [Sample((_INTS,))],
        np.unique,
        grad=False,
    ),
    OpInfo(
        "unique_inverse",
        lambda t, a: t.unique(_as(t, a), return_inverse=True)[1],
        lambda rng: [Sample((_INTS,))],
        lambda a: np.unique(a, return_inverse=True)[1].reshape(a.shape),
        grad=False,
    ),
    OpInfo(
        "unique_counts_dim",
        lambda t, a: t.unique(_as(t, a), return_counts=True, dim=0)[1],
        lambda rng: [Sample((_INTS,))],
        lambda a: np.unique(a, return_counts=True, axis=0)[1],
        grad=False,
    ),
    OpInfo(
        "unique_consecutive",
        lambda t, a: t.unique_consecutive(_as(t, a), return_counts=True)[1],
        lambda rng: [Sample((np.array([1, 1, 2, 2, 2, 3, 1]),))],
        lambda a: np.array([2, 3, 1, 1]),
        grad=False,
    ),
    OpInfo(
        "unique_consecutive_dim",
        lambda t, a: t.unique_consecutive(_as(t, a), dim=0),
        lambda rng: [Sample((np.array([[1, 2], [1, 2], [3, 4]]),))],
        lambda a: a[1:],
        grad=False,
    ),
    OpInfo(
        "bincount",
        lambda t, a, w: t.bincount(_as(t, a), w.detach(), minlength=5),
        lambda rng: [Sample((np.array([1, 1, 3]), _n(rng, 3)))],
        lambda a, w: np.bincount(a, w, minlength=5),
        grad=False,
    ),
    OpInfo(
        "histc",
        lambda t, x: t.histc(x.detach(), bins=5, min=-1, max=1),
        lambda rng: [Sample((_off_integers(rng, 20) / 3,))],
        lambda x: np.histogram(x, bins=5, range=(-1, 1))[0].astype(float),
        grad=False,
    ),
    OpInfo(
        "searchsorted",
        lambda t, s, v: t.searchsorted(s.detach(), v.detach(), right=True),
        lambda rng: [
            Sample((np.array([1.0, 3.0, 5.0, 7.0]), np.array([3.0, 6.0, 9.0, 0.0]))),
            Sample((np.sort(_n(rng, 2, 4), 1), _n(rng, 2, 3))),
        ],
        None,
        grad=False,
    ),
    OpInfo(
        "bucketize",
        lambda t, v, s: t.bucketize(v.detach(), s.detach()),
        lambda rng: [Sample((_n(rng, 2, 3), np.array([-1.0, 0.0, 0.5])))],
        lambda v, s: np.searchsorted(s, v),
        grad=False,
    ),
    OpInfo(
        "isin",
        lambda t, a, b: t.isin(_as(t, a), _as(t, b)).long(),
        lambda rng: [Sample((_INTS, np.array([1, 2])))],
        lambda a, b: np.isin(a, b).astype(np.int64),
        grad=False,
    ),
]

MATH_OPS = CUMULATIVE + POINTWISE + SELECTION + COUNTING

"""Op samples for the less common corners of torch's tensor API (part of the op sample table
in ``opinfo.py``): inverse hyperbolic functions, floating-point representation, reductions
into scattered positions, strided views and their scatters, statistics."""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample, _distinct, _n, _shapes_unary


def _uniform(low, high):
    return lambda rng, *shape: rng.uniform(low, high, shape)


def _as(t, a):
    return a if isinstance(a, t.Tensor) else t.tensor(a)


def _detached_inplace(method):
    # in-place on a copy outside the graph: torch leaves these derivatives unimplemented
    return lambda t, x: getattr(x.detach().clone(), method)()


POINTWISE = [
    OpInfo("asinh", lambda t, x: t.asinh(x), _shapes_unary(_n), np.arcsinh),
    OpInfo("acosh", lambda t, x: t.acosh(x), _shapes_unary(_uniform(1.2, 3.0)), np.arccosh),
    OpInfo("atanh", lambda t, x: t.atanh(x), _shapes_unary(_uniform(-0.8, 0.8)), np.arctanh),
    OpInfo(
        "arcsinh_",
        _detached_inplace("arcsinh_"),
        _shapes_unary(_n),
        np.arcsinh,
        grad=False,
    ),
    OpInfo(
        "acosh_",
        _detached_inplace("acosh_"),
        _shapes_unary(_uniform(1.2, 3.0)),
        np.arccosh,
        grad=False,
    ),
    OpInfo(
        "atanh_",
        _detached_inplace("atanh_"),
        _shapes_unary(_uniform(-0.8, 0.8)),
        np.arctanh,
        grad=False,
    ),
    OpInfo(
        "frexp",
        lambda t, x: t.frexp(x).mantissa,
        _shapes_unary(lambda rng, *s: rng.uniform(-20, 20, s)),
        lambda x: np.frexp(x)[0],
    ),
    OpInfo(
        "ldexp",
        lambda t, x, e: t.ldexp(x, _as(t, e)),
        lambda rng: [
            Sample((_n(rng, 2, 3), np.array([1, 0, 3]))),
            Sample((_n(rng, 3), _n(rng, 2, 3))),
        ],
        lambda x, e: x * np.exp2(e),
    ),
    OpInfo(
        "nextafter",
        lambda t, x, y: t.nextafter(x, y),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 3)))],
        np.nextafter,
    ),
    OpInfo(
        "angle",
        lambda t, x: t.angle(x),
        _shapes_unary(lambda rng, *s: rng.uniform(0.2, 2, s) * rng.choice([-1, 1], s)),
        lambda x: np.angle(x),
    ),
]

JOINS = [
    OpInfo(
        "repeat_interleave",
        lambda t, x, **k: t.repeat_interleave(x, **k),
        lambda rng: [
            Sample((_n(rng, 2, 3),), {"repeats": 2}),
            Sample((_n(rng, 2, 3),), {"repeats": 3, "dim": 1}),
            Sample((_n(rng),), {"repeats": 2}),
        ],
        lambda x, repeats, dim=None: np.repeat(x, repeats, axis=dim),
    ),
    OpInfo(
        "repeat_interleave_tensor",
        lambda t, x: t.repeat_interleave(x, t.tensor([1, 0, 2]), dim=-1),
        lambda rng: [Sample((_n(rng, 2, 3),)), Sample((_n(rng, 3),))],
        lambda x: np.repeat(x, [1, 0, 2], axis=-1),
    ),
    OpInfo(
        "column_stack",
        lambda t, a, b, c: t.column_stack([a, b, c]),
        lambda rng: [Sample((_n(rng, 3), _n(rng, 3, 2), _n(rng, 3)))],
        lambda a, b, c: np.column_stack([a, b, c]),
    ),
    OpInfo(
        "dstack",
        lambda t, a, b: t.dstack((a, b)),
        lambda rng: [Sample((_n(rng, 3), _n(rng, 3))), Sample((_n(rng, 2, 3), _n(rng, 2, 3, 2)))],
        lambda a, b: np.dstack([a, b]),
    ),
    OpInfo(
        "hstack_vstack",
        lambda t, a, b: t.hstack([t.vstack([a, b]), t.row_stack([b, a])]),
        lambda rng: [Sample((_n(rng, 3), _n(rng, 3)))],
        lambda a, b: np.hstack([np.vstack([a, b]), np.vstack([b, a])]),
    ),
    OpInfo(
        "atleast_3d",
        lambda t, a, b: t.cat(t.atleast_3d(a, b), 0),
        lambda rng: [Sample((_n(rng), _n(rng, 1, 1))), Sample((_n(rng, 2), _n(rng, 1, 2)))],
        lambda a, b: np.concatenate(np.atleast_3d(a, b), 0),
    ),
    OpInfo(
        "hsplit",
        lambda t, x: t.hsplit(x, [1, 3])[1] * t.vsplit(x, 2)[0].sum(),
        lambda rng: [Sample((_n(rng, 2, 4),))],
        lambda x: np.hsplit(x, [1, 3])[1] * np.vsplit(x, 2)[0].sum(),
    ),
    OpInfo(
        "dsplit",
        lambda t, x: t.dsplit(x, 2)[1],
        lambda rng: [Sample((_n(rng, 2, 1, 4),))],
        lambda x: np.dsplit(x, 2)[1],
    ),
    OpInfo(
        "tensor_split",
        lambda t, x: t.tensor_split(x, 3, dim=1)[0] * x.tensor_split([1])[1].sum(),
        lambda rng: [Sample((_n(rng, 2, 4),))],
        lambda x: np.array_split(x, 3, axis=1)[0] * np.split(x, [1])[1].sum(),
    ),
    OpInfo("ravel", lambda t, x: t.ravel(x.t()), lambda rng: [Sample((_n(rng, 2, 3),))], None),
    OpInfo(
        "msort",
        lambda t, x: t.msort(x),
        lambda rng: [Sample((_distinct(rng, 3, 2),)), Sample((_distinct(rng, 4),))],
        lambda x: np.sort(x, 0),
    ),
    OpInfo(
        "narrow_copy",
        lambda t, x, *a: x.narrow_copy(*a),
        lambda rng: [Sample((_n(rng, 3, 4), 1, 1, 2)), Sample((_n(rng, 3, 4), -2, 1, 2))],
        lambda x, dim, start, length: np.take(
            x, range(start % x.shape[dim], start % x.shape[dim] + length), axis=dim
        ),
    ),
]

_SCATTER_INDEX = np.array([[0, 1, 0, 2], [0, 1, 2, 2]])


def _scatter_reduce_ref(x, src, reduce, include_self):
    out = x.copy()
    rows = {}
    for (i, j), target in np.ndenumerate(_SCATTER_INDEX):
        rows.setdefault((target, j), []).append(src[i, j])
    fold = {"sum": np.sum, "prod": np.prod, "mean": np.mean, "amax": np.max, "amin": np.min}
    for (r, j), values in rows.items():
        out[r, j] = fold[reduce](values + ([x[r, j]] if include_self else []))
    return out


def _scatter_reduce_info(reduce, include_self):
    return OpInfo(
        f"scatter_reduce_{reduce}_{include_self}",
        lambda t, x, s: x.scatter_reduce(
            0, t.tensor(_SCATTER_INDEX), s, reduce, include_self=include_self
        ),
        lambda rng: [Sample((_distinct(rng, 3, 4) / 4, _distinct(rng, 2, 4) / 3 + 0.05))],
        lambda x, s: _scatter_reduce_ref(x, s, reduce, include_self),
    )


INDEXED_REDUCTIONS = (
    [
        _scatter_reduce_info(reduce, include_self)
        for reduce in ("sum", "prod", "mean", "amax", "amin")
        for include_self in (True, False)
    ]
    + [
        OpInfo(
            f"index_reduce_{reduce}_{include_self}",
            lambda t, x, s, reduce=reduce, include_self=include_self: x.index_reduce(
                1, t.tensor([2, 0, 2]), s, reduce, include_self=include_self
            ),
            lambda rng: [Sample((_distinct(rng, 2, 4) / 3 + 0.1, _distinct(rng, 2, 3) / 3 + 0.05))],
            None,
        )
        for reduce in ("prod", "mean", "amax", "amin")
        for include_self in (True, False)
    ]
    + [
        OpInfo(
            "put",
            lambda t, x, s, **k: x.put(t.tensor([[0, 5], [11, -2]]), s, **k),
            lambda rng: [
                Sample((_n(rng, 3, 4), _n(rng, 2, 2))),
                Sample((_n(rng, 3, 4), _n(rng, 2, 2)), {"accumulate": True}),
            ],
            None,
        ),
    ]
)

STRIDED = [
    OpInfo(
        "as_strided",
        lambda t, x, *a: x.as_strided(*a),
        lambda rng: [
            Sample((_n(rng, 3, 4), (2, 2), (1, 2))),
            Sample((_n(rng, 3, 4), (3, 3), (1, 1), 2)),  # overlapping windows
            Sample((_n(rng, 6), (2, 3), (3, 1))),
        ],
        None,
    ),
    OpInfo(
        "as_strided_",
        lambda t, x: (x * 1).as_strided_((2, 3), (1, 2), 1),
        lambda rng: [Sample((_n(rng, 3, 4),))],
        None,
    ),
    OpInfo(
        "as_strided_of_view",
        lambda t, x: t.as_strided(x[1:].t(), (2, 2), (2, 1)),
        lambda rng: [Sample((_n(rng, 3, 4),))],
        None,
    ),
    OpInfo(
        "diagonal_scatter",
        lambda t, x, s, *a: x.diagonal_scatter(s, *a),
        lambda rng: [
            Sample((_n(rng, 3, 4), _n(rng, 3))),
            Sample((_n(rng, 3, 4), _n(rng, 2), 2)),
            Sample((_n(rng, 2, 3, 3), _n(rng, 3, 2), 0, 0, 2)),
        ],
        None,
    ),
    OpInfo(
        "select_scatter",
        lambda t, x, s, *a: t.select_scatter(x, s, *a),
        lambda rng: [
            Sample((_n(rng, 3, 4), _n(rng, 4), 0, 1)),
            Sample((_n(rng, 3, 4), _n(rng, 3), -1, -1)),
        ],
        None,
    ),
    OpInfo(
        "slice_scatter",
        lambda t, x, s, **k: x.slice_scatter(s, **k),
        lambda rng: [
            Sample((_n(rng, 4, 3), _n(rng, 2, 3)), {"start": 1, "end": 3}),
            Sample((_n(rng, 3, 4), _n(rng, 3, 2)), {"dim": 1, "step": 2}),
            Sample((_n(rng, 3, 4), _n(rng, 3, 4))),
        ],
        None,
    ),
    OpInfo(
        "as_strided_scatter",
        lambda t, x, s, *a: t.as_strided_scatter(x, s, *a),
        lambda rng: [
            Sample((_n(rng, 3, 4), _n(rng, 2, 2), (2, 2), (1, 4), 1)),
            Sample((_n(rng, 3, 4), _n(rng, 3), (3,), (5,))),
        ],
        None,
        grad=False,  # torch's input gradient is not the derivative (see strided.py)
    ),
]

STATISTICS = [
    OpInfo(
        "trapezoid",
        lambda t, y, **k: t.trapezoid(y, **k),
        lambda rng: [
            Sample((_n(rng, 3, 4),)),
            Sample((_n(rng, 3, 4),), {"dx": 0.5, "dim": 0}),
        ],
        lambda y, dx=1.0, dim=-1: np.trapezoid(y, dx=dx, axis=dim),
    ),
    OpInfo(
        "trapezoid_x",
        lambda t, y, x: t.trapz(y, x),
        lambda rng: [
            Sample((_n(rng, 3, 4), np.sort(_n(rng, 4)))),
            Sample((_n(rng, 2, 3), _n(rng, 2, 3))),
        ],
        lambda y, x: np.trapezoid(y, x),
    ),
    OpInfo(
        "cumulative_trapezoid",
        lambda t, y, *a, **k: t.cumulative_trapezoid(y, *a, **k),
        lambda rng: [
            Sample((_n(rng, 3, 4),)),
            Sample((_n(rng, 3, 4),), {"dx": 0.5, "dim": 0}),
            Sample((_n(rng, 3, 4), np.sort(_n(rng, 4)))),
        ],
        None,
    ),
    OpInfo(
        "cov",
        lambda t, x, **k: t.cov(x, **k),
        lambda rng: [
            Sample((_n(rng, 3, 5),)),
            Sample((_n(rng, 5),)),
            Sample((_n(rng, 2, 4),), {"correction": 0}),
        ],
        lambda x, correction=1: np.cov(x, ddof=correction),
    ),
    OpInfo(
        "cov_weights",
        lambda t, x, a: t.cov(x, fweights=t.tensor([1, 2, 1, 3]), aweights=a.abs() + 0.5),
        lambda rng: [Sample((_n(rng, 2, 4), _n(rng, 4)))],
        lambda x, a: np.cov(x, fweights=[1, 2, 1, 3], aweights=np.abs(a) + 0.5),
    ),
    OpInfo(
        "corrcoef",
        lambda t, x: t.corrcoef(x),
        lambda rng: [Sample((_n(rng, 3, 6),))],
        np.corrcoef,
    ),
    OpInfo(
        "gradient",
        lambda t, x, **k: t.cat([g.reshape(-1) for g in t.gradient(x, **k)]),
        lambda rng: [
            Sample((_n(rng, 3, 5),)),
            Sample((_n(rng, 4, 3),), {"spacing": 0.5, "dim": 0, "edge_order": 2}),
        ],
        lambda x, spacing=1.0, dim=None, edge_order=1: np.concatenate(
            [
                g.reshape(-1)
                for g in np.atleast_1d(
                    np.gradient(x, spacing, axis=dim, edge_order=edge_order)
                    if dim is not None
                    else np.gradient(x, edge_order=edge_order)
                )
            ]
        ),
    ),
    OpInfo(
        "histogram",
        # detached: torch records a node whose backward raises (checked in tests/programs)
        lambda t, x, w: t.histogram(x.detach(), 4, weight=w.detach().abs(), density=True).hist,
        lambda rng: [Sample((_n(rng, 3, 5), _n(rng, 3, 5)))],
        lambda x, w: np.histogram(x, 4, weights=np.abs(w), density=True)[0],
        grad=False,
    ),
    OpInfo(
        "histogramdd",
        lambda t, x, w: t.histogramdd(x.detach(), [3, 2], weight=w.detach().abs(), density=True)[0],
        lambda rng: [Sample((_n(rng, 2, 5, 2), _n(rng, 2, 5)))],
        lambda x, w: np.histogramdd(
            x.reshape(-1, 2), [3, 2], weights=np.abs(w).reshape(-1), density=True
        )[0],
        grad=False,
    ),
    # the draws are random: rates of 0 and certain successes make them exact
    OpInfo(
        "poisson",
        lambda t, x: t.poisson(x * 0),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        np.zeros_like,
        grad=False,
    ),
    OpInfo(
        "binomial",
        lambda t, n: t.binomial(n.detach().abs().round(), t.ones_like(n.detach())),
        lambda rng: [Sample((_n(rng, 2, 3) * 5,))],
        lambda n: np.round(np.abs(n)),
        grad=False,
    ),
    OpInfo(
        "renorm",
        lambda t, x, *a: x.renorm(*a),
        lambda rng: [
            Sample((_n(rng, 3, 4), 2, 0, 1.0)),
            Sample((_n(rng, 3, 4), 1, 1, 1.5)),
            Sample((_n(rng, 2, 3, 2), 3, -1, 0.8)),
        ],
        None,
    ),
]

INPLACE_VIEWS = [
    OpInfo(
        "unsqueeze_",
        lambda t, x: (x * 1).unsqueeze_(1) * 2,
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: np.expand_dims(x, 1) * 2,
    ),
    OpInfo(
        "squeeze_",
        lambda t, x, *a: (x * 1).squeeze_(*a),
        lambda rng: [Sample((_n(rng, 2, 1, 3, 1),)), Sample((_n(rng, 2, 1, 3, 1), 1))],
        None,
    ),
    OpInfo(
        "transpose_",
        lambda t, x: (x * 1).transpose_(0, -1),
        lambda rng: [Sample((_n(rng, 2, 3, 4),))],
        lambda x: np.swapaxes(x, 0, -1),
    ),
    OpInfo("t_", lambda t, x: (x * 1).t_(), lambda rng: [Sample((_n(rng, 2, 3),))], np.transpose),
    OpInfo(
        "combinations",
        lambda t, x, **k: t.combinations(x, **k),
        lambda rng: [
            Sample((_n(rng, 4),)),
            Sample((_n(rng, 3),), {"r": 3, "with_replacement": True}),
        ],
        None,
    ),
]

PRODUCTS = [
    OpInfo(
        "addr",
        lambda t, m, a, b, **k: t.addr(m, a, b, **k),
        lambda rng: [
            Sample((_n(rng, 2, 3), _n(rng, 2), _n(rng, 3))),
            Sample((_n(rng, 3), _n(rng, 2), _n(rng, 3)), {"beta": 0.5, "alpha": 2.0}),
            Sample((_n(rng, 2, 3), _n(rng, 2), _n(rng, 3)), {"beta": 0}),
        ],
        lambda m, a, b, beta=1, alpha=1: (beta * m if beta else 0) + alpha * np.outer(a, b),
    ),
    OpInfo(
        "addbmm",
        lambda t, m, a, b, **k: t.addbmm(m, a, b, **k),
        lambda rng: [
            Sample((_n(rng, 2, 3), _n(rng, 4, 2, 5), _n(rng, 4, 5, 3))),
            Sample((_n(rng, 3), _n(rng, 2, 2, 2), _n(rng, 2, 2, 3)), {"beta": 2.0, "alpha": 0.5}),
        ],
        lambda m, a, b, beta=1, alpha=1: beta * m + alpha * np.matmul(a, b).sum(0),
    ),
]

TENSOR_API_OPS = (
    PRODUCTS + POINTWISE + JOINS + INDEXED_REDUCTIONS + STRIDED + STATISTICS + INPLACE_VIEWS
)

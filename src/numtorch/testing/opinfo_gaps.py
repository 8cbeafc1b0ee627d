"""Op samples for the less common corners of torch's tensor API (part of the op sample table
in ``opinfo.py``): inverse hyperbolic functions, floating-point representation, reductions
into scattered positions, strided views and their scatters, statistics."""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample, _n, _shapes_unary


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

GAPS_OPS = POINTWISE

"""The op sample table: one entry per public op, driving every generic op test.

Each ``OpInfo`` runs its op as ``op(lib, *args, **kwargs)`` where ``lib`` is numtorch (or
torch, for parity tests), so the same expression serves both libraries. Samples are built
from NumPy arrays; float arrays become tensors that require grad. ``ref`` is a NumPy
reference for the forward. Adding an op means adding an entry here; ``tests/ops/test_ops.py``
checks that every registered primitive with a derivative is exercised by some entry.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Sample:
    args: tuple
    kwargs: dict = field(default_factory=dict)


@dataclass
class OpInfo:
    name: str
    op: Callable
    samples: Callable  # rng -> list[Sample]
    ref: Callable | None = None  # (*arrays, **kwargs) -> np.ndarray
    grad: bool = True
    gradgrad: bool = True
    torch_grad_fn: bool = True  # False where numtorch's grad_fn name differs on purpose
    atol: float = 1e-5
    rtol: float = 1e-3
    parity_rtol: float | None = None  # float64 tolerance against torch, where torch is coarse
    # Where torch's gradient depends on the machine (an exactly singular input, where LAPACK's
    # pivot path decides), the parity test checks the mathematically defined gradient instead:
    # (grad, *arrays) -> one gradient per differentiable input
    defined_grad: Callable | None = None


def _n(rng, *shape):
    return rng.standard_normal(shape)


def _pos(rng, *shape):
    return rng.uniform(0.5, 2.0, shape)


def _away(rng, *shape, gap=0.2):
    # values at least `gap` away from 0 (kinks of abs/relu/sign)
    v = rng.uniform(gap, 2.0, shape)
    return v * rng.choice([-1.0, 1.0], shape)


def _distinct(rng, *shape):
    # distinct values (no ties for max/sort), well separated
    n = int(np.prod(shape)) if shape else 1
    return (rng.permutation(n).astype(np.float64) * 0.37 - n * 0.15).reshape(shape)


def _off_integers(rng, *shape):
    return np.floor(rng.uniform(-3, 3, shape)) + rng.uniform(0.2, 0.8, shape)


def _shapes_unary(make):
    return lambda rng: [Sample((make(rng),)), Sample((make(rng, 5),)), Sample((make(rng, 2, 3),))]


def _unary(name, method, ref, make=_n, **kw):
    return OpInfo(name, lambda t, x: getattr(t, method)(x), _shapes_unary(make), ref, **kw)


def _binary_samples(make_a, make_b, scalar=True):
    def samples(rng):
        out = [
            Sample((make_a(rng, 2, 3), make_b(rng, 2, 3))),
            Sample((make_a(rng, 2, 3), make_b(rng, 3))),
            Sample((make_a(rng, 2, 1), make_b(rng, 1, 3))),
            Sample((make_a(rng, 4), make_b(rng))),
        ]
        return out + [Sample((make_a(rng, 2, 3), 1.5))] if scalar else out

    return samples


def _binary(name, fn, ref, make_a=_n, make_b=_n, scalar=True, **kw):
    return OpInfo(name, fn, _binary_samples(make_a, make_b, scalar), ref, **kw)


def _reduction_samples(extra=({},)):
    def samples(rng):
        out = [Sample((_n(rng, 2, 3, 4),), dict(k)) for k in extra]
        return out

    return samples


def _index(*values):
    return np.array(values, dtype=np.int64)


UNARY = [
    _unary("neg", "neg", np.negative),
    _unary("exp", "exp", np.exp),
    _unary("exp2", "exp2", np.exp2),
    _unary("expm1", "expm1", np.expm1),
    _unary("log", "log", np.log, _pos),
    _unary("log2", "log2", np.log2, _pos),
    _unary("log10", "log10", np.log10, _pos),
    _unary("log1p", "log1p", np.log1p, _pos),
    _unary("sqrt", "sqrt", np.sqrt, _pos),
    _unary("rsqrt", "rsqrt", lambda x: 1 / np.sqrt(x), _pos),
    _unary("sin", "sin", np.sin),
    _unary("cos", "cos", np.cos),
    _unary("tan", "tan", np.tan, lambda rng, *s: rng.uniform(-1, 1, s)),
    _unary("asin", "asin", np.arcsin, lambda rng, *s: rng.uniform(-0.8, 0.8, s)),
    _unary("acos", "acos", np.arccos, lambda rng, *s: rng.uniform(-0.8, 0.8, s)),
    _unary("atan", "atan", np.arctan),
    _unary("sinh", "sinh", np.sinh),
    _unary("cosh", "cosh", np.cosh),
    _unary("tanh", "tanh", np.tanh),
    _unary("sigmoid", "sigmoid", lambda x: 1 / (1 + np.exp(-x))),
    _unary("relu", "relu", lambda x: np.maximum(x, 0), _away),
    _unary("abs", "abs", np.abs, _away),
    _unary("sign", "sign", np.sign, _away),
    _unary("floor", "floor", np.floor, _off_integers),
    _unary("ceil", "ceil", np.ceil, _off_integers),
    _unary("trunc", "trunc", np.trunc, _off_integers),
    _unary("round", "round", np.round, _off_integers),
    _unary("frac", "frac", lambda x: x - np.trunc(x), _off_integers),
    _unary("reciprocal", "reciprocal", np.reciprocal, _away),
    _unary("square", "square", np.square),
    _unary("nan_to_num", "nan_to_num", np.nan_to_num),
]

BINARY = [
    _binary("add", lambda t, a, b: t.add(a, b), np.add),
    _binary("add_alpha", lambda t, a, b: t.add(a, b, alpha=2.5), lambda a, b: a + 2.5 * b),
    _binary("sub", lambda t, a, b: t.sub(a, b), np.subtract),
    _binary("sub_alpha", lambda t, a, b: t.sub(a, b, alpha=0.5), lambda a, b: a - 0.5 * b),
    _binary("mul", lambda t, a, b: t.mul(a, b), np.multiply),
    _binary("div", lambda t, a, b: t.div(a, b), np.divide, make_b=_away),
    _binary(
        "div_mode_none",
        lambda t, a, b: t.div(a, b, rounding_mode=None),
        np.divide,
        make_b=_away,
    ),
    _binary("maximum", lambda t, a, b: t.maximum(a, b), np.maximum, make_a=_distinct, scalar=False),
    _binary("minimum", lambda t, a, b: t.minimum(a, b), np.minimum, make_a=_distinct, scalar=False),
    _binary("pow_tensor", lambda t, a, b: t.pow(a, b), np.power, make_a=_pos),
    OpInfo("rsub_operator", lambda t, x: 2.0 - x, _shapes_unary(_n), lambda x: 2.0 - x),
    # torch.rsub of two tensors: the Tensor overload (RsubBackward0), other differentiable
    _binary("rsub_tensor", lambda t, a, b: t.rsub(a, b), lambda a, b: b - a, scalar=False),
    _binary(
        "rsub_tensor_alpha",
        lambda t, a, b: t.rsub(a, b, alpha=2.5),
        lambda a, b: b - 2.5 * a,
        scalar=False,
    ),
    OpInfo("rtruediv_operator", lambda t, x: 2.0 / x, _shapes_unary(_away), lambda x: 2.0 / x),
    OpInfo(
        "pow_scalar",
        lambda t, x, e: t.pow(x, e),
        lambda rng: [Sample((_pos(rng, 2, 3), e)) for e in (2, 0.5, -1.5, 3)],
        np.power,
    ),
    OpInfo("pow_scalar_base", lambda t, x: 2.0**x, _shapes_unary(_n), lambda x: 2.0**x),
    OpInfo(
        "remainder",
        lambda t, x: t.remainder(x, 1.5),
        _shapes_unary(lambda rng, *s: rng.uniform(0.1, 1.4, s)),
        lambda x: np.remainder(x, 1.5),
    ),
    OpInfo(
        "fmod",
        lambda t, x: t.fmod(x, 1.5),
        _shapes_unary(lambda rng, *s: rng.uniform(0.1, 1.4, s)),
        lambda x: np.fmod(x, 1.5),
    ),
    OpInfo(
        "where",
        lambda t, c, a, b: t.where(t.tensor(c), a, b),
        lambda rng: [
            Sample((_n(rng, 2, 3) > 0, _n(rng, 2, 3), _n(rng, 3))),
            Sample((_n(rng, 2, 3) > 0, _n(rng, 2, 3), 0.0)),
        ],
        lambda c, a, b: np.where(c, a, b),
    ),
    OpInfo(
        "clamp",
        lambda t, x, lo, hi: t.clamp(x, lo, hi),
        lambda rng: [
            Sample((_off_integers(rng, 2, 3), -1.0, 1.0)),
            Sample((_off_integers(rng, 5), None, 0.0)),
            Sample((_off_integers(rng, 5), 0.0, None)),
        ],
        lambda x, lo, hi: np.clip(x, lo, hi),
    ),
    OpInfo(
        "clamp_min",
        lambda t, x: x.clamp_min(0.5),
        _shapes_unary(_off_integers),
        lambda x: np.maximum(x, 0.5),
    ),
    OpInfo(
        "clamp_max",
        lambda t, x: x.clamp_max(-0.5),
        _shapes_unary(_off_integers),
        lambda x: np.minimum(x, -0.5),
    ),
    OpInfo(
        "clamp_tensor",
        lambda t, x, lo, hi: t.clamp(x, lo, hi),
        lambda rng: [
            Sample((_distinct(rng, 2, 3), _distinct(rng, 3) - 0.8, _distinct(rng, 3) + 0.9))
        ],
        lambda x, lo, hi: np.minimum(np.maximum(x, lo), hi),
    ),
    OpInfo(
        "lerp",
        lambda t, a, b: t.lerp(a, b, 0.3),
        _binary_samples(_n, _n, scalar=False),
        lambda a, b: a + 0.3 * (b - a),
    ),
    OpInfo(
        "addcmul",
        lambda t, a, b, c: t.addcmul(a, b, c, value=0.5),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2, 3), _n(rng, 3)))],
        lambda a, b, c: a + 0.5 * b * c,
    ),
    OpInfo(
        "addcdiv",
        lambda t, a, b, c: t.addcdiv(a, b, c, value=0.5),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2, 3), _away(rng, 3)))],
        lambda a, b, c: a + 0.5 * b / c,
    ),
]


REDUCTIONS = [
    OpInfo(
        "sum",
        lambda t, x, **k: t.sum(x, **k),
        _reduction_samples(({}, {"dim": 1}, {"dim": (0, 2)}, {"dim": -1, "keepdim": True})),
        lambda x, dim=None, keepdim=False: np.sum(x, axis=dim, keepdims=keepdim),
    ),
    OpInfo(
        "mean",
        lambda t, x, **k: t.mean(x, **k),
        _reduction_samples(({}, {"dim": 1}, {"dim": (0, 2), "keepdim": True})),
        lambda x, dim=None, keepdim=False: np.mean(x, axis=dim, keepdims=keepdim),
    ),
    OpInfo(  # finite samples (finite differences through NaN are NaN); NaN: tests/programs
        "nansum",
        lambda t, x, **k: t.nansum(x, **k),
        _reduction_samples(({}, {"dim": 1}, {"dim": (0, 2), "keepdim": True})),
        lambda x, dim=None, keepdim=False: np.nansum(x, axis=dim, keepdims=keepdim),
    ),
    OpInfo(
        "prod",
        lambda t, x, **k: t.prod(x, **k),
        lambda rng: [
            Sample((_n(rng, 2, 3),)),
            Sample((_n(rng, 2, 3),), {"dim": 1}),
            Sample((np.array([[1.5, 0.0, 2.0], [0.0, 0.0, 3.0]]),), {"dim": 1}),
            Sample((np.array([0.5, 0.0, 2.0, 1.5]),)),
        ],
        lambda x, dim=None: np.prod(x, axis=dim),
    ),
    OpInfo(
        "var",
        lambda t, x, **k: t.var(x, **k),
        _reduction_samples(
            ({}, {"dim": 1}, {"dim": (0, 2), "correction": 0}, {"dim": 1, "keepdim": True})
        ),
        lambda x, dim=None, correction=1, keepdim=False: np.var(
            x, axis=dim, ddof=correction, keepdims=keepdim
        ),
    ),
    OpInfo(
        "std",
        lambda t, x, **k: t.std(x, **k),
        _reduction_samples(({}, {"dim": 1}, {"dim": 2, "correction": 0})),
        lambda x, dim=None, correction=1: np.std(x, axis=dim, ddof=correction),
    ),
    # both outputs of the fused nodes, combined so one sample checks both gradients
    OpInfo(
        "var_mean",
        lambda t, x, **k: (lambda r: r[0] * 2 + r[1])(t.var_mean(x, **k)),
        _reduction_samples(({}, {"dim": 1}, {"dim": (0, 2), "correction": 0, "keepdim": True})),
        lambda x, dim=None, correction=1, keepdim=False: (
            np.var(x, axis=dim, ddof=correction, keepdims=keepdim) * 2
            + np.mean(x, axis=dim, keepdims=keepdim)
        ),
    ),
    OpInfo(
        "std_mean",
        lambda t, x, **k: (lambda r: r[0] * 2 + r[1])(t.std_mean(x, **k)),
        _reduction_samples(({}, {"dim": 1}, {"dim": 2, "correction": 0})),
        lambda x, dim=None, correction=1: (
            np.std(x, axis=dim, ddof=correction) * 2 + np.mean(x, axis=dim)
        ),
    ),
    OpInfo(  # both outputs feed the loss: one AminmaxBackward0 node takes both gradients
        "aminmax",
        lambda t, x, **k: (lambda r: r.min + r.max * 2)(t.aminmax(x, **k)),
        lambda rng: [Sample((_distinct(rng, 2, 3),)), Sample((_distinct(rng, 2, 3),), {"dim": 1})],
        lambda x, dim=None: np.min(x, axis=dim) + np.max(x, axis=dim) * 2,
    ),
    OpInfo("max_all", lambda t, x: t.max(x), lambda rng: [Sample((_distinct(rng, 2, 3),))], np.max),
    OpInfo(
        "max_dim",
        lambda t, x: t.max(x, 1).values,
        lambda rng: [Sample((_distinct(rng, 2, 3, 2),))],
        lambda x: np.max(x, axis=1),
    ),
    OpInfo(
        "max_dim_keepdim",
        lambda t, x: t.max(x, -1, keepdim=True)[0],
        lambda rng: [Sample((_distinct(rng, 2, 3),))],
        lambda x: np.max(x, axis=-1, keepdims=True),
    ),
    OpInfo("min_all", lambda t, x: t.min(x), lambda rng: [Sample((_distinct(rng, 2, 3),))], np.min),
    OpInfo(
        "min_dim",
        lambda t, x: t.min(x, 0).values,
        lambda rng: [Sample((_distinct(rng, 2, 3),))],
        lambda x: np.min(x, axis=0),
    ),
    OpInfo(
        "amax",
        lambda t, x: t.amax(x, (0, 2)),
        lambda rng: [Sample((_distinct(rng, 2, 3, 2),))],
        lambda x: np.max(x, axis=(0, 2)),
    ),
    # ties share the gradient (a subgradient, not a finite-difference derivative)
    OpInfo(
        "amax_ties",
        lambda t, x: t.amax(x, 1),
        lambda rng: [Sample((np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]),))],
        lambda x: np.max(x, axis=1),
        grad=False,
    ),
    OpInfo(
        "amin",
        lambda t, x: t.amin(x, 1),
        lambda rng: [Sample((_distinct(rng, 2, 3),))],
        lambda x: np.min(x, axis=1),
    ),
    OpInfo(
        "logsumexp",
        lambda t, x, d: t.logsumexp(x, d),
        lambda rng: [Sample((_n(rng, 2, 3), 1)), Sample((_n(rng, 2, 3, 2), (0, 2)))],
        lambda x, d: np.log(np.sum(np.exp(x), axis=d)),
    ),
    OpInfo(
        "softmax",
        lambda t, x, d: t.softmax(x, d),
        lambda rng: [Sample((_n(rng, 2, 3), 1)), Sample((_n(rng, 2, 3, 2), 0))],
        lambda x, d: np.exp(x) / np.sum(np.exp(x), axis=d, keepdims=True),
    ),
    OpInfo(
        "log_softmax",
        lambda t, x, d: t.log_softmax(x, d),
        lambda rng: [Sample((_n(rng, 2, 3), -1))],
        lambda x, d: x - np.log(np.sum(np.exp(x), axis=d, keepdims=True)),
    ),
    OpInfo(
        "norm",
        lambda t, x, **k: t.norm(x, **k),
        lambda rng: [
            Sample((_n(rng, 2, 3),)),
            Sample((_n(rng, 2, 3),), {"dim": 1}),
            Sample((_away(rng, 2, 3),), {"p": 1}),
            Sample((_n(rng, 2, 3),), {"p": 3, "dim": 0}),
            Sample((_distinct(rng, 2, 3),), {"p": math.inf, "dim": 1}),
        ],
        lambda x, p=2, dim=None: np.linalg.norm(
            x.reshape(-1) if dim is None else x, ord=p, axis=None if dim is None else dim
        ),
    ),
    OpInfo(
        "cumsum",
        lambda t, x, d: t.cumsum(x, d),
        lambda rng: [Sample((_n(rng, 2, 3), 1)), Sample((_n(rng, 4), 0))],
        lambda x, d: np.cumsum(x, axis=d),
    ),
    OpInfo(
        "sort",
        lambda t, x: t.sort(x, 1).values,
        lambda rng: [Sample((_distinct(rng, 2, 4),))],
        lambda x: np.sort(x, axis=1),
    ),
    OpInfo(
        "sort_stable",
        lambda t, x: t.sort(x, dim=1, stable=True).values,
        lambda rng: [Sample((_distinct(rng, 2, 4),))],
        lambda x: np.sort(x, axis=1),
    ),
    OpInfo(
        "sort_descending",
        lambda t, x: t.sort(x, 0, descending=True)[0],
        lambda rng: [Sample((_distinct(rng, 3, 2),))],
        lambda x: -np.sort(-x, axis=0),
    ),
    OpInfo(
        "topk",
        lambda t, x: t.topk(x, 2).values,
        lambda rng: [Sample((_distinct(rng, 2, 4),))],
        lambda x: -np.sort(-x, axis=-1)[:, :2],
    ),
]

SHAPE = [
    OpInfo(
        "view",
        lambda t, x: x.view(3, 2),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x.reshape(3, 2),
    ),
    OpInfo(
        "view_infer",
        lambda t, x: x.view(-1),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x.reshape(-1),
    ),
    OpInfo(
        "reshape",
        lambda t, x: t.reshape(x, (3, 2)),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x.reshape(3, 2),
    ),
    OpInfo(
        "reshape_copy",
        lambda t, x: x.t().reshape(6),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x.T.reshape(6),
    ),
    OpInfo(
        "flatten",
        lambda t, x: t.flatten(x, 1),
        lambda rng: [Sample((_n(rng, 2, 3, 2),))],
        lambda x: x.reshape(2, 6),
    ),
    OpInfo(
        "unflatten",
        lambda t, x: x.unflatten(1, (3, 2)),
        lambda rng: [Sample((_n(rng, 2, 6),))],
        lambda x: x.reshape(2, 3, 2),
    ),
    OpInfo(
        "squeeze",
        lambda t, x: t.squeeze(x),
        lambda rng: [Sample((_n(rng, 2, 1, 3, 1),))],
        np.squeeze,
    ),
    OpInfo(
        "squeeze_dim",
        lambda t, x: x.squeeze(1),
        lambda rng: [Sample((_n(rng, 2, 1, 3),))],
        lambda x: np.squeeze(x, 1),
    ),
    OpInfo(
        "squeeze_dims",
        lambda t, x: x.squeeze((1, 3)),
        lambda rng: [Sample((_n(rng, 2, 1, 3, 1),))],
        lambda x: np.squeeze(x, (1, 3)),
    ),
    OpInfo(
        "unsqueeze",
        lambda t, x: t.unsqueeze(x, -1),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x[..., None],
    ),
    OpInfo(
        "permute",
        lambda t, x: x.permute(2, 0, 1),
        lambda rng: [Sample((_n(rng, 2, 3, 4),))],
        lambda x: x.transpose(2, 0, 1),
    ),
    OpInfo(
        "transpose",
        lambda t, x: t.transpose(x, 0, -1),
        lambda rng: [Sample((_n(rng, 2, 3, 4),))],
        lambda x: np.swapaxes(x, 0, -1),
    ),
    OpInfo(
        "t",
        lambda t, x: x.t(),
        lambda rng: [Sample((_n(rng, 2, 3),)), Sample((_n(rng, 3),))],
        lambda x: x.T,
    ),
    OpInfo("T", lambda t, x: x.T, lambda rng: [Sample((_n(rng, 2, 3),))], lambda x: x.T),
    OpInfo(
        "mT",
        lambda t, x: x.mT,
        lambda rng: [Sample((_n(rng, 2, 3, 4),))],
        lambda x: np.swapaxes(x, -1, -2),
    ),
    OpInfo(
        "expand",
        lambda t, x: x.expand(4, 2, 3),
        lambda rng: [Sample((_n(rng, 2, 1),))],
        lambda x: np.broadcast_to(x, (4, 2, 3)),
    ),
    OpInfo(
        "expand_as",
        lambda t, x, y: x.expand_as(y),
        lambda rng: [Sample((_n(rng, 3), _n(rng, 2, 3)))],
        lambda x, y: np.broadcast_to(x, y.shape),
    ),
    OpInfo(
        "repeat",
        lambda t, x: x.repeat(2, 1, 3),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: np.tile(x, (2, 1, 3)),
    ),
    OpInfo(
        "flip",
        lambda t, x: t.flip(x, (0, 1)),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: np.flip(x, (0, 1)),
    ),
    OpInfo(
        "roll",
        lambda t, x: t.roll(x, 1, 1),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: np.roll(x, 1, 1),
    ),
    OpInfo(
        "movedim",
        lambda t, x: t.movedim(x, 0, 2),
        lambda rng: [Sample((_n(rng, 2, 3, 4),))],
        lambda x: np.moveaxis(x, 0, 2),
    ),
    OpInfo(
        "narrow",
        lambda t, x: x.narrow(1, 1, 2),
        lambda rng: [Sample((_n(rng, 2, 4),))],
        lambda x: x[:, 1:3],
    ),
    OpInfo(
        "cat",
        lambda t, a, b: t.cat([a, b], 1),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2, 1)))],
        lambda a, b: np.concatenate([a, b], 1),
    ),
    OpInfo(
        "stack",
        lambda t, a, b: t.stack([a, b], -1),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2, 3)))],
        lambda a, b: np.stack([a, b], -1),
    ),
    OpInfo(
        "split",
        lambda t, x: x.split(2, 1)[1],
        lambda rng: [Sample((_n(rng, 2, 5),))],
        lambda x: x[:, 2:4],
    ),
    OpInfo(
        "split_sizes",
        lambda t, x: t.split(x, [1, 3], 1)[1] * 2,
        lambda rng: [Sample((_n(rng, 2, 4),))],
        lambda x: x[:, 1:] * 2,
    ),
    OpInfo(
        "chunk",
        lambda t, x: t.chunk(x, 2, 0)[0],
        lambda rng: [Sample((_n(rng, 3, 2),))],
        lambda x: x[:2],
    ),
    OpInfo(
        "unbind",
        lambda t, x: x.unbind(1)[2],
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x[:, 2],
    ),
    OpInfo(
        "clone", lambda t, x: x.clone(), lambda rng: [Sample((_n(rng, 2, 3),))], lambda x: x.copy()
    ),
    OpInfo(
        "contiguous",
        lambda t, x: x.t().contiguous(),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x.T.copy(),
    ),
    OpInfo(
        "contiguous_channels_last",
        lambda t, x: x.contiguous(memory_format=t.channels_last) * 1,
        lambda rng: [Sample((_n(rng, 2, 3, 2, 2),))],
        lambda x: x.copy(),
    ),
    OpInfo(
        "to_channels_last",
        lambda t, x: x.to(t.float64, memory_format=t.channels_last) * 1,
        lambda rng: [Sample((_n(rng, 2, 3, 2, 2),))],
        lambda x: x.copy(),
    ),
    OpInfo(
        "to_float32",
        lambda t, x: x.to(t.float32) * 2,
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x.astype(np.float32) * 2,
        grad=False,
    ),
    OpInfo(
        "sum_to_size",
        lambda t, x: x.sum_to_size(1, 3),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x.sum(0, keepdims=True),
    ),
]

INDEXING = [
    OpInfo(
        "getitem_int", lambda t, x: x[1], lambda rng: [Sample((_n(rng, 3, 2),))], lambda x: x[1]
    ),
    OpInfo(
        "getitem_slice", lambda t, x: x[1:], lambda rng: [Sample((_n(rng, 3, 2),))], lambda x: x[1:]
    ),
    OpInfo(
        "getitem_mixed",
        lambda t, x: x[0, 1:3],
        lambda rng: [Sample((_n(rng, 2, 4),))],
        lambda x: x[0, 1:3],
    ),
    OpInfo(
        "getitem_step",
        lambda t, x: x[:, ::2],
        lambda rng: [Sample((_n(rng, 2, 5),))],
        lambda x: x[:, ::2],
    ),
    OpInfo(
        "getitem_none_ellipsis",
        lambda t, x: x[None, ..., -1],
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x[None, ..., -1],
    ),
    OpInfo(
        "getitem_ellipsis",
        lambda t, x: x[...],
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x[...],
    ),
    OpInfo(
        "getitem_list_duplicates",
        lambda t, x: x[[0, 0, 2]],
        lambda rng: [Sample((_n(rng, 3, 2),))],
        lambda x: x[[0, 0, 2]],
    ),
    OpInfo(
        "getitem_tensor_index",
        lambda t, x, i: x[:, t.tensor(i)],
        lambda rng: [Sample((_n(rng, 2, 3), _index(2, 0, 2)))],
        lambda x, i: x[:, i],
    ),
    OpInfo(
        "getitem_mask",
        lambda t, x, m: x[t.tensor(m)],
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2, 3) > 0))],
        lambda x, m: x[m],
    ),
    OpInfo(
        "getitem_pairs",
        lambda t, x: x[[0, 1, 1], [2, 0, 0]],
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x[[0, 1, 1], [2, 0, 0]],
    ),
    OpInfo(
        "gather",
        lambda t, x, i: t.gather(x, 1, t.tensor(i)),
        lambda rng: [Sample((_n(rng, 2, 3), _index([0, 2, 2], [1, 1, 0])))],
        lambda x, i: np.take_along_axis(x, i, 1),
    ),
    OpInfo(
        "scatter",
        lambda t, x, i, s: t.scatter(x, 0, t.tensor(i), s),
        lambda rng: [Sample((_n(rng, 3, 2), _index([2, 0]), _n(rng, 1, 2)))],
        None,
    ),
    OpInfo(
        "scatter_reduce_argument",
        lambda t, x, i, s: t.scatter(x.detach(), 1, t.tensor(i), s.detach(), reduce="multiply"),
        lambda rng: [Sample((_n(rng, 2, 3), _index([0, 0, 2], [1, 1, 1]), _n(rng, 2, 3)))],
        None,
        grad=False,
    ),
    OpInfo(
        "scatter_add",
        lambda t, x, i, s: t.scatter_add(x, 1, t.tensor(i), s),
        lambda rng: [Sample((_n(rng, 2, 3), _index([0, 0, 2], [1, 1, 1]), _n(rng, 2, 3)))],
        None,
    ),
    OpInfo(
        "index_select",
        lambda t, x, i: t.index_select(x, 1, t.tensor(i)),
        lambda rng: [Sample((_n(rng, 2, 3), _index(2, 0, 2)))],
        lambda x, i: np.take(x, i, axis=1),
    ),
    OpInfo(
        "index_add",
        lambda t, x, i, s: t.index_add(x, 0, t.tensor(i), s),
        lambda rng: [Sample((_n(rng, 3, 2), _index(1, 1), _n(rng, 2, 2)))],
        None,
    ),
    OpInfo(
        "masked_fill",
        lambda t, x, m: t.masked_fill(x, t.tensor(m), -1.0),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2, 3) > 0))],
        lambda x, m: np.where(m, -1.0, x),
    ),
    OpInfo(
        "masked_fill_tensor",
        lambda t, x, v, m: t.masked_fill(x, t.tensor(m), v),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng), _n(rng, 3) > 0))],
        lambda x, v, m: np.where(m, v, x),
    ),
    OpInfo(
        "masked_select",
        lambda t, x, m: t.masked_select(x, t.tensor(m)),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2, 3) > 0))],
        lambda x, m: x[m],
    ),
    OpInfo(
        "take",
        lambda t, x, i: t.take(x, t.tensor(i)),
        lambda rng: [Sample((_n(rng, 2, 3), _index(5, 0, 5)))],
        lambda x, i: np.take(x.reshape(-1), i),
    ),
    OpInfo(
        "index_put",
        lambda t, x, v: t.index_put(x, (t.tensor(_index(0, 2)),), v),
        lambda rng: [Sample((_n(rng, 3, 2), _n(rng, 2)))],
        None,
    ),
    OpInfo(
        "index_put_accumulate",
        lambda t, x, v: t.index_put(x, (t.tensor(_index(0, 0)),), v, accumulate=True),
        lambda rng: [Sample((_n(rng, 3, 2), _n(rng, 2, 2)))],
        None,
    ),
]

LINALG = [
    OpInfo(
        "mm",
        lambda t, a, b: t.mm(a, b),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 3, 4)))],
        np.matmul,
    ),
    OpInfo(
        "bmm",
        lambda t, a, b: t.bmm(a, b),
        lambda rng: [Sample((_n(rng, 2, 2, 3), _n(rng, 2, 3, 2)))],
        np.matmul,
    ),
    OpInfo(
        "mv",
        lambda t, a, b: t.mv(a, b),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 3)))],
        np.matmul,
    ),
    OpInfo(
        "dot", lambda t, a, b: t.dot(a, b), lambda rng: [Sample((_n(rng, 3), _n(rng, 3)))], np.dot
    ),
    OpInfo(
        "vdot",
        lambda t, a, b: t.vdot(a, b),
        lambda rng: [Sample((_n(rng, 3), _n(rng, 3)))],
        np.vdot,
    ),
    OpInfo(
        "addmm",
        lambda t, c, a, b: t.addmm(c, a, b, beta=0.5, alpha=2.0),
        lambda rng: [Sample((_n(rng, 4), _n(rng, 2, 3), _n(rng, 3, 4)))],
        lambda c, a, b: 0.5 * c + 2.0 * a @ b,
    ),
    OpInfo(
        "outer",
        lambda t, a, b: t.outer(a, b),
        lambda rng: [Sample((_n(rng, 2), _n(rng, 3)))],
        np.outer,
    ),
    OpInfo(
        "matmul",
        lambda t, a, b: t.matmul(a, b),
        lambda rng: [
            Sample((_n(rng, 3), _n(rng, 3))),
            Sample((_n(rng, 3), _n(rng, 3, 2))),
            Sample((_n(rng, 2, 3, 4), _n(rng, 4, 2))),
            Sample((_n(rng, 2, 3, 4), _n(rng, 4))),
            Sample((_n(rng, 2, 1, 3, 2), _n(rng, 4, 2, 3))),
            Sample((_n(rng, 3), _n(rng, 2, 3, 2))),
        ],
        np.matmul,
    ),
    OpInfo(
        "matmul_operator",
        lambda t, a, b: a @ b,
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 3, 4)))],
        np.matmul,
    ),
    OpInfo(
        "einsum",
        lambda t, a, b: t.einsum("bij,bjk->bik", a, b),
        lambda rng: [Sample((_n(rng, 2, 2, 3), _n(rng, 2, 3, 2)))],
        lambda a, b: np.einsum("bij,bjk->bik", a, b),
        torch_grad_fn=False,
    ),
    OpInfo(
        "einsum_reduce",
        lambda t, a: t.einsum("ij->j", a),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda a: np.einsum("ij->j", a),
        torch_grad_fn=False,
    ),
    OpInfo(
        "einsum_ellipsis_broadcast",
        lambda t, a, b: t.einsum("...ij,...jk->...ik", a, b),
        lambda rng: [Sample((_n(rng, 2, 1, 2, 3), _n(rng, 3, 3, 2)))],
        lambda a, b: np.einsum("...ij,...jk->...ik", a, b),
        torch_grad_fn=False,
    ),
    OpInfo(
        "einsum_ellipsis_implicit",
        lambda t, a, b: t.einsum("i...,...->i", a, b),
        lambda rng: [Sample((_n(rng, 3, 2, 2), _n(rng, 1, 2)))],
        lambda a, b: (a * b).sum((1, 2)),
        torch_grad_fn=False,
    ),
]


def _setitem_column(t, x):
    y = x * 1
    y[:, 0] = 0
    return y


def _setitem_tensor(t, x, v):
    y = x.clone()
    y[1:] = v
    return y


def _mul_through_view(t, x, v):
    y = x.clone()
    y[1:].mul_(v)
    return y


def _setitem_mask(t, x, v):
    y = x * 2
    y[y > 0] = v
    return y


INPLACE = [
    OpInfo(
        "add_",
        lambda t, x, y: x.clone().add_(y, alpha=2),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 3)))],
        lambda x, y: x + 2 * y,
    ),
    OpInfo(
        "mul_",
        lambda t, x, y: (x * 1).mul_(y),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2, 3)))],
        np.multiply,
    ),
    OpInfo("exp_", lambda t, x: x.clone().exp_(), _shapes_unary(_n), np.exp),
    OpInfo(
        "copy_",
        lambda t, x, y: (x * 2).copy_(y),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 3)))],
        lambda x, y: np.broadcast_to(y, x.shape),
    ),
    OpInfo(
        "fill_",
        lambda t, x: (x * 2).fill_(1.5),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: np.full_like(x, 1.5),
    ),
    OpInfo(
        "fill",
        lambda t, x: t.fill(x * 2, 1.5),
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: np.full_like(x, 1.5),
    ),
    OpInfo(
        "fill_tensor",
        lambda t, x, v: t.fill(x * 2, v),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng)))],
        lambda x, v: np.full_like(x, v),
    ),
    OpInfo(
        "zero_",
        lambda t, x: (x * 2).zero_() + x,
        lambda rng: [Sample((_n(rng, 2, 3),))],
        lambda x: x,
    ),
    OpInfo("setitem_column", _setitem_column, lambda rng: [Sample((_n(rng, 3, 4),))], None),
    OpInfo(
        "setitem_tensor", _setitem_tensor, lambda rng: [Sample((_n(rng, 3, 2), _n(rng, 2)))], None
    ),
    OpInfo("setitem_mask", _setitem_mask, lambda rng: [Sample((_away(rng, 3, 2), _n(rng)))], None),
    OpInfo(
        "mul_through_view",
        _mul_through_view,
        lambda rng: [Sample((_n(rng, 3, 2), _n(rng, 2)))],
        None,
    ),
    OpInfo(
        "floor_divide",
        lambda t, x: t.floor_divide(x.detach(), 0.7),
        _shapes_unary(_off_integers),
        lambda x: np.floor_divide(x, 0.7),
        grad=False,
    ),
    OpInfo(  # a number first: torch records NotImplemented (no derivative)
        "remainder_scalar_self",
        lambda t, x: t.remainder(2.5, x.detach()),
        _shapes_unary(_off_integers),
        lambda x: np.remainder(2.5, x),
        grad=False,
    ),
    OpInfo(
        "div_floor",
        lambda t, x: t.div(x, 0.7, rounding_mode="floor"),
        _shapes_unary(_off_integers),
        lambda x: np.floor_divide(x, 0.7),
        grad=False,
    ),
]

OP_DB: list[OpInfo] = UNARY + BINARY + REDUCTIONS + SHAPE + INDEXING + LINALG + INPLACE

# Tables by concept live beside this one; they import the helpers above.
from .opinfo_activation import ACTIVATIONS  # noqa: E402
from .opinfo_factor import FACTORIZATIONS  # noqa: E402
from .opinfo_fft import COMPLEX_OPS, FFT_OPS  # noqa: E402
from .opinfo_linalg import LINALG_OPS  # noqa: E402
from .opinfo_loss import LOSSES  # noqa: E402
from .opinfo_masked import MASKED_OPS  # noqa: E402
from .opinfo_math import MATH_OPS  # noqa: E402
from .opinfo_nested import NESTED_OPS  # noqa: E402
from .opinfo_nn import NN  # noqa: E402
from .opinfo_nn_aten import NN_ATEN, SAMPLERS  # noqa: E402
from .opinfo_nn_pooling_grids import NN_POOLING_GRIDS  # noqa: E402
from .opinfo_node_names import NODE_CHOICES  # noqa: E402
from .opinfo_products import PRODUCTS_ADD  # noqa: E402
from .opinfo_quantization import QUANTIZATION_OPS  # noqa: E402
from .opinfo_sampling import GAMMA_SAMPLING  # noqa: E402
from .opinfo_seq import SEQUENCE  # noqa: E402
from .opinfo_sparse import SPARSE_OPS  # noqa: E402
from .opinfo_special import SPECIAL_OPS  # noqa: E402
from .opinfo_structure import STRUCTURE_OPS  # noqa: E402
from .opinfo_tensor_api import TENSOR_API_OPS  # noqa: E402
from .opinfo_view_copies import VIEW_COPIES  # noqa: E402
from .opinfo_vision import VISION  # noqa: E402

OP_DB += (
    MATH_OPS
    + STRUCTURE_OPS
    + LINALG_OPS
    + PRODUCTS_ADD
    + FACTORIZATIONS
    + NN
    + NN_ATEN
    + SAMPLERS
    + NN_POOLING_GRIDS
    + ACTIVATIONS
    + LOSSES
    + VISION
    + SPECIAL_OPS
    + SEQUENCE
    + TENSOR_API_OPS
    + GAMMA_SAMPLING
    + FFT_OPS
    + COMPLEX_OPS
    + SPARSE_OPS
    + NODE_CHOICES
    + VIEW_COPIES
    + MASKED_OPS
    + QUANTIZATION_OPS
    + NESTED_OPS
)

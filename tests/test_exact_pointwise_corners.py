"""Pointwise gradients at torch's corners (NaN, +-inf, +-0, poles), each checked against
torch's values there."""

from __future__ import annotations

import math

import pytest

import numtorch as nt

nan = float("nan")


def _grad(fn, values, create_graph=False, dtype=nt.float64):
    x = nt.tensor(values, dtype=dtype, requires_grad=True)
    (g,) = nt.autograd.grad(fn(x).sum(), x, create_graph=create_graph)
    return g


def _same(actual, expected):
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        if math.isnan(e):
            assert math.isnan(a), (actual, expected)
        else:
            assert a == e and math.copysign(1, a) == math.copysign(1, e), (actual, expected)


@pytest.mark.parametrize("create_graph", [False, True])
def test_logit_with_eps_gives_nan_input_a_zero_gradient(create_graph):
    # torch keeps the derivative only where eps <= x <= 1 - eps (its vectorized kernel and
    # its differentiable backward agree: a NaN input is outside and gets 0)
    g = _grad(lambda x: nt.logit(x, 0.1), [nan, 0.0, 0.5, 1.5], create_graph)
    _same(g.tolist(), [0.0, 0.0, 4.0, 0.0])


def test_logit_with_eps_second_order_is_nan_at_poles():
    x = nt.tensor([0.0, 1.0, 0.5, -0.5, nan], dtype=nt.float64, requires_grad=True)
    (g,) = nt.autograd.grad(nt.logit(x, 0.1).sum(), x, create_graph=True)
    (gg,) = nt.autograd.grad(g.sum(), x)
    _same(gg.tolist(), [nan, nan, 0.0, -0.0, nan])

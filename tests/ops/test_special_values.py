"""Gradients at special points (0, ties, infinities) follow torch's conventions exactly
(user-needs scenario 19): the values below are what torch 2.13 gives."""

from __future__ import annotations

import math

import pytest

import numtorch as torch

INF, NAN = math.inf, math.nan

CASES = [
    (
        "where_sqrt_unselected_branch",
        lambda x: torch.where(x > 0, torch.sqrt(x), 0.0),
        [-1.0, 0.0, 1.0],
        [NAN, NAN, 0.5],
    ),
    (
        "double_where_trick",
        lambda x: torch.where(x > 0, torch.where(x > 0, x, 1.0).sqrt(), 0.0),
        [-1.0, 0.0, 1.0],
        [0.0, 0.0, 0.5],
    ),
    ("norm_at_zero", lambda x: x.norm(), [0.0, 0.0], [0.0, 0.0]),
    (
        "norm_dim_at_zero",
        lambda x: x.norm(dim=0),
        [[0.0, 0.0], [0.0, 1.0]],
        [[0.0, 0.0], [0.0, 1.0]],
    ),
    ("abs_at_zero", lambda x: x.abs(), [0.0, -0.0, 1.0], [0.0, 0.0, 1.0]),
    ("sqrt_at_zero", lambda x: x.sqrt(), [0.0, 4.0], [INF, 0.25]),
    ("relu_at_zero", lambda x: x.relu(), [0.0, -1.0, 1.0], [0.0, 0.0, 1.0]),
    ("clamp_at_bounds", lambda x: x.clamp(0, 1), [0.0, 1.0, 0.5], [1.0, 1.0, 1.0]),
    ("maximum_tie", lambda x: torch.maximum(x, torch.zeros(3)), [0.0, -1.0, 1.0], [0.5, 0.0, 1.0]),
    ("max_tie", lambda x: x.max(), [1.0, 1.0, 0.0], [0.5, 0.5, 0.0]),
    ("log_at_zero", lambda x: x.log(), [0.0, 1.0], [INF, 1.0]),
    ("sqrt_power_at_zero", lambda x: x**0.5, [0.0, 1.0], [INF, 0.5]),
    ("square_at_zero", lambda x: x**2, [0.0, 1.0], [0.0, 2.0]),
    ("power_zero", lambda x: x**0, [0.0, 1.0], [0.0, 0.0]),
    (
        "tensor_power_zero_at_zero",
        lambda x: torch.pow(x, torch.tensor([2.0, 0.0])),
        [0.0, 0.0],
        [0.0, 0.0],
    ),
    ("std_of_constant", lambda x: x.std(), [1.0, 1.0], [0.0, 0.0]),
    ("prod_two_zeros", lambda x: x.prod(), [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]),
    ("prod_one_zero", lambda x: x.prod(), [0.0, 3.0, 2.0], [6.0, 0.0, 0.0]),
    ("sign_at_zero", lambda x: x.sign(), [0.0, 3.0], [0.0, 0.0]),
    ("sigmoid_saturated", lambda x: x.sigmoid(), [-100.0, 100.0], [0.0, 0.0]),
    ("tanh_saturated", lambda x: x.tanh(), [-100.0, 100.0], [0.0, 0.0]),
    ("logsumexp_with_minus_inf", lambda x: x.logsumexp(0), [-INF, 0.0], [0.0, 1.0]),
    ("softmax_with_minus_inf", lambda x: x.softmax(0), [-INF, 0.0], [0.0, 0.0]),
    ("exp_overflow", lambda x: x.exp(), [1000.0], [INF]),
    ("reciprocal_at_zero", lambda x: 1 / x, [0.0], [-INF]),
]


@pytest.mark.parametrize("name, fn, values, expected", CASES, ids=[c[0] for c in CASES])
def test_gradient_at_special_points(name, fn, values, expected):
    x = torch.tensor(values, requires_grad=True)
    fn(x).sum().backward()
    got = x.grad.tolist()
    flat = lambda v: [w for row in v for w in row] if isinstance(v[0], list) else v
    for g, e in zip(flat(got), flat(expected)):
        assert (math.isnan(g) and math.isnan(e)) or g == e, (got, expected)


def test_prod_with_two_zeros_has_the_right_second_derivative():
    # d2/dx0 dx1 of x0*x1*x2 is x2, also when x0 == x1 == 0 (torch gets 0 here: #106789)
    x = torch.tensor([0.0, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(x.prod(), x, create_graph=True)
    (h,) = torch.autograd.grad(g[0], x)
    assert h.tolist() == [0.0, 2.0, 0.0]

"""Corners where numtorch once differed from torch: saved operands inside lists, checkpoint
recomputation, NaN and zero conventions of the min/max family, degenerate shapes and the
exception types raised at the op boundary. Each expectation is torch 2.13's behaviour."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch as torch
import numtorch.nn as nn
import numtorch.nn.functional as F
from numtorch.utils.checkpoint import checkpoint

NAN = math.nan
MODIFIED = "modified by an inplace operation"


def _leaf(values):
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)


def _grads(fn, *values):
    xs = [_leaf(v) for v in values]
    return [g.tolist() for g in torch.autograd.grad(fn(*xs).sum(), xs)]


def _second_order(fn, *values):
    xs = [_leaf(v) for v in values]
    gs = torch.autograd.grad(fn(*xs).sum(), xs, create_graph=True)
    total = sum((g * g).sum() for g in gs if g.requires_grad)
    return [g.tolist() for g in torch.autograd.grad(total, xs, allow_unused=True)]


def _same(actual, expected):
    np.testing.assert_array_equal(np.array(actual, dtype=float), np.array(expected, dtype=float))


# -- saved tensors inside lists ----------------------------------------------------------------
def test_einsum_operand_modified_in_place_fails_backward():
    a = torch.randn(2, 3, requires_grad=True)
    b = torch.randn(3, 4)
    y = torch.einsum("ij,jk->ik", a, b)
    b.mul_(2)
    with pytest.raises(RuntimeError, match=MODIFIED):
        y.sum().backward()


def test_bilinear_input_modified_in_place_fails_backward():
    x1 = torch.randn(2, 3, requires_grad=True)
    x2 = torch.randn(2, 4)
    w = torch.randn(5, 3, 4, requires_grad=True)
    y = F.bilinear(x1, x2, w)
    x2.add_(1)
    with pytest.raises(RuntimeError, match=MODIFIED):
        y.sum().backward()


def test_einsum_operands_are_freed_after_backward():
    a = torch.randn(2, 3, requires_grad=True)
    y = torch.einsum("ij,jk->ik", a, torch.randn(3, 4))
    y.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.sum().backward()


# -- checkpoint --------------------------------------------------------------------------------
def test_checkpoint_recomputes_once_per_backward():
    torch.manual_seed(0)
    block = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Tanh())
    y = checkpoint(block, torch.ones(5, 3, requires_grad=True), use_reentrant=False)
    assert int(block[1].num_batches_tracked) == 1
    y.sum().backward(retain_graph=True)
    assert int(block[1].num_batches_tracked) == 2
    y.sum().backward()
    assert int(block[1].num_batches_tracked) == 3


def test_checkpoint_recomputes_once_per_order_of_differentiation():
    calls = []

    def block(t):
        calls.append(1)
        return (t.sin() * t.exp()).cos()

    x = torch.ones(3, requires_grad=True)
    (g,) = torch.autograd.grad(
        checkpoint(block, x, use_reentrant=False).sum(), x, create_graph=True
    )
    assert len(calls) == 2
    g.sum().backward()
    assert len(calls) == 3


# -- angles, signs and the min/max family at NaN and zero ----------------------------------
def test_atan2_gradient_at_origin_is_zero():
    _same(_grads(torch.atan2, [0.0, 0.0, 1.0], [0.0, -0.0, 0.0]), [[0, -0.0, 0], [-0.0, -0.0, -1]])
    _same(_second_order(torch.atan2, [0.0, 1.0], [0.0, 1.0]), [[NAN, -0.5], [NAN, -0.5]])


_A = [1.0, NAN, NAN, 2.0, 3.0, NAN]
_B = [NAN, 1.0, NAN, 2.0, 1.0, 0.0]


def test_maximum_minimum_pass_the_gradient_to_both_sides_of_a_nan():
    _same(_grads(torch.maximum, _A, _B), [[1, 1, 1, 0.5, 1, 1], [1, 1, 1, 0.5, 0, 1]])
    _same(_grads(torch.minimum, _A, _B), [[1, 1, 1, 0.5, 0, 1], [1, 1, 1, 0.5, 1, 1]])
    square = lambda a, b: torch.maximum(a, b) ** 2
    _same(_second_order(square, _A, _B)[0], [NAN, NAN, NAN, 4, 24, NAN])


def test_fmax_fmin_gradient_goes_to_the_non_nan_side():
    _same(_grads(torch.fmax, _A, _B), [[1, 0, 1, 1, 1, 0], [0, 1, 0, 0, 0, 1]])
    _same(_grads(torch.fmin, _A, _B), [[1, 0, 1, 1, 0, 0], [0, 1, 0, 0, 1, 1]])


_M = [[1.0, NAN, 3.0], [2.0, 2.0, 1.0], [NAN, NAN, 0.0]]


def test_amax_amin_aminmax_gradient_is_nan_over_a_nan_slice():
    # scale_grad_by_count: no element equals a NaN result, so 0 / 0
    _same(_grads(lambda x: x.amax(1), _M), [[[NAN] * 3, [0.5, 0.5, 0], [NAN] * 3]])
    _same(_grads(lambda x: x.amin(1), _M), [[[NAN] * 3, [0, 0, 1], [NAN] * 3]])
    _same(_grads(lambda x: x.amax(), _M), [[[NAN] * 3] * 3])
    _same(_grads(lambda x: sum(x.aminmax(dim=1)), _M), [[[NAN] * 3, [0.5, 0.5, 1], [NAN] * 3]])


def test_max_min_share_the_gradient_among_nans():
    third = 1 / 3
    expected = [[[0, third, 0], [0, 0, 0], [third, third, 0]]]
    _same(_grads(lambda x: x.max(), _M), expected)
    _same(_grads(lambda x: x.min(), _M), expected)
    _same(_grads(lambda x: x.max(1).values, _M), [[[0, 1, 0], [1, 0, 0], [1, 0, 0]]])
    _same(_grads(lambda x: x.min(1).values, _M), [[[0, 1, 0], [0, 0, 1], [1, 0, 0]]])


def test_relu_and_threshold_pass_nan_and_its_gradient():
    x = _leaf(_M)
    y = F.threshold(x, 1.5, -1.0)
    _same(y.tolist(), [[-1, NAN, 3], [2, 2, -1], [NAN, NAN, -1]])
    _same(torch.autograd.grad(y.sum(), x)[0].tolist(), [[0, 1, 1], [1, 1, 0], [1, 1, 0]])
    _same(_grads(torch.relu, _M), [[[1, 1, 1], [1, 1, 1], [1, 1, 0]]])


def test_sign_of_nan_is_zero():
    _same(torch.sign(torch.tensor([NAN, 0.0, -0.0, 2.0])).tolist(), [0, 0, 0, 1])
    _same(torch.sgn(torch.tensor([NAN, -2.0])).tolist(), [0, -1])
    _same(_grads(torch.abs, [NAN, -2.0]), [[0, -1]])


def test_copysign_at_nan_and_signed_zeros():
    c = [NAN, 1.0, -0.0, 0.0, 2.0, -3.0, 0.0]
    d = [1.0, NAN, -1.0, -0.0, 0.0, -0.0, NAN]
    out = torch.copysign(torch.tensor(c, dtype=torch.float64), torch.tensor(d)).tolist()
    _same(out, [NAN, 1, -0.0, -0.0, 2, -3, 0])
    assert [math.copysign(1, v) for v in out[2:4]] == [-1, -1]
    _same(_grads(torch.copysign, c, d), [[NAN, 1, 0, 0, 1, 1, 0], [0] * 7])
    # torch differentiates result / input masked at input == 0: NaN there in second order
    product = lambda a, b: torch.copysign(a, b) * a
    _same(_second_order(product, c, d)[0], [NAN, 8, NAN, NAN, 16, -24, NAN])


# -- variance without degrees of freedom -------------------------------------------------------
@pytest.mark.parametrize(
    "fn",
    [lambda x: x.var(), lambda x: x.var(0), lambda x: torch.var_mean(x)[0], lambda x: x.std()],
    ids=["var", "var_dim", "var_mean", "std"],
)
def test_variance_of_one_element_has_nan_gradient(fn):
    _same(_grads(fn, [1.5]), [[NAN]])


def test_variance_past_its_degrees_of_freedom():
    # torch divides by max(0, n - correction): inf (NaN at a zero deviation)
    x = _leaf([1.0, 2.0])
    assert x.var(correction=3).item() == math.inf
    assert torch.tensor([1.0, 1.0]).var(correction=2).isnan().item()
    (g,) = torch.autograd.grad(x.var(correction=2), x)
    _same(g.tolist(), [math.inf, math.inf])
    _same(_grads(lambda t: t.std(correction=3), [1.0, 2.0]), [[NAN, NAN]])


# -- in-place writes through views -------------------------------------------------------------
def test_second_order_through_an_in_place_op_on_a_view():
    x = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64, requires_grad=True)
    y = x * 2
    y[1].exp_()
    (g,) = torch.autograd.grad(y.sin().sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sin().sum(), x)
    # d/dx sin(sin(d/dx sum sin(y))) by hand: y = (2x0, exp(2x1), 2x2)
    y1 = math.exp(0.4)
    first = [2 * math.cos(0.2), 2 * y1 * math.cos(y1), 2 * math.cos(0.6)]
    second = [-4 * math.sin(0.2), 4 * y1 * (math.cos(y1) - y1 * math.sin(y1)), -4 * math.sin(0.6)]
    expected = [math.cos(f) * s for f, s in zip(first, second)]
    np.testing.assert_allclose(gg.numpy(), expected, rtol=1e-12)


def test_expand_that_repeats_nothing_is_writable():
    for shape in [(1, 3), (3, 1)]:
        x = torch.arange(3.0)
        view = x.unsqueeze(0 if shape[0] == 1 else 1).expand(*shape)
        view.flatten().exp_()
        np.testing.assert_allclose(x.numpy(), np.exp(np.arange(3.0)), rtol=1e-6)
    with pytest.raises(RuntimeError, match="single memory location"):
        torch.arange(3.0).unsqueeze(0).expand(2, 3).exp_()


# -- empty tensors -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "shapes",
    [((4, 2, 0), (0, 3)), ((4, 2, 0), (0,)), ((2, 0, 0), (0, 0)), ((2, 0), (0, 3)), ((0,), (0,))],
)
def test_matmul_with_inner_size_zero_gives_zeros(shapes):
    a, b = (torch.ones(s, dtype=torch.float64, requires_grad=True) for s in shapes)
    y = a @ b
    assert not y.detach().numpy().any()
    ga, gb = torch.autograd.grad(y.sum(), [a, b])
    assert ga.shape == a.shape and gb.shape == b.shape


@pytest.mark.parametrize("batch", [(), (5,), (5, 2)])
def test_linear_with_no_input_features_gives_the_bias(batch):
    x = torch.ones(*batch, 0, dtype=torch.float64, requires_grad=True)
    w = torch.ones(3, 0, dtype=torch.float64, requires_grad=True)
    b = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    y = F.linear(x, w, b)
    assert tuple(y.shape) == (*batch, 3)
    _same(y.reshape(-1, 3)[0].tolist(), [1, 2, 3])
    gx, gw, gb = torch.autograd.grad(y.sum(), [x, w, b])
    assert gx.shape == x.shape and gw.shape == w.shape
    _same(gb.tolist(), [math.prod(batch)] * 3)


def test_empty_leaf_through_cat_gets_an_empty_gradient():
    a = torch.ones(0, requires_grad=True)
    b = torch.ones(2, requires_grad=True)
    torch.cat([a, b]).sum().backward()
    assert a.grad is not None and a.grad.shape == (0,) and a.grad.dtype == a.dtype


def test_inner_contracts_the_last_dims():
    a = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
    b = torch.randn(5, 4, dtype=torch.float64, requires_grad=True)
    y = torch.inner(a, b)
    np.testing.assert_allclose(y.detach().numpy(), np.inner(a.detach().numpy(), b.detach().numpy()))
    assert type(y.grad_fn).__name__ == "ViewBackward0"
    assert torch.inner(torch.ones(2, 4), torch.tensor(2.0)).shape == (2, 4)
    with pytest.raises(RuntimeError, match="last dimension must match"):
        torch.inner(torch.ones(2, 4), torch.ones(3))


def test_gather_with_an_empty_index():
    x = torch.ones(2, 3, requires_grad=True)
    y = torch.gather(x, 0, torch.zeros(0, dtype=torch.long))
    assert y.shape == (0,)
    y.sum().backward()
    _same(x.grad.tolist(), [[0] * 3] * 2)
    assert torch.gather(torch.ones(2, 3), 1, torch.zeros(2, 0, dtype=torch.long)).shape == (2, 0)


@pytest.mark.parametrize(
    "op",
    [
        lambda x, i, s: x.scatter_add(0, i, s),
        lambda x, i, s: x.scatter(0, i, s),
        lambda x, i, s: x.scatter(0, i, 1.0),
        lambda x, i, s: x.scatter_reduce(0, i, s, "amax", include_self=False),
    ],
    ids=["scatter_add", "scatter", "scatter_value", "scatter_reduce"],
)
def test_scatter_with_an_empty_index_writes_nothing(op):
    x = torch.zeros(2, 3, requires_grad=True)
    y = op(x, torch.zeros(0, dtype=torch.long), torch.ones(0))
    assert y.shape == (2, 3) and not y.detach().numpy().any()
    (g,) = torch.autograd.grad(y.sum(), x)
    _same(g.tolist(), [[1] * 3] * 2)

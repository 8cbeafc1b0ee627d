"""Gradients of layer_norm and group_norm as torch's formulas give them: the folded form
dx = rstd weight dy + b x + c (which elements turn NaN where a weight is infinite), the
saved statistics in group_norm's create_graph formulas (its weight gradient requires grad
through them), and an empty group (NaN statistics reach the weight gradient)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

X = [[[0.3, -1.2, 0.5], [0.7, 2.0, 0.1], [1.1, 0.4, 0.2], [-0.5, 0.9, 0.3]]] * 2


def _grads(lib, fn, weight, create_graph, input_grad=True):
    x = lib.tensor(X, dtype=lib.float64, requires_grad=input_grad)
    w = lib.tensor(weight, dtype=lib.float64, requires_grad=True)
    out = fn(lib, x, w)
    scale = lib.linspace(-1.0, 2.0, out.numel(), dtype=lib.float64).reshape(out.shape)
    leaves = [x, w] if input_grad else [w]
    grads = lib.autograd.grad((out * scale).sum(), leaves, create_graph=create_graph)
    return [(g.detach().numpy(), g.requires_grad) for g in grads]


def _group_norm(lib, x, w):
    return lib.nn.functional.group_norm(x, 2, w)


def _layer_norm(lib, x, w):
    return lib.nn.functional.layer_norm(x, [4, 3], w.reshape(4, 1).expand(4, 3))


@pytest.mark.parametrize("fn", [_group_norm, _layer_norm], ids=["group_norm", "layer_norm"])
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("special", [2.0, math.inf, -math.inf, math.nan])
def test_input_gradient_with_a_non_finite_weight_matches_torch(fn, create_graph, special):
    weight = [1.0, special, 3.0, 0.5]
    ours, theirs = (_grads(lib, fn, weight, create_graph) for lib in (numtorch, torch))
    for (a, a_grad), (b, b_grad) in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
        assert a_grad == b_grad


def test_group_norm_weight_gradient_requires_grad_through_the_statistics():
    # only the weight requires grad: torch's formula reads the node's mean and rstd outputs
    ours, theirs = (
        _grads(lib, _group_norm, [1, 2, 3, 4], True, False) for lib in (numtorch, torch)
    )
    np.testing.assert_allclose(ours[0][0], theirs[0][0], rtol=1e-10)
    assert ours[0][1] is theirs[0][1] is True


def test_group_norm_second_order_through_its_statistics_matches_torch():
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor(X, dtype=lib.float64, requires_grad=True)
        w = lib.tensor([1.0, 2.0, 3.0, 4.0], dtype=lib.float64, requires_grad=True)
        out, mean, rstd = lib.native_group_norm(x, w, None, 2, 4, 3, 2, 1e-5)
        loss = (out * out).sum() + (mean * rstd).sum()
        gx, gw = lib.autograd.grad(loss, [x, w], create_graph=True)
        results.append(
            [t.detach().numpy() for t in lib.autograd.grad((gx * gx).sum() + gw.sum(), [x, w])]
        )
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-9)


def test_group_norm_over_empty_groups_gives_nan_weight_gradients():
    for lib in (numtorch, torch):
        w = lib.ones(4, dtype=lib.float64, requires_grad=True)
        out = lib.nn.functional.group_norm(lib.zeros(2, 4, 0, dtype=lib.float64), 2, w)
        (g,) = lib.autograd.grad(out.sum(), w)
        assert np.isnan(g.numpy()).all()


@pytest.mark.parametrize("huge", [1e308, -1e308])
def test_layer_norm_input_gradient_overflows_where_torchs_kernel_does(huge):
    # torch sums dy * x * weight and dy * weight: dy * weight overflows to inf where
    # dy * x * weight does not, and b, c and dx follow from those sums in its order
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor([[0.9046, -0.5464, 0.3349], [1.4651, -0.6713, 0.1419]], requires_grad=True)
        w = lib.tensor([1.0, 2.0, huge], dtype=lib.float64, requires_grad=True)
        y = lib.nn.functional.layer_norm(x.double(), (3,), w)
        dy = lib.tensor([[1.0, 2.0, -3.0], [0.5, -1.0, 2.0]], dtype=lib.float64)
        results.append(lib.autograd.grad(y, x, dy)[0].numpy())
    np.testing.assert_allclose(*results, rtol=1e-10)


@pytest.mark.parametrize("value", [0.1, -96531.49533666])
@pytest.mark.parametrize("op", ["group", "layer"])
def test_norm_of_equal_values_is_exactly_zero(op, value):
    # torch's row moments run Welford's recurrence, whose mean of equal values is that value
    # exactly: every normalized element is 0 (a mean taken as sum / n leaves noise)
    results = []
    for lib in (numtorch, torch):
        x = lib.full((2, 4, 3), value, dtype=lib.float64)
        if op == "group":
            out = lib.native_group_norm(x, None, None, 2, 4, 3, 2, 1e-5)
        else:
            out = lib.native_layer_norm(x, [4, 3], None, None, 1e-5)
        results.append([t.numpy() for t in out])
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("op", ["group", "layer"])
def test_norm_of_signed_zeros_takes_torchs_zero_signs(op):
    # Welford's mean of a row of zeros is +0.0 whatever their signs, and the folded affine
    # map x * scale + (-scale * mean + bias) then gives +0.0 for a -0.0 weight and bias
    x = np.zeros((2, 4, 2), dtype=np.float32)
    x.reshape(-1)[[0, 1, 5, 6, 7, 11, 12]] = -0.0
    w = np.array([0.0, 0.0, -0.0, 0.0], dtype=np.float32)
    results = []
    for lib in (numtorch, torch):
        xs, ws = lib.tensor(x), lib.tensor(w)
        if op == "group":
            out = lib.nn.functional.group_norm(xs, 2, ws, ws)
        else:
            out = lib.native_layer_norm(xs, [2], ws[2:], ws[2:], 1e-5)[0]
        results.append(out.numpy())
    ours, theirs = results
    np.testing.assert_array_equal(ours, theirs)
    assert (np.signbit(ours) == np.signbit(theirs)).all()


@pytest.mark.parametrize("special", [-math.inf, math.nan, 1e30])
def test_layer_norm_second_order_with_a_non_finite_weight_matches_torch(special):
    # torch differentiates layer norm's gradients by its own formula, term by term (gO times
    # gamma first): an infinite weight gives its infinities and NaN where the vector-Jacobian
    # product of the composite gradient gives others
    rng = np.random.default_rng(3)
    x, w, b = rng.standard_normal((2, 2, 3)), rng.standard_normal((2, 3)), rng.standard_normal(3)
    w[0, 1] = special
    weights, again = rng.standard_normal((2, 2, 2, 3))
    results = []
    for lib in (numtorch, torch):
        xs = lib.tensor(x, requires_grad=True)
        bs = lib.tensor(b, requires_grad=True)
        out = lib.native_layer_norm(xs, [2, 3], lib.tensor(w), bs.expand(2, 3), 1e-5)[0]
        loss = (out * lib.tensor(weights)).sum()
        gx, gb = lib.autograd.grad(loss, (xs, bs), create_graph=True)
        second = lib.autograd.grad((gx * lib.tensor(again)).sum(), (xs, bs), allow_unused=True)
        results.append([None if g is None else g.detach().numpy() for g in (gx, *second)])
    for ours, theirs in zip(*results):
        assert (ours is None) == (theirs is None)
        if ours is not None:
            np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("value", [120.558014, 3.3, 0.1])
def test_layer_norm_weight_gradient_of_equal_values_keeps_torchs_fused_rounding(dtype, value):
    # torch's kernel forms x^ as fma(rstd, x, -rstd * mean): a row of equal values leaves
    # the rounding error of rstd * mean (5e-4 at 120.558 in float32), which the weight's
    # gradient sums, where (x - mean) * rstd is exactly 0

    def run(lib):
        x = lib.full((2, 3), value, dtype=getattr(lib, dtype), requires_grad=True)
        w = lib.tensor([0.06, -0.92, 0.035], dtype=getattr(lib, dtype), requires_grad=True)
        out = lib.nn.functional.layer_norm(x, (3,), w, None)
        weights = lib.arange(1.0, 7.0, dtype=getattr(lib, dtype)).reshape(2, 3)
        (grad,) = lib.autograd.grad((out * weights).sum(), w)
        return grad.numpy()

    np.testing.assert_array_equal(run(numtorch), run(torch))

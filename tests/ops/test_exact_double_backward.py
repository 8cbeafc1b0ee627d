"""Corners the differential fuzzer found in random op graphs: derivatives torch declines to take
twice (their backward nodes have no derivative). Each is checked against torch where it is
installed, and by finite differences."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch
from numtorch.autograd import gradcheck


@pytest.mark.parametrize("p", [1.0, 2.0, 3.0, 0.5, math.inf])
def test_cdist_backward_is_not_differentiable_again(p):
    # torch runs cdist's backward as _cdist_backward, which has no derivative
    a = numtorch.tensor(np.arange(12.0).reshape(4, 3) / 7, requires_grad=True)
    b = numtorch.tensor(np.arange(6.0).reshape(2, 3) / 5, requires_grad=True)
    ga, gb = numtorch.autograd.grad(numtorch.cdist(a, b, p).sum(), (a, b), create_graph=True)
    assert type(ga.grad_fn).__name__ == type(gb.grad_fn).__name__ == "CdistBackwardBackward0"
    with pytest.raises(NotImplementedError, match="'_cdist_backward' is not implemented"):
        numtorch.autograd.grad(ga.sum(), a)
    assert gradcheck(lambda a, b: numtorch.cdist(a, b, p), (a, b))


def test_cdist_backward_broadcasts_over_batches():
    a = numtorch.tensor(np.arange(24.0).reshape(2, 4, 3) / 7, requires_grad=True)
    b = numtorch.tensor(np.arange(6.0).reshape(2, 3) / 5, requires_grad=True)
    assert gradcheck(lambda a, b: numtorch.cdist(a, b, 3.0), (a, b))


def test_standard_gamma_grad_has_no_derivative():
    alpha = numtorch.tensor([1.5, 2.0], dtype=numtorch.float64, requires_grad=True)
    draws = numtorch._standard_gamma(alpha)
    (g,) = numtorch.autograd.grad(draws.sum(), alpha, create_graph=True)
    with pytest.raises(NotImplementedError, match="'_standard_gamma_grad' is not implemented"):
        numtorch.autograd.grad(g.sum(), alpha)


def test_ctc_loss_gradient_is_not_differentiable_again():
    log_probs = numtorch.randn(5, 2, 4, dtype=numtorch.float64).log_softmax(2)
    log_probs.requires_grad_()
    targets, lengths = numtorch.tensor([[1, 2], [1, 1]]), numtorch.tensor([5, 5])
    loss = numtorch.nn.functional.ctc_loss(log_probs, targets, lengths, numtorch.tensor([2, 2]))
    (g,) = numtorch.autograd.grad(loss, log_probs, create_graph=True)
    assert type(g.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="aten::_ctc_loss_backward is not implemented"):
        numtorch.autograd.grad(g.sum(), log_probs)


def _embedding_bag_second_order(lib, mode, weighted):
    weight = lib.ones(5, 3, dtype=lib.float64, requires_grad=True)
    indices, offsets = lib.tensor([1, 2, 4, 4, 3, 0, 1]), lib.tensor([0, 2, 2, 5])
    scales = lib.ones(7, dtype=lib.float64, requires_grad=True) if weighted else None
    out = lib.nn.functional.embedding_bag(
        indices, weight, offsets, mode=mode, per_sample_weights=scales
    )
    leaves = [weight] + ([scales] if weighted else [])
    grads = lib.autograd.grad((out * out).sum(), leaves, create_graph=True)
    names = [type(g.grad_fn).__name__ for g in grads]
    with pytest.raises((RuntimeError, NotImplementedError)) as error:
        lib.autograd.grad(sum(g.sum() for g in grads), leaves)
    return names, type(error.value).__name__, str(error.value)


@pytest.mark.parametrize("mode, weighted", [("sum", False), ("sum", True), ("max", False)])
def test_embedding_bag_gradients_are_not_differentiable_again(mode, weighted):
    ours = _embedding_bag_second_order(numtorch, mode, weighted)
    assert ours[0][0] == "EmbeddingBagBackwardBackward0"
    torch = pytest.importorskip("torch")
    assert ours == _embedding_bag_second_order(torch, mode, weighted)


def test_not_implemented_node_runs_before_other_nodes_that_raise():
    # torch's NotImplemented node has no sequence number (the largest): a second order that
    # reaches both it and cdist's double backward raises hardsigmoid's RuntimeError first
    a = numtorch.tensor(np.arange(12.0).reshape(4, 3) / 7, requires_grad=True)
    b = numtorch.tensor(np.arange(6.0).reshape(2, 3) / 5, requires_grad=True)
    c = numtorch.tensor([0.5, -1.0, 2.0], dtype=numtorch.float64, requires_grad=True)
    loss = numtorch.cdist(a, b).sum() + numtorch.nn.functional.hardsigmoid(c).sum()
    grads = numtorch.autograd.grad(loss, (a, b, c), create_graph=True)
    with pytest.raises(RuntimeError, match="derivative for aten::hardsigmoid_backward"):
        numtorch.autograd.grad(sum((g * g).sum() for g in grads), (a, b, c))


def _attention_after_embedding_bag_second_order(lib):
    rng = np.random.default_rng(0)
    weight = lib.tensor(rng.standard_normal((5, 4)), requires_grad=True)
    indices = lib.tensor(np.array([0, 2, 4, 1]))
    bags = lib.nn.functional.embedding_bag(indices, weight, lib.tensor(np.array([0, 2])))
    key = lib.tensor(rng.standard_normal((1, 1, 3, 4)), requires_grad=True)
    value = lib.tensor(rng.standard_normal((1, 1, 3, 4)), requires_grad=True)
    out = lib.nn.functional.scaled_dot_product_attention(bags.reshape(1, 1, 2, 4), key, value)
    grads = lib.autograd.grad(out.sum(), (weight, key, value), create_graph=True)
    shared = grads[1].grad_fn is grads[2].grad_fn
    with pytest.raises((RuntimeError, NotImplementedError)) as error:
        lib.autograd.grad(sum(g.sum() for g in grads), (weight, key, value))
    return shared, type(error.value).__name__, str(error.value)


def test_attention_gradients_come_from_one_node_that_waits_for_all_three():
    # torch's flash attention backward is one op: its NotImplemented node, first by sequence
    # number, still runs only once the embedding bag's node (which raises) has passed on the
    # query's gradient
    ours = _attention_after_embedding_bag_second_order(numtorch)
    assert ours[:2] == (True, "NotImplementedError")
    torch = pytest.importorskip("torch")
    assert ours == _attention_after_embedding_bag_second_order(torch)


def _second_order_through_a_gradient_of_none(lib):
    # grid_sample's nearest mode passes no gradient back to its output's gradient: the
    # NotImplemented node of multi_margin_loss's backward gets None only
    rng = np.random.default_rng(0)
    x = lib.tensor(rng.standard_normal((1, 1, 3, 3)))
    grid = lib.tensor(rng.uniform(-1, 1, (1, 1, 4, 2)), requires_grad=True)
    y = lib.nn.functional.grid_sample(x, grid, mode="nearest", align_corners=False)
    loss = lib.nn.functional.multi_margin_loss(y.reshape(1, 4).expand(3, 4), lib.tensor([0, 3, 1]))
    (g,) = lib.autograd.grad(loss, grid, create_graph=True)
    with pytest.raises(RuntimeError) as error:
        lib.autograd.grad(g.sum(), grid, allow_unused=True)
    return str(error.value)


def test_not_implemented_node_raises_even_when_no_gradient_reaches_it():
    # torch's engine runs every node it walks, with undefined gradients where none arrived
    ours = _second_order_through_a_gradient_of_none(numtorch)
    assert ours == "derivative for aten::multi_margin_loss_backward is not implemented"
    torch = pytest.importorskip("torch")
    assert ours == _second_order_through_a_gradient_of_none(torch)


def _refusal_without_a_gradient(lib, name):
    class Drop(lib.autograd.Function):  # passes no gradient back
        @staticmethod
        def forward(ctx, a):
            return a.clone()

        @staticmethod
        def backward(ctx, grad):
            return None

    rng = np.random.default_rng(0)
    a = lib.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    b = lib.tensor(rng.standard_normal((2, 3)))
    loss = {
        "cdist": lambda: lib.cdist(a, b).sum(),
        "pdist": lambda: lib.nn.functional.pdist(a).sum(),
        "embedding_bag": lambda: (
            lib.nn.functional.embedding_bag(lib.tensor([0, 2, 3, 1]), a, lib.tensor([0, 2]))
            .pow(2)
            .sum()
        ),
        "hardsigmoid": lambda: lib.nn.functional.hardsigmoid(a).sum(),
    }[name]()
    (g,) = lib.autograd.grad(loss, a, create_graph=True)
    with pytest.raises((RuntimeError, NotImplementedError)) as error:
        lib.autograd.grad(Drop.apply(g).sum() + a.sum(), a)
    return type(error.value).__name__, str(error.value)


@pytest.mark.parametrize("name", ["cdist", "pdist", "embedding_bag", "hardsigmoid"])
def test_nodes_that_refuse_raise_even_when_no_gradient_reaches_them(name):
    # torch's not_implemented formulas raise whatever gradient their node gets
    ours = _refusal_without_a_gradient(numtorch, name)
    torch = pytest.importorskip("torch")
    assert ours == _refusal_without_a_gradient(torch, name)

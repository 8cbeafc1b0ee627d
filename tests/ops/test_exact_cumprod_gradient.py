"""cumprod's gradient as torch computes it around zeros: terms past a slice's first zero are
masked out before summing (an infinite gradient there times 0 would be NaN), the first
zero's own sum is taken then multiplied by the product before it, and an empty or
one-element input passes the gradient through unchanged."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch

INF = math.inf


def _grad(lib, x, w, dim, **kwargs):
    a = lib.tensor(x, requires_grad=True)
    (g,) = lib.autograd.grad((a.cumprod(dim) * lib.tensor(w)).sum(), a, **kwargs)
    return g


def test_gradient_past_the_first_zero_is_masked_before_summing():
    g = _grad(numtorch, [[0.5, -INF, 0.0, 1.0, 2.0]], [[INF, 1.0, 1.0, 1.0, -2.0]], 1)
    # at the zero: (1 + 1 - 4) * (0.5 * -inf) = inf, where summing products gives NaN
    assert g[0, 2] == INF and g[0, 3:].tolist() == [0.0, 0.0]


def test_an_empty_input_passes_the_gradient_through():
    a = numtorch.empty(2, 0, dtype=numtorch.float64, requires_grad=True)
    (g,) = numtorch.autograd.grad(a.cumprod(1).sum(), a, create_graph=True)
    assert g.shape == (2, 0) and not g.requires_grad


def test_gradients_with_zeros_and_infinities_match_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    values = [0.0, 1.0, 2.0, -1.0, 0.5, INF, -INF, math.nan, 3.0]
    chances = [0.2, 0.15, 0.15, 0.1, 0.1, 0.08, 0.07, 0.05, 0.1]
    for trial in range(100):
        x = rng.choice(values, size=(3, 4, 2), p=chances)
        w = rng.choice([1.0, -2.0, 0.5, INF, 0.0], size=x.shape, p=[0.3, 0.3, 0.2, 0.1, 0.1])
        with np.errstate(all="ignore"):
            ours = _grad(numtorch, x, w, trial % 3)
        np.testing.assert_allclose(ours.numpy(), _grad(torch, x, w, trial % 3).numpy())


@pytest.mark.parametrize("seed", range(40))
def test_second_order_with_zeros_and_nonfinite_values_matches_torch(seed):
    # under create_graph torch sums prod(x before k) * cumprod(x after k) slice by slice:
    # its derivative meets zeros, infinities and NaN in that order
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(seed)
    shape = [(3, 2), (4,), (2, 3, 3), (5,)][seed % 4]
    x = rng.standard_normal(shape)
    mark = rng.random(shape)
    x[mark < 0.3] = 0.0
    odd = (mark > 0.3) & (mark < 0.4)
    x[odd] = rng.choice([math.nan, INF, -INF, -0.0], size=int(odd.sum()))
    w = rng.standard_normal(shape)
    dim = seed % len(shape)
    results = []
    for lib in (numtorch, torch):
        a = lib.tensor(x, requires_grad=True)
        (g,) = lib.autograd.grad((a.cumprod(dim) * lib.tensor(w)).sum(), a, create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), a)
        results.append((g.detach().numpy(), gg.numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12, equal_nan=True)


def _cumprod_gradient_graph(lib):
    x = lib.tensor([[2.0, 0.0, 3.0], [0.5, 1.5, 0.0]], dtype=lib.float64, requires_grad=True)
    w = lib.linspace(-1, 1, 6, dtype=lib.float64).reshape(2, 3)
    (grad,) = lib.autograd.grad(lib.cumprod(x, 1), x, w, create_graph=True)
    (second,) = lib.autograd.grad((grad * grad).sum(), x)
    seen, todo = [], [grad.grad_fn]
    while todo:
        node = todo.pop()
        if node is not None:
            seen.append(type(node).__name__)
            todo.extend(f for f, _ in node.next_functions)
    return sorted(seen), grad.detach().numpy().copy(), second.numpy().copy()


def test_cumprod_gradient_of_an_input_with_zeros_copies_each_column_into_zeros():
    # with a zero in the input, create_graph runs torch's O(n^2) form, which copies each
    # column of the gradient into a zero tensor (CopySlices), not a cat of the columns
    ours = _cumprod_gradient_graph(numtorch)
    assert ours[0].count("CopySlices") == 3 and ours[0].count("CatBackward0") == 2
    torch = pytest.importorskip("torch")
    theirs = _cumprod_gradient_graph(torch)
    assert ours[0] == theirs[0]
    for a, b in zip(ours[1:], theirs[1:]):
        np.testing.assert_allclose(a, b, rtol=1e-12)

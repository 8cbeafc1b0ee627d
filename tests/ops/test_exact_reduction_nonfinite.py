"""Gradients of reductions at non-finite points: full reductions that pick elements (max(),
min(), median()) when the incoming gradient is NaN or infinite: torch fills zeros and writes
the shared gradient only where the input equals the result, so the other elements get 0, not
NaN; a segment product over a NaN gives the NaN element the product of the others; the
nanmedian of a row of NaNs picks the index libstdc++'s nth_element leaves in front, and
kthvalue among ties the one torch's quickselect leaves at position k."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch


def _gradient(lib, reduce, values, incoming):
    x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
    getattr(x, reduce)().backward(lib.tensor(incoming, dtype=lib.float64))
    return x.grad.numpy().copy()


CASES = [
    ("max", [1.0, 5.0, 2.0], math.nan),
    ("min", [1.0, 5.0, 1.0], math.inf),
    ("max", [1.0, math.nan, 2.0], math.nan),
    ("median", [1.0, 5.0, 2.0], -math.inf),
    ("max", [[3.0, 7.0], [7.0, 0.0]], math.nan),
]


@pytest.mark.parametrize(("reduce", "values", "incoming"), CASES)
def test_a_nonfinite_gradient_reaches_only_the_picked_elements(reduce, values, incoming):
    grad = _gradient(numtorch, reduce, values, incoming)
    assert (grad[np.isfinite(grad)] == 0).all() and np.isfinite(grad).any()
    torch = pytest.importorskip("torch")
    np.testing.assert_array_equal(grad, _gradient(torch, reduce, values, incoming))


def test_the_gradient_through_an_infinite_maximum_matches_torch():
    def run(lib):
        x = lib.tensor([1.0, math.inf, 2.0], dtype=lib.float64, requires_grad=True)
        y = lib.hypot(lib.ones(3, dtype=lib.float64), x.max().expand(3))
        y.sum().backward()
        return x.grad.numpy().copy()

    grad = run(numtorch)
    assert grad[0] == 0 and grad[2] == 0
    torch = pytest.importorskip("torch")
    np.testing.assert_array_equal(grad, run(torch))


def test_a_segment_product_gives_a_nan_element_the_product_of_the_others():
    # result / value is NaN at the NaN: torch multiplies out the others there, as at a zero
    def run(lib):
        x = lib.tensor([[2.0, 1.0], [math.nan, 3.0], [0.5, 0.0]], requires_grad=True)
        y = lib.segment_reduce(x, "prod", lengths=lib.tensor([3]), initial=1.5)
        y.backward(lib.ones_like(y))
        return x.grad.numpy().copy()

    grad = run(numtorch)
    assert grad[1, 0] == 2.0 * 0.5 * 1.5 and grad[2, 1] == 1.0 * 3.0 * 1.5
    torch = pytest.importorskip("torch")
    np.testing.assert_array_equal(grad, run(torch))


@pytest.mark.parametrize("size", [3, 4, 7, 13, 40])
def test_nanmedian_of_an_all_nan_row_picks_torchs_index_and_sends_it_the_gradient(size):
    # two NaNs never compare less in torch's comparator: libstdc++'s nth_element decides
    def run(lib):
        x = lib.full((2, size), math.nan, dtype=lib.float64, requires_grad=True)
        values, indices = lib.nanmedian(x, 1)
        values.backward(lib.ones_like(values))
        return indices.tolist(), x.grad.numpy().copy()

    indices, grad = run(numtorch)
    assert grad.sum() == 2 and grad[0, indices[0]] == 1
    torch = pytest.importorskip("torch")
    expected = run(torch)
    assert indices == expected[0]
    np.testing.assert_array_equal(grad, expected[1])


@pytest.mark.parametrize(
    "row, k",
    [([0.0, -0.0, 0.0, 1.0], 2), ([2.0, 1.0, 1.0, 1.0, 1.0, 0.5], 3), ([math.nan] * 5, 4)],
)
def test_kthvalue_among_ties_picks_torchs_index_and_sends_it_the_gradient(row, k):
    # equal values (0 and -0, NaNs) are left in place by torch's quickselect's swaps
    def run(lib):
        x = lib.tensor([row], dtype=lib.float64, requires_grad=True)
        values, indices = lib.kthvalue(x, k, 1)
        values.backward(lib.ones_like(values))
        return indices.tolist(), x.grad.numpy().copy()

    torch = pytest.importorskip("torch")
    ours, theirs = run(numtorch), run(torch)
    assert ours[0] == theirs[0]
    np.testing.assert_array_equal(ours[1], theirs[1])


@pytest.mark.parametrize("shape_dim", [((5,), 0), ((2, 5), 1), ((5, 2), 0)], ids=str)
def test_kthvalue_among_signed_zeros_of_any_rank_gives_the_picked_elements_value(shape_dim):
    # a 1-D input's one row crashed the tie search (NumPy's nonzero of a 0-d mask), and the
    # value was the sorted one (-0.0) where torch gives the element at the index it picks
    shape, dim = shape_dim
    base = np.array([1.0, 0.0, -0.0, 2.0, 0.0])
    data = np.stack([base, base[::-1]], axis=dim) if len(shape) > 1 else base

    def run(lib):
        values, indices = lib.kthvalue(lib.tensor(data), 2, dim)
        return np.signbit(values.numpy()).tolist(), indices.tolist()

    torch = pytest.importorskip("torch")
    assert run(numtorch) == run(torch)


@pytest.mark.parametrize("create_graph", [False, True])
def test_prod_gradient_with_two_zeros_beside_an_inf(create_graph):
    # torch's prod backward returns zeros for two or more zeros outside create_graph (the
    # products of the others are all 0); under create_graph its cumulative products spread
    # the inf and NaN into NaN
    x = numtorch.tensor([1.07, 0.0, math.inf, 0.0, math.inf, math.nan], dtype=numtorch.float64)
    x.requires_grad_(True)
    (grad,) = numtorch.autograd.grad(x.reshape(2, 3).prod(), x, create_graph=create_graph)
    expected = np.full(6, math.nan) if create_graph else np.zeros(6)
    np.testing.assert_array_equal(grad.detach().numpy(), expected)

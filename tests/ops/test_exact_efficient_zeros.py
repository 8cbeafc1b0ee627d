"""The gradient of sgn on a real tensor is torch's efficient zero tensor: products with it
stay zeros whatever the other operand holds (0 * NaN and 0 * inf are 0 there), sums with it
are the other operand. Each case runs under numtorch and torch."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch
from numtorch.backend.zeros import EfficientZeros, efficient_zeros

W = [math.nan, math.inf]

CASES = {
    "leaf through sgn": lambda lib, x, w: (x * w).sgn(),
    "sgn beside another path": lambda lib, x, w: (x * w).sgn() + x.exp() * w,
    "sgn of a NaN square root": lambda lib, x, w: x.sqrt().sgn() + x,
    "then exp": lambda lib, x, w: x.sqrt().sgn().exp(),
    "then matmul": lambda lib, x, w: (x * w).sgn().matmul(lib.ones(2)),
    "in place": lambda lib, x, w: (x * w).sgn_(),
}


def _gradient(lib, case):
    x = lib.tensor([-1.0, 2.0], requires_grad=True)
    CASES[case](lib, x, lib.tensor(W)).sum().backward()
    return lib.zeros(2).add(x.grad).tolist()  # (torch's zero tensor has no values to list)


@pytest.mark.parametrize("case", sorted(CASES))
def test_sgn_gradient_absorbs_non_finite_factors(case):
    found = _gradient(numtorch, case)
    torch = pytest.importorskip("torch")
    np.testing.assert_array_equal(found, _gradient(torch, case))


def test_efficient_zeros_absorb_products_and_vanish_from_sums():
    zeros = efficient_zeros((2,), np.float64)
    other = np.array([math.nan, math.inf])
    with np.errstate(all="ignore"):
        for product in (zeros * other, other * zeros, zeros / other, zeros + zeros):
            assert isinstance(product, EfficientZeros) and not product.any()
        assert np.array_equal(zeros + other, other, equal_nan=True)
        signed = np.array([-0.0, 0.0])
        for total, expected in ((zeros + signed, signed), (signed - zeros, signed)):
            assert type(total) is np.ndarray and np.array_equal(
                np.signbit(total), np.signbit(expected)
            )
        # torch negates materialized zeros: -0.0 (so does zeros minus a +0.0)
        assert np.signbit(np.negative(zeros)).all() and np.signbit(zeros - np.zeros(2)).all()
        assert type(np.exp(zeros)) is np.ndarray  # other kernels read ordinary zeros
    assert isinstance(efficient_zeros((2, 3), np.float64).sum(0), EfficientZeros)


SIGNED = {
    "l1_loss": lambda lib, x, y: lib.nn.functional.l1_loss(x, y, reduction="sum"),
    "abs of a difference": lambda lib, x, y: (x - y).abs(),
    "pairwise_distance p=1": lambda lib, x, y: lib.nn.functional.pairwise_distance(x, y, p=1),
    "sgn times x": lambda lib, x, y: (x - y).sgn() * x,
}


def _second_order(lib, case):
    x = lib.tensor([[0.5, -1.0, 0.0], [2.0, 0.3, -0.0]], dtype=lib.float64, requires_grad=True)
    y = lib.tensor([[0.1, -1.0, 1.0], [-2.0, 0.3, 0.5]], dtype=lib.float64, requires_grad=True)
    out = SIGNED[case](lib, x, y)
    w = lib.linspace(-1, 1, out.numel(), dtype=out.dtype).reshape(out.shape)
    first = lib.autograd.grad((out * w).sum(), (x, y), create_graph=True)
    second = lib.autograd.grad(sum((g * g).sum() for g in first), (x, y), allow_unused=True)
    return [g.detach().numpy(force=True) for g in first + second if g is not None]


@pytest.mark.parametrize("case", sorted(SIGNED))
def test_zeros_through_a_subtraction_keep_torchs_signs(case):
    # sgn's zero gradient reaches ``y`` of ``x - y`` negated: torch's neg materializes it
    # (-0.0), and a sum with it keeps the other path's -0.0
    torch = pytest.importorskip("torch")
    for ours, theirs in zip(_second_order(numtorch, case), _second_order(torch, case)):
        np.testing.assert_array_equal(ours, theirs)
        np.testing.assert_array_equal(np.signbit(ours), np.signbit(theirs))


def _zero_grad_leaf(lib):
    x = lib.tensor([0.5, -1.0], requires_grad=True)
    y = lib.round(x.sgn())
    y.sum().backward(retain_graph=True)
    return x, y


@pytest.mark.parametrize(
    "change",
    [
        lambda x, y: x.grad.zero_(),
        lambda x, y: x.grad.add_(1.0),
        lambda x, y: x.grad.mul_(2),
        lambda x, y: x.grad.copy_(x.detach()),
        lambda x, y: y.sum().backward(),  # AccumulateGrad adds into .grad in place
    ],
)
def test_a_zero_tensor_grad_is_immutable_as_torchs(change):
    # sgn's real gradient is torch's ZeroTensor, and a leaf keeps it as its .grad
    torch = pytest.importorskip("torch")
    for lib in (numtorch, torch):
        x, y = _zero_grad_leaf(lib)
        with pytest.raises(RuntimeError, match="ZeroTensors are immutable"):
            change(x, y)
        assert (x.grad + 1).tolist() == [1.0, 1.0]  # unchanged; out of place, ordinary zeros

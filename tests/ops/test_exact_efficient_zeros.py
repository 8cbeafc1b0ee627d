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
        for product in (zeros * other, other * zeros, zeros / other, np.negative(zeros)):
            assert isinstance(product, EfficientZeros) and not product.any()
        assert np.array_equal(zeros + other, other, equal_nan=True)
        assert type(np.exp(zeros)) is np.ndarray  # other kernels read ordinary zeros
    assert isinstance(efficient_zeros((2, 3), np.float64).sum(0), EfficientZeros)

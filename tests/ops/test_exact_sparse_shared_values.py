"""A sparse COO tensor built from values that require grad shares their memory, as torch's
does: a product that saved the sparse tensor reads the values as they are at backward time,
after an in-place op on the dense values (torch checks no version there, so its gradient
uses the modified values; so does numtorch's)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import numtorch as nt


def _dense_grad_after_inplace(lib, product):
    x = lib.tensor(np.arange(1.0, 7.0), requires_grad=True)
    values = x * 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's note on unchecked sparse invariants
        sparse = lib.sparse_coo_tensor(lib.tensor([[0, 1, 2], [1, 2, 3]]), values[:3], (3, 4))
    dense = lib.ones(4, 2, dtype=lib.float64, requires_grad=True)
    out = product(lib, sparse, dense)
    values.sign_()
    out.sum().backward()
    return dense.grad.numpy(), x.grad.numpy()


PRODUCTS = {
    "sparse.mm": lambda lib, s, d: lib.sparse.mm(s, d),
    "mm": lambda lib, s, d: lib.mm(s, d),
    "mv": lambda lib, s, d: lib.mv(s, d[:, 0]),
}


@pytest.mark.parametrize("name", PRODUCTS)
def test_saved_sparse_reads_values_modified_in_place(name):
    dense_grad, x_grad = _dense_grad_after_inplace(nt, PRODUCTS[name])
    # sign_ turned the values 2, 4, 6 into 1, 1, 1 before backward read them
    expected = np.array([0.0, 1.0, 1.0, 1.0])
    assert np.array_equal(dense_grad[:, 0], expected)
    # the values' own edge was taken before sign_: 2 (of x * 2) times the dense columns
    columns = 1 if name == "mv" else 2
    assert np.array_equal(x_grad, [2.0 * columns] * 3 + [0.0] * 3)


@pytest.mark.parametrize("name", PRODUCTS)
def test_matches_torch(name):
    torch = pytest.importorskip("torch")
    ours = _dense_grad_after_inplace(nt, PRODUCTS[name])
    theirs = _dense_grad_after_inplace(torch, PRODUCTS[name])
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)

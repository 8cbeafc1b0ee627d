"""Gradients of ``torch.sparse.mm(csr, dense, reduce)`` when the incoming gradient holds NaN:
amax/amin scatter the picked entry of each output alone, so an entry no output picked gets
a zero gradient, never 0 * NaN."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import numtorch as nt

NAN, INF = float("nan"), float("inf")


def _gradients(lib, reduce):
    values = lib.tensor([1.0, 2.0, -1.0, 3.0], dtype=lib.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch's beta-state note on sparse CSR
        sparse = lib.sparse_csr_tensor(
            lib.tensor([0, 2, 4]), lib.tensor([0, 1, 1, 2]), values, (2, 3)
        )
    dense = lib.tensor([[1.0, 2.0], [3.0, INF], [0.5, 1.0]], dtype=lib.float64, requires_grad=True)
    out = lib.sparse.mm(sparse, dense, reduce)
    grad = lib.tensor([[NAN, 1.0], [2.0, NAN]], dtype=lib.float64)
    return [g.numpy() for g in lib.autograd.grad(out, (values, dense), grad)]


def test_amin_leaves_unpicked_entries_zero():
    values_grad, dense_grad = _gradients(nt, "amin")
    # entries 1 and 3 are no output's minimum; dense row 2 is read by entry 3 alone
    np.testing.assert_array_equal(values_grad, [NAN, 0.0, NAN, 0.0])
    np.testing.assert_array_equal(dense_grad, [[NAN, 1.0], [-2.0, NAN], [0.0, 0.0]])


@pytest.mark.parametrize("reduce", ["amin", "amax", "sum", "mean"])
def test_matches_torch(reduce):
    torch = pytest.importorskip("torch")
    for ours, theirs in zip(_gradients(nt, reduce), _gradients(torch, reduce)):
        np.testing.assert_array_equal(ours, theirs)


def _nonfinite_gradients(lib, reduce):
    # row 0: a NaN product among finite ones; row 1: every product -inf; row 2: +inf twice
    values = lib.tensor([1.0, NAN, 2.0, -1.0, 1.0, 3.0, 1.0], dtype=lib.float64, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sparse = lib.sparse_csr_tensor(
            lib.tensor([0, 3, 5, 7]), lib.tensor([0, 1, 2, 0, 2, 1, 2]), values, (3, 3)
        )
    dense = lib.tensor(
        [[1.0, -2.0], [0.5, 1.0], [-INF, 3.0]], dtype=lib.float64, requires_grad=True
    )
    out = lib.sparse.mm(sparse, dense, reduce)
    grads = lib.autograd.grad(out, (values, dense), lib.ones(out.shape, dtype=lib.float64))
    return [out.detach().numpy()] + [g.numpy() for g in grads]


@pytest.mark.parametrize("reduce", ["amin", "amax"])
def test_nan_and_infinite_products_pick_torchs_entry(reduce):
    # torch keeps the last NaN, and no entry where the extreme stays at its start (-inf
    # for amax, +inf for amin)
    torch = pytest.importorskip("torch")
    for ours, theirs in zip(_nonfinite_gradients(nt, reduce), _nonfinite_gradients(torch, reduce)):
        np.testing.assert_array_equal(ours, theirs)

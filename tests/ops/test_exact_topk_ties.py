"""topk among equal values and NaNs, and its unsorted order, as torch's CPU kernel picks them
(its selection algorithms, ops/topk_order.py): the indices, and so where the gradient goes."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


def _cases(seed):
    rng = np.random.default_rng(seed)
    for _ in range(50):
        # short rows (insertion sorts), rows past 16 (introsort), k * 64 <= n (heaps)
        n = int(rng.choice([2, 3, 4, 5, 7, 10, 16, 17, 20, 33, 64, 130, 300]))
        pool = rng.choice([0.0, 1.0, 2.0, np.nan, -0.0, 3.5], size=int(rng.integers(1, 6)))
        values = rng.choice(pool, size=(int(rng.integers(1, 4)), n))
        if rng.random() < 0.2:
            values = rng.standard_normal(values.shape)
        k = int(rng.integers(0, n + 1))
        yield values, k, bool(rng.random() < 0.5), bool(rng.random() < 0.7), rng.random() < 0.3


@pytest.mark.parametrize("seed", range(4))
def test_topk_indices_among_ties_match_torch(seed):
    for values, k, largest, ordered, transposed in _cases(seed):
        results = []
        for lib in (numtorch, torch):
            x = lib.tensor(values)
            x, dim = (x.t(), 0) if transposed else (x, -1)
            results.append(lib.topk(x, k, dim=dim, largest=largest, sorted=ordered).indices)
        assert results[0].tolist() == results[1].tolist(), (values, k, largest, ordered)


def test_topk_gradient_of_all_nan_rows_goes_where_torchs_does():
    # the fuzzer's case: every element NaN, so which two topk takes is its algorithm's
    grads = []
    for lib in (numtorch, torch):
        x = lib.full((2, 4), float("nan"), dtype=lib.float64, requires_grad=True)
        lib.topk(x, 2).values.nan_to_num().sum().backward()
        grads.append(x.grad.tolist())
    assert grads[0] == grads[1]

"""Histograms and sorted searches at torch's corners: non-finite ranges, NaN and infinite
values, sides, sorters and ties."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch


@pytest.mark.parametrize(
    "points, range, message",
    [
        ([[1.0, math.inf], [2.0, 3.0]], None, r"dimension 1's range \[3, inf\] is not finite"),
        ([[1.0, math.nan], [2.0, 3.0]], None, r"dimension 1's range \[nan, nan\] is not finite"),
        ([[1.0, 2.0], [2.0, 3.0]], [0.0, math.inf, 0.0, 1.0], "dimension 0's range"),
        # finiteness is checked before order, dim by dim
        ([[1.0, 2.0], [2.0, 3.0]], [math.inf, 1.0, 0.0, 1.0], "is not finite"),
        ([[1.0, 2.0], [2.0, 3.0]], [2.0, 1.0, 0.0, math.inf], "min should not exceed max"),
    ],
)
def test_histogramdd_refuses_a_range_that_is_not_finite(points, range, message):
    with pytest.raises(RuntimeError, match=message):
        numtorch.histogramdd(numtorch.tensor(points), bins=[2, 2], range=range)


def test_histogramdd_counts_infinite_points_within_a_finite_range():
    points = numtorch.tensor([[1.0, math.inf], [0.25, 0.75]])
    hist = numtorch.histogramdd(points, bins=[2, 2], range=[0.0, 1.0, 0.0, 1.0]).hist
    assert hist.tolist() == [[0.0, 1.0], [0.0, 0.0]]


NAN, INF = math.nan, math.inf


def test_searchsorted_bisects_as_torch_on_nan_and_unsorted_sequences():
    # a NaN (value or middle element) compares false, which sends the bisection right
    sequence = numtorch.tensor([1.0, NAN, 3.0, 4.0])
    values = numtorch.tensor([NAN, 2.0, 3.5, -INF])
    assert numtorch.searchsorted(sequence, values).tolist() == [4, 2, 3, 2]
    assert numtorch.bucketize(
        numtorch.tensor([NAN, 1.0, 3.0]), numtorch.tensor([2.0, NAN, 1.0]), right=True
    ).tolist() == [3, 3, 3]


def test_searchsorted_refuses_zero_dimensional_boundaries():
    with pytest.raises(RuntimeError, match="boundaries tensor should have positive dimension"):
        numtorch.searchsorted(numtorch.tensor(1.0), numtorch.tensor([1.0]))


def test_searchsorted_matches_torch_on_random_sequences():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    choices = [0.0, 1.0, 2.0, 3.0, NAN, INF, -INF, 1.5, -1.0, 2.5]
    for trial in range(200):
        n = int(rng.integers(0, 7))
        shape = (n,) if trial % 2 else (2, n)
        sequence = rng.choice(choices[:-1], size=shape)
        if trial % 3 == 0:
            sequence = np.sort(sequence, axis=-1)
        values = rng.choice(choices, size=(3,) if trial % 2 else (2, 3))
        kwargs = {"right": bool(trial % 4 < 2)}
        sorter = np.argsort(sequence, axis=-1, kind="stable") if trial % 5 == 0 else None
        results = []
        for lib in (numtorch, torch):
            extra = {} if sorter is None else {"sorter": lib.tensor(sorter)}
            results.append(
                lib.searchsorted(lib.tensor(sequence), lib.tensor(values), **kwargs, **extra)
            )
        np.testing.assert_array_equal(results[0].numpy(), results[1].numpy())


def _histogramdd_outcome(lib, points, bins, **kwargs):
    bins = [lib.tensor(b) if isinstance(b, list) else b for b in bins]
    try:
        result = lib.histogramdd(lib.tensor(points), bins, **kwargs)
    except RuntimeError as e:
        return str(e)
    return result.hist.tolist(), [e.tolist() for e in result.bin_edges]


@pytest.mark.parametrize(
    "points, bins, kwargs",
    [
        # a float32 range overflowing in linspace: NaN outer edges keep every point out
        ([[-3e38, 1.0], [3e38, 2.0], [0.0, 1.5]], [3, 2], {"density": True}),
        ([[-3e38, 1.0], [3e38, 2.0], [0.0, 1.5]], [3, 2], {"weight": [1.0, 2.0, 3.0]}),
        # edges that are not increasing are bisected as they are, not refused
        ([[0.0, 1.0], [1.0, 1.0], [0.5, 0.2]], [[0.0, 2.0, 1.0], [0.0, 1.0]], {}),
        ([[0.0, 1.0], [1.0, 1.0], [0.5, 0.2]], [[0.0, 0.5, 0.2, 1.0], [1.0, 0.0]], {}),
        # too few edges or bins, dim by dim
        ([[0.0, 1.0], [1.0, 1.0]], [0, 2], {}),
        ([[0.0, 1.0], [1.0, 1.0]], [0, -1], {}),
        ([[0.0, 1.0], [1.0, 1.0]], [[0.5], [0.0, 1.0]], {}),
        ([[0.0, 1.0], [1.0, 1.0]], [[[0.0, 1.0]], [0.0, 1.0]], {}),
    ],
)
def test_histogramdd_bins_points_as_torch_whatever_the_edges(points, bins, kwargs):
    torch = pytest.importorskip("torch")
    found = []
    for lib in (numtorch, torch):
        extra = {k: lib.tensor(v) if isinstance(v, list) else v for k, v in kwargs.items()}
        found.append(_histogramdd_outcome(lib, points, bins, **extra))
    assert repr(found[0]) == repr(found[1])  # (repr: NaN equals NaN)

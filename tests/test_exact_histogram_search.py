"""Histograms and sorted searches at torch's corners: non-finite ranges, NaN and infinite
values, sides, sorters and ties."""

from __future__ import annotations

import math

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

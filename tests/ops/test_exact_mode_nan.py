"""mode on slices holding NaN, as torch's kernel finds it: an insertion sort by ``<`` (NaN
compares false both ways, so it stays where the sort leaves it) and a scan in which each
NaN is a run of its own; the first longest run wins."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch

NAN = math.nan


def test_a_leading_nan_wins_a_tie_of_single_values():
    values, indices = numtorch.tensor([[NAN, 1.0, 2.0, 3.0], [0.5, 0.5, -1.0, -1.0]]).mode()
    assert math.isnan(values[0]) and indices.tolist() == [0, 3]
    assert values[1] == -1.0


def test_nans_do_not_count_as_equal():
    values, indices = numtorch.tensor([NAN, NAN, 2.0]).mode()
    assert math.isnan(values) and indices == 0


def test_mode_with_nan_matches_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    for _ in range(100):
        x = rng.choice([NAN, 1.0, 2.0, 0.5, -1.0], size=(3, int(rng.integers(1, 10))))
        ours, theirs = numtorch.tensor(x).mode(1), torch.tensor(x).mode(1)
        np.testing.assert_array_equal(ours.values.numpy(), theirs.values.numpy())
        np.testing.assert_array_equal(ours.indices.numpy(), theirs.indices.numpy())

"""tensor_split at a list of indices cuts ``input[a:b]`` for each neighbouring pair, with
Python's slice rules: a negative index counts from the end, and a pair whose end lies before
its start gives an empty part (the end is not first clamped up to the start)."""

from __future__ import annotations

import pytest

import numtorch

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("indices", [[-1, 3], [2, -1, -9], [-7, 2], [4, -3], [10, -20], [0, 0, -5]])
def test_tensor_split_indices_follow_slice_rules(indices):
    for lib in (numtorch, torch):
        x = lib.arange(10.0).reshape(2, 5)
        parts = [p.tolist() for p in lib.tensor_split(x, indices, dim=1)]
        as_tensor = [p.tolist() for p in lib.tensor_split(x, lib.tensor(indices), dim=-1)]
        if lib is numtorch:
            ours = parts, as_tensor
    assert ours == (parts, as_tensor)

"""The fuzzer's loss (a weighted sum of every result) past the dtype's range: whether it is
NaN or an infinity is the summation order's, so a loss non-finite in both runs is no
difference (``fuzz.compare._overflowing_loss``); one finite in a single run still is."""

from __future__ import annotations

import numpy as np
import pytest
from fuzz.compare import _overflowing_loss, first_difference
from fuzz.execute import Record

torch = pytest.importorskip("torch")


def _loss(value) -> Record:
    array = np.array(value, dtype=np.float32)
    tensor = {"shape": (), "dtype": "float32", "values": array, "requires_grad": True}
    return Record("loss", tensors=[tensor | {"grad_fn": "AddBackward0"}])


def test_a_loss_non_finite_in_both_runs_agrees():
    ours, theirs = [_loss(np.nan)], [_loss(np.inf)]
    assert first_difference(ours, theirs) is not None
    _overflowing_loss(ours, theirs)
    assert first_difference(ours, theirs) is None


def test_a_loss_finite_in_one_run_still_differs():
    ours, theirs = [_loss(1.0)], [_loss(np.inf)]
    _overflowing_loss(ours, theirs)
    found = first_difference(ours, theirs)
    assert found is not None and (found.kind, found.label) == ("value", "loss")

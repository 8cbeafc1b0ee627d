"""The fuzzer's rule for rounding that an op amplifies (``fuzz.compare``): a forward step
that differs only because earlier results differ by rounding, and that gives torch's
numbers from torch's very inputs, is not a difference; a step that differs on the same
inputs, or after a difference that is no rounding (the sign of a zero), still is."""

from __future__ import annotations

import numpy as np
import pytest
from fuzz.compare import _rounding_apart, differential, first_difference
from fuzz.execute import execute

import numtorch

torch = pytest.importorskip("torch")

# instance norm of a constant gives rounding noise around 0 (-1.2e-15 in torch, 0 here),
# which sign turns into -1 against 0
SIGN_OF_NOISE = {
    "dtype": "float64",
    "seed": 652521611,
    "steps": [
        {"kind": "op", "op": "multilabel_margin_loss", "sample": 2, "seed": 864835241,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": False}]},
        {"kind": "op", "op": "instance_norm_running_stats", "sample": 0, "seed": 459758490,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": False,
                     "ref": 2, "fit": "expand"}]},
        {"kind": "op", "op": "sum", "sample": 2, "seed": 404356121,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": False,
                     "ref": 0, "fit": "reshape"}]},
        {"kind": "op", "op": "sign", "sample": 1, "seed": 77051788,
         "inputs": [{"dtype": "float64", "grad": False, "shape": "sample", "special": False,
                     "ref": 1, "fit": "reshape"}]},
    ],
}  # fmt: skip


def test_a_step_that_amplifies_earlier_rounding_is_no_difference():
    found = first_difference(execute(numtorch, SIGN_OF_NOISE), execute(torch, SIGN_OF_NOISE))
    if found is None:
        pytest.skip("the earlier steps now agree bit for bit: nothing is amplified")
    assert (found.kind, found.label) == ("value", "sign")
    assert differential(numtorch, torch, SIGN_OF_NOISE) is None


def test_a_step_that_differs_on_the_same_inputs_is_still_a_difference(monkeypatch):
    sign = numtorch.sign
    monkeypatch.setattr(numtorch, "sign", lambda x: sign(x + 1))  # wrong, with its node
    found = differential(numtorch, torch, SIGN_OF_NOISE)
    assert found is not None and (found.kind, found.label) == ("value", "sign")


def test_only_rounding_counts_as_rounding():
    assert _rounding_apart(np.array([1.0, 0.0]), np.array([1.0 + 1e-15, 1e-17]))
    assert not _rounding_apart(np.array([-0.0]), np.array([0.0]))  # log gives -inf vs inf
    assert not _rounding_apart(np.array([np.nan]), np.array([1.0]))
    assert not _rounding_apart(np.array([1.0]), np.array([1.1]))
    assert not _rounding_apart(np.zeros(2), np.zeros(3))

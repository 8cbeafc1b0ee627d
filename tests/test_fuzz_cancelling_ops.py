"""The fuzzer's absolute tolerance for ops whose torch kernel cancels catastrophically by
design (``fuzz.known.CANCELLING``): cdist's matrix-product form leaves a distance of 0
anywhere up to ~1e-8 of the points' size, as the GEMM's summation order has it; a larger
difference, or one in another op, still counts."""

from __future__ import annotations

import numpy as np
import pytest
from fuzz.compare import _rounding_apart, _values_differ
from fuzz.known import CANCELLING


def test_cdist_mm_tolerates_the_rounding_under_its_square_root():
    ours = np.array([7.450580596923828e-09, 0.6591, 1.9])
    theirs = np.array([0.0, 0.6591, 1.9])
    assert _values_differ(ours, theirs, "float64") is not None
    assert _values_differ(ours, theirs, "float64", None, CANCELLING["cdist_mm"]) is None


def test_cdist_mm_still_sees_a_real_difference():
    ours = np.array([1e-5, 0.6591, 1.9])
    theirs = np.array([0.0, 0.6591, 1.9])
    assert _values_differ(ours, theirs, "float64", None, CANCELLING["cdist_mm"]) is not None


# cdist_mm's noise at a distance of 0 (4e-8 against torch's 0.0) read by a later step: a
# leaky_relu of it differs by that noise, which the step only carried on
_CDIST_NOISE_CARRIED_ON = {
    "dtype": "float64",
    "seed": 418666172,
    "steps": [
        {"kind": "op", "op": "contiguous", "sample": 0, "seed": 470193656,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": False}]},
        {"kind": "op", "op": "cdist_mm", "sample": 0, "seed": 1031141440,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": False,
                     "ref": 3, "fit": "reshape"},
                    {"dtype": "float64", "grad": True, "shape": "sample", "special": False,
                     "ref": 3, "fit": "expand"}]},
        {"kind": "op", "op": "scatter_reduce_mean_True", "sample": 0, "seed": 2102198704,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": False},
                    {"dtype": "float64", "grad": True, "shape": "sample", "special": False,
                     "ref": 2, "fit": "expand"}]},
        {"kind": "op", "op": "leaky_relu", "sample": 0, "seed": 1635278222,
         "inputs": [{"dtype": "float64", "grad": True, "shape": "sample", "special": False,
                     "ref": 1, "fit": "reshape"}]},
    ],
}  # fmt: skip


def test_an_earlier_cdist_mm_result_is_held_to_its_own_tolerance():
    noise = np.array([4.2e-08, 0.6591, 1.9]), np.array([0.0, 0.6591, 1.9])
    assert not _rounding_apart(*noise)
    assert _rounding_apart(*noise, "cdist_mm")


def test_a_step_that_carries_cdist_mm_noise_on_amplifies_rounding():
    torch = pytest.importorskip("torch")
    from fuzz.compare import differential, first_difference
    from fuzz.execute import execute

    import numtorch

    program = _CDIST_NOISE_CARRIED_ON
    found = first_difference(execute(numtorch, program), execute(torch, program))
    assert found is not None and found.label == "leaky_relu", found  # the noise, carried on
    assert differential(numtorch, torch, program) is None

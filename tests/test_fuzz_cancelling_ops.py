"""The fuzzer's absolute tolerance for ops whose torch kernel cancels catastrophically by
design (``fuzz.known.CANCELLING``): cdist's matrix-product form leaves a distance of 0
anywhere up to ~1e-8 of the points' size, as the GEMM's summation order has it; a larger
difference, or one in another op, still counts."""

from __future__ import annotations

import numpy as np
from fuzz.compare import _values_differ
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

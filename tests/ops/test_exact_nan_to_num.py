"""``nan_to_num``'s gradient is ``grad * isfinite(input)`` in torch: a NaN arriving at a
replaced element stays NaN (masking it out would give 0)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


def test_nan_to_num_gradient_keeps_a_nan_gradient():
    found = []
    for lib in (numtorch, torch):
        x = lib.tensor([1.0, math.nan, math.inf, -math.inf], requires_grad=True)
        upstream = lib.tensor([math.nan, math.nan, 2.0, math.inf])
        found.append(lib.autograd.grad(lib.nan_to_num(x), x, upstream)[0].numpy())
    np.testing.assert_array_equal(found[0], found[1])

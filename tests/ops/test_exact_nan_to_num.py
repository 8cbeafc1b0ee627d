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


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32"])
@pytest.mark.parametrize("bounds", [{}, {"posinf": 1e3}, {"neginf": -2.0, "nan": 5.0}])
def test_nan_to_num_default_bounds_are_the_dtypes_own(dtype, bounds):
    # bfloat16 runs in float32: its infinities still become bfloat16's largest values
    found = []
    for lib in (numtorch, torch):
        x = lib.tensor([math.inf, -math.inf, math.nan, 1.5], dtype=getattr(lib, dtype))
        out, in_place = lib.nan_to_num(x, **bounds), x.clone().nan_to_num_(**bounds)
        found.append((out.float().tolist(), in_place.float().tolist(), str(out.dtype)))
    assert found[0] == found[1]

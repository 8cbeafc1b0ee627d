"""torch's CPU scans accumulate in a wider type and round each output (Note [Scan
accumulators]): their float32 and half-precision results against torch's, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _values(lib, dtype):
    rows = np.random.RandomState(0).uniform(0.5, 1.5, size=(3, 300))
    rows[1] = 0.1  # a thousand 0.1s drift in float32 steps
    return lib.tensor(rows, dtype=getattr(lib, dtype))


CASES = [
    (op, dtype)
    for op in ("cumsum", "cumprod", "logcumsumexp")
    for dtype in ("float32", "float16", "bfloat16", "complex64")
]


@pytest.mark.parametrize(("op", "dtype"), CASES)
@pytest.mark.parametrize("dim", [0, 1])
def test_scans_round_as_torch(op, dtype, dim):
    scale = 0.01 if op == "cumprod" else 1.0  # products near 1 keep away from overflow

    def run(lib):
        x = _values(lib, dtype)
        x = 1 + (x - 1) * scale if op == "cumprod" else x
        return getattr(lib, op)(x, dim).to(lib.complex128 if dtype == "complex64" else lib.float64)

    np.testing.assert_array_equal(run(numtorch).numpy(), run(torch).numpy())

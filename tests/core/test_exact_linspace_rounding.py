"""linspace rounds as torch's vectorized kernel: the first half is ``start + step * i`` and
the second ``end - step * (steps - 1 - i)``, each a fused multiply-add rounded once, in
float64 as in float32 (``linspace(-1, 1, 27)`` has -5.55e-17 in the middle, not 0)."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_linspace_matches_torch_bit_for_bit(dtype):
    rng = np.random.default_rng(0)
    cases = [(-1.0, 1.0, n) for n in (2, 5, 7, 27, 32, 100)]
    for _ in range(200):
        start, end = (float(v) for v in rng.standard_normal(2) * rng.choice([1, 1e5, 1e-3], 2))
        cases.append((start, end, int(rng.integers(2, 300))))
    for start, end in ((0.0, 0.0), (3.0, -3.0)):
        cases.append((start, end, 9))
    for start, end, steps in cases:
        ours = numtorch.linspace(start, end, steps, dtype=getattr(numtorch, dtype)).numpy()
        theirs = torch.linspace(start, end, steps, dtype=getattr(torch, dtype)).numpy()
        assert ours.tobytes() == theirs.tobytes(), (start, end, steps)


@pytest.mark.parametrize(
    ("start", "dtype", "steps"),
    [
        (0.5, "bool", 1),  # fuzz seed 8500782: bool(0.5) is True, not truncated to 0
        (-0.5, "uint8", 0),  # no bound is converted for no step
        (1j, None, 5),  # complex bounds infer the complex default dtype
        (2 - 3j, "complex128", 4),
        (1j, "complex64", 1),
        (1j, "float32", 3),  # and refuse a real one
        (1j, "bool", 2),  # before the bool kernel's refusal
    ],
)
def test_linspace_bounds_convert_as_torch(start, dtype, steps):
    out = []
    for lib in (numtorch, torch):
        try:
            r = lib.linspace(start, 1, steps, dtype=None if dtype is None else getattr(lib, dtype))
        except Exception as error:  # the error type is the outcome
            out.append(type(error).__name__)
        else:
            out.append((str(r.dtype).replace("numtorch", "torch"), r.tolist()))
    assert out[0] == out[1]

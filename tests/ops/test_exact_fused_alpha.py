"""``input + alpha * other`` (add, sub and their in-place forms) and addcmul round once per
element, as torch's CPU kernels (one fused multiply-add) do: two roundings differ from
torch's in the last bit for most random float32 operands."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

CALLS = {
    "add": lambda lib, a, b, c: lib.add(a, b, alpha=-0.3),
    "sub": lambda lib, a, b, c: a.sub(b, alpha=1.7),
    "add_": lambda lib, a, b, c: a.clone().add_(b, alpha=0.1),
    "add_row": lambda lib, a, b, c: a.add(b[:1], alpha=2.9),
    "add_to_row": lambda lib, a, b, c: a[:1].add(b, alpha=2.9),
    "addcmul": lambda lib, a, b, c: lib.addcmul(a, b, c, value=0.7),
    "addcmul_column": lambda lib, a, b, c: a.addcmul(b, c[:, :1], value=-1.3),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", CALLS)
def test_scaled_sums_round_once(name, dtype):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal((4, 37)).astype(dtype) for _ in range(3)]
    arrays[0][0, :4] = [np.inf, -np.inf, np.nan, 0.0]
    arrays[1][0, :4] = [1.0, np.inf, 2.0, -0.0]

    def run(lib):
        return CALLS[name](lib, *(lib.from_numpy(a.copy()) for a in arrays)).numpy()

    np.testing.assert_array_equal(run(numtorch), run(torch))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fused_alpha_results_are_laid_out_as_torch(dtype):
    # the fused kernel broadcasts through the arithmetic, so a column minus a row is laid out
    # row-major as torch's (it took a broadcast operand's zero strides: .view then failed)
    torch = pytest.importorskip("torch")
    found = []
    for lib in (numtorch, torch):
        d = getattr(lib, dtype)
        column, row = lib.ones(2, 1, dtype=d), lib.ones(1, 3, dtype=d)
        wide = lib.ones(3, 2, dtype=d).t()
        results = [
            lib.sub(column, row, alpha=2),
            lib.add(row.expand(2, 3), column, alpha=0.5),
            lib.add(wide, lib.ones(2, 3, dtype=d), alpha=3),
            lib.addcmul(column, row, row, value=0.5),
        ]
        found.append([(r.stride(), r.is_contiguous()) for r in results])
        results[0].view(3, 2)
    assert found[0] == found[1]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fused_alpha_in_place_broadcasts_other(dtype):
    found = []
    for lib in (numtorch, torch):
        d = getattr(lib, dtype)
        x = lib.full((2, 3), 0.1, dtype=d)
        # a row broadcast over the batch (a column takes torch's other loop: Note [Fused alpha])
        x.add_(lib.tensor([1.0, 2.0, 3.0], dtype=d), alpha=0.3)
        x.sub_(lib.tensor([[0.7, 0.1, 0.3]], dtype=d), alpha=1.7)
        found.append(x.numpy().tolist())
    assert found[0] == found[1]


@pytest.mark.parametrize("name", CALLS)
def test_an_exact_zero_takes_the_sign_fma_gives_it(name):
    # a sum of two zeros is -0 only where both are -0 (fma's rounding of an exact zero);
    # the float64 kernel's error terms must not turn that into +0
    values = np.array([0.0, -0.0, 2.0, -0.0])
    arrays = [np.resize(values, (4, 8)), np.resize(values[::-1], (4, 8)), np.full((4, 8), -0.0)]
    arrays[0][1], arrays[1][2] = -0.0, -0.0

    def run(lib):
        return CALLS[name](lib, *(lib.from_numpy(a.copy()) for a in arrays)).numpy()

    ours, theirs = run(numtorch), run(torch)
    np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(np.signbit(ours), np.signbit(theirs))

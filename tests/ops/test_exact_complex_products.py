"""Complex mm, mv, dot and vdot with infinite or NaN parts: which parts turn NaN depends on where
torch's kernels multiply by alpha = 1 + 0j (ops/complex_products.py), which numtorch follows
shape by shape as one CPU's MKL runs them; MKL takes other kernels on other CPUs, so the
tests compare which parts are finite and the finite values (``_same_where_defined``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity

# (rows, k, columns): the small-matrix kernel (fewer than 4 rows, or k = 1), gemv (one
# column), the general kernel
SHAPES = [(1, 3, 1), (2, 3, 1), (3, 1, 1), (2, 3, 2), (1, 5, 4), (5, 1, 3), (5, 4, 3), (6, 3, 1)]


def _operands(shape, seed):
    rows, k, columns = shape
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((rows, k)) + 1j * rng.standard_normal((rows, k))
    b = rng.standard_normal((k, columns)) + 1j * rng.standard_normal((k, columns))
    for m in (a, b):
        flat = m.reshape(-1)
        for i in rng.choice(flat.size, size=rng.integers(1, 3)):
            special = rng.choice([math.inf, -math.inf, math.nan])
            flat[i] = complex(special, flat[i].imag) if rng.integers(2) else complex(0, special)
    return a, b


def _parts(t):
    values = t.numpy()
    return np.stack([values.real, values.imag])


def _same_where_defined(ours, theirs):
    # which non-finite part is NaN and which inf is the BLAS kernel's (where it multiplies by
    # alpha = 1 + 0j, in which order it sums): MKL takes other kernels on other CPUs, so the
    # parts compared exactly are the finite ones, and which parts are finite
    ours, theirs = _parts(ours), _parts(theirs)
    np.testing.assert_array_equal(np.isfinite(ours), np.isfinite(theirs))
    finite = np.isfinite(theirs)
    np.testing.assert_allclose(ours[finite], theirs[finite], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_products_with_infinite_parts_match_torch(shape, dtype):
    for seed in range(8):
        a, b = _operands(shape, seed)
        results = []
        for lib in (numtorch, torch):
            x, y = (
                lib.tensor(a, dtype=getattr(lib, dtype)),
                lib.tensor(b, dtype=getattr(lib, dtype)),
            )
            results.append([x @ y, x.mv(y[:, 0]), lib.dot(x[0], y[:, 0]), lib.vdot(x[0], y[:, 0])])
        for ours, theirs in zip(*results):
            _same_where_defined(ours, theirs)


# a column-major operand (a transposed view, as mm's backward multiplies by B^H) takes
# another of torch's kernels: the result times alpha below a size
LAYOUT_SHAPES = [(2, 2, 3), (3, 3, 2), (4, 2, 3), (5, 3, 7), (2, 2, 8), (5, 2, 11), (3, 2, 12)]


@pytest.mark.parametrize("shape", LAYOUT_SHAPES)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("transposed", ["b", "both"])
def test_mm_of_column_major_operands_with_infinite_parts_matches_torch(shape, dtype, transposed):
    for seed in range(8):
        a, b = _operands(shape, seed)
        results = []
        for lib in (numtorch, torch):
            x = lib.tensor(a.T.copy() if transposed == "both" else a, dtype=getattr(lib, dtype))
            y = lib.tensor(b.T.copy(), dtype=getattr(lib, dtype)).t()
            results.append(x.t() @ y if transposed == "both" else x @ y)
        _same_where_defined(*results)


def test_mm_backward_through_an_infinite_part_matches_torch():
    # the input's gradient is grad @ B^H, a column-major B^H: (inf + 0.91j) turns NaN
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3))
    b = rng.standard_normal((3, 2)) + 1j * rng.standard_normal((3, 2))
    b[1, 1] = complex(math.inf, -0.91)
    grads = []
    for lib in (numtorch, torch):
        x = lib.tensor(a, dtype=lib.complex64, requires_grad=True)
        y = lib.tensor(b, dtype=lib.complex64, requires_grad=True)
        out = lib.view_as_real(x @ y)
        grads.append(lib.autograd.grad(out, (x, y), lib.ones(out.shape)))
    assert np.isnan(grads[0][0][0, 1].numpy())
    for ours, theirs in zip(*grads):
        np.testing.assert_allclose(_parts(ours), _parts(theirs), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_vdot_with_infinite_parts_conjugates_then_multiplies_by_parts(dtype):
    # conj(-inf + inf j) * (-inf + inf j) is inf + nanj: summed, the real part stays inf
    # (a BLAS dotc of NumPy's gives NaN for both parts)
    a = np.array([complex(-math.inf, math.inf), 1 + 2j, complex(math.inf, 1)])
    b = np.array([complex(-math.inf, math.inf), 2 - 1j, 1 + 0j])
    for x, y in ((a, a), (a, b), (b, a)):
        ours, theirs = (
            _parts(
                lib.vdot(
                    lib.tensor(x).to(getattr(lib, dtype)), lib.tensor(y).to(getattr(lib, dtype))
                )
            )
            for lib in (numtorch, torch)
        )
        np.testing.assert_array_equal(ours, theirs)

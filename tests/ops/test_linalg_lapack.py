"""LU and triangular solves agree with and without SciPy's LAPACK (an optional accelerator),
and with torch, on both paths."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch
from numtorch.backend import lapack

DTYPES = ["float32", "float64"]
TOL = {"float32": 1e-4, "float64": 1e-10}


@pytest.fixture(params=["scipy", "numpy"])
def path(request, monkeypatch):
    if request.param == "scipy":
        pytest.importorskip("scipy")
    else:
        monkeypatch.setattr(lapack, "enabled", False)
    return request.param


def random(shape, dtype, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def both(fn, *arrays, **kwargs):
    """fn's results under numtorch and torch, as NumPy arrays."""
    torch = pytest.importorskip("torch")
    out = []
    for lib in (numtorch, torch):
        result = fn(lib, *(lib.tensor(a) for a in arrays), **kwargs)
        result = result if isinstance(result, tuple) else (result,)
        out.append([r.numpy() for r in result])
    return out


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 5), (2, 3, 6, 6), (4, 7), (7, 4)])
def test_lu_factor_matches_torch(path, dtype, shape):
    ours, theirs = both(lambda m, a: tuple(m.linalg.lu_factor_ex(a)), random(shape, dtype, 0))
    for o, t in zip(ours, theirs):
        assert o.dtype == t.dtype
        np.testing.assert_allclose(o, t, rtol=TOL[dtype], atol=TOL[dtype])


def test_lu_factor_reports_the_first_zero_pivot_on_both_paths(path):
    a = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 0.0, 1.0]])
    ours, theirs = both(lambda m, a: tuple(m.linalg.lu_factor_ex(a)), a)
    assert ours[2] == theirs[2] == 2
    np.testing.assert_array_equal(ours[1], theirs[1])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
def test_lu_solve_matches_torch(path, dtype, left, adjoint):
    a = random((2, 1, 5, 5), dtype, 1)  # broadcast against B's batch
    b = random((3, 5, 2) if left else (3, 2, 5), dtype, 2)

    def solve(m, a, b):
        return m.linalg.lu_solve(*m.linalg.lu_factor(a), b, left=left, adjoint=adjoint)

    (ours,), (theirs,) = both(solve, a, b)
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs, rtol=TOL[dtype] * 10, atol=TOL[dtype] * 10)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("unitriangular", [False, True])
def test_solve_triangular_matches_torch(path, dtype, upper, left, unitriangular):
    a = random((2, 5, 5), dtype, 3) + 4 * np.eye(5, dtype=dtype)  # well conditioned
    b = random((2, 5, 3) if left else (2, 3, 5), dtype, 4)

    def solve(m, a, b):
        return m.linalg.solve_triangular(a, b, upper=upper, left=left, unitriangular=unitriangular)

    (ours,), (theirs,) = both(solve, a, b)
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs, rtol=TOL[dtype], atol=TOL[dtype])


def test_paths_agree_within_lapack_rounding():
    pytest.importorskip("scipy")
    a = numtorch.tensor(random((40, 40), "float64", 5))
    b = numtorch.tensor(random((40, 3), "float64", 6))

    def run():
        LU, pivots = numtorch.linalg.lu_factor(a)
        x = numtorch.linalg.lu_solve(LU, pivots, b)
        t = numtorch.linalg.solve_triangular(LU, b, upper=True)
        return LU.numpy(), pivots.numpy(), x.numpy(), t.numpy()

    fast = run()
    lapack.enabled = False
    try:
        plain = run()
    finally:
        lapack.enabled = True
    np.testing.assert_array_equal(fast[1], plain[1])
    for f, p in zip(fast[:1] + fast[2:], plain[:1] + plain[2:]):
        np.testing.assert_allclose(f, p, rtol=1e-9, atol=1e-12)


def test_missing_scipy_takes_the_numpy_path(monkeypatch):
    monkeypatch.setattr(lapack, "_modules", {"lapack": None, "blas": None})
    assert lapack.getrf(np.eye(3)) is None
    assert (
        lapack.trsm(np.eye(3), np.ones((3, 1)), upper=True, left=True, unitriangular=False) is None
    )
    LU, pivots = numtorch.linalg.lu_factor(numtorch.tensor([[0.0, 2.0], [1.0, 1.0]]))
    assert pivots.tolist() == [2, 2]
    assert LU.tolist() == [[1.0, 1.0], [0.0, 2.0]]

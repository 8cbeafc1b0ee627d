"""In-place ``add_``/``sub_`` with ``alpha`` and SGD's update run through BLAS axpy (one pass
over memory) where SciPy is installed: the same numbers as torch and as the NumPy path."""

import numpy as np
import pytest

import numtorch
from numtorch.backend import lapack

torch = pytest.importorskip("torch")
pytest.importorskip("scipy")

SIZE = lapack.AXPY_MIN_SIZE * 2


def _pair(dtype, seed=0, shape=(SIZE // 64, 64)):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape).astype(dtype), rng.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("method,alpha", [("add_", -0.01), ("sub_", 0.3), ("add_", 2)])
def test_add_with_alpha_matches_torch(dtype, method, alpha):
    p, g = _pair(dtype)
    ours, theirs = numtorch.tensor(p), torch.tensor(p)
    getattr(ours, method)(numtorch.tensor(g), alpha=alpha)
    getattr(theirs, method)(torch.tensor(g), alpha=alpha)
    tol = 1e-6 if dtype == np.float32 else 1e-14
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=tol, atol=tol)


def test_axpy_and_numpy_paths_agree(monkeypatch):
    p, g = _pair(np.float32)
    fast = numtorch.tensor(p)
    fast.add_(numtorch.tensor(g), alpha=-0.5)
    monkeypatch.setattr(lapack, "enabled", False)
    slow = numtorch.tensor(p)
    slow.add_(numtorch.tensor(g), alpha=-0.5)
    np.testing.assert_allclose(fast.numpy(), slow.numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("layout", ["fortran", "strided", "broadcast", "small"])
def test_layouts_axpy_refuses_fall_back(layout):
    p, g = _pair(np.float64)
    if layout == "fortran":
        p, g = np.asfortranarray(p), np.asfortranarray(g)
    elif layout == "strided":
        g = np.asfortranarray(g)  # layouts differ
    elif layout == "broadcast":
        g = g[:1]
    elif layout == "small":
        p, g = p[:2], g[:2]
    ours, theirs = numtorch.tensor(p), torch.tensor(p)
    ours.add_(numtorch.tensor(g), alpha=0.25)
    theirs.add_(torch.tensor(g), alpha=0.25)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-14, atol=1e-14)


def test_axpy_writes_in_place_and_refuses_mismatches():
    p, g = _pair(np.float32)
    before = p.copy()
    assert lapack.axpy(g, p, 1.0)
    np.testing.assert_allclose(p, before + g, rtol=1e-6)
    assert not lapack.axpy(g.astype(np.float64), p, 1.0)  # dtypes differ
    assert not lapack.axpy(g[:, ::2], p[:, ::2], 1.0)  # not contiguous
    frozen = p.copy()
    frozen.flags.writeable = False
    assert not lapack.axpy(g, frozen, 1.0)


def test_small_updates_take_axpy_once_blas_is_loaded():
    # below AXPY_MIN_SIZE the first updates keep NumPy's fused form (no SciPy import for a
    # small program); once a large one has loaded BLAS, every size takes axpy, faster there
    p, g = _pair(np.float32)
    assert lapack.axpy(g, p, 1.0)
    q, h = _pair(np.float32, 1, (5, 7))
    assert lapack.axpy(h, q, -0.5)
    # between the size OpenBLAS runs on the calling thread and the bound: no BLAS threads
    q, h = _pair(np.float32, 2, (12000,))
    assert not lapack.axpy(h, q, -0.5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_small_updates_give_torchs_bits(dtype):
    p, g = _pair(dtype)
    numtorch.tensor(p).add_(numtorch.tensor(g), alpha=1.0)  # loads BLAS
    for size in (1, 7, 15, 16, 17, 33, 512, 5120):
        p, g = _pair(dtype, size, (size,))
        ours, theirs = numtorch.tensor(p), torch.tensor(p)
        ours.add_(numtorch.tensor(g), alpha=-0.01)
        theirs.add_(torch.tensor(g), alpha=-0.01)
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())

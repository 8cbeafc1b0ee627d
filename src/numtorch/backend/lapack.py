"""SciPy's LAPACK and BLAS as an optional accelerator for LU and triangular solves.

NumPy has no LU factorization, LU solve or triangular solve of its own: without SciPy they
are NumPy loops and general solves. Where SciPy is installed, getrf, getrs and trsm run
blocked Fortran instead, one call per matrix of a batch. NumPy stays the only requirement:
every function here returns None when SciPy (or a routine for the dtype) is missing, and
the caller then takes its NumPy path. Setting ``enabled = False`` forces that path.
"""

from __future__ import annotations

import importlib

from . import xp

enabled = True  # False forces the NumPy paths (tests compare the two)
_modules: dict = {}  # "lapack"/"blas" -> scipy.linalg module, or None when SciPy is missing
# by dtype.char (float32, float64): dtype.name is a Python-level property, a few µs per call
_PREFIX = {"f": "s", "d": "d"}  # numtorch has no complex linear algebra


def _routine(module: str, name: str, *arrays):
    dtype = arrays[0].dtype
    if not enabled or any(a.size == 0 for a in arrays):  # LAPACK rejects empty matrices
        return None
    prefix = _PREFIX.get(dtype.char)
    if prefix is None:
        return None
    if module not in _modules:
        # imported on first use, so that `import numtorch` never pays for SciPy
        try:
            _modules[module] = importlib.import_module(f"scipy.linalg.{module}")
        except ImportError:
            _modules[module] = None
    found = _modules[module]
    return None if found is None else getattr(found, prefix + name)


def _batched(array, core: int):
    """``array`` as (batch, *core dims) and its batch shape."""
    return array.reshape((-1,) + array.shape[-core:]), array.shape[:-core]


def getrf(a):
    """(LU, 1-based int32 pivots, info) of a (..., m, n) array, or None without SciPy."""
    factor = _routine("lapack", "getrf", a)
    if factor is None:
        return None
    m, n = a.shape[-2:]
    flat, batch = _batched(a, 2)
    # column-major matrices, as torch's LU and as getrs reads them without a copy
    lu = xp.empty((flat.shape[0], n, m), dtype=a.dtype).transpose(0, 2, 1)
    pivots = xp.empty((flat.shape[0], min(m, n)), dtype=xp.int32)
    info = xp.empty(flat.shape[0], dtype=xp.int32)
    for i, matrix in enumerate(flat):
        lu[i], piv, info[i] = factor(matrix)
        pivots[i] = piv + 1  # SciPy's wrapper gives 0-based pivots; torch keeps LAPACK's
    # splitting the batch axis keeps each matrix's strides: no copy
    return lu.reshape(a.shape), pivots.reshape(batch + pivots.shape[-1:]), info.reshape(batch)


def getrs(lu, pivots, b, trans: int):
    """``op(A)^-1 b`` from getrf's (LU, 1-based pivots) of A, op = (A, A^T, A^H)[trans];
    ``lu`` and ``b`` of the same batch shape. None without SciPy."""
    solve = _routine("lapack", "getrs", lu, b)
    if solve is None:
        return None
    flat_lu, batch = _batched(lu, 2)
    flat_piv = pivots.reshape(-1, pivots.shape[-1]) - 1
    flat_b, _ = _batched(b, 2)
    out = xp.empty(flat_b.shape, dtype=b.dtype)
    for i in range(flat_lu.shape[0]):
        out[i] = solve(flat_lu[i], flat_piv[i], flat_b[i], trans=trans)[0]
    return out.reshape(b.shape)


def trsm(a, b, *, upper: bool, left: bool, unitriangular: bool):
    """``X`` with ``T X = b`` (``X T = b`` when not ``left``), T the ``upper`` or lower
    triangle of ``a``; ``a`` and ``b`` of the same batch shape. None without SciPy.
    Like torch (and unlike a general solve), a zero on the diagonal gives inf/nan."""
    solve = _routine("blas", "trsm", a, b)
    if solve is None:
        return None
    flat_a, _ = _batched(a, 2)
    flat_b, _ = _batched(b, 2)
    out = xp.empty(flat_b.shape, dtype=b.dtype)
    # Row-major a and b are column-major a^T and b^T, which trsm reads without a copy:
    # T X = b is X^T T^T = b^T (and X T = b is T^T X^T = b^T), T^T the other triangle of a^T.
    options = {"side": int(left), "lower": int(upper), "diag": int(unitriangular)}
    for i in range(flat_a.shape[0]):
        out[i] = solve(1.0, flat_a[i].T, flat_b[i].T, **options).T
    return out.reshape(b.shape)


# Below this many elements the caller's NumPy form costs less than importing SciPy for it
# (small programs never import it for an update). Once SciPy's BLAS is loaded, axpy is
# faster at every size (1.3-3 µs against 4.5-9 µs for the fused NumPy form up to 5,120
# elements, whose result it gives bit for bit), so small updates take it too: up to the
# size OpenBLAS still runs on the calling thread (above it, where BLAS has threads, an
# update handed to them on loaded cores took several times longer).
AXPY_MIN_SIZE = 16384
_AXPY_ONE_THREAD = 10000
_axpy_of: dict = {}  # dtype.char -> SciPy's axpy, once loaded (the hot path's one lookup)


def axpy(x, y, alpha, min_size=AXPY_MIN_SIZE) -> bool:
    """``y += alpha * x`` in place in one pass over memory (BLAS axpy, the fused form of
    torch's ``add_(x, alpha=...)``), for arrays of one floating dtype, shape and contiguous
    layout, of at least ``min_size`` elements (or, once SciPy's BLAS is loaded, of at most
    10,000); False (nothing written) when the caller's NumPy path must run instead."""
    size = y.size
    update = _axpy_of.get(y.dtype.char) if enabled else None
    if size < min_size and (update is None or size > _AXPY_ONE_THREAD):
        return False
    if x.dtype != y.dtype or x.shape != y.shape or not size:
        return False
    if not y.flags.writeable or x.strides != y.strides:
        return False
    if not (y.flags.c_contiguous or y.flags.f_contiguous):
        return False
    if update is None:
        update = _routine("blas", "axpy", y)
        if update is None:
            return False
        _axpy_of[y.dtype.char] = update
    flat = y.ravel(order="K")  # a view: y is contiguous
    result = update(x.ravel(order="K"), flat, a=alpha)
    if result is not flat and not xp.shares_memory(result, flat):
        flat[...] = result  # f2py copied y after all
    return True

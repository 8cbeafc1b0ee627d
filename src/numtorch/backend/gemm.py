"""Matrix products through Intel's MKL when its wheel is installed (``pip install mkl``, the
``fast`` extra), NumPy's ``matmul`` otherwise: the products of linear layers, ``mm``/
``addmm``, the LSTM layer and the convolutions all go through ``matmul`` here.

Note [GEMM library]
NumPy's bundled OpenBLAS runs the single-precision GEMMs of an MLP or LSTM training step
about 1.15x slower than MKL, the library torch links (one thread, ``bench/blas_gemms.py``).
The ``mkl`` wheel ships ``libmkl_rt`` beside the interpreter's libraries without touching
NumPy, so its ``cblas_?gemm`` is called here through ``ctypes`` on the operands' memory, in
place: each operand must have a unit stride along one of its dims (a row- or column-major
matrix, e.g. a transposed view); anything else goes to NumPy. MKL wins on products with
at least 2^21 multiply-adds and an inner dimension of at least 128: on smaller ones the
call's fixed cost (a few µs) or MKL's own small-matrix path loses, and on the thin inner
dimensions of a convolution's input gradient (64) or a deep layer's weight gradient (49
positions) MKL is slower than OpenBLAS (1.3-1.7x). Either library rounds in its own order;
the results agree within float32 rounding, as torch's and NumPy's already do.

Set ``NUMTORCH_GEMM=numpy`` before the import (or call ``use_library("numpy")``) to keep
every product in NumPy; threadpoolctl (``numtorch.set_num_threads``) sets MKL's threads with
NumPy's once MKL is loaded.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import os
import sys

import numpy as xp

# the shape classes where MKL is faster (Note [GEMM library])
MIN_MULTIPLY_ADDS = 2**21
MIN_INNER = 128
MAX_STACK = 64  # products looped in Python; a longer stack stays one NumPy call
_INT_MAX = 2**31 - 1  # libmkl_rt's default interface takes 32-bit sizes

_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112


def _load_mkl():
    """MKL's single-dynamic library with ``cblas_sgemm``/``cblas_dgemm`` typed, or None."""
    names = [os.path.join(sys.prefix, "lib", f"libmkl_rt.so.{v}") for v in (3, 2)]
    names.append(os.path.join(sys.prefix, "Library", "bin", "mkl_rt.2.dll"))
    found = ctypes.util.find_library("mkl_rt")
    if found:
        names.append(found)
    for name in names:
        if os.sep in name and not os.path.exists(name):
            continue
        try:
            lib = ctypes.CDLL(name)
            sgemm, dgemm = lib.cblas_sgemm, lib.cblas_dgemm
        except (OSError, AttributeError):
            continue
        ints = [ctypes.c_int] * 6
        pointer, stride = ctypes.c_void_p, ctypes.c_int
        sgemm.argtypes = ints + [ctypes.c_float, pointer, stride, pointer, stride]
        sgemm.argtypes += [ctypes.c_float, pointer, stride]
        dgemm.argtypes = ints + [ctypes.c_double, pointer, stride, pointer, stride]
        dgemm.argtypes += [ctypes.c_double, pointer, stride]
        sgemm.restype = dgemm.restype = None
        return lib
    return None


_mkl = None
_gemm = {}  # dtype -> cblas function of the active library; empty: NumPy alone
# MKL is loaded on the first large product (about 0.15 s), not when numtorch is imported
_load_pending = False


def use_library(name: str) -> str:
    """Run the products in ``"mkl"`` (when it loads; else NumPy) or ``"numpy"``; returns the
    library now active."""
    if name not in ("mkl", "numpy"):
        raise ValueError(f"use_library: expected 'mkl' or 'numpy', got {name!r}")
    _select(name, lazily=False)
    return library()


def _select(name, lazily):
    global _mkl, _load_pending
    _gemm.clear()
    _load_pending = name == "mkl" and lazily
    if name == "mkl" and not lazily:
        if _mkl is None:
            _mkl = _load_mkl()
        if _mkl is not None:
            _gemm[xp.dtype(xp.float32)] = _mkl.cblas_sgemm
            _gemm[xp.dtype(xp.float64)] = _mkl.cblas_dgemm


def _resolve():
    if _load_pending:
        _select("mkl", lazily=False)


def library() -> str:
    """The library running the large float products: ``"mkl <version>"`` or ``"numpy"``."""
    _resolve()
    if not _gemm:
        return "numpy"
    buffer = ctypes.create_string_buffer(256)
    _mkl.MKL_Get_Version_String(buffer, len(buffer))
    words = buffer.value.decode(errors="replace").split()
    version = next((w.split("-")[0] for w in words if w[:1].isdigit()), "")
    return f"mkl {version}".strip()


def _layout(a, itemsize):
    """(transpose flag, leading dimension) of a matrix for a row-major cblas call, or None
    when neither of its dims has a unit stride."""
    rows, columns = a.shape
    row_stride, column_stride = a.strides
    if column_stride == itemsize or columns == 1:
        lead = row_stride // itemsize if rows > 1 else columns
        if row_stride % itemsize == 0 and lead >= max(1, columns):
            return _NO_TRANS, lead
    if row_stride == itemsize or rows == 1:
        lead = column_stride // itemsize if columns > 1 else rows
        if column_stride % itemsize == 0 and lead >= max(1, rows):
            return _TRANS, lead
    return None


def _product(gemm, a, b, out) -> bool:
    """``out = a @ b`` for 2-D operands through ``gemm`` in the shape classes where it is
    faster; False (nothing written) elsewhere."""
    m, k = a.shape
    if k < MIN_INNER or m * b.shape[1] * k < MIN_MULTIPLY_ADDS:
        return False
    return cblas_product(gemm, a, b, out)


def cblas_product(gemm, a, b, out) -> bool:
    """``out = a @ b`` for 2-D operands through a row-major ``cblas_?gemm``; False (nothing
    written) where an operand has no unit stride or a size past the 32-bit interface."""
    m, k = a.shape
    n = b.shape[1]
    itemsize = a.itemsize
    if out.strides[1] != itemsize and out.strides[0] == itemsize and n > 1:
        # a column-major result is the row-major product of the transposes
        a, b, out, m, n = b.T, a.T, out.T, n, m
    layouts = _layout(a, itemsize), _layout(b, itemsize), _layout(out, itemsize)
    if None in layouts or layouts[2][0] != _NO_TRANS:
        return False
    if max(m, n, k, *(lead for _, lead in layouts)) > _INT_MAX:
        return False
    (trans_a, lda), (trans_b, ldb), (_, ldc) = layouts
    gemm(_ROW_MAJOR, trans_a, trans_b, m, n, k, 1.0, a.ctypes.data, lda, b.ctypes.data, ldb,
         0.0, out.ctypes.data, ldc)  # fmt: skip
    return True


def function(dtype):
    """The active library's ``cblas_?gemm`` for ``dtype``, or None (NumPy's products)."""
    _resolve()
    return _gemm.get(xp.dtype(dtype))


def matmul(a, b, out=None):
    """``numpy.matmul(a, b, out=out)``, through MKL for the shape classes where it is faster
    (Note [GEMM library]): matrices or stacks of them (broadcast as ``matmul`` does, at most
    ``MAX_STACK`` products), of one float dtype."""
    if (
        a.ndim < 2
        or b.ndim < 2
        or a.shape[-1] != b.shape[-2]
        or a.shape[-2] * a.shape[-1] * b.shape[-1] < MIN_MULTIPLY_ADDS
    ):
        return xp.matmul(a, b, out=out)
    if _load_pending:
        _resolve()
    gemm = _gemm.get(a.dtype) if _gemm else None
    if gemm is None or b.dtype != a.dtype:
        return xp.matmul(a, b, out=out)
    try:
        lead = xp.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        return xp.matmul(a, b, out=out)  # NumPy's error
    shape = lead + (a.shape[-2], b.shape[-1])
    count = math.prod(lead)
    if out is None:
        result = xp.empty(shape, a.dtype)
    elif (
        out.shape != shape
        or out.dtype != a.dtype
        or not out.flags.writeable
        or xp.may_share_memory(out, a)
        or xp.may_share_memory(out, b)
    ):
        return xp.matmul(a, b, out=out)
    else:
        result = out
    if count > MAX_STACK or count == 0:
        return xp.matmul(a, b, out=result)
    if not lead:
        done = _product(gemm, a, b, result)
    else:  # the products of a stack share shapes and strides, so the first one decides
        a = xp.broadcast_to(a, lead + a.shape[-2:])
        b = xp.broadcast_to(b, lead + b.shape[-2:])
        index = list(xp.ndindex(*lead))
        done = _product(gemm, a[index[0]], b[index[0]], result[index[0]])
        for i in index[1:] if done else ():
            _product(gemm, a[i], b[i], result[i])
    if not done:
        xp.matmul(a, b, out=result)
    return result


_select("numpy" if os.environ.get("NUMTORCH_GEMM", "").lower() == "numpy" else "mkl", lazily=True)

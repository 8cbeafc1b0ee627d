"""The memory layout of torch's linear-algebra results.

Note [LAPACK layout]: torch's LAPACK-backed kernels (inv, solve, cholesky, qr, svd, eigh,
the triangular and LU solves, householder_product, ormqr, geqrf, lstsq) hand back the
Fortran-order buffers LAPACK wrote: each matrix of a batch is column-major, the batch dims
stay row-major (a (2, 3, 3) inverse has strides (9, 1, 3)). The layout is visible to torch
code: ``.view(-1)`` of such a result raises, ``.reshape(-1)`` copies (so a later in-place op
on it leaves the result alone), ``is_contiguous()`` is False. NumPy's solvers give row-major
arrays; the forwards pass their results through ``column_major`` so that numtorch's layout,
and everything that depends on it, is torch's.
"""

from __future__ import annotations

from ..backend import xp


def column_major(array):
    """``array`` with each matrix (the last two dims) stored column-major, batches in order."""
    if array.ndim < 2:
        return array
    return xp.swapaxes(xp.ascontiguousarray(xp.swapaxes(array, -1, -2)), -1, -2)


def column_major_within(array, rows: int):
    """``array`` (..., m, k) column-major inside a buffer of ``rows >= m`` rows per matrix,
    as LAPACK's least-squares drivers write their solution into the right-hand side."""
    if array.ndim < 2 or rows <= array.shape[-2]:
        return column_major(array)
    shape = array.shape[:-2] + (array.shape[-1], rows)
    buffer = xp.swapaxes(xp.zeros(shape, array.dtype), -1, -2)
    buffer[..., : array.shape[-2], :] = array
    return buffer[..., : array.shape[-2], :]

"""``linalg.inv_ex`` and ``linalg.solve_ex``: the inverse and the solve that report a
singular matrix in ``info`` (per batch element, the 1-based index of LU's first zero pivot)
instead of raising, unless ``check_errors``.

Where a matrix is singular LAPACK leaves the result undefined (torch shows its infinities);
here those batch elements are NaN.
"""

from __future__ import annotations

from .._core.tensor import Tensor
from ..backend import xp
from .linalg_solve import LinAlgError, _inv, _is_vector_rhs, check_matrices, solve
from .return_types import structseq

inv_ex_type = structseq("linalg_inv_ex", ("inverse", "info"))
solve_ex_type = structseq("linalg_solve_ex", ("result", "info"))


def _zero_pivots(a):
    """info per batch element: 0, or where partial-pivoting LU meets its first zero pivot."""
    batch = a.reshape(-1, a.shape[-2], a.shape[-1])
    info = xp.zeros(len(batch), xp.int32)
    for index, matrix in enumerate(batch):
        lu = matrix.astype(xp.complex128 if matrix.dtype.kind == "c" else xp.float64)
        for j in range(lu.shape[0]):
            p = j + int(xp.argmax(xp.abs(lu[j:, j])))
            if lu[p, j] == 0:
                info[index] = j + 1
                break
            lu[[j, p]] = lu[[p, j]]
            lu[j + 1 :, j:] -= xp.outer(lu[j + 1 :, j] / lu[j, j], lu[j, j:])
    return info.reshape(a.shape[:-2])


def _per_matrix(A, info, fn, shape):
    """The invertible batch elements' results computed one by one, NaN for the others."""
    out = xp.full(shape, xp.nan, A.dtype)
    flat_out = out.reshape((-1,) + tuple(shape[A.ndim - 2 :]))
    for index, (matrix, bad) in enumerate(zip(A.reshape(-1, *A.shape[-2:]), info.reshape(-1))):
        if not bad:
            flat_out[index] = fn(matrix, index)
    return Tensor._make(out), Tensor._make(info)


def inv_ex(A, *, check_errors=False):
    """``(inverse, info)``: ``linalg.inv`` that reports singular matrices in ``info``.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.inv_ex(torch.tensor([[2.0, 0.0], [0.0, 4.0]])).info
        tensor(0, dtype=torch.int32)
    """
    check_matrices(A, "linalg.inv_ex")
    try:
        return inv_ex_type(_inv(A), Tensor._make(xp.zeros(A.shape[:-2], xp.int32)))
    except LinAlgError as error:
        if check_errors:
            raise LinAlgError(str(error).replace("linalg.inv:", "linalg.inv_ex:")) from None
    data = A._data
    info = _zero_pivots(data)
    return inv_ex_type(*_per_matrix(data, info, lambda m, i: xp.linalg.inv(m), data.shape))


def solve_ex(A, B, *, left=True, check_errors=False):
    """``(result, info)``: ``linalg.solve`` that reports singular matrices in ``info``."""
    check_matrices(A, "linalg.solve_ex")
    try:
        result = solve(A, B, left=left)
        return solve_ex_type(result, Tensor._make(xp.zeros(A.shape[:-2], xp.int32)))
    except LinAlgError as error:
        if check_errors:
            raise LinAlgError(str(error).replace("linalg.solve:", "linalg.solve_ex:")) from None
    data, vector = A._data, _is_vector_rhs(A, B)
    info = _zero_pivots(data)
    batch = data.shape[:-2]
    rhs = xp.broadcast_to(B._data, batch + B.shape[-1 if vector else -2 :])
    rhs = rhs.reshape((-1,) + rhs.shape[len(batch) :])

    def one(matrix, index):
        if left:
            return xp.linalg.solve(matrix, rhs[index])
        return xp.linalg.solve(matrix.T, rhs[index].T).T

    shape = batch + rhs.shape[1:]
    return solve_ex_type(*_per_matrix(data, info, one, shape))

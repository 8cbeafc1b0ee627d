"""LDL factorization of symmetric (or Hermitian) indefinite matrices: ``linalg.ldl_factor``,
``linalg.ldl_factor_ex`` and ``linalg.ldl_solve``.

The factorization is LAPACK's unblocked sytf2/hetf2 with ``uplo='L'``, written over NumPy:
Bunch-Kaufman diagonal pivoting, ``A = P L D L^T P^T`` (``L^H`` when Hermitian) with ``D``
made of 1x1 and 2x2 blocks. ``LD`` holds ``L`` below the diagonal (unit diagonal implied)
and ``D`` on and next to it; ``pivots`` are LAPACK's 1-based interchanges, negative (and
repeated) for a 2x2 block. The pivot decisions are LAPACK's exactly; the values agree with
torch's LAPACK to rounding (its BLAS fuses and reorders products). Only the lower triangle of
``A`` is read. torch has no derivative for these ops: its graphs record ``NotImplemented``.
"""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core.op import defop, not_implemented
from .._core.tensor import Tensor
from ..autograd.forward_grad import no_forward_derivative
from ..backend import xp
from .lapack_layout import column_major
from .return_types import structseq

ldl_factor_type = structseq("linalg_ldl_factor", ("LD", "pivots"))
ldl_factor_ex_type = structseq("linalg_ldl_factor_ex", ("LD", "pivots", "info"))

# Bunch-Kaufman's threshold: bounds the growth of the entries of L
_ALPHA = (1.0 + math.sqrt(17.0)) / 8.0


def _abs1(x):
    """LAPACK's pivot size: |x| for reals, |re| + |im| for complex numbers."""
    return xp.abs(x.real) + xp.abs(x.imag) if xp.iscomplexobj(x) else xp.abs(x)


def _iamax(values) -> int:
    """BLAS i?amax: the first largest entry; a NaN wins only in first place."""
    if values[0] != values[0]:
        return 0
    return int(xp.argmax(xp.where(values != values, -1.0, values)))


def _diagonal_size(a, i, hermitian):
    return abs(a[i, i].real) if hermitian else _abs1(a[i, i])


def _swap(a, kk, kp, k, kstep, hermitian):
    """Interchange rows and columns kk and kp of the trailing lower triangle."""
    n = a.shape[0]
    if kp < n - 1:
        a[kp + 1 :, [kk, kp]] = a[kp + 1 :, [kp, kk]]
    between = a[kk + 1 : kp, kk].copy()
    a[kk + 1 : kp, kk] = a[kp, kk + 1 : kp].conj() if hermitian else a[kp, kk + 1 : kp]
    a[kp, kk + 1 : kp] = between.conj() if hermitian else between
    if hermitian:
        a[kp, kk] = a[kp, kk].conj()
    a[kk, kk], a[kp, kp] = a[kp, kp], a[kk, kk]
    if kstep == 2:
        a[k + 1, k], a[kp, k] = a[kp, k], a[k + 1, k]


def _real_diagonal(a, start, stop):
    # hetf2 keeps the diagonal of a Hermitian matrix exactly real
    index = xp.arange(start, stop)
    a[index, index] = a[index, index].real


def _choose_pivot(a, k, hermitian):
    """(kp, kstep, singular): the interchange and block size sytf2 picks at column k."""
    n = a.shape[0]
    absakk = _diagonal_size(a, k, hermitian)
    if k < n - 1:
        column = _abs1(a[k + 1 :, k])
        imax = k + 1 + _iamax(column)
        colmax = column[imax - k - 1]
    else:
        imax, colmax = k, 0.0
    if max(absakk, colmax) == 0 or absakk != absakk:
        return k, 1, True
    if absakk >= _ALPHA * colmax:
        return k, 1, False
    row = _abs1(a[imax, k:imax])
    rowmax = row[_iamax(row)]
    if imax < n - 1:
        below = _abs1(a[imax + 1 :, imax])
        rowmax = max(rowmax, below[_iamax(below)])
    if absakk >= _ALPHA * colmax * (colmax / rowmax):
        return k, 1, False
    if _diagonal_size(a, imax, hermitian) >= _ALPHA * rowmax:
        return imax, 1, False
    return imax, 2, False


def _eliminate_1x1(a, k, hermitian):
    # A22 -= x d11 x^T (x^H when Hermitian); x /= d11
    x = a[k + 1 :, k].copy()
    if hermitian:
        d11 = 1.0 / a[k, k].real
        a[k + 1 :, k + 1 :] += xp.multiply.outer(x, (-d11 * x).conj())
        _real_diagonal(a, k, a.shape[0])
    else:
        d11 = 1.0 / a[k, k]
        a[k + 1 :, k + 1 :] += xp.multiply.outer(x, -d11 * x)
    a[k + 1 :, k] = x * d11


def _eliminate_2x2(a, k, hermitian):
    n = a.shape[0]
    if k >= n - 2:
        return
    ck, ck1 = a[k + 2 :, k].copy(), a[k + 2 :, k + 1].copy()
    if hermitian:
        d = abs(a[k + 1, k])
        d11 = a[k + 1, k + 1].real / d
        d22 = a[k, k].real / d
        t = 1.0 / (d11 * d22 - 1.0)
        d21 = a[k + 1, k] / d
        d = t / d
        wk = d * (d11 * ck - d21 * ck1)
        wkp1 = d * (d22 * ck1 - d21.conj() * ck)
        a[k + 2 :, k + 2 :] = (
            a[k + 2 :, k + 2 :]
            - xp.multiply.outer(ck, wk.conj())
            - xp.multiply.outer(ck1, wkp1.conj())
        )
        _real_diagonal(a, k + 2, n)
    else:
        d21 = a[k + 1, k]
        d11 = a[k + 1, k + 1] / d21
        d22 = a[k, k] / d21
        t = 1.0 / (d11 * d22 - 1.0)
        d21 = t / d21
        wk = d21 * (d11 * ck - ck1)
        wkp1 = d21 * (d22 * ck1 - ck)
        a[k + 2 :, k + 2 :] = (
            a[k + 2 :, k + 2 :] - xp.multiply.outer(ck, wk) - xp.multiply.outer(ck1, wkp1)
        )
    a[k + 2 :, k] = wk
    a[k + 2 :, k + 1] = wkp1


def _sytf2(a, hermitian):
    """Factor one matrix in place (lower triangle); returns (pivots, info)."""
    n = a.shape[0]
    pivots = xp.zeros(n, dtype=xp.int32)
    info = 0
    k = 0
    while k < n:
        kp, kstep, singular = _choose_pivot(a, k, hermitian)
        if singular:
            info = info or k + 1
        else:
            kk = k + kstep - 1
            if kp != kk:
                _swap(a, kk, kp, k, kstep, hermitian)
            if hermitian:
                _real_diagonal(a, k, k + kstep)
            if kstep == 1:
                _eliminate_1x1(a, k, hermitian)
            else:
                _eliminate_2x2(a, k, hermitian)
        if hermitian and singular:
            a[k, k] = a[k, k].real
        if kstep == 1:
            pivots[k] = kp + 1
        else:
            pivots[k] = pivots[k + 1] = -(kp + 1)
        k += kstep
    return pivots, info


def _factor(A, hermitian):
    n = A.shape[-1]
    batch = A.shape[:-2]
    matrices = A.reshape((math.prod(batch), n, n)).copy()
    pivots = xp.zeros((matrices.shape[0], n), dtype=xp.int32)
    info = xp.zeros(matrices.shape[0], dtype=xp.int32)
    for i, matrix in enumerate(matrices):
        pivots[i], info[i] = _sytf2(matrix, hermitian and xp.iscomplexobj(matrix))
    LD = xp.tril(matrices)  # torch zeroes what LAPACK leaves above the diagonal
    # LAPACK's factors and solutions are column-major matrices, as torch returns them
    return column_major(LD.reshape(A.shape)), pivots.reshape(batch + (n,)), info.reshape(batch)


@defop(
    batch=batch_rules.first_only,
    name="linalg_ldl_factor_ex",
    schema_args=3,  # torch's also takes check_errors
    node="NotImplemented",
    outputs=3,
    input=not_implemented("linalg_ldl_factor_ex"),
    jvp=no_forward_derivative("linalg_ldl_factor_ex"),
)
def ldl_factor_ex_op(input, hermitian):
    return _factor(input, hermitian)


def _solve_one(LD, pivots, B, hermitian):
    """LAPACK's sytrs/hetrs (lower): B overwritten by A^-1 B."""
    n = LD.shape[0]
    conj = (lambda v: v.conj()) if hermitian else (lambda v: v)
    # L D Y = P^T B
    k = 0
    while k < n:
        if pivots[k] > 0:
            kp = pivots[k] - 1
            if kp != k:
                B[[k, kp]] = B[[kp, k]]
            B[k + 1 :] -= xp.multiply.outer(LD[k + 1 :, k], B[k])
            B[k] *= 1.0 / (LD[k, k].real if hermitian else LD[k, k])
            k += 1
        else:
            kp = -pivots[k] - 1
            if kp != k + 1:
                B[[k + 1, kp]] = B[[kp, k + 1]]
            B[k + 2 :] -= xp.multiply.outer(LD[k + 2 :, k], B[k])
            B[k + 2 :] -= xp.multiply.outer(LD[k + 2 :, k + 1], B[k + 1])
            akm1k = LD[k + 1, k]
            akm1 = LD[k, k] / (akm1k.conj() if hermitian else akm1k)
            ak = LD[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1.0
            bkm1 = B[k] / (akm1k.conj() if hermitian else akm1k)
            bk = B[k + 1] / akm1k
            B[k] = (ak * bkm1 - bk) / denom
            B[k + 1] = (akm1 * bk - bkm1) / denom
            k += 2
    # L^T X = Y (L^H when Hermitian)
    k = n - 1
    while k >= 0:
        if pivots[k] > 0:
            B[k] -= conj(LD[k + 1 :, k]) @ B[k + 1 :]
            kp = pivots[k] - 1
            if kp != k:
                B[[k, kp]] = B[[kp, k]]
            k -= 1
        else:
            B[k] -= conj(LD[k + 1 :, k]) @ B[k + 1 :]
            B[k - 1] -= conj(LD[k + 1 :, k - 1]) @ B[k + 1 :]
            kp = -pivots[k] - 1
            if kp != k:
                B[[k, kp]] = B[[kp, k]]
            k -= 2
    return B


@defop(
    name="linalg_ldl_solve",
    node="NotImplemented",
    LD=not_implemented("linalg_ldl_solve"),
    B=not_implemented("linalg_ldl_solve"),
    jvp=no_forward_derivative("linalg_ldl_solve"),
)
def ldl_solve_op(LD, pivots, B, hermitian):
    n = LD.shape[-1]
    batch = xp.broadcast_shapes(LD.shape[:-2], pivots.shape[:-1], B.shape[:-2])
    if math.prod(batch + B.shape[-2:]) == 0:  # nothing to solve (reshape(-1, ...) can't)
        return column_major(xp.zeros(batch + B.shape[-2:], B.dtype))
    LD = xp.broadcast_to(LD, batch + LD.shape[-2:]).reshape((-1, n, n))
    pivots = xp.broadcast_to(pivots, batch + (n,)).reshape((-1, n))
    X = xp.broadcast_to(B, batch + B.shape[-2:]).reshape((-1,) + B.shape[-2:]).copy()
    for i in range(X.shape[0]):
        _solve_one(LD[i], pivots[i], X[i], hermitian and xp.iscomplexobj(X))
    return column_major(X.reshape(batch + B.shape[-2:]))


def check_ldl_input(A: Tensor, name: str) -> None:
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(
            f"{name}: A must be batches of square matrices, but they are "
            f"{A.shape[-2]} by {A.shape[-1]} matrices"
        )
    if not (A.dtype.is_floating_point or A.dtype.is_complex):
        raise RuntimeError(
            f"{name}: Expected a floating point or complex tensor as input. "
            f"Got {A.dtype.scalar_name}"
        )
    if A._data.dtype.char not in "fdFD":  # float16 and bfloat16: no LAPACK kernel
        raise NotImplementedError(
            f"\"ldl_factor_kernel_cpu\" not implemented for '{A.dtype.scalar_name}'"
        )


def _raise_failed(info, name):
    flat = info._data.reshape(-1)
    bad = xp.nonzero(flat)[0]
    if bad.size:
        i = int(bad[0])
        prefix = f"(Batch element {i}): " if info.ndim else ""
        raise RuntimeError(
            f"torch.{name}: {prefix}The factorization could not be completed because the "
            f"input is singular: D[{int(flat[i])}] is zero (LAPACK's info = {int(flat[i])}); "
            "call linalg.ldl_factor_ex to get the factors and info without this error"
        )


def ldl_factor_ex(A, *, hermitian=False, check_errors=False):
    """``(LD, pivots, info)``: ``A = P L D L^T P^T`` by Bunch-Kaufman pivoting (``L^H`` when
    ``hermitian``), packed as LAPACK's sytrf packs it; ``info`` is the first zero block of
    ``D`` (1-based), or 0.

    Example:
        >>> import numtorch as torch
        >>> A = torch.tensor([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [2.0, 3.0, 0.0]])
        >>> torch.linalg.ldl_factor_ex(A).pivots
        tensor([-3, -3,  3], dtype=torch.int32)
    """
    check_ldl_input(A, "torch.linalg.ldl_factor_ex")
    LD, pivots, info = ldl_factor_ex_op(A, bool(hermitian))
    if check_errors:
        _raise_failed(info, "linalg.ldl_factor_ex")
    return ldl_factor_ex_type(LD, pivots, info)


def ldl_factor(A, *, hermitian=False):
    """``(LD, pivots)`` of ``A = P L D L^T P^T`` (see ``ldl_factor_ex``); raises when ``D``
    is singular.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.ldl_factor(torch.tensor([[4.0, 1.0], [1.0, 3.0]])).LD
        tensor([[4.0000, 0.0000],
                [0.2500, 2.7500]])
    """
    check_ldl_input(A, "torch.linalg.ldl_factor_ex")
    LD, pivots, info = ldl_factor_ex_op(A, bool(hermitian))
    _raise_failed(info, "linalg.ldl_factor")
    return ldl_factor_type(LD, pivots)


def ldl_solve(LD, pivots, B, *, hermitian=False):
    """The solution ``X`` of ``A X = B`` from ``ldl_factor``'s ``(LD, pivots)``; batch
    dimensions broadcast.

    Example:
        >>> import numtorch as torch
        >>> LD, pivots = torch.linalg.ldl_factor(torch.tensor([[4.0, 1.0], [1.0, 3.0]]))
        >>> torch.linalg.ldl_solve(LD, pivots, torch.tensor([[5.0], [4.0]]))
        tensor([[1.],
                [1.]])
    """
    name = "torch.linalg.ldl_solve"
    # torch's order: LD's shape (called A in its messages), the dtypes, B's rank, pivots
    if LD.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if LD.shape[-1] != LD.shape[-2]:
        raise RuntimeError(
            f"{name}: A must be batches of square matrices, but they are "
            f"{LD.shape[-2]} by {LD.shape[-1]} matrices"
        )
    if LD.dtype != B.dtype:
        raise RuntimeError(
            f"Expected b and A to have the same dtype, but found b of type "
            f"{B.dtype.scalar_name} and A of type {LD.dtype.scalar_name} instead."
        )
    if B.ndim < 2:
        raise IndexError(
            "Dimension out of range (expected to be in range of [-1, 0], but got -2)"
            if B.ndim == 1
            else f"{name}: The input tensor B must have at least 2 dimensions."
        )
    if pivots.ndim != LD.ndim - 1 or pivots.shape[-1] != LD.shape[-1]:
        raise RuntimeError(
            f"{name}: Expected LD.shape[:-1] and pivots.shape to be the same, but got "
            f"pivots with shape {list(pivots.shape)} instead"
        )
    if pivots.dtype.is_floating_point or pivots.dtype.is_complex:
        raise RuntimeError(
            f"{name}: Expected pivots to be integers. Got {pivots.dtype.scalar_name}"
        )
    if B.shape[-2] != LD.shape[-1]:
        raise RuntimeError(
            f"Incompatible matrix sizes for {name}: each A matrix is {LD.shape[-2]} by "
            f"{LD.shape[-1]} but each b matrix is {B.shape[-2]} by {B.shape[-1]}"
        )
    check_ldl_input(LD, name)
    return ldl_solve_op(LD, pivots, B, bool(hermitian))

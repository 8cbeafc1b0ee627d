"""LU factorization with partial pivoting: ``linalg.lu_factor(_ex)``, ``linalg.lu``,
``lu_unpack``, ``linalg.lu_solve`` and the deprecated ``torch.lu`` / ``torch.lu_solve``.

The factorization is LAPACK's getrf written over NumPy (one vectorised elimination step per
column, all batch entries at once): ``A = P L U`` with pivots 1-based row swaps in int32.
Derivatives follow torch's linalg_lu_backward: for square matrices ``gA = P L^-H phi U^-H``
with ``phi = tril_-1(L^H gL) + triu(gU U^H)``; wide and tall ones split off the square block.
Forward: ``P^T dA = dL U + L dU`` splits ``K = L^-1 P^T dA U^-1`` into ``dL = L tril_-1(K)``
and ``dU = triu(K) U`` on the square block, the rest solved from the other block.
"""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core.kernel_dtypes import COMPLEX, FLOATING, kernel
from .._core.op import defop, export
from .._core.tensor import Tensor
from ..autograd.forward_grad import add_terms, align, batched
from ..backend import lapack, xp
from .concatenation import cat
from .lapack_layout import column_major
from .linalg_functions import _deprecated
from .linalg_solve import _solve_triangular, check_matrices
from .return_types import structseq

lu_factor_type = structseq("linalg_lu_factor", ("LU", "pivots"))
lu_factor_ex_type = structseq("linalg_lu_factor_ex", ("LU", "pivots", "info"))
lu_with_info_type = structseq("_lu_with_info", ("LU", "pivots", "info"))
lu_type = structseq("linalg_lu", ("P", "L", "U"))
lu_unpack_type = structseq("lu_unpack", ("P", "L", "U"))


# -- arrays ----------------------------------------------------------------------------------
def _getrf(a):
    """(LU, pivots, info) of a (..., m, n) array, as LAPACK's getrf (SciPy's when present)."""
    factored = lapack.getrf(a)
    if factored is not None:
        return factored
    m, n = a.shape[-2:]
    k = min(m, n)
    batch_shape = a.shape[:-2]
    lu = a.reshape((math.prod(batch_shape), m, n)).copy()  # -1 is ambiguous when empty
    pivots = xp.zeros((lu.shape[0], k), dtype=xp.int32)
    info = xp.zeros(lu.shape[0], dtype=xp.int32)
    rows = xp.arange(lu.shape[0])
    for j in range(k):
        column = lu[:, j:, j]
        # LAPACK's pivot: the largest |re| + |im| (the modulus, for real matrices)
        p = j + xp.argmax(xp.abs(column.real) + xp.abs(column.imag), axis=1)
        pivots[:, j] = p + 1
        row_j = lu[rows, j].copy()
        lu[rows, j] = lu[rows, p]
        lu[rows, p] = row_j
        pivot = lu[:, j, j]
        zero = pivot == 0
        info[zero & (info == 0)] = j + 1
        # a zero pivot leaves its column (all zeros below it) unscaled, as LAPACK does
        lu[:, j + 1 :, j] /= xp.where(zero, 1, pivot)[:, None]
        lu[:, j + 1 :, j + 1 :] -= lu[:, j + 1 :, j : j + 1] * lu[:, j : j + 1, j + 1 :]
    return (
        lu.reshape(a.shape),
        pivots.reshape(batch_shape + (k,)),
        info.reshape(batch_shape),
    )


def _permutation(pivots, m: int, dtype):
    """The P of ``A = P L U`` from getrf's row swaps."""
    flat = pivots.reshape((math.prod(pivots.shape[:-1]), pivots.shape[-1])).astype(xp.int64) - 1
    perm = xp.broadcast_to(xp.arange(m), (flat.shape[0], m)).copy()
    rows = xp.arange(flat.shape[0])
    for j in range(flat.shape[1]):
        target = flat[:, j]
        kept = perm[:, j].copy()
        perm[:, j] = perm[rows, target]
        perm[rows, target] = kept
    P = xp.zeros((flat.shape[0], m, m), dtype=dtype)
    P[rows[:, None], perm, xp.arange(m)] = 1  # row perm[i] of A is row i of L U
    return P.reshape(pivots.shape[:-1] + (m, m))


def _split(lu):
    m, n = lu.shape[-2:]
    k = min(m, n)
    L = xp.tril(lu[..., :, :k], -1)
    idx = xp.arange(k)
    L[..., idx, idx] = 1
    return L, xp.triu(lu[..., :k, :])


# -- the derivative shared by lu_factor and lu -----------------------------------------------
def _lu_backward(gL, gU, P, L, U):
    """torch's linalg_lu_backward: square, wide (m < n) and tall (m > n) matrices."""
    m, n = L.shape[-2], U.shape[-1]
    if m == n:
        phi = (L.mH @ gL).tril(-1) + (gU @ U.mH).triu()
        phi = _solve_triangular(U.mH, phi, False, False, False)  # phi U^-H
        return P @ _solve_triangular(L.mH, phi, True, True, True)  # L^-H ...
    if m < n:
        # A1 = P L U1, A2 = P L U2 with U1 square
        U1, gU1, gU2 = U[..., :, :m], gU[..., :, :m], gU[..., :, m:]
        phi = (L.mH @ gL - gU.triu() @ U.mH).tril(-1)
        phi = _solve_triangular(U1.mH, phi, False, False, False)
        phi = cat([phi + gU1.triu(), gU2], -1)
        return P @ _solve_triangular(L.mH, phi, True, True, True)
    # tall: A1 = P L1 U, A2 = P L2 U with L1 square
    L1, gL1, gL2 = L[..., :n, :], gL[..., :n, :], gL[..., n:, :]
    phi = (gU @ U.mH - L.mH @ gL.tril(-1)).triu()
    phi = _solve_triangular(L1.mH, phi, True, True, True)
    phi = cat([phi + gL1.tril(-1), gL2], -2)
    return P @ _solve_triangular(U.mH, phi, False, False, False)


@batched
def _lu_jvp(dA, P, L, U):
    """(dL, dU) of ``A = P L U`` in the direction ``dA`` (which may carry a batch dim)."""
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    PdA = P.mT @ dA
    L1, U1 = L[..., :k, :k], U[..., :k, :k]
    K = _solve_triangular(L1, PdA[..., :k, :k], False, True, True)  # L1^-1 (unit diagonal)
    K = _solve_triangular(U1, K, True, False, False)  # ... U1^-1
    dL1, dU1 = L1 @ K.tril(-1), K.triu() @ U1
    if m < n:  # P^T dA2 = dL1 U2 + L1 dU2
        rest = PdA[..., :, k:] - dL1 @ U[..., :, k:]
        return dL1, cat([dU1, _solve_triangular(L1, rest, False, True, True)], -1)
    if m > n:  # P^T dA2 = dL2 U1 + L2 dU1
        rest = PdA[..., k:, :] - L[..., k:, :] @ dU1
        return cat([dL1, _solve_triangular(U1, rest, True, False, False)], -2), dU1
    return dL1, dU1


def _unpack_tensor(lu: Tensor):
    """Differentiable L and U from a packed LU tensor."""
    m, n = lu.shape[-2:]
    k = min(m, n)
    eye = Tensor._make(xp.eye(m, k, dtype=lu._data.dtype))
    return lu[..., :, :k].tril(-1) + eye, lu[..., :k, :].triu()


def _lu_factor_grad(grads, result, result1):
    lu, gLU = result, grads[0]
    L, U = _unpack_tensor(lu)
    P = Tensor._make(_permutation(result1._data, lu.shape[-2], lu._data.dtype))
    k = min(lu.shape[-2:])
    # torch hands the packed gradient's blocks over untrimmed: _lu_backward's products with
    # the triangular factors then read the other factor's part against zeros (0 * inf = NaN)
    return _lu_backward(gLU[..., :, :k], gLU[..., :k, :], P, L, U)


@batched
def _lu_factor_jvp(input_t, result, result1):
    L, U = _unpack_tensor(result)
    P = Tensor._make(_permutation(result1._data, result.shape[-2], result._data.dtype))
    dL, dU = _lu_jvp(input_t, P, L, U)
    # packed as the factors are: dL's strict lower part (zero diagonal) beside dU
    m, n = result.shape[-2:]
    if m >= n:
        return cat([dL[..., :n, :] + dU, dL[..., n:, :]], -2), None, None
    return cat([dU[..., :, :m] + dL, dU[..., :, m:]], -1), None, None


@defop(
    batch=batch_rules.first_only,
    name="linalg_lu_factor_ex",
    dtypes=kernel("lu_cpu", FLOATING | COMPLEX),
    node="LinalgLuFactorExBackward0",
    outputs=3,
    input=_lu_factor_grad,
    jvp=_lu_factor_jvp,
)
def _lu_factor_ex(input):
    return _getrf(input)


def _check_lu_input(A, name):
    if A.ndim < 2:
        raise RuntimeError(
            f"{name}: Expected tensor with 2 or more dimensions. Got size: {list(A.shape)} instead"
        )
    if A._data.dtype.kind not in "fcV":
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{A.dtype.scalar_name}'")


def _check_pivot(pivot, name):
    if not pivot:
        raise RuntimeError(f"{name}: LU without pivoting is not implemented on the CPU")


def _raise_singular(info, name):
    flat = info._data.reshape(-1)
    bad = xp.nonzero(flat)[0]
    if bad.size:
        i = int(bad[0])
        prefix = f"(Batch element {i}): " if info.ndim else ""
        j = int(flat[i])
        raise RuntimeError(
            f"torch.{name}: {prefix}U[{j},{j}] is zero and using it on lu_solve would result "
            "in a division by zero. If you still want to perform the factorization, consider "
            "calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)"
        )


def lu_factor_ex(A, *, pivot=True, check_errors=False):
    """``(LU, pivots, info)``: ``A = P L U`` packed in one matrix (L below the diagonal,
    unit diagonal implied), LAPACK's 1-based row swaps, and the first zero pivot (or 0).

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.lu_factor_ex(torch.tensor([[1.0, 2.0], [3.0, 4.0]])).pivots
        tensor([2, 2], dtype=torch.int32)
    """
    _check_lu_input(A, "torch.lu_factor")
    _check_pivot(pivot, "linalg.lu_factor_ex")
    LU, pivots, info = _lu_factor_ex(A)
    if check_errors:
        _raise_singular(info, "linalg.lu_factor_ex")
    return lu_factor_ex_type(LU, pivots, info)


def lu_factor(A, *, pivot=True):
    """``(LU, pivots)`` of ``A = P L U`` (see ``lu_factor_ex``); raises for singular ``A``.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.lu_factor(torch.tensor([[1.0, 2.0], [3.0, 4.0]])).LU
        tensor([[3.0000, 4.0000],
                [0.3333, 0.6667]])
    """
    _check_lu_input(A, "torch.lu_factor")
    _check_pivot(pivot, "linalg.lu_factor")
    LU, pivots, info = _lu_factor_ex(A)
    _raise_singular(info, "linalg.lu_factor")
    return lu_factor_type(LU, pivots)


@export(method=True)
def lu(A, pivot=True, get_infos=False):
    """Deprecated ``linalg.lu_factor``: ``(LU, pivots)``, with ``info`` when ``get_infos``."""
    _deprecated(
        "lu",
        "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex "
        "and will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, "
        "compute_pivots)\nshould be replaced with\nLU, pivots = torch.linalg.lu_factor(A, "
        "compute_pivots)\nand\nLU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)"
        "\nshould be replaced with\nLU, pivots, info = torch.linalg.lu_factor_ex(A, "
        "compute_pivots)",
    )
    _check_lu_input(A, "torch.lu_factor")
    _check_pivot(pivot, "linalg.lu_factor_ex")
    LU, pivots, info = _lu_factor_ex(A)
    return lu_with_info_type(LU, pivots, info) if get_infos else (LU, pivots)


# -- lu_unpack and linalg.lu -----------------------------------------------------------------
def _without_p(results):
    # P is a constant of the factorization: it gets no grad_fn, as in torch
    P = results[0]
    P._grad_fn, P._requires_grad = None, False
    return results


def _lu_unpack_grad(grads, LU_data, unpack_data):
    m, n = LU_data.shape[-2:]
    if not unpack_data:
        return LU_data * 0
    gL = grads[1] if grads[1] is not None else Tensor._make(xp.zeros((), LU_data._data.dtype))
    gU = grads[2] if grads[2] is not None else Tensor._make(xp.zeros((), LU_data._data.dtype))
    gL, gU = (
        gL.expand(*LU_data.shape[:-2], m, min(m, n)),
        gU.expand(*LU_data.shape[:-2], min(m, n), n),
    )
    if m >= n:
        lower = gL.tril(-1)
        return lower + cat([gU.triu(), lower[..., n:, :] * 0], -2) if m > n else lower + gU.triu()
    upper = gU.triu()
    return upper + cat([gL.tril(-1), upper[..., :, m:] * 0], -1)


def _unpack_tangent(LU_t, LU):
    """L and U are linear in the packed LU (L's unit diagonal is constant)."""
    k = min(LU.shape[-2:])
    return LU_t[..., :, :k].tril(-1), LU_t[..., :k, :].triu()


@defop(
    batch=batch_rules.same_rank,
    name="lu_unpack",
    node="LuUnpackBackward0",
    outputs=3,
    returns=lu_unpack_type,
    LU_data=_lu_unpack_grad,
    jvp=batched(
        lambda LU_data_t, LU_data, unpack_data: (
            (None, *_unpack_tangent(LU_data_t, LU_data)) if unpack_data else (None, None, None)
        )
    ),
)
def _lu_unpack(LU_data, LU_pivots, unpack_data, unpack_pivots):
    dtype = LU_data.dtype
    empty = xp.zeros((0,), dtype)
    L, U = _split(LU_data) if unpack_data else (empty, empty.copy())
    P = _permutation(LU_pivots, LU_data.shape[-2], dtype) if unpack_pivots else empty.copy()
    return P, L, U


@export(method=False)
def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """``(P, L, U)`` from ``linalg.lu_factor``'s packed result (empty tensors for the parts
    not asked for).

    Example:
        >>> import numtorch as torch
        >>> LU, pivots = torch.linalg.lu_factor(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> torch.lu_unpack(LU, pivots).P
        tensor([[0., 1.],
                [1., 0.]])
    """
    if LU_pivots._data.dtype != xp.int32:
        raise RuntimeError(
            "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 "
            "dtype.\nNote: this function is intended to be used with the output produced by "
            "torch.linalg.lu_factor"
        )
    return _without_p(_lu_unpack(LU_data, LU_pivots, bool(unpack_data), bool(unpack_pivots)))


def _lu_grad(grads, result, result1, result2):
    P, L, U = result, result1, result2
    gL = grads[1] if grads[1] is not None else L * 0
    gU = grads[2] if grads[2] is not None else U * 0
    return _lu_backward(gL, gU, P.detach(), L, U)


@defop(
    batch=batch_rules.first_only,
    name="linalg_lu",
    dtypes=kernel("lu_cpu", FLOATING | COMPLEX),
    outputs=3,
    returns=lu_type,
    input=_lu_grad,
    jvp=batched(
        lambda input_t, result, result1, result2: (
            None,
            *_lu_jvp(input_t, result, result1, result2),
        )
    ),
)
def _lu(input):
    lu, pivots, _ = _getrf(input)
    L, U = _split(lu)
    return _permutation(pivots, input.shape[-2], input.dtype), L, U


def lu_(A, *, pivot=True):
    """``(P, L, U)`` with ``A = P L U``: a permutation, a unit lower-triangular and an upper
    triangular (trapezoidal, for non-square ``A``) matrix.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.lu(torch.tensor([[1.0, 2.0], [3.0, 4.0]])).U
        tensor([[3.0000, 4.0000],
                [0.0000, 0.6667]])
    """
    _check_lu_input(A, "linalg.lu")
    _check_pivot(pivot, "linalg.lu")
    return _without_p(_lu(A))


# -- solves ----------------------------------------------------------------------------------
def _lu_solve_grads(grad, LU, pivots, result, left, adjoint, which):
    gB = lu_solve_(LU, pivots, grad, left=left, adjoint=not adjoint)
    if which == "B":
        return gB
    X = result
    if left:
        gA = -(X @ gB.mH) if adjoint else -(gB @ X.mH)
    else:
        gA = -(gB.mH @ X) if adjoint else -(X.mH @ gB)
    # A = P L U: dA = P dL U + P L dU
    L, U = _unpack_tensor(LU)
    PtgA = Tensor._make(_permutation(pivots._data, LU.shape[-2], LU._data.dtype)).mH @ gA
    return (PtgA @ U.mH).tril(-1) + (L.mH @ PtgA).triu()


@batched
def _lu_solve_jvp(LU_t, B_t, LU, pivots, B, result, left, adjoint):
    # dX = A^-1 (dB - dA X) (left), (dB - X dA) A^-1 (right), A^H for A when adjoint, with
    # dA = P (dL U + L dU) from the packed tangent
    change = None
    if LU_t is not None:
        L, U = _unpack_tensor(LU)
        dL, dU = _unpack_tangent(LU_t, LU)
        P = Tensor._make(_permutation(pivots._data, LU.shape[-2], LU._data.dtype))
        dA = align(P @ (dL @ U + L @ dU), LU, result.ndim)
        dA = dA.mH if adjoint else dA
        change = -(dA @ result if left else result @ dA)
    rhs = add_terms(align(B_t, B, result.ndim), change)
    return _lu_solve(LU, pivots, rhs, left, adjoint)


@defop(
    batch=batch_rules.same_rank,
    name="linalg_lu_solve",
    dtypes=kernel("lu_cpu", FLOATING | COMPLEX),
    LU=lambda grad, LU, pivots, result, left, adjoint: _lu_solve_grads(
        grad, LU, pivots, result, left, adjoint, "LU"
    ),
    B=lambda grad, LU, pivots, result, left, adjoint: _lu_solve_grads(
        grad, LU, pivots, result, left, adjoint, "B"
    ),
    jvp=_lu_solve_jvp,
)
def _lu_solve(LU, pivots, B, left, adjoint):
    solved = _lu_solve_lapack(LU, pivots, B, left, adjoint)
    if solved is not None:
        return _lu_solve_layout(solved, left)
    L, U = _split(LU)
    A = _permutation(pivots, LU.shape[-2], LU.dtype) @ L @ U
    if adjoint:
        A = xp.conj(xp.swapaxes(A, -1, -2))
    if left:
        return _lu_solve_layout(
            xp.linalg.solve(
                A,
                xp.broadcast_to(B, xp.broadcast_shapes(A.shape[:-2], B.shape[:-2]) + B.shape[-2:]),
            ),
            left,
        )
    At, Bt = xp.swapaxes(A, -1, -2), xp.swapaxes(B, -1, -2)
    Bt = xp.broadcast_to(Bt, xp.broadcast_shapes(At.shape[:-2], Bt.shape[:-2]) + Bt.shape[-2:])
    return _lu_solve_layout(xp.swapaxes(xp.linalg.solve(At, Bt), -1, -2), left)


def _lu_solve_layout(X, left):
    # Note [LAPACK layout]: getrs writes X (or X^T, solving X A = B) column-major
    return column_major(X) if left else xp.swapaxes(column_major(xp.swapaxes(X, -1, -2)), -1, -2)


def _lu_solve_lapack(LU, pivots, B, left, adjoint):
    """getrs on the factors, or None without SciPy. ``X A = B`` is ``A^T X^T = B^T``, and
    ``X A^H = B`` is ``A conj(X^T) = conj(B^T)``."""
    batch = xp.broadcast_shapes(LU.shape[:-2], B.shape[:-2])
    LU = xp.broadcast_to(LU, batch + LU.shape[-2:])
    pivots = xp.broadcast_to(pivots, batch + pivots.shape[-1:])
    if left:
        return lapack.getrs(LU, pivots, xp.broadcast_to(B, batch + B.shape[-2:]), 2 * adjoint)
    Bt = xp.broadcast_to(xp.swapaxes(B, -1, -2), batch + B.shape[-2:][::-1])
    if adjoint:
        Xt = lapack.getrs(LU, pivots, xp.conj(Bt), 0)
        return None if Xt is None else xp.swapaxes(xp.conj(Xt), -1, -2)
    Xt = lapack.getrs(LU, pivots, Bt, 1)
    return None if Xt is None else xp.swapaxes(Xt, -1, -2)


def lu_solve_(LU, pivots, B, *, left=True, adjoint=False) -> Tensor:
    """``X`` with ``A X = B`` (``X A = B`` when not ``left``; ``A^H`` for ``A`` when
    ``adjoint``), from ``A``'s ``linalg.lu_factor``.

    Example:
        >>> import numtorch as torch
        >>> A = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
        >>> torch.linalg.lu_solve(*torch.linalg.lu_factor(A), torch.tensor([[3.0], [4.0]]))
        tensor([[1.],
                [1.]])
    """
    check_matrices(LU, "linalg.lu_solve")
    if B.ndim < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    if LU.dtype is not B.dtype:
        raise RuntimeError(
            "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type "
            f"{LU.dtype.scalar_name} and B of type {B.dtype.scalar_name} instead"
        )
    n = LU.shape[-1]
    size = B.shape[-2] if left else B.shape[-1]
    if size != n:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(
            f"linalg.lu_solve: Incompatible shapes of A and B for the equation {equation} "
            f"({n}x{n} and {B.shape[-2]}x{B.shape[-1]})"
        )
    return _lu_solve(LU, pivots, B, bool(left), bool(adjoint))


@export(name="lu_solve")
def lu_solve_deprecated(input, LU_data, LU_pivots) -> Tensor:
    """Deprecated ``linalg.lu_solve(LU_data, LU_pivots, input)``."""
    _deprecated(
        "lu_solve",
        "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
        "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
        "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
        "X = torch.linalg.lu_solve(LU, pivots, B)",
    )
    return lu_solve_(LU_data, LU_pivots, input)

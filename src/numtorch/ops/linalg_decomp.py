"""Matrix inverses, determinants, solves and decompositions (``torch.linalg``): inv, det,
slogdet, solve, solve_triangular, cholesky, qr, eigh, svd, pinv.

Every op works on batches of matrices (the last two dims). Derivatives are the standard
matrix-calculus formulas written with numtorch ops (so they can be differentiated again):
e.g. d inv(A) = -inv(A) dA inv(A), and for eigh and svd the usual formulas with
``1 / (lambda_j - lambda_i)`` factors, finite only where the eigen- or singular values are
distinct.
"""

from __future__ import annotations

from .._tensor import Tensor
from ..backend import xp
from .reduction import _product_of_others
from .registry import defop
from .return_types import structseq
from .shape import cat


class LinAlgError(RuntimeError):
    """A matrix the operation cannot handle (singular, not positive-definite), as
    ``torch.linalg.LinAlgError``."""


def check_matrices(A, name, square=True):
    """torch's checks: at least 2 dims, floating point, square."""
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if A._data.dtype.kind not in "fc":
        raise RuntimeError(
            f"{name}: Expected a floating point or complex tensor as input. Got "
            f"{A.dtype.scalar_name}"
        )
    if square and A.shape[-1] != A.shape[-2]:
        raise RuntimeError(
            f"{name}: A must be batches of square matrices, but they are {A.shape[-2]} by "
            f"{A.shape[-1]} matrices"
        )


def _batch_prefix(index, batched):
    return f"(Batch element {index}): " if batched else ""


def _singular_message(a, name):
    """torch's message for a singular matrix: the first zero pivot of its LU factorization
    with partial pivoting (as LAPACK's getrf reports it)."""
    batch = a.reshape(-1, a.shape[-2], a.shape[-1])
    for index, matrix in enumerate(batch):
        lu = matrix.astype(xp.float64, copy=True)
        for j in range(lu.shape[0]):
            p = j + int(xp.argmax(xp.abs(lu[j:, j])))
            if lu[p, j] == 0:
                return (
                    f"{name}: {_batch_prefix(index, a.ndim > 2)}The diagonal element {j + 1} "
                    "is zero, the inversion could not be completed because the input matrix "
                    "is singular."
                )
            lu[[j, p]] = lu[[p, j]]
            lu[j + 1 :, j:] -= xp.outer(lu[j + 1 :, j] / lu[j, j], lu[j, j:])
    return f"{name}: The input matrix is singular."


def _not_positive_definite_message(a, name):
    batch = a.reshape(-1, a.shape[-2], a.shape[-1])
    for index, matrix in enumerate(batch):
        for k in range(1, matrix.shape[0] + 1):
            try:
                xp.linalg.cholesky(matrix[:k, :k])
            except xp.linalg.LinAlgError:
                return (
                    f"{name}: {_batch_prefix(index, a.ndim > 2)}The factorization could not be "
                    "completed because the input is not positive-definite (the leading minor "
                    f"of order {k} is not positive-definite)."
                )
    return f"{name}: The factorization could not be completed."


def _constant(data) -> Tensor:
    return Tensor._make(data)


def _batch_eye(n, like):
    return _constant(xp.eye(n, dtype=like._data.dtype))


# -- inverse and determinants ----------------------------------------------------------------
@defop(
    name="linalg_inv_ex",
    node="LinalgInvExBackward0",
    input=lambda grad, result: -(result.mT @ grad @ result.mT),
)
def _inv(input):
    try:
        return xp.linalg.inv(input)
    except xp.linalg.LinAlgError:
        raise LinAlgError(_singular_message(input, "linalg.inv")) from None


def inv(A) -> Tensor:
    """The inverse of each square matrix in ``A``.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.inv(torch.tensor([[2.0, 0.0], [0.0, 4.0]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.2500]])
    """
    check_matrices(A, "linalg.inv")
    return _inv(A)


def _cofactors(input, det):
    """d det(A) / dA: det * inv(A)^T where invertible; via the SVD otherwise."""
    if (det._data != 0).all():
        return det.unsqueeze(-1).unsqueeze(-1) * _inv(input).mT
    U, S, Vh = _svd(input, False)
    # det(A) = det(U) det(Vh) prod(S): the cofactors are U diag(prod of the other S) Vh
    sign = _constant(xp.linalg.det(U._data) * xp.linalg.det(Vh._data))
    others = _product_of_others(S, S.ndim - 1) * sign.unsqueeze(-1)
    return (U * others.unsqueeze(-2)) @ Vh


@defop(
    name="linalg_det",
    input=lambda grad, input, result: grad.unsqueeze(-1).unsqueeze(-1) * _cofactors(input, result),
)
def _det(input):
    return xp.linalg.det(input)


def det(A) -> Tensor:
    """The determinant of each square matrix in ``A``.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.det(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor(-2.)
    """
    check_matrices(A, "linalg.det")
    return _det(A)


slogdet_type = structseq("linalg_slogdet", ("sign", "logabsdet"))


def _slogdet_backward(grads, input):
    # only logabsdet has a derivative for real input: d log|det A| = inv(A)^T
    if grads[1] is None:
        return None
    return grads[1].unsqueeze(-1).unsqueeze(-1) * _inv(input).mT


@defop(name="linalg_slogdet", outputs=2, returns=slogdet_type, input=_slogdet_backward)
def _slogdet(input):
    sign, logabsdet = xp.linalg.slogdet(input)
    return sign.astype(input.dtype), logabsdet.astype(input.dtype)


def slogdet(A):
    """The sign and the log of the absolute value of the determinant (stable where det
    itself would under- or overflow).

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.slogdet(torch.tensor([[-2.0, 0.0], [0.0, 1.0]])).sign
        tensor(-1.)
    """
    check_matrices(A, "linalg.slogdet")
    return _slogdet(A)


# -- solves ----------------------------------------------------------------------------------
def _is_vector_rhs(A, B):
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


def _solve_backward_B(grad, input, left, vector):
    return _solve(input.mT, grad, left, vector)


def _solve_backward_A(grad, input, result, left, vector):
    gB = _solve(input.mT, grad, left, vector)
    if vector:
        return -(gB.unsqueeze(-1) * result.unsqueeze(-2))
    return -(gB @ result.mT) if left else -(result.mT @ gB)


@defop(
    name="linalg_solve_ex",
    node="LinalgSolveExBackward0",
    promote="same",
    input=lambda grad, input, result, left, vector: _solve_backward_A(
        grad, input, result, left, vector
    ),
    B=lambda grad, input, left, vector: _solve_backward_B(grad, input, left, vector),
)
def _solve(input, B, left, vector):
    A = input if left else xp.swapaxes(input, -1, -2)
    rhs = B[..., None] if vector else (B if left else xp.swapaxes(B, -1, -2))
    try:
        X = xp.linalg.solve(A, rhs)
    except xp.linalg.LinAlgError:
        raise LinAlgError(
            "torch.linalg.solve: The solver failed because the input matrix is singular."
        ) from None
    if vector:
        return X[..., 0]
    return X if left else xp.swapaxes(X, -1, -2)


def solve(A, B, *, left=True) -> Tensor:
    """The solution ``X`` of ``A X = B`` (``X A = B`` when ``left=False``); ``B`` may be a
    batch of vectors.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.solve(torch.tensor([[2.0, 0.0], [0.0, 4.0]]), torch.tensor([2.0, 2.0]))
        tensor([1.0000, 0.5000])
    """
    check_matrices(A, "linalg.solve")
    if A._data.dtype != B._data.dtype:
        raise RuntimeError(
            "linalg.solve: Expected A and B to have the same dtype, but found A of type "
            f"{A.dtype.scalar_name} and B of type {B.dtype.scalar_name} instead"
        )
    vector = _is_vector_rhs(A, B)
    n = A.shape[-1]
    rows = B.shape[-1] if vector else (B.shape[-2] if left else B.shape[-1])
    if rows != n:
        cols = 1 if vector else B.shape[-1]
        raise RuntimeError(
            "linalg.solve: Incompatible shapes of A and B for the equation "
            f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {rows}x{cols})"
        )
    return _solve(A, B, bool(left), vector)


def _triangle(A, upper, unitriangular):
    out = xp.triu(A) if upper else xp.tril(A)
    if unitriangular:
        idx = xp.arange(A.shape[-1])
        out[..., idx, idx] = 1
    return out


def _solve_triangular_grads(grad, input, result, upper, left, unitriangular, which):
    gB = _solve_triangular(input.mT, grad, not upper, left, unitriangular)
    if which == "B":
        return gB
    gA = -(gB @ result.mT) if left else -(result.mT @ gB)
    shift = int(unitriangular)
    return gA.triu(shift) if upper else gA.tril(-shift)


@defop(
    name="linalg_solve_triangular",
    promote="same",
    input=lambda grad, input, result, upper, left, unitriangular: _solve_triangular_grads(
        grad, input, result, upper, left, unitriangular, "A"
    ),
    B=lambda grad, input, result, upper, left, unitriangular: _solve_triangular_grads(
        grad, input, result, upper, left, unitriangular, "B"
    ),
)
def _solve_triangular(input, B, upper, left, unitriangular):
    T = _triangle(input, upper, unitriangular)
    if left:
        return xp.linalg.solve(T, B)
    return xp.swapaxes(xp.linalg.solve(xp.swapaxes(T, -1, -2), xp.swapaxes(B, -1, -2)), -1, -2)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False) -> Tensor:
    """``X`` with ``A X = B`` (or ``X A = B``) for triangular ``A``: only the ``upper`` (or
    lower) triangle of ``A`` is read; ``unitriangular`` takes its diagonal as ones.

    Example:
        >>> import numtorch as torch
        >>> A = torch.tensor([[2.0, 1.0], [0.0, 1.0]])
        >>> torch.linalg.solve_triangular(A, torch.tensor([[3.0], [1.0]]), upper=True)
        tensor([[1.],
                [1.]])
    """
    check_matrices(A, "linalg.solve_triangular")
    if B.ndim < 2:
        raise RuntimeError(
            "linalg.solve_triangular: The input tensor B must have at least 2 dimensions."
        )
    return _solve_triangular(A, B, bool(upper), bool(left), bool(unitriangular))


# -- cholesky --------------------------------------------------------------------------------
def _cholesky_backward(grad, result, upper):
    # Murray (2016), as torch: gA = L^-H Phi(L^H gL) L^-1, with Phi taking the lower
    # triangle and halving the diagonal
    L, gL = (result.mT, grad.mT) if upper else (result, grad)
    gA = (L.mT @ gL).tril()
    gA = 0.5 * (gA + gA.tril(-1).mT)
    gA = _solve_triangular(L.mT, gA, True, True, False)
    return _solve_triangular(L, gA, False, False, False)


@defop(
    name="linalg_cholesky_ex",
    node="LinalgCholeskyExBackward0",
    input=lambda grad, result, upper: _cholesky_backward(grad, result, upper),
)
def _cholesky(input, upper):
    try:
        L = xp.linalg.cholesky(input)
    except xp.linalg.LinAlgError:
        raise LinAlgError(_not_positive_definite_message(input, "linalg.cholesky")) from None
    return xp.swapaxes(L, -1, -2).copy() if upper else L


def cholesky(A, *, upper=False) -> Tensor:
    """The lower-triangular ``L`` with ``A = L L^T`` for symmetric positive-definite ``A``
    (``upper=True``: ``U = L^T``). Only the lower triangle of ``A`` is read.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.cholesky(torch.tensor([[4.0, 2.0], [2.0, 2.0]]))
        tensor([[2., 0.],
                [1., 1.]])
    """
    check_matrices(A, "linalg.cholesky")
    return _cholesky(A, bool(upper))


# -- qr --------------------------------------------------------------------------------------
qr_type = structseq("linalg_qr", ("Q", "R"))


def _copyltu(M):
    # the symmetric matrix holding M's lower triangle
    return M.tril(-1) + M.tril(-1).mT + M.diagonal(0, -2, -1).diag_embed()


def _qr_backward_tall(gQ, gR, Q, R):
    # m >= n: gA = (gQ + Q copyltu(M)) R^-T with M = R gR^T - gQ^T Q
    M = R @ gR.mT - gQ.mT @ Q
    return _solve_triangular(R.mT, gQ + Q @ _copyltu(M), False, False, False)


def _qr_backward(grads, result, result1, mode):
    if mode == "r":
        raise RuntimeError(
            "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
            "Please use linalg.qr(A, mode='reduced') if you are going to differentiate "
            "through linalg.qr."
        )
    Q, R = result, result1
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError(
            "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."
        )
    gQ = grads[0] if grads[0] is not None else Q * 0
    gR = grads[1] if grads[1] is not None else R * 0
    if m >= n:
        return _qr_backward_tall(gQ, gR, Q, R)
    # m < n: A = [X | Y] with X = Q U square; R = [U | V], V = Q^T Y
    U, V = R[..., :, :m], R[..., :, m:]
    gU, gV = gR[..., :, :m], gR[..., :, m:]
    Y = Q @ V
    gX = _qr_backward_tall(gQ + Y @ gV.mT, gU, Q, U)
    return cat([gX, Q @ gV], -1)


@defop(
    name="linalg_qr",
    outputs=2,
    returns=qr_type,
    input=lambda grads, result, result1, mode: _qr_backward(grads, result, result1, mode),
)
def _qr(input, mode):
    if mode == "r":
        R = xp.linalg.qr(input, mode="r")
        return xp.zeros((0,), input.dtype), R
    return xp.linalg.qr(input, mode=mode)


def qr(A, mode="reduced"):
    """``A = Q R`` with orthonormal columns in ``Q`` and upper-triangular ``R``
    (``mode``: 'reduced', 'complete', or 'r' for ``R`` alone and an empty ``Q``).

    Example:
        >>> import numtorch as torch
        >>> Q, R = torch.linalg.qr(torch.tensor([[3.0, 1.0], [4.0, 2.0]]))
        >>> torch.allclose(Q @ R, torch.tensor([[3.0, 1.0], [4.0, 2.0]]))
        True
    """
    check_matrices(A, "linalg.qr", square=False)
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(
            f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), "
            "'r', or 'complete'"
        )
    return _qr(A, mode)


# -- eigh ------------------------------------------------------------------------------------
eigh_type = structseq("linalg_eigh", ("eigenvalues", "eigenvectors"))


def _eigh_backward(grads, result, result1):
    # gA = V (diag(gL) + skew(V^T gV) / E) V^T with E_ij = L_j - L_i (as torch)
    L, V = result, result1
    gL, gV = grads
    n = L.shape[-1]
    inner = None
    if gV is not None:
        VtgV = V.mT @ gV
        E = L.unsqueeze(-2) - L.unsqueeze(-1) + _batch_eye(n, L)
        inner = 0.5 * (VtgV - VtgV.mT) / E
    if gL is not None:
        inner = gL.diag_embed() if inner is None else inner + gL.diag_embed()
    return V @ inner @ V.mT


@defop(
    name="linalg_eigh",
    outputs=2,
    returns=eigh_type,
    input=lambda grads, result, result1: _eigh_backward(grads, result, result1),
)
def _eigh(input, UPLO):
    return xp.linalg.eigh(input, UPLO=UPLO)


def eigh(A, UPLO="L"):
    """Eigenvalues (ascending) and orthonormal eigenvectors (columns) of symmetric ``A``;
    only the ``UPLO`` ('L' or 'U') triangle is read. Eigenvectors are defined up to sign.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.eigh(torch.tensor([[2.0, 0.0], [0.0, 1.0]])).eigenvalues
        tensor([1., 2.])
    """
    check_matrices(A, "linalg.eigh")
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return _eigh(A, UPLO)


def eigvalsh(A, UPLO="L") -> Tensor:
    """The eigenvalues of symmetric ``A``, ascending."""
    return eigh(A, UPLO)[0]


# -- svd -------------------------------------------------------------------------------------
svd_type = structseq("linalg_svd", ("U", "S", "Vh"))


def _svd_backward(grads, U, S, Vh, full_matrices):
    gU, gS, gVh = grads
    m, n, k = U.shape[-2], Vh.shape[-1], S.shape[-1]
    if full_matrices and m != n:
        # only the first k singular vectors enter the reduced decomposition (as torch)
        U, Vh = U[..., :, :k], Vh[..., :k, :]
        gU = gU[..., :, :k] if gU is not None else None
        gVh = gVh[..., :k, :] if gVh is not None else None
    if gU is None and gVh is None:
        return (U * gS.unsqueeze(-2)) @ Vh
    V = Vh.mT
    gV = gVh.mT if gVh is not None else None
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + _batch_eye(k, S)  # E_ij = S_j^2 - S_i^2
    inner = 0
    if gU is not None:
        UtgU = U.mT @ gU
        inner = (UtgU - UtgU.mT) * S.unsqueeze(-2)
    if gV is not None:
        VtgV = V.mT @ gV
        inner = inner + S.unsqueeze(-1) * (VtgV - VtgV.mT)
    gA = inner / E
    if gS is not None:
        gA = gA + gS.diag_embed()
    if m > n and gU is not None:
        gUSinv = gU / S.unsqueeze(-2)
        gA = (U @ gA + gUSinv - U @ (U.mT @ gUSinv)) @ Vh
    elif m < n and gV is not None:
        gVSinv = gV / S.unsqueeze(-2)
        gA = U @ (gA @ Vh + gVSinv.mT - (gVSinv.mT @ V) @ Vh)
    else:
        gA = U @ gA @ Vh
    return gA


@defop(
    name="linalg_svd",
    outputs=3,
    returns=svd_type,
    input=lambda grads, result, result1, result2, full_matrices: _svd_backward(
        grads, result, result1, result2, full_matrices
    ),
)
def _svd(input, full_matrices):
    return xp.linalg.svd(input, full_matrices=full_matrices)


def svd(A, full_matrices=True):
    """``A = U diag(S) Vh`` with singular values ``S`` descending. Singular vectors are
    defined up to sign; gradients through them need distinct singular values.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.svd(torch.tensor([[3.0, 0.0], [0.0, -4.0]])).S
        tensor([4., 3.])
    """
    check_matrices(A, "linalg.svd", square=False)
    return _svd(A, bool(full_matrices))


def svdvals(A) -> Tensor:
    """The singular values of ``A``, descending."""
    check_matrices(A, "linalg.svdvals", square=False)
    # the vectors are computed even without grad: LAPACK's values-only routine rounds
    # differently, and values must not depend on the grad mode
    return _svd(A, False)[1]


# -- pinv ------------------------------------------------------------------------------------
def _pinv_backward(grad, input, result):
    # torch's pinv_backward (products arranged to keep the matrices small)
    A, pinvA = input, result
    m, n = A.shape[-2], A.shape[-1]
    pinvAh, gradh = pinvA.mT, grad.mT
    if m <= n:
        K = gradh @ pinvA
        KpinvAh = K @ pinvAh
        return (
            -(pinvA @ K).mT + KpinvAh - (A @ pinvA) @ KpinvAh + (pinvAh @ pinvA) @ (gradh - K @ A)
        )
    K = pinvA @ gradh
    pinvAhK = pinvAh @ K
    return -(K @ pinvA).mT + (gradh - A @ K) @ pinvA @ pinvAh + pinvAhK - pinvAhK @ pinvA @ A


@defop(name="linalg_pinv", input=_pinv_backward)
def _pinv(input, atol, rtol, hermitian):
    if hermitian:
        values, u = xp.linalg.eigh(input)
        sigma = xp.abs(values)
        largest = xp.max(sigma, axis=-1, keepdims=True, initial=0)
        vh = xp.swapaxes(u, -1, -2)
        u = u * xp.sign(values)[..., None, :]  # A = u diag(|values|) vh, signs moved into u
    else:
        u, sigma, vh = xp.linalg.svd(input, full_matrices=False)
        largest = sigma[..., :1] if sigma.shape[-1] else xp.zeros(sigma.shape[:-1] + (1,))
    keep = sigma > xp.maximum(atol, rtol * largest)
    inverse = xp.where(keep, 1 / xp.where(keep, sigma, 1), 0).astype(input.dtype)
    return xp.matmul(xp.swapaxes(vh, -1, -2) * inverse[..., None, :], xp.swapaxes(u, -1, -2))


def pinv(A, *, atol=None, rtol=None, hermitian=False) -> Tensor:
    """The Moore-Penrose pseudo-inverse: singular values at most
    ``max(atol, rtol * largest)`` count as zero (default ``rtol``: eps * max(m, n)).

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.pinv(torch.tensor([[2.0, 0.0], [0.0, 0.0]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.0000]])
    """
    check_matrices(A, "linalg.pinv", square=False)
    if atol is None and rtol is None:
        rtol = float(xp.finfo(A._data.dtype).eps) * max(A.shape[-2], A.shape[-1])
    atol = 0.0 if atol is None else float(atol)
    rtol = 0.0 if rtol is None else float(rtol)
    return _pinv(A, atol, rtol, bool(hermitian))

"""Inverses, determinants and linear solves (``torch.linalg``): inv, det, slogdet, solve,
solve_triangular, cholesky; with the shared input checks and ``LinAlgError``.

Every op works on batches of matrices (the last two dims). Derivatives are the standard
matrix-calculus formulas written with numtorch ops, so they can be differentiated again:
d inv(A) = -inv(A) dA inv(A), d det(A) = det(A) tr(inv(A) dA), d X = inv(A) (dB - dA X)
for X = solve(A, B). The forward derivatives are matrix products that broadcast, so they
take tangents with a leading batch dimension (jacfwd) as they are.
"""

from __future__ import annotations

from .._core import batch_rules
from .._core.grad_mode import is_grad_enabled
from .._core.kernel_dtypes import COMPLEX, FLOATING, HALVES, kernel
from .._core.op import defop
from .._core.tensor import Tensor
from ..autograd.forward_grad import add_terms, align, batched
from ..backend import lapack, xp
from .lapack_layout import column_major
from .reduction import _product_of_others
from .return_types import structseq


class _LinAlgError(RuntimeError):
    """A matrix the operation cannot handle (singular, not positive-definite), as
    ``torch.linalg.LinAlgError`` (whose class torch names ``_LinAlgError``)."""


LinAlgError = _LinAlgError


def check_matrices(A, name, square=True, low_precision=True, dtypes=None):
    """torch's checks: at least 2 dims, floating point (``low_precision``: halves too),
    square. ``dtypes``: the kernel dtypes of an op whose kernel refuses any other dtype
    itself, with no floating-point check before it (Note [Kernel dtypes])."""
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if dtypes is not None:
        dtypes.check_tensor(A)
    elif A._data.dtype.kind not in "fcV":
        raise RuntimeError(
            f"{name}: Expected a floating point or complex tensor as input. Got "
            f"{A.dtype.scalar_name}"
        )
    if not low_precision and A._data.dtype in HALVES:
        raise RuntimeError(f"{name}: Low precision dtypes not supported. Got {A.dtype.scalar_name}")
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


def _not_positive_definite_message(info, name):
    """torch's message for the first batch element whose factorization failed (``info``: the
    order of its first leading minor that is not positive-definite)."""
    flat = info.reshape(-1)
    index = int(xp.flatnonzero(flat)[0])
    return (
        f"{name}: {_batch_prefix(index, info.ndim > 0)}The factorization could not be "
        "completed because the input is not positive-definite (the leading minor of order "
        f"{int(flat[index])} is not positive-definite)."
    )


def _constant(data) -> Tensor:
    return Tensor._make(data)


def _batch_eye(n, like):
    return _constant(xp.eye(n, dtype=like._data.dtype))


# -- inverse and determinants ----------------------------------------------------------------
def _inv_precision(args):
    # here, after autocast has cast the input (torch's CPU autocast runs the inverse in
    # float32), not at the public function: a bfloat16 input inside autocast is inverted
    check_matrices(args[0], "linalg.inv", low_precision=False)


@defop(
    batch=batch_rules.first_only,
    name="linalg_inv_ex",
    node="LinalgInvExBackward0",
    check=_inv_precision,
    input=lambda grad, result: -(result.mH @ grad @ result.mH),
    jvp=batched(lambda input_t, result: -(result @ input_t @ result)),
)
def _inv(input):
    try:
        return column_major(xp.linalg.inv(input))  # Note [LAPACK layout]
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
    check_matrices(A, "linalg.inv")  # the halves are refused by the op (_inv_precision)
    return _inv(A)


def _det_backward(grad, input, result):
    # torch's formula, whose rounding and non-finite values it keeps: the cofactors
    # det * A^-H as a solve with diag(grad * det) on the right. Outside create_graph an LU
    # solve whose zero pivots are moved to eps (a singular A gets 0 * huge, not the SVD);
    # under it a differentiable solve, and the SVD's cofactors where |det| < 100 eps.
    if input.numel() == 0:
        return input.new_zeros(input.shape)
    d_diag = grad * result.conj()
    if not is_grad_enabled():
        return _diagonal_solve(input, d_diag, perturb=True)
    eps = float(xp.finfo(input._data.dtype).eps)
    singular = (result.abs() < 100 * eps)._data
    if not singular.any():
        return _diagonal_solve(input, d_diag)
    if singular.all():
        return _det_singular_backward(grad, input)
    mask = _constant(singular)
    out = input.new_zeros(input.shape)
    out = out.index_put((mask,), _det_singular_backward(grad[mask], input[mask]))
    return out.index_put((~mask,), _diagonal_solve(input[~mask], d_diag[~mask]))


def _diagonal_solve(input, values, perturb=False):
    """``(A^H)^-1 diag(values)``, the solve det's and slogdet's gradients take: a
    differentiable one when the gradient is differentiated again, else LAPACK's on the
    forward's LU (``perturb``: its zero pivots moved to eps, see _forward_lu_solve)."""
    n = input.shape[-1]
    if is_grad_enabled():
        from .triangular import diag_embed  # (the triangle ops build on this module)

        d = diag_embed(values.unsqueeze(-1).expand(*values.shape, n))
        return _solve(input.mH, d, True, False)
    rhs = xp.zeros(input.shape, dtype=input._data.dtype)
    rhs[..., xp.arange(n), xp.arange(n)] = values._data[..., None]
    return _constant(_forward_lu_solve(input, rhs, adjoint=True, perturb=perturb))


def _lu_matrix(a):
    """The matrix torch's det factors for ``a`` (an array), and whether it is A^T: A^T for a
    C-contiguous real A (the same det, and no copy for column-major LAPACK), A otherwise."""
    use_t = a.flags.c_contiguous and a.dtype.kind != "c"
    return (xp.swapaxes(a, -1, -2) if use_t else a), use_t


def _forward_lu_solve(input, rhs, adjoint, perturb=True):
    """``op(A)^-1 rhs`` as torch's det and slogdet derivatives take it, from the LU of the
    forward: of A^T for a contiguous real A (det(A^T) = det(A), no copy for LAPACK), of A
    otherwise; ``perturb`` (det's): its zero pivots moved to eps (det is C^1: the solve of a
    singular A is finite). ``adjoint``: op(A) = A^H, else A; ``rhs`` may have one more
    leading (batch) dim."""
    a = input._data
    m, use_t = _lu_matrix(a)
    if adjoint == use_t:  # the LU's own matrix: A^T = A^H (real), or A
        trans = 0
        plain = m
    else:
        trans = 2 if a.dtype.kind == "c" else 1
        plain = xp.conj(xp.swapaxes(m, -1, -2))
    factored = lapack.getrf(m)
    if factored is not None:
        lu, pivots = factored[0], factored[1]
        diagonal = xp.arange(a.shape[-1])
        if perturb:
            pivot = lu[..., diagonal, diagonal]
            eps = xp.finfo(a.dtype).eps
            lu[..., diagonal, diagonal] = xp.where(pivot == 0, eps, pivot)
        lu = xp.broadcast_to(lu, rhs.shape)
        pivots = xp.broadcast_to(pivots, rhs.shape[:-1])
        solved = lapack.getrs(lu, pivots, rhs, trans)
        if solved is not None:
            return solved
    try:
        return xp.linalg.solve(plain, rhs)
    except xp.linalg.LinAlgError:
        return xp.full(rhs.shape, xp.nan, dtype=rhs.dtype)


@batched
def _det_jvp(input_t, input, result):
    # torch's: det tr(A^-1 dA), the solve on the forward's LU as the backward's (a
    # singular A gives det 0 times a finite trace); not differentiated again, as torch's
    t = input_t._data
    solved = _forward_lu_solve(input, t, adjoint=False)
    trace = xp.trace(solved, axis1=-2, axis2=-1)
    return _constant((trace * result._data).astype(t.dtype, copy=False))


def _det_singular_backward(grad, input):
    # det(A) = det(U) det(Vh) prod(S): the cofactors are U diag(prod of the other S) Vh
    from .linalg_decomp import _svd  # (the decompositions build on this module)

    U, S, Vh = _svd(input, False)
    alpha = (_det(U) * _det(Vh)).conj()
    D = (grad * alpha).unsqueeze(-1)
    if S.shape[-1] > 1:
        D = D * _product_of_others(S, S.ndim - 1)
    return (U * D.unsqueeze(-2)) @ Vh


@defop(
    batch=batch_rules.first_only,
    name="linalg_det",
    dtypes=kernel("lu_cpu", FLOATING | COMPLEX),
    input=_det_backward,
    jvp=_det_jvp,
)
def _det(input):
    # torch's: the product of the LU's pivots in order, times the permutation's sign (a
    # singular matrix of an odd permutation has det -0.0), of A^T where A is contiguous and
    # real (as its backward's solve, _forward_lu_solve), of A otherwise; NumPy's det goes
    # through log|det|, which loses the zero's sign
    n = input.shape[-1]
    factored = lapack.getrf(_lu_matrix(input)[0]) if n else None
    if factored is None:
        return xp.linalg.det(input)
    lu, pivots = factored[0], factored[1]
    det = lu[..., 0, 0].copy()
    for j in range(1, n):
        det *= lu[..., j, j]
    odd = (pivots != xp.arange(1, n + 1, dtype=pivots.dtype)).sum(-1) % 2 == 1
    return xp.where(odd, -1 * det, det).astype(input.dtype, copy=False)


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


def _slogdet_backward(grads, input, result0):
    # only logabsdet has a derivative for real input: d log|det A| = inv(A)^T. As torch: a
    # solve with diag(grad) on the right (zeros off the diagonal, whatever the grad), a
    # differentiable one when the gradient is differentiated again (a singular A raises),
    # else LAPACK's on the forward's LU, which leaves inf/NaN for a singular A. A complex
    # A's sign turns too: its gradient adds i Im(g_sign conj(sign)), and A^-H solves.
    g = grads[1]
    if input.is_complex() and grads[0] is not None:
        turn = (grads[0] * result0.conj()).imag * 1j
        g = turn if g is None else g + turn
    if g is None:
        return None
    return _diagonal_solve(input, g)


@batched
def _slogdet_jvp(input_t, input, result0):
    # d log det(A) = tr(inv(A) dA): its real part moves logabsdet, its imaginary part turns
    # the sign (a complex one); a real sign is constant
    trace = (_inv(input).mT * input_t).sum((-2, -1))
    if not input.is_complex():
        return result0.new_zeros(()).expand(result0.shape), trace
    return (1j * trace.imag) * result0, trace.real


@defop(
    batch=batch_rules.first_only,
    name="linalg_slogdet",
    outputs=2,
    returns=slogdet_type,
    input=_slogdet_backward,
    jvp=_slogdet_jvp,
)
def _slogdet(input):
    sign, logabsdet = xp.linalg.slogdet(input)  # logabsdet is real, of the input's precision
    return sign.astype(input.dtype), logabsdet.astype(xp.finfo(input.dtype).dtype)


def slogdet(A):
    """The sign and the log of the absolute value of the determinant (stable where det
    itself would under- or overflow).

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.slogdet(torch.tensor([[-2.0, 0.0], [0.0, 1.0]])).sign
        tensor(-1.)
    """
    check_matrices(A, "linalg.slogdet", low_precision=False)
    return _slogdet(A)


# -- solves ----------------------------------------------------------------------------------
def _is_vector_rhs(A, B):
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


# conjugate transposes: the formulas hold for complex matrices too (Note [Complex autograd])
def _solve_backward_B(grad, input, left, vector):
    return _solve(input.mH, grad, left, vector)


def _solve_backward_A(grad, input, result, left, vector):
    gB = _solve(input.mH, grad, left, vector)
    if vector:
        return -(gB.unsqueeze(-1) * result.conj().unsqueeze(-2))
    return -(gB @ result.mH) if left else -(result.mH @ gB)


@batched
def _solve_jvp(input_t, B_t, input, B, result, left, vector):
    # d X = inv(A) (dB - dA X) (left), (dB - X dA) inv(A) (right)
    input_t = align(input_t, input, result.ndim + vector)  # (A broadcasts against B's batch)
    if input_t is None:
        change = None
    elif vector:
        X = result.unsqueeze(-1 if left else -2)
        change = (input_t @ X).squeeze(-1) if left else (X @ input_t).squeeze(-2)
    else:
        change = input_t @ result if left else result @ input_t
    B_t = align(B_t, B, result.ndim)  # (B broadcasts against A's batch dims)
    return _solve(input, add_terms(B_t, None if change is None else -change), left, vector)


def _first_singular(a) -> int:
    """The flat batch index of the first matrix of ``a`` that LAPACK cannot invert."""
    for index, matrix in enumerate(a.reshape(-1, *a.shape[-2:])):
        try:
            xp.linalg.inv(matrix)
        except xp.linalg.LinAlgError:
            return index
    return 0


@defop(
    batch=batch_rules.same_rank,
    name="linalg_solve_ex",
    dtypes=kernel("lu_cpu", FLOATING | COMPLEX),
    node="LinalgSolveExBackward0",
    promote="same",
    input=lambda grad, input, result, left, vector: _solve_backward_A(
        grad, input, result, left, vector
    ),
    B=lambda grad, input, left, vector: _solve_backward_B(grad, input, left, vector),
    jvp=_solve_jvp,
)
def _solve(input, B, left, vector):
    A = input if left else xp.swapaxes(input, -1, -2)
    rhs = B[..., None] if vector else (B if left else xp.swapaxes(B, -1, -2))
    try:
        X = xp.linalg.solve(A, rhs)
    except xp.linalg.LinAlgError:
        raise LinAlgError(
            f"torch.linalg.solve: {_batch_prefix(_first_singular(A), A.ndim > 2)}The solver "
            "failed because the input matrix is singular."
        ) from None
    if vector:  # torch's batch of vectors comes back column-major too, batch dim innermost
        return column_major(X[..., 0])
    X = column_major(X)  # Note [LAPACK layout]: X^T of XA = B is column-major, X row-major
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
    if B.ndim < 2 and not vector:
        raise RuntimeError("linalg.solve: The input tensor B must have at least 2 dimensions.")
    n = A.shape[-1]
    rows = B.shape[-1] if vector else (B.shape[-2] if left else B.shape[-1])
    # a vector B is a column (n x 1): X A = B checks only n == 1, as in torch
    if (n != 1) if vector and not left else rows != n:
        cols = 1 if vector else B.shape[-1]
        raise RuntimeError(
            "linalg.solve: Incompatible shapes of A and B for the equation "
            f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {rows}x{cols})"
        )
    if vector and not left:
        raise RuntimeError(
            "linalg.solve: Vector broadcasting of the left hand side is not supported for "
            "left=False. In this case linalg.solve is equivalent to B / A.squeeze(-1)"
        )
    return _solve(A, B, bool(left), vector)


def triangular_kernel(T, B, upper):
    """``T^-1 B`` for triangular ``T``. An exactly singular ``T`` gives inf/NaN by
    substitution, as LAPACK's trsm does for torch, where NumPy's general solve raises; BLAS's
    trsm itself, where SciPy has it, also spreads a NaN of ``B`` only to the rows solved
    after it (a general solve mixes every row)."""
    batch = xp.broadcast_shapes(T.shape[:-2], B.shape[:-2])
    if T.dtype == B.dtype:
        solved = lapack.trsm(
            xp.broadcast_to(T, batch + T.shape[-2:]),
            xp.broadcast_to(B, batch + B.shape[-2:]),
            upper=upper,
            left=True,
            unitriangular=False,
        )
        if solved is not None:
            return solved
    try:
        return xp.linalg.solve(T, B)
    except xp.linalg.LinAlgError:
        pass
    T = xp.broadcast_to(T, batch + T.shape[-2:])
    X = xp.array(xp.broadcast_to(B, batch + B.shape[-2:]), dtype=xp.result_type(T, B))
    n = T.shape[-1]
    with xp.errstate(all="ignore"):
        for i in range(n - 1, -1, -1) if upper else range(n):
            done = slice(i + 1, n) if upper else slice(0, i)
            known = xp.einsum("...j,...jk->...k", T[..., i, done], X[..., done, :])
            X[..., i, :] = (X[..., i, :] - known) / T[..., i, i, None]
    return X


def _triangle(A, upper, unitriangular):
    out = xp.triu(A) if upper else xp.tril(A)
    if unitriangular:
        idx = xp.arange(A.shape[-1])
        out[..., idx, idx] = 1
    return out


def _solve_triangular_grads(grad, input, result, upper, left, unitriangular, which):
    gB = _solve_triangular(input.mH, grad, not upper, left, unitriangular)
    if which == "B":
        return gB
    gA = -(gB @ result.mH) if left else -(result.mH @ gB)
    shift = int(unitriangular)
    return gA.triu(shift) if upper else gA.tril(-shift)


@batched
def _solve_triangular_jvp(input_t, B_t, input, B, result, upper, left, unitriangular):
    # as solve, with dA restricted to the triangle the op reads
    change = None
    if input_t is not None:
        shift = int(unitriangular)
        dA = align(input_t.triu(shift) if upper else input_t.tril(-shift), input, result.ndim)
        change = -(dA @ result if left else result @ dA)
    B_t = align(B_t, B, result.ndim)
    return _solve_triangular(input, add_terms(B_t, change), upper, left, unitriangular)


@defop(
    batch=batch_rules.same_rank,
    name="linalg_solve_triangular",
    dtypes=kernel("triangular_solve_cpu", FLOATING | COMPLEX),
    promote="same",
    input=lambda grad, input, result, upper, left, unitriangular: _solve_triangular_grads(
        grad, input, result, upper, left, unitriangular, "A"
    ),
    B=lambda grad, input, result, upper, left, unitriangular: _solve_triangular_grads(
        grad, input, result, upper, left, unitriangular, "B"
    ),
    jvp=_solve_triangular_jvp,
)
def _solve_triangular(input, B, upper, left, unitriangular):
    batch = xp.broadcast_shapes(input.shape[:-2], B.shape[:-2])
    solved = lapack.trsm(
        xp.broadcast_to(input, batch + input.shape[-2:]),
        xp.broadcast_to(B, batch + B.shape[-2:]),
        upper=upper,
        left=left,
        unitriangular=unitriangular,
    )
    if solved is not None:
        return column_major(solved)  # Note [LAPACK layout]
    T = _triangle(input, upper, unitriangular)
    if left:
        return column_major(triangular_kernel(T, B, upper))
    Tt, Bt = xp.swapaxes(T, -1, -2), xp.swapaxes(B, -1, -2)
    return column_major(xp.swapaxes(triangular_kernel(Tt, Bt, not upper), -1, -2))


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
    check_matrices(A, "linalg.solve_triangular", dtypes=_solve_triangular.spec.dtypes)
    if B.ndim < 2:
        raise RuntimeError(
            "linalg.solve_triangular: The input tensor B must have at least 2 dimensions."
        )
    inner = B.shape[-2] if left else B.shape[-1]
    if A.shape[-1] != inner:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(
            f"linalg.solve_triangular: Incompatible shapes of A and B for the equation "
            f"{equation} ({A.shape[-2]}x{A.shape[-1]} and {B.shape[-2]}x{B.shape[-1]})"
        )
    if B.dtype is not A.dtype and A.is_floating_point() and B.is_floating_point():
        B = B.to(A.dtype)  # torch solves in A's dtype: float32 A, float64 B give float32
    return _solve_triangular(A, B, bool(upper), bool(left), bool(unitriangular))


# -- cholesky --------------------------------------------------------------------------------
def _cholesky_backward(grad, result, upper):
    # Murray (2016), as torch: gA = L^-H Phi(L^H gL) L^-1, with Phi taking the lower
    # triangle and halving the diagonal
    L, gL = (result.mH, grad.mH) if upper else (result, grad)
    gA = (L.mH @ gL).tril()
    gA = 0.5 * (gA + gA.tril(-1).mH)
    gA = _solve_triangular(L.mH, gA, True, True, False)
    return _solve_triangular(L, gA, False, False, False)


@batched
def _cholesky_jvp(input_t, result, upper):
    # dL = L Phi(L^-1 dA L^-H), Phi: the lower triangle with the diagonal halved (torch's
    # formula: the whole tangent enters, not only the triangle the factorization reads)
    L, dA = (result.mH, input_t.mH) if upper else (result, input_t)
    phi = _solve_triangular(L, dA, False, True, False)
    phi = _solve_triangular(L.mH, phi, True, False, False)
    dL = L @ (0.5 * (phi.tril() + phi.tril(-1)))
    return dL.mH if upper else dL


def _potf2(a) -> int:
    """LAPACK's unblocked left-looking Cholesky (lower) in place on one matrix; returns its
    info. On failure the failed pivot holds its non-positive value and the columns after it
    keep the input's values, as LAPACK (and torch) leave them."""
    for j in range(a.shape[0]):
        pivot = (a[j, j] - a[j, :j] @ xp.conj(a[j, :j])).real
        if not pivot > 0:
            a[j, j] = pivot
            return j + 1
        a[j, j] = pivot = xp.sqrt(pivot)
        a[j + 1 :, j] = (a[j + 1 :, j] - a[j + 1 :, :j] @ xp.conj(a[j, :j])) / pivot
    return 0


def _partial_factors(data):
    """(lower factors, info) for a batch where some matrix is not positive-definite."""
    flat = data.reshape(-1, *data.shape[-2:]).copy()
    info = xp.array([_potf2(matrix) for matrix in flat], dtype=xp.int32)
    return xp.tril(flat).reshape(data.shape), info.reshape(data.shape[:-2])


@defop(
    batch=batch_rules.first_only,
    name="linalg_cholesky_ex",
    dtypes=kernel("cholesky_cpu", FLOATING | COMPLEX),
    node="LinalgCholeskyExBackward0",
    outputs=2,
    input=lambda grads, result, upper: _cholesky_backward(grads[0], result, upper),
    jvp=batched(lambda input_t, result, upper: (_cholesky_jvp(input_t, result, upper), None)),
)
def _cholesky_ex(input, upper, check_errors):
    # A matrix that is not positive-definite keeps LAPACK's partial factor, and stays
    # differentiable through it, as in torch (whose info output says it failed), unless
    # check_errors names the op to raise for.
    try:
        L = xp.linalg.cholesky(input)
        if xp.isnan(xp.diagonal(L, axis1=-2, axis2=-1)).any():
            # LAPACK's pivot test fails on NaN too; NumPy's factor carries it on
            raise xp.linalg.LinAlgError
        info = xp.zeros(input.shape[:-2], dtype=xp.int32)
    except xp.linalg.LinAlgError:
        L, info = _partial_factors(input)
        if check_errors:
            _raise_not_positive_definite(info, check_errors)
    U = xp.conj(xp.swapaxes(L, -1, -2)) if upper else L  # U = L^H
    return column_major(U), info  # Note [LAPACK layout]


def _raise_not_positive_definite(info, name):
    if xp.any(info):
        raise LinAlgError(_not_positive_definite_message(info, name))


def _cholesky(input, upper):
    return _cholesky_ex(input, upper, "linalg.cholesky")[0]


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

"""Matrix decompositions (``torch.linalg``): qr, eigh/eigvalsh, svd/svdvals, and pinv.

Derivatives are the standard formulas written with numtorch ops (so they can be
differentiated again); for eigh and svd they carry ``1 / (lambda_j - lambda_i)`` factors and
are finite only where the eigen- or singular values are distinct. Eigen- and singular
vectors are defined up to sign. The forward derivatives follow torch's (its choice of the
complex vectors' phases included) and take tangents with a leading batch dimension.
"""

from __future__ import annotations

from .._core import batch_rules
from .._core.kernel_dtypes import COMPLEX, FLOATING, kernel
from .._core.op import defop
from .._core.tensor import Tensor
from ..autograd.forward_grad import batched
from ..backend import xp
from .concatenation import cat
from .lapack_layout import column_major
from .linalg_solve import LinAlgError, _batch_eye, _solve_triangular, check_matrices
from .return_types import structseq


# LAPACK reports no convergence (NaN in the input): torch's LinAlgError, never NumPy's
def eigh_kernel(data, values_only=False, UPLO="L"):
    try:
        if values_only:
            return xp.linalg.eigvalsh(data, UPLO=UPLO)
        return xp.linalg.eigh(data, UPLO=UPLO)
    except xp.linalg.LinAlgError:
        raise LinAlgError(
            "linalg.eigh: The algorithm failed to converge because the input matrix is "
            "ill-conditioned or has too many repeated eigenvalues."
        ) from None


_SVD_FAILED = (
    "linalg.svd: The algorithm failed to converge because the input matrix contained "
    "non-finite values."
)


def svd_kernel(data, **options):
    if not xp.isfinite(data).all():
        # LAPACK's SVD may loop forever on inf: torch refuses NaN and gives NaN for inf
        if xp.isnan(data).any():
            raise LinAlgError(_SVD_FAILED)
        return _nan_like_svd(data, **options)
    try:
        return xp.linalg.svd(data, **options)
    except xp.linalg.LinAlgError:
        raise LinAlgError(_SVD_FAILED) from None


def _nan_like_svd(data, full_matrices=True, compute_uv=True):
    m, n = data.shape[-2:]
    batch = data.shape[:-2]
    S = xp.full(batch + (min(m, n),), xp.nan, dtype=data.dtype)
    if not compute_uv:
        return S
    rows, cols = (m, n) if full_matrices else (min(m, n), min(m, n))
    U = xp.full(batch + (m, rows), xp.nan, dtype=data.dtype)
    Vh = xp.full(batch + (cols, n), xp.nan, dtype=data.dtype)
    return U, S, Vh


# -- qr --------------------------------------------------------------------------------------
qr_type = structseq("linalg_qr", ("Q", "R"))


def _copyltu(M):
    # the Hermitian matrix holding M's lower triangle (the diagonal's real part: R's
    # diagonal is real, so its imaginary part moves nothing)
    return M.tril(-1) + M.tril(-1).mH + M.diagonal(0, -2, -1).real.diag_embed()


def _qr_backward_tall(gQ, gR, Q, R):
    # m >= n: gA = (gQ + Q copyltu(M)) R^-H with M = R gR^H - gQ^H Q
    M = R @ gR.mH - gQ.mH @ Q
    return _solve_triangular(R.mH, gQ + Q @ _copyltu(M), False, False, False)


def _check_qr_differentiable(mode, Q, R):
    """torch's refusals, for the backward and the forward derivative alike."""
    if mode == "r":
        raise RuntimeError(
            "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
            "Please use linalg.qr(A, mode='reduced') if you are going to differentiate "
            "through linalg.qr."
        )
    if mode == "complete" and Q.shape[-2] > R.shape[-1]:
        raise RuntimeError(
            "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."
        )


def _qr_backward(grads, result, result1, mode):
    _check_qr_differentiable(mode, result, result1)
    Q, R = result, result1
    m, n = Q.shape[-2], R.shape[-1]
    gQ = grads[0] if grads[0] is not None else Q * 0
    gR = grads[1] if grads[1] is not None else R * 0
    if m >= n:
        return _qr_backward_tall(gQ, gR, Q, R)
    # m < n: A = [X | Y] with X = Q U square; R = [U | V], V = Q^H Y
    U, V = R[..., :, :m], R[..., :, m:]
    gU, gV = gR[..., :, :m], gR[..., :, m:]
    Y = Q @ V
    gX = _qr_backward_tall(gQ + Y @ gV.mH, gU, Q, U)
    return cat([gX, Q @ gV], -1)


def _qr_square_jvp(dA, Q, R):
    """(dQ, dR) of reduced A = Q R (m >= n): C = Q^H dA R^-1 splits into the skew-Hermitian
    Q^H dQ (strictly lower part of C, mirrored; imaginary diagonal) and dR R^-1 (upper)."""
    dAR = _solve_triangular(R, dA, True, False, False)  # dA R^-1
    C = Q.mH @ dAR
    lower = C.tril(-1)
    skew = lower - lower.mH
    if C.is_complex():
        skew = skew + (1j * C.diagonal(0, -2, -1).imag).diag_embed()
    upper = C - skew
    return dAR - Q @ upper, upper @ R


@batched
def _qr_jvp(input_t, result, result1, mode):
    _check_qr_differentiable(mode, result, result1)
    Q, R = result, result1
    m, n = Q.shape[-2], R.shape[-1]
    if m >= n:
        return _qr_square_jvp(input_t, Q, R)
    # m < n: A = [X | Y], X = Q U square, Y = Q V: dV = Q^H (dY - dQ V)
    dQ, dU = _qr_square_jvp(input_t[..., :, :m], Q, R[..., :, :m])
    dV = Q.mH @ (input_t[..., :, m:] - dQ @ R[..., :, m:])
    return dQ, cat([dU, dV], -1)


@defop(
    batch=batch_rules.first_only,
    name="linalg_qr",
    dtypes=kernel("geqrf_cpu", FLOATING | COMPLEX),
    outputs=2,
    returns=qr_type,
    input=lambda grads, result, result1, mode: _qr_backward(grads, result, result1, mode),
    jvp=_qr_jvp,
)
def _qr(input, mode):
    input = input + 0.0  # Note [Signed zeros in Householder QR]
    if mode == "r":
        R = xp.linalg.qr(input, mode="r")
        return xp.zeros((0,), input.dtype), column_major(R)
    Q, R = xp.linalg.qr(input, mode=mode)
    return column_major(Q), column_major(R)  # Note [LAPACK layout]


# Note [Signed zeros in Householder QR]
# A reflector's sign follows the sign of its column's leading entry (LAPACK's larfg:
# beta = -sign(norm, alpha)). torch's MKL takes -0.0 there as positive, the reference
# LAPACK in NumPy's OpenBLAS as negative: adding +0.0 first (-0.0 + 0.0 is +0.0, every
# other value unchanged) gives torch's signs for R, Q and geqrf's reflectors.


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


def _check_phase_invariant(imaginary, op, what, depends):
    """Complex singular vectors and eigenvectors are defined up to a phase each: a loss that
    depends on the phases (an imaginary part on the diagonal of V^H gV) has no gradient."""
    if not xp.allclose(imaginary._data, 0, rtol=1e-2, atol=1e-2):
        raise RuntimeError(
            f"{op}: The {what} in the complex case are specified up to multiplication by "
            f"e^{{i phi}}. The specified loss function depends on {depends}"
        )


def _eigh_backward(grads, result, result1):
    # gA = V (diag(gL) + skew(V^H gV) / E) V^H with E_ij = L_j - L_i (as torch)
    L, V = result, result1
    gL, gV = grads
    n = L.shape[-1]
    inner = None
    if gV is not None:
        VhgV = V.mH @ gV
        if V.is_complex():
            _check_phase_invariant(
                VhgV.diagonal(0, -2, -1).imag,
                "linalg_eigh_backward",
                "eigenvectors",
                "this quantity, so it is ill-defined.",
            )
        E = L.unsqueeze(-2) - L.unsqueeze(-1) + _batch_eye(n, L)
        inner = 0.5 * (VhgV - VhgV.mH) / E
    if gL is not None:
        inner = gL.diag_embed() if inner is None else inner + gL.diag_embed()
    if inner.dtype != V.dtype:  # real eigenvalues' gradient, complex vectors
        inner = inner.to(V.dtype)
    return V @ inner @ V.mH


@batched
def _eigh_jvp(input_t, result, result1):
    # dP = V^H dA V: dL = diag(dP) (real), dV = V (dP / E) with E_ij = L_j - L_i off the
    # diagonal and a zero diagonal (torch's phase for complex vectors); the whole tangent
    # enters, as in torch
    L, V = result, result1
    dP = V.mH @ input_t @ V
    E = L.unsqueeze(-2) - L.unsqueeze(-1)
    E = E + _batch_eye(L.shape[-1], E)
    off = (dP / E) * (1 - _batch_eye(L.shape[-1], E))
    dL = dP.diagonal(0, -2, -1)
    return (dL.real if dL.is_complex() else dL), V @ off


@defop(
    batch=batch_rules.first_only,
    name="linalg_eigh",
    dtypes=kernel("linalg_eigh_cpu", FLOATING | COMPLEX),
    outputs=2,
    returns=eigh_type,
    input=lambda grads, result, result1: _eigh_backward(grads, result, result1),
    jvp=_eigh_jvp,
)
def _eigh(input, UPLO):
    values, vectors = eigh_kernel(input, UPLO=UPLO)
    return values, column_major(vectors)  # Note [LAPACK layout]


def eigh(A, UPLO="L"):
    """Eigenvalues (ascending) and orthonormal eigenvectors (columns) of symmetric ``A``;
    only the ``UPLO`` ('L' or 'U') triangle is read. Eigenvectors are defined up to sign.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.eigh(torch.tensor([[2.0, 0.0], [0.0, 1.0]])).eigenvalues
        tensor([1., 2.])
    """
    check_matrices(A, "linalg.eigh", dtypes=_eigh.spec.dtypes)
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
    V = Vh.mH
    gV = gVh.mH if gVh is not None else None
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + _batch_eye(k, S)  # E_ij = S_j^2 - S_i^2
    # skew-Hermitian parts of U^H gU and V^H gV (as torch)
    UhgU = None if gU is None else U.mH @ gU
    UhgU = None if gU is None else UhgU - UhgU.mH
    VhgV = None if gV is None else V.mH @ gV
    VhgV = None if gV is None else VhgV - VhgV.mH
    complex_input = U.is_complex()
    if complex_input:
        phases = [t.diagonal(0, -2, -1).imag for t in (UhgU, VhgV) if t is not None]
        _check_phase_invariant(
            phases[0] + phases[1] if len(phases) == 2 else phases[0],
            "svd_backward",
            "singular vectors",
            "this phase term, making it ill-defined.",
        )
    inner = 0
    if UhgU is not None:
        inner = UhgU * S.unsqueeze(-2)
    if VhgV is not None:
        inner = inner + S.unsqueeze(-1) * VhgV
    gA = inner / E
    if gS is not None:
        gA = gA + gS.diag_embed()
    if complex_input and UhgU is not None:
        # the phase of each pair of vectors: the imaginary diagonal of U^H gU over S
        gA = gA + (UhgU.diagonal(0, -2, -1).imag / (2 * S) * 1j).diag_embed()
    if m > n and gU is not None:
        gUSinv = gU / S.unsqueeze(-2)
        gA = (U @ gA + gUSinv - U @ (U.mH @ gUSinv)) @ Vh
    elif m < n and gV is not None:
        gVSinv = gV / S.unsqueeze(-2)
        gA = U @ (gA @ Vh + gVSinv.mH - (gVSinv.mH @ V) @ Vh)
    else:
        gA = U @ gA @ Vh
    return gA


@batched
def _svd_jvp(input_t, result, result1, result2, full_matrices):
    # dP = U^H dA V; off the diagonal U^H dU = (dP S + S dP^H) / E and V^H dV = (S dP +
    # dP^H S) / E with E_ij = S_j^2 - S_i^2; dS = Re diag(dP); a complex dP's imaginary
    # diagonal is split evenly between U and V (torch's phases); the parts of dU (dV) outside
    # the span of U (V) come from the rest of dA
    U, S, Vh = result, result1, result2
    m, n, k = U.shape[-2], Vh.shape[-1], S.shape[-1]
    if full_matrices:
        U, Vh = U[..., :, :k], Vh[..., :k, :]
    dA, V = input_t, Vh.mH
    dP = U.mH @ dA @ V
    diagonal = dP.diagonal(0, -2, -1)
    dS = diagonal.real if diagonal.is_complex() else diagonal
    dP = dP - dS.diag_embed()
    S2 = S * S
    eye = _batch_eye(k, S)
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + eye
    left = dP * S.unsqueeze(-2)
    right = dP * S.unsqueeze(-1)
    dU_inner = (left + left.mH) / E
    dV_inner = (right + right.mH) / E
    if dP.is_complex():
        half = (dP.diagonal(0, -2, -1) / (2 * S)).diag_embed()
        dU_inner, dV_inner = dU_inner + half, dV_inner - half
    dU = U @ dU_inner
    dVh = -(dV_inner @ Vh)  # (V^H dV is skew: dVh = -(V^H dV) Vh)
    if m > k:
        dAVS = dA @ (V / S.unsqueeze(-2))
        dU = dU + dAVS - U @ (U.mH @ dAVS)
    if n > k:
        SUdA = (U / S.unsqueeze(-2)).mH @ dA
        dVh = dVh + SUdA - (SUdA @ V) @ Vh
    if full_matrices and m > k:
        dU = cat([dU, dU.new_zeros((*dU.shape[:-1], m - k))], -1)
    if full_matrices and n > k:
        dVh = cat([dVh, dVh.new_zeros((*dVh.shape[:-2], n - k, n))], -2)
    return dU, dS, dVh


@defop(
    batch=batch_rules.first_only,
    name="linalg_svd",
    dtypes=kernel("linalg_svd_cpu", FLOATING | COMPLEX),
    outputs=3,
    returns=svd_type,
    input=lambda grads, result, result1, result2, full_matrices: _svd_backward(
        grads, result, result1, result2, full_matrices
    ),
    jvp=_svd_jvp,
)
def _svd(input, full_matrices):
    U, S, Vh = svd_kernel(input, full_matrices=full_matrices)
    return column_major(U), S, column_major(Vh)  # Note [LAPACK layout]


def _check_driver(driver, name):
    if driver is not None:
        raise RuntimeError(
            f"torch.linalg.{name}: keyword argument `driver=` is only supported on CUDA inputs "
            "with cuSOLVER backend."
        )


def svd(A, full_matrices=True, *, driver=None):
    """``A = U diag(S) Vh`` with singular values ``S`` descending. Singular vectors are
    defined up to sign; gradients through them need distinct singular values.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.svd(torch.tensor([[3.0, 0.0], [0.0, -4.0]])).S
        tensor([4., 3.])
    """
    check_matrices(A, "linalg.svd", square=False)
    _check_driver(driver, "svd")
    return _svd(A, bool(full_matrices))


def svdvals(A, *, driver=None) -> Tensor:
    """The singular values of ``A``, descending."""
    check_matrices(A, "linalg.svdvals", square=False)
    _check_driver(driver, "svdvals")
    # the vectors are computed even without grad: LAPACK's values-only routine rounds
    # differently, and values must not depend on the grad mode
    return _svd(A, False)[1]


# -- pinv ------------------------------------------------------------------------------------
def _pinv_backward(grad, input, result):
    # torch's pinv_backward (products arranged to keep the matrices small)
    A, pinvA = input, result
    m, n = A.shape[-2], A.shape[-1]
    pinvAh, gradh = pinvA.mH, grad.mH
    if m <= n:
        K = gradh @ pinvA
        KpinvAh = K @ pinvAh
        return (
            -(pinvA @ K).mH + KpinvAh - (A @ pinvA) @ KpinvAh + (pinvAh @ pinvA) @ (gradh - K @ A)
        )
    K = pinvA @ gradh
    pinvAhK = pinvAh @ K
    return -(K @ pinvA).mH + (gradh - A @ K) @ pinvA @ pinvAh + pinvAhK - pinvAhK @ pinvA @ A


@batched
def _pinv_jvp(input_t, input, result):
    # constant rank: d A+ = -A+ dA A+ + A+ A+^H dA^H (I - A A+) + (I - A+ A) dA^H A+^H A+
    A, pinvA, dAh = input, result, input_t.mH
    pinvAh = pinvA.mH
    return (
        -(pinvA @ input_t @ pinvA)
        + (pinvA @ pinvAh) @ (dAh - (dAh @ A) @ pinvA)
        + (dAh - pinvA @ (A @ dAh)) @ (pinvAh @ pinvA)
    )


@defop(
    batch=batch_rules.first_only,
    name="linalg_pinv",
    input=_pinv_backward,
    jvp=_pinv_jvp,
)
def _pinv(input, atol, rtol, hermitian):
    if hermitian:
        values, u = eigh_kernel(input)
        sigma = xp.abs(values)
        largest = xp.max(sigma, axis=-1, keepdims=True, initial=0)
        vh = xp.conj(xp.swapaxes(u, -1, -2))
        u = u * xp.sign(values)[..., None, :]  # A = u diag(|values|) vh, signs moved into u
    else:
        u, sigma, vh = svd_kernel(input, full_matrices=False)
        largest = sigma[..., :1] if sigma.shape[-1] else xp.zeros(sigma.shape[:-1] + (1,))
    keep = sigma > xp.maximum(atol, rtol * largest)
    inverse = xp.where(keep, 1 / xp.where(keep, sigma, 1), 0).astype(input.dtype)
    # pinv(A) = V diag(1 / sigma) U^H
    v, uh = xp.conj(xp.swapaxes(vh, -1, -2)), xp.conj(xp.swapaxes(u, -1, -2))
    return xp.matmul(v * inverse[..., None, :], uh)


_PINV_DTYPES = FLOATING | COMPLEX


_NO_RCOND = object()


def pinv(A, rcond=_NO_RCOND, hermitian=False, *, atol=None, rtol=None) -> Tensor:
    """The Moore-Penrose pseudo-inverse: singular values at most
    ``max(atol, rtol * largest)`` count as zero (default ``rtol``: eps * max(m, n)).
    ``atol`` and ``rtol`` may be tensors broadcast against the batch; torch's older form
    ``pinv(A, rcond, hermitian)`` is ``rtol=rcond``.

    Example:
        >>> import numtorch as torch
        >>> torch.linalg.pinv(torch.tensor([[2.0, 0.0], [0.0, 0.0]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.0000]])
    """
    if rcond is not _NO_RCOND:
        if rcond is None or atol is not None or rtol is not None:
            raise TypeError(
                "linalg_pinv() received an invalid combination of arguments: give either "
                "`rcond` (float or Tensor) or the keywords `atol` and `rtol`"
            )
        rtol = rcond
    if A.ndim < 2 or A._data.dtype not in _PINV_DTYPES:  # torch's one check for both
        raise RuntimeError(
            f"linalg.pinv({A.dtype.scalar_name}{{{list(A.shape)}}}): expected a tensor with 2 "
            "or more dimensions of float, double, cfloat or cdouble types"
        )
    if atol is None and rtol is None:
        rtol = float(xp.finfo(A._data.dtype).eps) * max(A.shape[-2], A.shape[-1])
    return _pinv(A, tolerance(atol), tolerance(rtol), bool(hermitian))


def tolerance(value):
    """A rank tolerance (``atol``/``rtol``) as a number, or a tensor's values with a
    trailing axis: a tolerance per matrix of the batch, broadcast against its singular
    values as torch's are."""
    if value is None:
        return 0.0
    if isinstance(value, Tensor):
        return value._data[..., None]
    return float(value)

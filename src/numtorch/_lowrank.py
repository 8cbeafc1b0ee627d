"""``torch.svd_lowrank`` and ``torch.pca_lowrank``: randomized low-rank SVD (Halko, Martinsson
and Tropp 2009, algorithms 4.4 and 5.1). The random test matrix is drawn with ``randn`` from the
default generator in the order torch draws it, so results after the same seed are torch's."""

from __future__ import annotations

from . import linalg
from ._core import dtypes
from ._core.tensor import Tensor
from ._creation import randn


def _floating(A) -> dtypes.dtype:
    # float32 and float64 stay; anything else computes in float32
    return A.dtype if A.dtype in (dtypes.float32, dtypes.float64) else dtypes.float32


def _orthonormal(X):
    return linalg.qr(X).Q


def get_approximate_basis(A: Tensor, q: int, niter: int | None = 2, M: Tensor | None = None):
    """An m x q matrix Q with orthonormal columns whose range approximates A's (or A - M's),
    by ``niter`` power iterations on a Gaussian sketch."""
    niter = 2 if niter is None else niter
    dtype = A.dtype if A.is_complex() else _floating(A)
    R = randn(A.shape[-1], q, dtype=dtype)

    def times(left, right, adjoint):
        X = (left.mH if adjoint else left) @ right
        if M is not None:
            X = X - (M.mH if adjoint else M) @ right
        return X

    Q = _orthonormal(times(A, R, False))
    for _ in range(niter):
        Q = _orthonormal(times(A, Q, True))
        Q = _orthonormal(times(A, Q, False))
    return Q


def _svd_lowrank(A, q=6, niter=2, M=None):
    q = 6 if q is None else q
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.shape)
    # sketch the taller side: work on A^H when A is wide
    wide = m < n
    if wide:
        A = A.mH
        M = None if M is None else M.mH
    Q = get_approximate_basis(A, q, niter=niter, M=M)
    B = Q.mH @ A
    if M is not None:
        B = B - Q.mH @ M
    U, S, Vh = linalg.svd(B, full_matrices=False)
    U, V = Q @ U, Vh.mH
    return (V, S, U) if wide else (U, S, V)


def svd_lowrank(A: Tensor, q: int | None = 6, niter: int | None = 2, M: Tensor | None = None):
    """An approximate rank-``q`` SVD ``A - M ~ U diag(S) V^H`` (U, S, V)."""
    if not isinstance(A, Tensor):
        raise TypeError(f"svd_lowrank(): argument 'A' must be Tensor, not {type(A).__name__}")
    return _svd_lowrank(A, q=q, niter=niter, M=M)


def pca_lowrank(A: Tensor, q: int | None = None, center: bool = True, niter: int = 2):
    """Principal components of the rows of ``A`` (centered on their mean when ``center``) by
    randomized SVD: (U, S, V) with V's columns the principal directions."""
    if not isinstance(A, Tensor):
        raise TypeError(f"pca_lowrank(): argument 'A' must be Tensor, not {type(A).__name__}")
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not 0 <= q <= min(m, n):
        raise ValueError(
            f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}"
        )
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return _svd_lowrank(A, q, niter=niter)
    if A.is_sparse:
        raise NotImplementedError(
            "pca_lowrank(): centering a sparse input is not supported; densify it with "
            "A.to_dense() or pass center=False"
        )
    return _svd_lowrank(A - A.mean(dim=(-2,), keepdim=True), q, niter=niter)

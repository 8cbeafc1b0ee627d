"""torch.lobpcg: a few extreme eigenpairs of a symmetric (generalized) eigenproblem
``A X = B X diag(E)`` by the locally optimal block preconditioned conjugate gradient method
(Knyazev, 2001).

Each step searches the span of the current block ``X``, its (preconditioned) residuals ``W``
and the previous step's direction ``P``, B-orthonormalized in that order so that ``X`` stays
the first block, and keeps the Rayleigh-Ritz vectors of the ``n`` extreme Ritz values. A pair
has converged when its residual is below ``tol`` relative to ``(|A| + |E| |B|) |x|``, the
backward stable criterion of Duersch et al. (2018), with ``|A|`` and ``|B|`` estimated on the
first block. Iterates differ from torch's (a different orthogonalization); the converged pairs
agree within ``tol``. Gradients (``B`` absent) are the symmetric eigendecomposition's.
"""

from __future__ import annotations

import numpy as np

import numtorch as torch

from ._core.tensor import Tensor

__all__ = ["lobpcg"]


class _Worker:
    """What a ``tracker`` sees each step, under torch's names: ``ivars`` (``istep``,
    ``converged_count``), ``fvars`` (``A_norm``, ``B_norm``), ``tvars`` (``rerr``), ``bvars``
    (set ``bvars['force_stop'] = True`` to stop) and ``X``, ``E``, ``R``."""

    def __init__(self):
        self.ivars = {"istep": 0, "converged_count": 0}
        self.fvars = {}
        self.bvars = {}
        self.tvars = {}
        self.X = self.E = self.R = None


def _b_orthonormal(V, Bmul, tau):
    """A B-orthonormal basis of ``V``'s columns, dropping directions with relative weight
    below ``tau`` (svqb: eigen-decompose the Gram matrix, scale by its inverse root)."""
    if V.shape[1] == 0:
        return V
    for _ in range(2):  # twice is enough against rounding (Giraud et al.)
        gram = V.T @ Bmul(V)
        gram = (gram + gram.T) / 2
        scale = np.sqrt(np.clip(np.diag(gram), np.finfo(V.dtype).tiny, None))
        values, vectors = np.linalg.eigh(gram / np.outer(scale, scale))
        keep = values > tau * max(values.max(), 0.0)
        if not keep.any():
            return V[:, :0]
        V = (V / scale) @ (vectors[:, keep] / np.sqrt(values[keep]))
    return V


def _project_out(V, basis, Bmul):
    return V - basis @ (basis.T @ Bmul(V)) if basis.shape[1] else V


def _ritz(A, S, n, largest):
    small = S.T @ (A @ S)
    values, vectors = np.linalg.eigh((small + small.T) / 2)
    order = np.argsort(-values if largest else values, kind="stable")[:n]
    return values[order], vectors[:, order]


def _lobpcg_one(A, B, X, iK, k, niter, tol, largest, tracker):
    Bmul = (lambda V: V) if B is None else (lambda V: B @ V)
    n = X.shape[1]
    tau = np.finfo(A.dtype).eps * 10
    X = _b_orthonormal(X, Bmul, tau)
    if X.shape[1] < n:
        raise ValueError("lobpcg: the initial block X must have linearly independent columns")
    E, C = _ritz(A, X, n, largest)
    X = X @ C
    worker = _Worker()
    inverse_norm = 1 / np.linalg.norm(X)
    worker.fvars["A_norm"] = float(np.linalg.norm(A @ X) * inverse_norm)
    worker.fvars["B_norm"] = float(np.linalg.norm(Bmul(X)) * inverse_norm)
    P = X[:, :0]
    for step in range(niter + 1):
        R = A @ X - Bmul(X) * E
        rerr = np.linalg.norm(R, axis=0) / (
            np.linalg.norm(X, axis=0)
            * (worker.fvars["A_norm"] + np.abs(E) * worker.fvars["B_norm"])
        )
        converged = 0
        while converged < n and rerr[converged] < tol:
            converged += 1  # counted in order, so that pairs converge from the extreme end
        worker.ivars.update(istep=step, converged_count=converged)
        worker.X, worker.E, worker.R, worker.tvars["rerr"] = X, E, R, rerr
        if tracker is not None:
            tracker(worker)
        if converged >= k or step == niter or worker.bvars.get("force_stop", False):
            break
        W = R[:, rerr >= tol]
        if iK is not None:
            W = iK @ W
        W = _b_orthonormal(_project_out(W, X, Bmul), Bmul, tau)
        P = _b_orthonormal(_project_out(_project_out(P, X, Bmul), W, Bmul), Bmul, tau)
        S = np.concatenate([X, W, P], axis=1)
        E, C = _ritz(A, S, n, largest)
        X, P = S @ C, S[:, n:] @ C[n:]
    return E[:k], X[:, :k]


def _forward(A, k, B, X, n, iK, niter, tol, largest, tracker):
    """(E, X) of ``A``'s (batched) problem as arrays in ``A``'s dtype."""
    data = A._data
    m = data.shape[-1]
    batch = data.shape[:-2]
    flat_A = data.reshape((-1, m, m)).astype(np.float64)
    flat_B = None if B is None else B._data.reshape((-1, m, m)).astype(np.float64)
    flat_X = None if X is None else X._data.reshape((-1, m, n)).astype(np.float64)
    conditioner = None if iK is None else iK._data.astype(np.float64)
    values, vectors = [], []
    for i in range(flat_A.shape[0]):
        start = flat_X[i] if flat_X is not None else torch.randn(m, n, dtype=A.dtype)._data
        e, x = _lobpcg_one(
            flat_A[i], None if flat_B is None else flat_B[i], start.astype(np.float64),
            conditioner, k, niter, tol, largest, tracker,
        )  # fmt: skip
        values.append(e)
        vectors.append(x)
    dtype = data.dtype
    return (
        np.stack(values).reshape((*batch, k)).astype(dtype),
        np.stack(vectors).reshape((*batch, m, k)).astype(dtype),
    )


class LOBPCGAutogradFunction(torch.autograd.Function):
    """Differentiates lobpcg's pairs as the symmetric eigendecomposition's (``B`` absent)."""

    @staticmethod
    def forward(ctx, A, k, B, X, n, iK, niter, tol, largest, tracker):
        E, U = _forward(A, k, B, X, n, iK, niter, tol, largest, tracker)
        E, U = torch.from_numpy(E), torch.from_numpy(U)
        ctx.save_for_backward(A, B, E, U)
        return E, U

    @staticmethod
    def backward(ctx, E_grad, U_grad):
        A, B, E, U = ctx.saved_tensors
        if B is not None:
            raise ValueError("lobpcg.backward does not support backward with B != I yet.")
        # d(lambda_i) = u_i^T dA u_i, d(u_i) = sum_{j != i} u_j (u_j^T dA u_i) / (lambda_i -
        # lambda_j) over the whole spectrum: the selected pairs' grads, zeros for the rest
        values, vectors = torch.linalg.eigh(A)
        index = (values.unsqueeze(-1) - E.unsqueeze(-2)).abs().argmin(-2)
        columns = index.unsqueeze(-2).expand_as(U)
        chosen = vectors.gather(-1, columns)
        signs = (chosen * U).sum(-2, keepdim=True).sign()
        vectors = vectors.scatter(-1, columns, chosen * signs)
        value_grad = torch.zeros_like(values)
        if E_grad is not None:
            value_grad = value_grad.scatter(-1, index, E_grad)
        vector_grad = torch.zeros_like(vectors)
        if U_grad is not None:
            vector_grad = vector_grad.scatter(-1, columns, U_grad)
        gaps = values.unsqueeze(-2) - values.unsqueeze(-1)
        diagonal = torch.eye(A.shape[-1], dtype=torch.bool)
        inverse_gaps = torch.where(diagonal, 0.0, 1 / torch.where(diagonal, 1.0, gaps))
        inner = (vectors.mT @ vector_grad) * inverse_gaps + torch.diag_embed(value_grad)
        return (vectors @ inner @ vectors.mT, *([None] * 9))


def lobpcg(A: Tensor, k: int | None = None, B: Tensor | None = None, X: Tensor | None = None,
           n: int | None = None, iK: Tensor | None = None, niter: int | None = None,
           tol: float | None = None, largest: bool | None = None, method: str | None = None,
           tracker=None, ortho_iparams=None, ortho_fparams=None,
           ortho_bparams=None) -> tuple[Tensor, Tensor]:  # fmt: skip
    """The ``k`` largest (or smallest, ``largest=False``) eigenpairs ``(E, X)`` of the
    symmetric positive definite generalized problem ``A X = B X diag(E)`` (``B`` defaults to
    the identity), by LOBPCG with a block of ``n`` vectors (``X``'s columns when given).

    Example:
        >>> import numtorch as torch
        >>> A = torch.diag(torch.arange(1.0, 11.0, dtype=torch.float64))
        >>> E, X = torch.lobpcg(A, k=2)
        >>> E.round(decimals=6)
        tensor([10.,  9.], dtype=torch.float64)
    """
    if A.shape[-2] != A.shape[-1]:
        raise AssertionError(f"A must be square, got shape {A.shape}")
    if B is not None and A.shape != B.shape:
        raise AssertionError(f"A and B must have same shape, got {A.shape} vs {B.shape}")
    if not A.is_floating_point() or A.is_complex():
        raise RuntimeError(
            f"lobpcg: expected a floating point A, got {A.dtype} (complex and integer "
            "matrices are not supported by numtorch's lobpcg)"
        )
    if A.is_sparse:
        A = A.to_dense()
    if tol is None:
        tol = {torch.float32: 1.2e-07, torch.float64: 2.23e-16}.get(A.dtype, 1e-3) ** 0.5
    m = A.shape[-1]
    k = (1 if X is None else X.shape[-1]) if k is None else k
    n = (k if n is None else n) if X is None else X.shape[-1]
    if m < 3 * n:
        raise ValueError(
            f"LOBPCG algorithm is not applicable when the number of A rows (={m}) is smaller "
            f"than 3 x the number of requested eigenpairs (={n})"
        )
    if X is not None and tuple(X.shape[-2:]) != (m, n):
        raise AssertionError(f"X shape mismatch: got {X.shape}, expected {(m, n)}")
    niter = 1000 if niter is None else niter
    largest = True if largest is None else largest
    if A._fw_grads is not None or (B is not None and B._fw_grads is not None):
        # torch's forward derivative differentiates its iterations op by op; numtorch's
        # iterations run on arrays
        raise NotImplementedError(
            "Trying to use forward AD with lobpcg, which numtorch computes without recording "
            "its iterations: use reverse mode (backward, torch.func.jacrev) instead."
        )
    if A.requires_grad or (B is not None and B.requires_grad):
        # torch differentiates the symmetric part of A (and of B)
        A_sym = (A + A.mT) / 2
        B_sym = (B + B.mT) / 2 if B is not None else None
        return LOBPCGAutogradFunction.apply(A_sym, k, B_sym, X, n, iK, niter, tol, largest, tracker)
    E, U = _forward(A, k, B, X, n, iK, niter, tol, largest, tracker)
    return torch.from_numpy(E), torch.from_numpy(U)

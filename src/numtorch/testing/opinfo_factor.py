"""Op samples for the LU factorization and its solves, the deprecated ``triangular_solve``,
the Cholesky-factor solves and the Householder products (part of the op sample table in
``opinfo.py``). Matrices are well conditioned and their pivots well separated, so small
perturbations keep the pivoting."""

from __future__ import annotations

import numpy as np

from .opinfo import OpInfo, Sample, _n


def _pivoted(rng, *shape):
    # diagonally dominant after a fixed row permutation: pivots need row swaps, never ties
    n = shape[-1]
    a = 0.3 * rng.standard_normal(shape) + 3 * np.eye(n) * np.arange(1, n + 1)
    return a[..., ::-1, :].copy()


def _factor(rng, *shape):
    # a Cholesky-like factor with a safe diagonal (the op reads one triangle of it)
    return 0.3 * rng.standard_normal(shape) + 2 * np.eye(shape[-1])


def _lu_factor(t, a):
    return t.linalg.lu_factor(a)


def _lu_solve(t, a, b, **k):
    return t.linalg.lu_solve(*_lu_factor(t, a), b, **k)


def _triangular_both(t, b, a, **k):
    solution, coefficient = t.triangular_solve(b, a, **k)
    return solution * 2 + coefficient.sum()


def _square_samples(rng):
    return [Sample((_pivoted(rng, 3, 3),)), Sample((_pivoted(rng, 2, 4, 4),))]


def _rect(rng, m, n):
    # m x n with well-separated pivots in its leading square block
    k = min(m, n)
    a = 0.3 * rng.standard_normal((m, n))
    a[:k, :k] += 3 * np.eye(k) * np.arange(1, k + 1)
    return a[::-1].copy() if m <= n else a


def _any_samples(rng):
    return _square_samples(rng) + [Sample((_rect(rng, 2, 4),)), Sample((_rect(rng, 4, 2),))]


def _eig_input(rng, *shape):
    # distinct eigenvalues (a complex pair included, mostly): 1 / (L_j - L_i) stays moderate
    return rng.standard_normal(shape) + np.diag(np.arange(shape[-1]) * 2.0)


def _eigvals_ref(a):
    # sorted as the samples sort them (see _in_eigenvalue_order)
    values = np.linalg.eigvals(a)
    values = np.take_along_axis(values, np.lexsort((values.imag, values.real), axis=-1), -1)
    return np.stack([values.real, values.imag], -1)


def _phase_free(t, vectors):
    # eigenvectors are defined up to a complex phase: each column times the conjugate phase
    # of its first entry is invariant
    first = vectors[..., :1, :]
    return t.view_as_real(vectors * first.conj() / first.abs())


def _in_eigenvalue_order(t, values, columns):
    # LAPACK's geev returns the eigenvalues in no specified order, and MKL's and OpenBLAS's
    # differ (a triangular matrix's balancing permutes it): the columns (dim -2 of the
    # real view) sorted by eigenvalue, real part then imaginary part, are what is defined
    values = values.detach()
    by_imag = t.argsort(values.imag, dim=-1, stable=True)
    real = t.take_along_dim(values.real, by_imag, dim=-1)
    order = t.take_along_dim(by_imag, t.argsort(real, dim=-1, stable=True), dim=-1)
    order = order.unsqueeze(-2).unsqueeze(-1).expand(columns.shape)
    return t.take_along_dim(columns, order, dim=-2)


def _eigvals_sorted(t, values):
    columns = t.view_as_real(values).unsqueeze(-3)  # one row of n columns
    return _in_eigenvalue_order(t, values, columns).squeeze(-3)


FACTORIZATIONS = [
    OpInfo("linalg.lu_factor", lambda t, a: _lu_factor(t, a).LU, _any_samples, None),
    OpInfo("linalg.lu_factor_ex", lambda t, a: t.linalg.lu_factor_ex(a)[0], _square_samples, None),
    OpInfo("lu", lambda t, a: t.lu(a)[0], _square_samples, None),
    OpInfo("linalg.lu_L", lambda t, a: t.linalg.lu(a).L, _any_samples, None),
    OpInfo("linalg.lu_U", lambda t, a: t.linalg.lu(a).U, _any_samples, None),
    OpInfo(
        "linalg.lu_PLU",
        lambda t, a: (lambda r: r.P @ r.L @ r.U)(t.linalg.lu(a)),
        _any_samples,
        lambda a: a,
    ),
    OpInfo("lu_unpack_L", lambda t, a: t.lu_unpack(*_lu_factor(t, a)).L, _any_samples, None),
    OpInfo("lu_unpack_U", lambda t, a: t.lu_unpack(*_lu_factor(t, a))[2], _any_samples, None),
    OpInfo(
        "linalg.lu_solve",
        _lu_solve,
        lambda rng: [
            Sample((_pivoted(rng, 3, 3), _n(rng, 3, 2))),
            Sample((_pivoted(rng, 3, 3), _n(rng, 2, 3)), {"left": False}),
            Sample((_pivoted(rng, 3, 3), _n(rng, 3, 2)), {"adjoint": True}),
            Sample((_pivoted(rng, 3, 3), _n(rng, 1, 3)), {"left": False, "adjoint": True}),
            Sample((_pivoted(rng, 2, 3, 3), _n(rng, 3, 1))),
        ],
        lambda a, b, left=True, adjoint=False: (
            np.linalg.solve(np.swapaxes(a, -1, -2) if adjoint else a, b)
            if left
            else np.swapaxes(
                np.linalg.solve(a if adjoint else np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)),
                -1,
                -2,
            )
        ),
    ),
    OpInfo(
        "lu_solve",
        lambda t, b, a: t.lu_solve(b, *_lu_factor(t, a)),
        lambda rng: [Sample((_n(rng, 3, 2), _pivoted(rng, 3, 3)))],
        lambda b, a: np.linalg.solve(a, b),
    ),
    OpInfo(
        "triangular_solve",
        lambda t, b, a, **k: t.triangular_solve(b, a, **k).solution,
        lambda rng: [
            Sample((_n(rng, 3, 2), _factor(rng, 3, 3))),
            Sample((_n(rng, 3, 2), _factor(rng, 3, 3)), {"upper": False, "transpose": True}),
            Sample((_n(rng, 2, 3, 1), _factor(rng, 3, 3)), {"unitriangular": True}),
        ],
        None,
    ),
    OpInfo(
        "triangular_solve_both",
        _triangular_both,
        lambda rng: [Sample((_n(rng, 3, 2), _factor(rng, 3, 3)), {"upper": False})],
        None,
    ),
    OpInfo(
        "cholesky_solve",
        lambda t, b, f, upper=False: t.cholesky_solve(b, f.triu() if upper else f.tril(), upper),
        lambda rng: [
            Sample((_n(rng, 3, 2), _factor(rng, 3, 3))),
            Sample((_n(rng, 3, 2), _factor(rng, 3, 3)), {"upper": True}),
            Sample((_n(rng, 2, 3, 1), _factor(rng, 3, 3))),
        ],
        None,
    ),
    OpInfo(
        "cholesky_inverse",
        lambda t, f, upper=False: t.cholesky_inverse(f.triu() if upper else f.tril(), upper),
        lambda rng: [
            Sample((_factor(rng, 3, 3),)),
            Sample((_factor(rng, 3, 3),), {"upper": True}),
            Sample((_factor(rng, 2, 2, 2),)),
        ],
        None,
    ),
    OpInfo(
        "linalg.cholesky_ex",
        lambda t, a: t.linalg.cholesky_ex(a @ a.mT).L,
        lambda rng: [Sample((_factor(rng, 3, 3),))],
        None,
    ),
    # Householder products: the reflectors below the diagonal and their scales (composed
    # from rank-one updates, so the nodes differ from torch's single node)
    # geqrf has no derivative (as in torch): its values are checked, on a detached input
    OpInfo(
        "geqrf",
        lambda t, a: t.cat([r.flatten() for r in t.geqrf(a.detach())]),
        lambda rng: [Sample((_n(rng, 4, 3),)), Sample((_n(rng, 2, 3, 5),))],
        grad=False,
        gradgrad=False,
    ),
    OpInfo(
        "linalg.householder_product",
        lambda t, a, tau: t.linalg.householder_product(a, tau),
        lambda rng: [
            Sample((_n(rng, 4, 3), _n(rng, 3))),
            Sample((_n(rng, 2, 5, 3), _n(rng, 2, 2))),
        ],
    ),
    OpInfo(
        "ormqr",
        lambda t, a, tau, c, **kw: t.ormqr(a, tau, c, **kw),
        lambda rng: [
            Sample((_n(rng, 4, 3), _n(rng, 3), _n(rng, 4, 2))),
            Sample((_n(rng, 4, 3), _n(rng, 3), _n(rng, 2, 4)), {"left": False}),
            Sample((_n(rng, 2, 4, 2), _n(rng, 2, 2), _n(rng, 2, 4, 3)), {"transpose": True}),
            Sample((_n(rng, 4, 4), _n(rng, 4), _n(rng, 3, 4)), {"left": False, "transpose": True}),
        ],
    ),
    OpInfo(
        "linalg.lstsq",
        lambda t, a, b, **kw: t.linalg.lstsq(a, b, **kw).solution,
        lambda rng: [
            Sample((_n(rng, 5, 3), _n(rng, 5, 2))),
            Sample((_n(rng, 2, 4, 2), _n(rng, 2, 4, 3)), {"driver": "gelsd"}),
            Sample((_n(rng, 2, 4), _n(rng, 2, 1))),
            Sample((_n(rng, 4, 3), _n(rng, 4))),
        ],
        lambda a, b, **kw: np.stack(
            [
                np.linalg.lstsq(m, r, rcond=None)[0]
                for m, r in zip(a.reshape(-1, *a.shape[-2:]), b.reshape(-1, *b.shape[a.ndim - 2 :]))
            ]
        ).reshape(a.shape[:-2] + (a.shape[-1],) + b.shape[a.ndim - 1 :]),
    ),
    OpInfo(
        "linalg.eigvals",
        lambda t, a: _eigvals_sorted(t, t.linalg.eigvals(a)),
        lambda rng: [Sample((_eig_input(rng, 3, 3),)), Sample((_eig_input(rng, 4, 4),))],
        _eigvals_ref,
    ),
    OpInfo(
        "linalg.eigvals_batched",
        lambda t, a: _eigvals_sorted(t, t.linalg.eigvals(a)),
        lambda rng: [Sample((_eig_input(rng, 2, 3, 3),))],
        _eigvals_ref,
    ),
    OpInfo(
        "linalg.eig",
        lambda t, a: (lambda r: _in_eigenvalue_order(t, r[0], _phase_free(t, r[1])))(
            t.linalg.eig(a)
        ),
        lambda rng: [Sample((_eig_input(rng, 3, 3),)), Sample((_eig_input(rng, 4, 4),))],
        None,
    ),
]

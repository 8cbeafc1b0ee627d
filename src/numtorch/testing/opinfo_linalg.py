"""Op samples for products and distances, and for ``numtorch.linalg`` (part of the op sample
table in ``opinfo.py``). Matrices are kept well conditioned; eigen- and singular vectors enter
through sign-invariant expressions (they are defined up to sign)."""

from __future__ import annotations

import math

import numpy as np

from .opinfo import OpInfo, Sample, _away, _distinct, _n


def _well(rng, *shape):
    # a well-conditioned square matrix (or batch of them)
    return rng.standard_normal(shape) + 3 * np.eye(shape[-1])


def _well_rect(rng, *shape):
    # a well-conditioned (..., m, n) matrix: float32 results then agree with torch closely
    return 0.3 * rng.standard_normal(shape) + 2 * np.eye(shape[-2], shape[-1])


def _separated(rng, *shape):
    # singular values 3, 2, 1, ... (eigenvalues, once symmetrized): vector gradients carry
    # 1 / (s_j^2 - s_i^2) factors, so well-separated values keep float32 close to torch
    m, n = shape[-2:]
    left = np.linalg.qr(rng.standard_normal(shape[:-2] + (m, m)))[0]
    right = np.linalg.qr(rng.standard_normal(shape[:-2] + (n, n)))[0]
    k = min(m, n)
    # each matrix of a batch its own spectrum (offset by a tenth): equal spectra make equal
    # conditions and norms, whose order downstream (a median, a max) rounding would decide
    batch = int(np.prod(shape[:-2], dtype=int))
    offsets = 0.1 * np.arange(batch).reshape(shape[:-2] + (1,))
    values = np.arange(k, 0, -1.0) + 0.5 + offsets
    return (left[..., :, :k] * values[..., None, :]) @ right[..., :k, :]


def _sphere(rng, count, dim):
    # points spread evenly on a randomly turned unit sphere (circle): norms at most 1 and
    # distances bounded below keep the matrix-product form of cdist accurate in float32
    if dim == 2:
        angles = rng.uniform(0, 2 * np.pi) + np.arange(count) * 2 * np.pi / count
        return np.stack([np.cos(angles), np.sin(angles)], 1)
    k = np.arange(count) + 0.5
    polar, azimuth = np.arccos(1 - 2 * k / count), np.pi * (1 + 5**0.5) * k
    points = np.stack([np.cos(azimuth) * np.sin(polar), np.sin(azimuth) * np.sin(polar)], 1)
    points = np.concatenate([points, np.cos(polar)[:, None]], 1)
    turn = np.linalg.qr(rng.standard_normal((3, 3)))[0]
    return points @ turn


def _spd(t, a):
    return a @ a.mT + t.eye(a.shape[-1], dtype=a.dtype)


def _sym(t, a):
    return a + a.mT


def _sign_free(vectors, axis):
    # each column (axis=-2) or row (axis=-1) times its own first entry: invariant under sign
    return vectors * (vectors[..., :1, :] if axis == -2 else vectors[..., :, :1])


PRODUCTS = [
    OpInfo(
        "baddbmm",
        lambda t, c, a, b: t.baddbmm(c, a, b, beta=0.5, alpha=2.0),
        lambda rng: [Sample((_n(rng, 3), _n(rng, 2, 2, 4), _n(rng, 2, 4, 3)))],
        lambda c, a, b: 0.5 * c + 2.0 * a @ b,
    ),
    OpInfo(
        "addbmm",
        lambda t, c, a, b: t.addbmm(c, a, b, alpha=-1.5),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2, 2, 4), _n(rng, 2, 4, 3)))],
        lambda c, a, b: c - 1.5 * (a @ b).sum(0),
    ),
    OpInfo(
        "addmv",
        lambda t, c, a, b: t.addmv(c, a, b, beta=2.0),
        lambda rng: [Sample((_n(rng, 3), _n(rng, 3, 4), _n(rng, 4)))],
        lambda c, a, b: 2.0 * c + a @ b,
    ),
    OpInfo(
        "addr",
        lambda t, c, a, b: t.addr(c, a, b, alpha=0.5),
        lambda rng: [Sample((_n(rng, 1, 4), _n(rng, 3), _n(rng, 4)))],
        lambda c, a, b: c + 0.5 * np.outer(a, b),
    ),
    OpInfo(
        "kron",
        lambda t, a, b: t.kron(a, b),
        lambda rng: [Sample((_n(rng, 2, 3), _n(rng, 2, 2))), Sample((_n(rng, 3), _n(rng, 2, 2)))],
        np.kron,
    ),
    OpInfo(
        "tensordot",
        lambda t, a, b, d: t.tensordot(a, b, d),
        lambda rng: [
            Sample((_n(rng, 2, 3, 4), _n(rng, 3, 4, 2), 2)),
            Sample((_n(rng, 2, 3), _n(rng, 3, 2), 1)),
            Sample((_n(rng, 2, 3, 4), _n(rng, 4, 2, 3), ([1, 2], [2, 0]))),
        ],
        np.tensordot,
    ),
    OpInfo(
        "inner",
        lambda t, a, b: t.inner(a, b),
        lambda rng: [
            Sample((_n(rng, 4), _n(rng, 4))),
            Sample((_n(rng, 2, 3, 4), _n(rng, 5, 4))),
            Sample((_n(rng, 2, 3), _n(rng))),
        ],
        np.inner,
    ),
    OpInfo(
        "linalg_cross",
        lambda t, a, b: t.linalg.cross(a, b),
        lambda rng: [
            Sample((_n(rng, 2, 3), _n(rng, 2, 3))),
            Sample((_n(rng, 4, 3), _n(rng, 1, 3))),
        ],
        np.cross,
    ),
    OpInfo(
        "cross",
        lambda t, a, b: t.cross(a, b, dim=0),
        lambda rng: [Sample((_n(rng, 3, 2), _n(rng, 3, 2)))],
        lambda a, b: np.cross(a, b, axis=0),
    ),
    OpInfo(
        "dist",
        lambda t, a, b, p: t.dist(a, b, p),
        lambda rng: [
            Sample((_n(rng, 2, 3), _n(rng, 2, 3), 2.0)),
            Sample((_n(rng, 2, 3), _n(rng, 3), 3.0)),
            Sample((_away(rng, 4), _n(rng, 4) * 0, 1.0)),
            Sample((_distinct(rng, 2, 2), _n(rng, 2, 2) * 0, math.inf)),
        ],
        lambda a, b, p: np.linalg.norm((a - b).reshape(-1), ord=p),
    ),
    OpInfo(
        "cdist",
        lambda t, a, b, p: t.cdist(a, b, p),
        lambda rng: [
            Sample((_n(rng, 4, 3), _n(rng, 5, 3), 2.0)),
            Sample((_n(rng, 2, 4, 3), _n(rng, 5, 3), 1.0)),
            Sample((_n(rng, 4, 3), _n(rng, 2, 3), 3.0)),
            Sample((_n(rng, 4, 3), _n(rng, 2, 3), 0.5)),
            Sample((_n(rng, 4, 3), _n(rng, 2, 3), math.inf)),
        ],
        lambda a, b, p: np.linalg.norm(a[..., :, None, :] - b[..., None, :, :], ord=p, axis=-1),
        gradgrad=False,  # torch's _cdist_backward has no derivative
    ),
    OpInfo(
        "cdist_mm",
        lambda t, a, b: t.cdist(a, b),
        lambda rng: [
            Sample((_sphere(rng, 30, 3), 0.5 * _sphere(rng, 4, 3))),
            Sample((0.5 * _sphere(rng, 6, 2).reshape(2, 3, 2), _sphere(rng, 27, 2))),
        ],
        lambda a, b: np.linalg.norm(a[..., :, None, :] - b[..., None, :, :], axis=-1),
        atol=1e-4,  # the matrix-product form loses a little precision, as in torch
    ),
]

DECOMPOSITIONS = [
    OpInfo(
        "linalg_inv",
        lambda t, a: t.linalg.inv(a),
        lambda rng: [Sample((_well(rng, 3, 3),)), Sample((_well(rng, 2, 2, 2),))],
        np.linalg.inv,
    ),
    OpInfo(
        "inverse",
        lambda t, a: a.inverse(),
        lambda rng: [Sample((_well(rng, 2, 2),))],
        np.linalg.inv,
    ),
    OpInfo(
        "linalg_det",
        lambda t, a: t.linalg.det(a),
        lambda rng: [Sample((_well(rng, 3, 3),)), Sample((_well(rng, 2, 2, 2),))],
        np.linalg.det,
    ),
    OpInfo(
        "det_singular",
        lambda t, a: t.det(a),
        lambda rng: [Sample((np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]]),))],
        np.linalg.det,
        # torch differentiates det through its LU, whose exact zero pivot here makes det 0
        # and so its gradient (grad * det) A^-T and its jvp det tr(A^-1 dA) 0, numtorch's
        # likewise: not the cofactors finite differences see (the parity test compares)
        grad=False,
    ),
    OpInfo(
        "linalg_slogdet",
        lambda t, a: t.linalg.slogdet(a).logabsdet,
        lambda rng: [Sample((_well(rng, 2, 3, 3),))],
        lambda a: np.linalg.slogdet(a)[1],
    ),
    OpInfo(
        "logdet",
        lambda t, a: t.logdet(_spd(t, a)),
        lambda rng: [Sample((_n(rng, 3, 3),))],
        None,
    ),
    OpInfo(
        "linalg_solve",
        lambda t, a, b, **k: t.linalg.solve(a, b, **k),
        lambda rng: [
            Sample((_well(rng, 3, 3), _n(rng, 3, 2))),
            Sample((_well(rng, 3, 3), _n(rng, 3))),
            Sample((_well(rng, 2, 3, 3), _n(rng, 3))),
            Sample((_well(rng, 3, 3), _n(rng, 2, 3)), {"left": False}),
        ],
        None,
    ),
    OpInfo(
        "linalg_solve_triangular",
        lambda t, a, b, **k: t.linalg.solve_triangular(a, b, **k),
        lambda rng: [
            Sample((_well(rng, 3, 3), _n(rng, 3, 2)), {"upper": True}),
            Sample((_well(rng, 3, 3), _n(rng, 2, 3)), {"upper": False, "left": False}),
            Sample((_well(rng, 3, 3), _n(rng, 3, 2)), {"upper": False, "unitriangular": True}),
        ],
        None,
    ),
    OpInfo(
        "linalg_cholesky",
        lambda t, a, **k: t.linalg.cholesky(_spd(t, a), **k),
        lambda rng: [Sample((_n(rng, 3, 3),)), Sample((_n(rng, 2, 3, 3),), {"upper": True})],
        None,
    ),
    OpInfo(
        "cholesky",
        lambda t, a: t.cholesky(_spd(t, a)),
        lambda rng: [Sample((_n(rng, 3, 3),))],
        None,
    ),
    OpInfo(
        "linalg_qr",
        lambda t, a: t.linalg.qr(a).Q * 2 + t.linalg.qr(a).R.sum(),
        lambda rng: [
            Sample((_well_rect(rng, 4, 3),)),
            Sample((_well_rect(rng, 3, 3),)),
            Sample((_well_rect(rng, 2, 4),)),  # (its leading square block is what matters)
        ],
        None,
    ),
    OpInfo(
        "linalg_eigh",
        lambda t, a: t.linalg.eigh(_sym(t, a)).eigenvalues,
        lambda rng: [Sample((_separated(rng, 3, 3),)), Sample((_separated(rng, 2, 3, 3),))],
        None,
    ),
    OpInfo(
        "linalg_eigh_vectors",
        lambda t, a: _sign_free(t.linalg.eigh(_sym(t, a), UPLO="U").eigenvectors, -2),
        lambda rng: [Sample((_separated(rng, 3, 3),))],
        None,
    ),
    OpInfo(
        "linalg_eigvalsh",
        lambda t, a: t.linalg.eigvalsh(_sym(t, a)),
        lambda rng: [Sample((_separated(rng, 3, 3),))],
        None,
    ),
    OpInfo(
        "linalg_svd",
        lambda t, a: t.linalg.svd(a, full_matrices=False).S,
        lambda rng: [Sample((_separated(rng, 4, 3),)), Sample((_separated(rng, 2, 2, 3),))],
        lambda a: np.linalg.svd(a, compute_uv=False),
    ),
    OpInfo(
        "linalg_svd_vectors",
        lambda t, a: (
            _sign_free(t.linalg.svd(a).U[..., :, :2], -2)
            + _sign_free(t.linalg.svd(a).Vh[..., :2, :], -1).sum()
        ),
        lambda rng: [Sample((_separated(rng, 3, 2),)), Sample((_separated(rng, 2, 3),))],
        None,
    ),
    OpInfo(
        "linalg_svdvals",
        lambda t, a: t.linalg.svdvals(a),
        lambda rng: [Sample((_separated(rng, 3, 4),))],
        lambda a: np.linalg.svd(a, compute_uv=False),
    ),
    OpInfo(
        "torch_svd",
        lambda t, a: _sign_free(t.svd(a).V, -2),
        lambda rng: [Sample((_separated(rng, 4, 3),))],
        None,
    ),
    OpInfo(
        "linalg_pinv",
        lambda t, a, **k: t.linalg.pinv(a, **k),
        lambda rng: [Sample((_well_rect(rng, 4, 3),)), Sample((_well_rect(rng, 2, 3),))],
        None,
    ),
    OpInfo(
        "linalg_pinv_hermitian",
        lambda t, a: t.linalg.pinv(_sym(t, a), hermitian=True),
        lambda rng: [Sample((_well_rect(rng, 3, 3),))],
        lambda a: np.linalg.pinv(a + a.T),
    ),
    OpInfo(
        "pinverse",
        lambda t, a: t.pinverse(a),
        lambda rng: [Sample((_well_rect(rng, 3, 2),))],
        np.linalg.pinv,
    ),
]


def _matrix_norm_ref(a, ord="fro", dim=(-2, -1)):
    return np.linalg.norm(a, ord=ord, axis=dim)


NORMS = [
    OpInfo(
        "matrix_norm",
        lambda t, a, *o, **k: t.linalg.matrix_norm(a, *o, **k),
        lambda rng: [
            Sample((_n(rng, 2, 3, 4),)),
            Sample((_separated(rng, 3, 4), "nuc")),
            Sample((_separated(rng, 3, 4), 2)),
            Sample((_separated(rng, 3, 4), -2)),
            Sample((_n(rng, 3, 4), 1)),
            Sample((_n(rng, 3, 4), -math.inf)),
            Sample((_n(rng, 2, 3, 4), math.inf), {"dim": (0, 2)}),
        ],
        _matrix_norm_ref,
    ),
    OpInfo(
        "linalg_norm",
        lambda t, a, *o, **k: t.linalg.norm(a, *o, **k),
        lambda rng: [
            Sample((_n(rng, 2, 3, 4),)),
            Sample((_n(rng, 3, 4), "fro")),
            Sample((_n(rng, 3, 4), -1)),
            Sample((_n(rng, 4), 3)),
            Sample((_n(rng, 3, 4), 1), {"dim": 1}),
        ],
        None,
    ),
    OpInfo(
        "norm_nuc",
        lambda t, a: t.norm(a, "nuc"),
        lambda rng: [Sample((_separated(rng, 3, 4),))],
        lambda a: np.linalg.norm(a, "nuc"),
    ),
    OpInfo(
        "linalg_cond",
        lambda t, a, *p: t.linalg.cond(a, *p),
        # (other orders: torch's own backward fails there; forward checked in test_linalg)
        lambda rng: [Sample((_separated(rng, 3, 4),)), Sample((_separated(rng, 2, 3, 3), -2))],
        lambda a, p=None: np.linalg.cond(a, p),
    ),
    OpInfo(
        "matrix_power",
        lambda t, a, n: t.linalg.matrix_power(a, n),
        lambda rng: [
            Sample((_n(rng, 3, 3) / 2, 0)),
            Sample((_n(rng, 3, 3) / 2, 1)),
            Sample((_n(rng, 2, 3, 3) / 2, 3)),
            Sample((_n(rng, 3, 3) / 2, 6)),
            Sample((_well(rng, 3, 3), -2)),
        ],
        np.linalg.matrix_power,
    ),
    OpInfo(
        "vecdot",
        lambda t, a, b, **k: t.linalg.vecdot(a, b, **k),
        lambda rng: [
            Sample((_n(rng, 2, 3), _n(rng, 3))),
            Sample((_n(rng, 3, 2), _n(rng, 3, 1)), {"dim": 0}),
        ],
        lambda a, b, dim=-1: np.sum(a * b, axis=dim),
    ),
]

MATRIX_FUNCTIONS = [
    OpInfo(
        "multi_dot",
        lambda t, *m: t.linalg.multi_dot(list(m)),
        lambda rng: [
            Sample((_n(rng, 3, 4), _n(rng, 4, 2))),
            Sample((_n(rng, 4), _n(rng, 4, 2), _n(rng, 2, 5))),
            Sample((_n(rng, 3, 4), _n(rng, 4, 2), _n(rng, 2, 5), _n(rng, 5))),
        ],
        lambda *m: np.linalg.multi_dot(m),
    ),
    OpInfo(
        "vander",
        lambda t, x, **k: t.linalg.vander(x, **k),
        lambda rng: [Sample((_n(rng, 3),)), Sample((_n(rng, 2, 3),), {"N": 5})],
        lambda x, N=None: x[..., None] ** np.arange(x.shape[-1] if N is None else N),
    ),
    OpInfo(
        "matrix_exp",
        lambda t, a: t.linalg.matrix_exp(a),
        lambda rng: [Sample((_n(rng, 3, 3),)), Sample((_n(rng, 2, 2, 2) * 0.7,))],
        None,
    ),
    # torch reshapes its (column-major) inverse through an internal alias node
    # (ReshapeAliasBackward0); the reshape here is a plain view
    OpInfo(
        "tensorinv",
        lambda t, a: t.linalg.tensorinv(a, ind=1),
        lambda rng: [Sample((_well(rng, 4, 4).reshape(4, 2, 2),))],
        lambda a: np.linalg.tensorinv(a, ind=1),
        torch_grad_fn=False,
    ),
    OpInfo(
        "tensorsolve",
        lambda t, a, b: t.linalg.tensorsolve(a, b),
        lambda rng: [Sample((_well(rng, 6, 6).reshape(2, 3, 6), _n(rng, 2, 3)))],
        np.linalg.tensorsolve,
    ),
]

LINALG_OPS = PRODUCTS + DECOMPOSITIONS + NORMS + MATRIX_FUNCTIONS


def _symmetric_indefinite(rng, n, batch=()):
    a = rng.standard_normal(batch + (n, n))
    a = a + np.swapaxes(a, -1, -2)
    a[..., np.arange(n), np.arange(n)] *= 0.05  # small diagonals: 2x2 pivots
    return a


# torch records NotImplemented for the LDL ops (backward refuses): inputs are detached here,
# and tests/ops/test_linalg_ldl.py checks the factors against LAPACK's
LINALG_OPS += [
    OpInfo(
        "linalg_ldl_factor_ex",
        lambda t, a: t.linalg.ldl_factor_ex(a.detach()).LD,
        lambda rng: [
            Sample((_symmetric_indefinite(rng, 4),)),
            Sample((_symmetric_indefinite(rng, 3, (2,)),)),
        ],
        grad=False,
    ),
    OpInfo(
        "linalg_ldl_solve",
        lambda t, a, b: t.linalg.ldl_solve(*t.linalg.ldl_factor(a.detach()), b.detach()),
        lambda rng: [
            Sample((_symmetric_indefinite(rng, 4), rng.standard_normal((4, 2)))),
            Sample((_symmetric_indefinite(rng, 3, (2,)), rng.standard_normal((3, 1)))),
        ],
        lambda a, b: np.linalg.solve(a, b),
        grad=False,
    ),
]


def _spectrum(rng, n):
    """A symmetric matrix with the well-separated eigenvalues n + 0.5, ..., 1.5."""
    q = np.linalg.qr(rng.standard_normal((n, n)))[0]
    return (q * (np.arange(n, 0, -1.0) + 0.5)) @ q.T


def _lobpcg(t, a, **kwargs):
    # a fixed start (X) keeps the run deterministic; float64's tight tolerance converges the
    # pairs far below gradcheck's finite-difference step, and float32 near its rounding
    start = t.linspace(-1.0, 1.0, a.shape[-1] * 2, dtype=a.dtype).reshape(-1, 2).cos()
    tol = 1e-12 if a.dtype == t.float64 else 1e-6
    return t.lobpcg((a + a.mT) / 2, k=2, X=start, tol=tol, **kwargs)


LINALG_OPS += [
    OpInfo(
        "lobpcg",
        lambda t, a, **k: _lobpcg(t, a, **k)[0],
        lambda rng: [
            Sample((_spectrum(rng, 6),)),
            Sample((_spectrum(rng, 6),), {"largest": False}),
        ],
        lambda a, largest=True: (
            np.sort(np.linalg.eigvalsh(a))[::-1][:2]
            if largest
            else np.sort(np.linalg.eigvalsh(a))[:2]
        ),
    ),
    OpInfo(
        "lobpcg_vectors",
        lambda t, a: _sign_free(_lobpcg(t, a)[1], -2),
        lambda rng: [Sample((_spectrum(rng, 6),))],
    ),
]

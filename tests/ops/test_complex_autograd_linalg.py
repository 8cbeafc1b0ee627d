"""Linear algebra takes complex gradients as torch does: conjugate transposes in the
formulas, the determinant's sign turning, and the phase checks of complex singular vectors
and eigenvectors (Note [Complex autograd]). Gradients against torch's."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(11)
A = RNG.standard_normal((3, 3)) + 1j * RNG.standard_normal((3, 3))
B = RNG.standard_normal((3, 2)) + 1j * RNG.standard_normal((3, 2))
W = RNG.standard_normal((3, 3)) + 1j * RNG.standard_normal((3, 3))
# a Cholesky factor has a real diagonal
FACTOR = np.tril(A)
FACTOR[np.diag_indices(3)] = np.abs(A.diagonal()) + 1


def _spd(t, a):
    return a @ a.mH + 3 * t.eye(3)


def _herm(a):
    return a + a.mH


def _reconstruct_svd(r):
    return r.U @ (r.S**2).to(r.U.dtype).diag_embed() @ r.Vh


CASES = {
    "inv": lambda t, a, b: t.linalg.inv(a),
    "det": lambda t, a, b: t.linalg.det(a),
    "slogdet": lambda t, a, b: (lambda r: r.sign * 2 + r.logabsdet)(t.linalg.slogdet(a)),
    "logdet": lambda t, a, b: t.logdet(a),
    "solve_triangular": lambda t, a, b: t.linalg.solve_triangular(a.triu(), b, upper=True),
    "triangular_solve": lambda t, a, b: t.triangular_solve(b, a.tril(), False)[0],
    "triangular_solve_transposed": lambda t, a, b: t.triangular_solve(b, a, True, True)[0],
    "cholesky": lambda t, a, b: t.linalg.cholesky(_spd(t, a)),
    "cholesky_upper": lambda t, a, b: t.linalg.cholesky(_spd(t, a), upper=True),
    "cholesky_solve": lambda t, a, b: t.cholesky_solve(b, t.tensor(FACTOR) * a.abs()),
    "cholesky_inverse": lambda t, a, b: t.cholesky_inverse(t.tensor(FACTOR) * a.abs()),
    "lu_factor": lambda t, a, b: t.linalg.lu_factor(a).LU,
    "lu": lambda t, a, b: (lambda r: r.L + r.U)(t.linalg.lu(a)),
    "lu_solve": lambda t, a, b: t.linalg.lu_solve(*t.linalg.lu_factor(a), b),
    "lu_solve_adjoint": lambda t, a, b: t.linalg.lu_solve(*t.linalg.lu_factor(a), b, adjoint=True),
    "matrix_exp": lambda t, a, b: t.linalg.matrix_exp(a * 0.5),
    "pinv": lambda t, a, b: t.linalg.pinv(a[:, :2]),
    "lstsq": lambda t, a, b: t.linalg.lstsq(a, b).solution,
    "qr_tall": lambda t, a, b: (lambda r: r.Q.sum(0) + r.R)(t.linalg.qr(a[:, :2])),
    "qr_wide": lambda t, a, b: (lambda r: r.Q.sum() + r.R)(t.linalg.qr(a[:2])),
    "eigvalsh": lambda t, a, b: t.linalg.eigvalsh(_herm(a)),
    "eigh": lambda t, a, b: (lambda r: r.eigenvectors.abs() * r.eigenvalues)(
        t.linalg.eigh(_herm(a))
    ),
    "svdvals": lambda t, a, b: t.linalg.svdvals(a),
    "svd": lambda t, a, b: _reconstruct_svd(t.linalg.svd(a)),
    "svd_abs": lambda t, a, b: (lambda r: r.U.abs() * r.S + r.Vh.abs())(t.linalg.svd(a)),
    "svd_tall": lambda t, a, b: (lambda r: (r.U @ r.Vh).abs())(t.linalg.svd(a[:, :2], False)),
    "svd_wide": lambda t, a, b: (lambda r: (r.U @ r.Vh).abs())(t.linalg.svd(a[:2], False)),
}


def _grads(lib, name):
    a, b = lib.tensor(A, requires_grad=True), lib.tensor(B, requires_grad=True)
    out = CASES[name](lib, a, b)
    weight = lib.tensor(W[: out.shape[0], : out.shape[1]] if out.ndim == 2 else W[0, : out.numel()])
    loss = (out * weight.reshape(out.shape)).real.sum()
    return lib.autograd.grad(loss, [a, b], allow_unused=True)


@pytest.mark.parity
@pytest.mark.parametrize("name", CASES)
def test_complex_linalg_gradients_match_torch(name):
    for ours, theirs in zip(_grads(numtorch, name), _grads(torch, name)):
        assert (ours is None) == (theirs is None)
        if ours is not None:
            np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-10, atol=1e-10)


PHASE_DEPENDENT = {
    "eigh": lambda t, a: t.linalg.eigh(_herm(a)).eigenvectors,
    "svd": lambda t, a: t.linalg.svd(a).U,
}


@pytest.mark.parity
@pytest.mark.parametrize("name", PHASE_DEPENDENT)
def test_phase_dependent_losses_raise_as_torch(name):
    messages = []
    for lib in (numtorch, torch):
        a = lib.tensor(A, requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            lib.autograd.grad(PHASE_DEPENDENT[name](lib, a).sum().real, [a])
        messages.append(str(info.value))
    assert messages[0] == messages[1]

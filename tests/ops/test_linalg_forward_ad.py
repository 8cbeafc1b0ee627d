"""Forward derivatives of the linalg ops where the op-sample table does not reach: complex
matrices (the phases torch picks for complex eigen- and singular vectors), batch dims that
broadcast between the operands of a solve, and lstsq's residuals; with the complex values
of the ops themselves, which these compare first."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

_rng = np.random.default_rng(12)


def _complex(*shape):
    return _rng.standard_normal(shape) + 1j * _rng.standard_normal(shape)


def _real(*shape):
    return _rng.standard_normal(shape)


_A = _complex(3, 3) + 3 * np.eye(3)
_H = _A + _A.conj().T + 8 * np.eye(3)  # Hermitian positive-definite
_T = _complex(3, 3)
_TH = _T + _T.conj().T
_WIDE, _TALL = _complex(3, 5), _complex(5, 3)
_B = _complex(3, 2)

# name: (function of (library, *primals), primals, tangents)
COMPLEX_CASES = {
    "inv": (lambda L, a: L.linalg.inv(a), [_A], [_T]),
    "det": (lambda L, a: L.linalg.det(a), [_A], [_T]),
    "slogdet": (lambda L, a: tuple(L.linalg.slogdet(a)), [_A], [_T]),
    "solve": (lambda L, a, b: L.linalg.solve(a, b), [_A, _B], [_T, _complex(3, 2)]),
    "solve_triangular": (
        lambda L, a, b: L.linalg.solve_triangular(a, b, upper=True),
        [_A, _B],
        [_T, _complex(3, 2)],
    ),
    "cholesky": (lambda L, a: L.linalg.cholesky(a), [_H], [_TH]),
    "cholesky_upper": (lambda L, a: L.linalg.cholesky(a, upper=True), [_H], [_TH]),
    "matrix_exp": (lambda L, a: L.linalg.matrix_exp(a), [_A / 3], [_T]),
    "lu_factor_tall": (lambda L, a: L.linalg.lu_factor(a).LU, [_TALL], [_complex(5, 3)]),
    "lu_wide": (lambda L, a: tuple(L.linalg.lu(a))[1:], [_WIDE], [_complex(3, 5)]),
    "lu_solve_adjoint_right": (
        lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b, left=False, adjoint=True),
        [_A, _B.T.copy()],
        [_T, _complex(2, 3)],
    ),
    "qr_tall": (lambda L, a: tuple(L.linalg.qr(a)), [_TALL], [_complex(5, 3)]),
    "qr_wide": (lambda L, a: tuple(L.linalg.qr(a)), [_WIDE], [_complex(3, 5)]),
    "eigh": (lambda L, a: tuple(L.linalg.eigh(a)), [_H], [_TH]),
    "svd_square": (lambda L, a: tuple(L.linalg.svd(a)), [_A], [_T]),
    "svd_tall_full": (lambda L, a: tuple(L.linalg.svd(a)), [_TALL], [_complex(5, 3)]),
    "svd_wide_reduced": (
        lambda L, a: tuple(L.linalg.svd(a, full_matrices=False)),
        [_WIDE],
        [_complex(3, 5)],
    ),
    "pinv": (lambda L, a: L.linalg.pinv(a), [_WIDE], [_complex(3, 5)]),
    "pinv_hermitian": (lambda L, a: L.linalg.pinv(a, hermitian=True), [_H], [_TH]),
    "lstsq": (
        lambda L, a, b: tuple(L.linalg.lstsq(a, b, driver="gelsd"))[:2],
        [_TALL, _complex(5, 2)],
        [_complex(5, 3), _complex(5, 2)],
    ),
}


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


@pytest.mark.parametrize("name", sorted(COMPLEX_CASES))
def test_complex_values_and_forward_derivatives_match_torch(name):
    fn, primals, tangents = COMPLEX_CASES[name]
    results = []
    for lib in (numtorch, torch):
        value, tangent = lib.func.jvp(
            lambda *xs, lib=lib: fn(lib, *xs),
            tuple(lib.tensor(p) for p in primals),
            tuple(lib.tensor(t) for t in tangents),
        )
        results.append([t.detach().numpy(force=True) for t in _as_tuple(value + tangent)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-10)


def _well(*shape):
    return numtorch.tensor(_real(*shape) + 3 * np.eye(shape[-1]))


def _n(*shape):
    return numtorch.tensor(_real(*shape))


# the batch dims of one operand broadcast against the other's: jacfwd's batched tangents
# must line up with them
BROADCAST_CASES = {
    "solve_batched_B": (lambda a, b: numtorch.linalg.solve(a, b), [_well(3, 3), _n(2, 3, 2)]),
    "solve_batched_A": (lambda a, b: numtorch.linalg.solve(a, b), [_well(2, 3, 3), _n(3, 2)]),
    "solve_triangular_right": (
        lambda a, b: numtorch.linalg.solve_triangular(a, b, upper=False, left=False),
        [_well(3, 3), _n(2, 2, 3)],
    ),
    "triangular_solve_transposed": (
        lambda b, a: tuple(numtorch.triangular_solve(b, a, transpose=True)),
        [_n(3, 2), _well(2, 3, 3)],
    ),
    "cholesky_solve_upper": (
        lambda b, a: numtorch.cholesky_solve(b, a.triu(), upper=True),
        [_n(2, 3, 2), _well(3, 3)],
    ),
    "lu_solve_batched_B": (
        lambda a, b: numtorch.linalg.lu_solve(*numtorch.linalg.lu_factor(a), b),
        [_well(3, 3), _n(2, 3, 2)],
    ),
    "addmv_scalar_input": (
        lambda x, m, v: numtorch.addmv(x, m, v, beta=0.5, alpha=2),
        [_n(), _n(3, 4), _n(4)],
    ),
    "cross_broadcast": (lambda a, b: numtorch.linalg.cross(a, b), [_n(1, 3), _n(2, 3)]),
}


@pytest.mark.filterwarnings("ignore::UserWarning")  # the deprecated triangular_solve
@pytest.mark.parametrize("name", sorted(BROADCAST_CASES))
def test_jacfwd_matches_jacrev_across_broadcast_batches(name):
    fn, primals = BROADCAST_CASES[name]
    argnums = tuple(range(len(primals)))
    forward = numtorch.func.jacfwd(fn, argnums=argnums)(*primals)
    # row by row in reverse mode (jacrev's batched backward is checked elsewhere)
    reverse = numtorch.autograd.functional.jacobian(fn, tuple(primals))
    if not isinstance(forward[0], tuple):
        forward, reverse = (forward,), (reverse,)
    for out_fwd, out_rev in zip(forward, reverse):
        for a, b in zip(out_fwd, out_rev):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("driver", ["gels", "gelsd", "gelss"])
def test_lstsq_residuals_have_torchs_gradient(driver):
    A, B = _real(5, 3), _real(5, 2)
    weights, probe = _real(2), _real(3, 2)
    grads = []
    for lib in (numtorch, torch):
        a, b = lib.tensor(A, requires_grad=True), lib.tensor(B, requires_grad=True)
        fit = lib.linalg.lstsq(a, b, driver=driver)
        loss = (fit.residuals * lib.tensor(weights)).sum() + (
            fit.solution * lib.tensor(probe)
        ).sum()
        grads.append([g.detach().numpy() for g in lib.autograd.grad(loss, (a, b))])
    for ours, theirs in zip(*grads):
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-10)


def test_solve_refuses_a_vector_on_the_right_as_torch_does():
    A, b = numtorch.tensor(_real(3, 3)), numtorch.tensor(_real(3))
    with pytest.raises(RuntimeError, match=r"XA = B \(3x3 and 3x1\)"):
        numtorch.linalg.solve(A, b, left=False)
    with pytest.raises(RuntimeError, match=r"XA = B \(3x3 and 3x1\)"):
        torch.linalg.solve(torch.tensor(_real(3, 3)), torch.tensor(_real(3)), left=False)
    # a 1 x 1 A passes the shape check, then torch refuses the vector B itself
    for lib in (numtorch, torch):
        with pytest.raises(RuntimeError, match="Vector broadcasting of the left hand side"):
            lib.linalg.solve(lib.tensor([[2.0]]), lib.tensor([4.0]), left=False)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda L, a: L.linalg.qr(a, mode="r")[1], RuntimeError, "not computed when mode='r'"),
        (lambda L, a: L.linalg.qr(a, mode="complete")[0], RuntimeError, "nrows > ncols"),
        (lambda L, a: L.geqrf(a)[0], NotImplementedError, "forward AD with geqrf"),
        (
            lambda L, a: L.cdist(a, a, compute_mode="use_mm_for_euclid_dist"),
            NotImplementedError,
            "forward AD with _euclidean_dist",
        ),
    ],
)
def test_forward_ad_refusals_match_torch(call, error, match):
    a = _real(5, 3)
    for lib in (numtorch, torch):
        with pytest.raises(error, match=match):
            lib.func.jvp(lambda x, lib=lib: call(lib, x), (lib.tensor(a),), (lib.tensor(a),))

"""torch.lobpcg against torch on small symmetric positive definite problems: the converged
eigenpairs (vectors up to sign), dtypes, batches, the generalized problem, a preconditioner,
gradients (grad_fn and values), trackers and errors."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _problem(lib, m=12, seed=0, dtype="float64"):
    rng = np.random.default_rng(seed)
    M = rng.standard_normal((m, m))
    return lib.tensor(M @ M.T + np.eye(m)).to(getattr(lib, dtype))


def _aligned(ours, theirs):
    """``ours``'s columns with the signs of ``theirs``'s (eigenvectors are signed freely)."""
    signs = np.sign((ours * theirs).sum(-2, keepdims=True))
    return ours * signs


CASES = [
    {"k": 2},
    {"k": 2, "largest": False},
    {"k": 3, "n": 4},
    {"k": 1, "B": "diag"},
    {"k": 2, "iK": "jacobi"},
    {"k": 2, "method": "basic"},
    {"k": 2, "X": "given"},
]


def _call(lib, case, dtype="float64"):
    A = _problem(lib, dtype=dtype)
    kwargs = dict(case)
    if kwargs.get("B") == "diag":
        kwargs["B"] = lib.diag(lib.arange(1.0, 13.0)).to(A.dtype)
    if kwargs.get("iK") == "jacobi":
        kwargs["iK"] = lib.diag(1 / lib.diagonal(A))
    if kwargs.get("X") == "given":
        kwargs["X"] = lib.tensor(np.random.default_rng(3).standard_normal((12, 2))).to(A.dtype)
    return lib.lobpcg(A, **kwargs)


@pytest.mark.parity
@pytest.mark.parametrize("case", CASES, ids=str)
def test_lobpcg_converges_to_torchs_pairs(case):
    (E, X), (tE, tX) = _call(numtorch, case), _call(torch, case)
    assert E.dtype == numtorch.float64 and tuple(X.shape) == tuple(tX.shape)
    np.testing.assert_allclose(E.numpy(), tE.numpy(), rtol=1e-7)
    np.testing.assert_allclose(_aligned(X.numpy(), tX.numpy()), tX.numpy(), atol=1e-5)


@pytest.mark.parity
def test_lobpcg_float32_and_batches():
    E, _ = _call(numtorch, {"k": 2}, "float32")
    tE, _ = _call(torch, {"k": 2}, "float32")
    assert E.dtype == numtorch.float32
    np.testing.assert_allclose(E.numpy(), tE.numpy(), rtol=1e-4)
    batch = numtorch.stack([_problem(numtorch), 2 * _problem(numtorch, seed=1)])
    tbatch = torch.stack([_problem(torch), 2 * _problem(torch, seed=1)])
    (E, X), (tE, tX) = numtorch.lobpcg(batch, k=1), torch.lobpcg(tbatch, k=1)
    assert tuple(X.shape) == tuple(tX.shape) == (2, 12, 1)
    np.testing.assert_allclose(E.numpy(), tE.numpy(), rtol=1e-7)


@pytest.mark.parity
def test_lobpcg_gradients_match_torch():
    grads = []
    for lib in (numtorch, torch):
        A = _problem(lib).requires_grad_()
        E, X = lib.lobpcg(A, k=2)
        assert type(E.grad_fn).__name__ == "LOBPCGAutogradFunctionBackward"
        assert type(X.grad_fn).__name__ == "LOBPCGAutogradFunctionBackward"
        (E.sum() + (X[:4] ** 2).sum()).backward()
        grads.append(A.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], atol=1e-6)


def test_lobpcg_passes_gradcheck():
    base = _problem(numtorch, m=9)

    def fn(A):
        E, X = numtorch.lobpcg(A, k=2, tol=1e-13, X=numtorch.eye(9, 2, dtype=A.dtype))
        return E, X.abs()  # the vectors' signs are free: compare magnitudes

    assert numtorch.autograd.gradcheck(fn, (base.clone().requires_grad_(),), atol=1e-5)


def test_lobpcg_calls_the_tracker_each_step():
    steps = []

    def tracker(worker):
        steps.append((worker.ivars["istep"], worker.ivars["converged_count"]))
        if worker.ivars["istep"] == 2:
            worker.bvars["force_stop"] = True

    numtorch.lobpcg(_problem(numtorch), k=2, tracker=tracker)
    assert [s for s, _ in steps] == [0, 1, 2]


@pytest.mark.parity
@pytest.mark.parametrize(
    "call",
    [
        lambda lib, A: lib.lobpcg(A, k=5),
        lambda lib, A: lib.lobpcg(A[:4, :4], k=2),
        lambda lib, A: lib.lobpcg(A[:5], k=1),
        lambda lib, A: lib.lobpcg(A, B=lib.eye(3, dtype=A.dtype), k=1),
        lambda lib, A: lib.lobpcg(A, X=lib.ones(5, 1, dtype=A.dtype)),
        lambda lib, A: lib.lobpcg(A.to(lib.int64), k=1),
        lambda lib, A: (
            lib.lobpcg(A.clone().requires_grad_(), k=1, B=lib.eye(12, dtype=A.dtype))[0]
            .sum()
            .backward()
        ),
    ],
)
def test_lobpcg_errors_match_torch(call):
    kinds = []
    for lib in (numtorch, torch):
        try:
            call(lib, _problem(lib))
            kinds.append(None)
        except Exception as e:  # the type is compared
            kinds.append(type(e).__name__)
    assert kinds[0] == kinds[1] and kinds[0] is not None

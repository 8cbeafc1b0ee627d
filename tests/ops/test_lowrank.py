"""torch.svd_lowrank / pca_lowrank against torch after the same seed: singular values,
vectors (up to the sign of each column), the generator's state after, gradients, errors."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

DATA = np.random.default_rng(0).standard_normal((8, 5))


def _run(lib, fn, shape=(8, 5), **kwargs):
    lib.manual_seed(0)
    A = lib.tensor(DATA.reshape(-1)[: int(np.prod(shape))].reshape(shape), requires_grad=True)
    U, S, V = getattr(lib, fn)(A, **kwargs)
    (grad,) = lib.autograd.grad(S.sum(), A)
    after = lib.randn(3)
    return [t.detach().numpy() for t in (U, S, V, grad, after)], S.grad_fn.name()


def _same_up_to_column_signs(ours, theirs):
    signs = np.sign(np.sum(ours * theirs, axis=-2, keepdims=True))
    np.testing.assert_allclose(ours * signs, theirs, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize(
    "fn, shape, kwargs",
    [
        ("svd_lowrank", (8, 5), dict(q=3)),
        ("svd_lowrank", (5, 8), dict(q=4, niter=0)),
        ("svd_lowrank", (2, 4, 5), dict(q=2)),
        ("pca_lowrank", (8, 5), {}),
        ("pca_lowrank", (8, 5), dict(q=2, center=False)),
    ],
)
def test_matches_torch_after_the_same_seed(fn, shape, kwargs):
    (ours, ours_node), (theirs, theirs_node) = (
        _run(numtorch, fn, shape, **kwargs),
        _run(torch, fn, shape, **kwargs),
    )
    U, S, V, grad, after = ours
    np.testing.assert_allclose(S, theirs[1], rtol=1e-10)
    _same_up_to_column_signs(U, theirs[0])
    _same_up_to_column_signs(V, theirs[2])
    np.testing.assert_allclose(grad, theirs[3], rtol=1e-8, atol=1e-10)
    np.testing.assert_array_equal(after, theirs[4])
    assert ours_node == theirs_node


def test_subtracted_matrix_m():
    results = []
    for lib in (numtorch, torch):
        lib.manual_seed(1)
        A = lib.tensor(DATA)
        results.append(lib.svd_lowrank(A, q=2, M=A.mean(0, keepdim=True))[1].numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-10)


@pytest.mark.parametrize("kwargs", [dict(q=9), dict(q=-1), dict(niter=-1)])
def test_pca_argument_errors_match_torch(kwargs):
    messages = []
    for lib in (numtorch, torch):
        with pytest.raises(ValueError) as info:
            lib.pca_lowrank(lib.tensor(DATA), **kwargs)
        messages.append(str(info.value))
    assert messages[0] == messages[1]

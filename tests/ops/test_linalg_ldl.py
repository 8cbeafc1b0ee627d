"""``linalg.ldl_factor``, ``ldl_factor_ex`` and ``ldl_solve`` against torch's LAPACK:
Bunch-Kaufman pivots equal exactly (1x1 and 2x2 blocks, interchanges), factors and solutions
to rounding, batches, complex symmetric and Hermitian matrices, singular matrices, the
``NotImplemented`` graph nodes and the errors."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _symmetric(rng, n, kind, batch=(), complex_kind=None):
    a = rng.standard_normal(batch + (n, n))
    if complex_kind:
        a = a + 1j * rng.standard_normal(batch + (n, n))
    other = np.swapaxes(a, -1, -2)
    a = a + (other.conj() if complex_kind == "hermitian" else other)
    index = np.arange(n)
    if kind == "zero_diagonal":  # every pivot choice weighs a 2x2 block
        a[..., index, index] = 0
    elif kind == "small_diagonal":
        a[..., index, index] *= 1e-3
    elif kind == "integers":  # ties between candidate pivots
        a = np.round(a.real)
    elif kind == "definite":
        a = a @ np.swapaxes(a, -1, -2).conj() + n * np.eye(n)
    return a


KINDS = ["random", "zero_diagonal", "small_diagonal", "integers", "definite"]


def _factor_both(a, hermitian=False, dtype="float64"):
    theirs = torch.linalg.ldl_factor_ex(
        torch.tensor(a, dtype=getattr(torch, dtype)), hermitian=hermitian
    )
    ours = numtorch.linalg.ldl_factor_ex(
        numtorch.tensor(a, dtype=getattr(numtorch, dtype)), hermitian=hermitian
    )
    return ours, theirs


def _check_factors(ours, theirs, tolerance):
    assert str(ours.pivots.dtype) == str(theirs.pivots.dtype) == "torch.int32"
    assert str(ours.LD.dtype) == str(theirs.LD.dtype)
    np.testing.assert_array_equal(ours.pivots.numpy(), theirs.pivots.numpy())
    np.testing.assert_array_equal(ours.info.numpy(), theirs.info.numpy())
    scale = max(np.abs(theirs.LD.numpy()).max(initial=0.0), 1.0)
    np.testing.assert_allclose(ours.LD.numpy(), theirs.LD.numpy(), rtol=0, atol=tolerance * scale)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 17, 70])
def test_factor_matches_lapack(kind, n):
    rng = np.random.default_rng(n * 31 + KINDS.index(kind))
    ours, theirs = _factor_both(_symmetric(rng, n, kind))
    _check_factors(ours, theirs, 1e-12)


@pytest.mark.parametrize("kind", KINDS[:3])
def test_float32_factor_matches_lapack(kind):
    rng = np.random.default_rng(7)
    ours, theirs = _factor_both(_symmetric(rng, 6, kind), dtype="float32")
    _check_factors(ours, theirs, 1e-5)


@pytest.mark.parametrize("complex_kind", ["symmetric", "hermitian"])
@pytest.mark.parametrize("kind", KINDS[:3])
def test_complex_factor_and_solve_match_lapack(complex_kind, kind):
    rng = np.random.default_rng(3)
    a = _symmetric(rng, 6, kind, complex_kind=complex_kind)
    hermitian = complex_kind == "hermitian"
    ours, theirs = _factor_both(a, hermitian=hermitian, dtype="complex128")
    _check_factors(ours, theirs, 1e-12)
    b = rng.standard_normal((6, 2)) + 1j * rng.standard_normal((6, 2))
    x_theirs = torch.linalg.ldl_solve(
        theirs.LD, theirs.pivots, torch.tensor(b), hermitian=hermitian
    )
    x_ours = numtorch.linalg.ldl_solve(
        ours.LD, ours.pivots, numtorch.tensor(b), hermitian=hermitian
    )
    np.testing.assert_allclose(x_ours.numpy(), x_theirs.numpy(), rtol=1e-10, atol=1e-12)


def test_batched_factor_and_broadcast_solve_match_torch():
    rng = np.random.default_rng(5)
    a = _symmetric(rng, 4, "zero_diagonal", batch=(2, 3))
    ours, theirs = _factor_both(a)
    _check_factors(ours, theirs, 1e-12)
    assert ours.info.shape == theirs.info.shape == (2, 3)
    b = rng.standard_normal((3, 4, 2))  # broadcasts against the batch (2, 3)
    x_theirs = torch.linalg.ldl_solve(theirs.LD, theirs.pivots, torch.tensor(b))
    x_ours = numtorch.linalg.ldl_solve(ours.LD, ours.pivots, numtorch.tensor(b))
    assert x_ours.shape == x_theirs.shape
    np.testing.assert_allclose(x_ours.numpy(), x_theirs.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kind", KINDS)
def test_solve_matches_torch(kind):
    rng = np.random.default_rng(11)
    a = _symmetric(rng, 7, kind)
    ours, theirs = _factor_both(a)
    b = rng.standard_normal((7, 3))
    x_theirs = torch.linalg.ldl_solve(theirs.LD, theirs.pivots, torch.tensor(b))
    x_ours = numtorch.linalg.ldl_solve(ours.LD, ours.pivots, numtorch.tensor(b))
    np.testing.assert_allclose(x_ours.numpy(), x_theirs.numpy(), rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(a @ x_ours.numpy(), b, atol=1e-9)


def test_only_the_lower_triangle_is_read():
    a = [[1.0, float("nan")], [2.0, 3.0]]
    ours, theirs = _factor_both(np.array(a))
    _check_factors(ours, theirs, 1e-15)


def test_singular_matrix_reports_info_and_ldl_factor_raises():
    a = np.zeros((2, 2))
    ours, theirs = _factor_both(a)
    _check_factors(ours, theirs, 0)
    assert int(ours.info) == 1
    with pytest.raises(RuntimeError):
        torch.linalg.ldl_factor(torch.zeros(2, 2))
    with pytest.raises(RuntimeError, match="singular"):
        numtorch.linalg.ldl_factor(numtorch.zeros(2, 2))
    with pytest.raises(RuntimeError, match="singular"):
        numtorch.linalg.ldl_factor_ex(numtorch.zeros(2, 2), check_errors=True)


def test_empty_matrix_matches_torch():
    ours, theirs = (lib.linalg.ldl_factor(lib.zeros(0, 0)) for lib in (numtorch, torch))
    assert ours.LD.shape == theirs.LD.shape and ours.pivots.shape == theirs.pivots.shape


def test_graph_records_not_implemented_as_torch():
    for lib in (numtorch, torch):
        A = lib.tensor([[4.0, 1.0], [1.0, 3.0]], requires_grad=True)
        LD, pivots, info = lib.linalg.ldl_factor_ex(A)
        assert type(LD.grad_fn).__name__ == "NotImplemented"
        assert not pivots.requires_grad and not info.requires_grad
        with pytest.raises(RuntimeError, match="derivative for aten::linalg_ldl_factor_ex"):
            LD.sum().backward()
        b = lib.ones(2, 1, requires_grad=True)
        x = lib.linalg.ldl_solve(LD.detach(), pivots, b)
        assert type(x.grad_fn).__name__ == "NotImplemented"
        with pytest.raises(RuntimeError, match="derivative for aten::linalg_ldl_solve"):
            x.sum().backward()


def _error(lib, fn):
    try:
        fn(lib)
    except Exception as e:  # the type is compared
        return type(e)
    return None


def _ld(lib):
    return lib.linalg.ldl_factor(lib.tensor([[4.0, 1.0], [1.0, 3.0]]))


ERRORS = [
    lambda t: t.linalg.ldl_factor(t.ones(2, 3)),
    lambda t: t.linalg.ldl_factor(t.ones(3)),
    lambda t: t.linalg.ldl_factor(t.ones(2, 2, dtype=t.int64)),
    lambda t: t.linalg.ldl_factor(t.eye(2, dtype=t.float16)),
    lambda t: t.linalg.ldl_factor_ex(t.ones(2, 3)),
    lambda t: t.linalg.ldl_solve(*_ld(t), t.ones(2)),
    lambda t: t.linalg.ldl_solve(*_ld(t), t.ones(3, 1)),
    lambda t: t.linalg.ldl_solve(*_ld(t), t.ones(2, 1, dtype=t.float64)),
]


@pytest.mark.parametrize("index", range(len(ERRORS)))
def test_errors_match_torch(index):
    theirs = _error(torch, ERRORS[index])
    assert theirs is not None
    assert _error(numtorch, ERRORS[index]) is theirs


def test_int64_pivots_are_accepted_as_by_torch():
    ours, theirs = (
        lib.linalg.ldl_solve(_ld(lib).LD, _ld(lib).pivots.long(), lib.ones(2, 1))
        for lib in (numtorch, torch)
    )
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_hermitian_flag_on_real_matrices_matches_torch():
    rng = np.random.default_rng(13)
    a = _symmetric(rng, 6, "zero_diagonal")
    ours, theirs = _factor_both(a, hermitian=True)
    _check_factors(ours, theirs, 1e-12)
    b = rng.standard_normal((6, 1))
    x_ours = numtorch.linalg.ldl_solve(ours.LD, ours.pivots, numtorch.tensor(b), hermitian=True)
    x_theirs = torch.linalg.ldl_solve(theirs.LD, theirs.pivots, torch.tensor(b), hermitian=True)
    np.testing.assert_allclose(x_ours.numpy(), x_theirs.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("batch", [(), (2,)])
def test_ldl_factors_and_solutions_are_column_major_as_torchs(batch):
    # LAPACK writes column-major matrices; a later .view() of a row-major copy worked where
    # torch's raises (4 of 12,000 fuzz graphs)
    oracle = pytest.importorskip("torch")

    def strides(lib):
        g = lib.Generator().manual_seed(0)
        A = lib.randn(*batch, 3, 3, generator=g, dtype=lib.float64)
        A = A + A.mT
        LD, pivots, _ = lib.linalg.ldl_factor_ex(A)
        X = lib.linalg.ldl_solve(LD, pivots, lib.randn(*batch, 3, 4, dtype=lib.float64))
        return LD.stride(), pivots.stride(), X.stride()

    assert strides(numtorch) == strides(oracle)

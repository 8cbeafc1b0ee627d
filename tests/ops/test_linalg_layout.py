"""The memory layout of linear-algebra results (Note [LAPACK layout]): torch returns
LAPACK's column-major matrices, and torch code sees it through strides, ``view`` and
``reshape``. Checked against torch where it is installed, and for column-major matrices
(batches in order) without it."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import numtorch

RNG = np.random.default_rng(0)
A = RNG.standard_normal((2, 4, 3))
S = RNG.standard_normal((2, 3, 3))
SPD = S @ S.transpose(0, 2, 1) + 3 * np.eye(3)
B = RNG.standard_normal((2, 3, 2))


def _lu(t):
    return t.linalg.lu_factor(t.tensor(SPD))


# name: (call, which results are column-major matrices)
CASES = {
    "inv": (lambda t: t.linalg.inv(t.tensor(S)), (True,)),
    "inverse": (lambda t: t.inverse(t.tensor(S)), (True,)),
    "cholesky": (lambda t: t.linalg.cholesky(t.tensor(SPD)), (True,)),
    "cholesky_upper": (lambda t: t.linalg.cholesky(t.tensor(SPD), upper=True), (True,)),
    "cholesky_ex": (lambda t: t.linalg.cholesky_ex(t.tensor(SPD)), (True, False)),
    "cholesky_inverse": (
        lambda t: t.cholesky_inverse(t.linalg.cholesky(t.tensor(SPD))),
        (True,),
    ),
    "cholesky_solve": (
        lambda t: t.cholesky_solve(t.tensor(B), t.linalg.cholesky(t.tensor(SPD))),
        (True,),
    ),
    "solve": (lambda t: t.linalg.solve(t.tensor(S), t.tensor(B)), (True,)),
    "solve_right": (
        lambda t: t.linalg.solve(t.tensor(S), t.tensor(B).mT.contiguous(), left=False),
        (False,),
    ),
    "solve_triangular": (
        lambda t: t.linalg.solve_triangular(t.tensor(S).triu(), t.tensor(B), upper=True),
        (True,),
    ),
    "solve_triangular_right": (
        lambda t: t.linalg.solve_triangular(
            t.tensor(S).triu(), t.tensor(B).mT.contiguous(), upper=True, left=False
        ),
        (True,),
    ),
    "triangular_solve": (
        lambda t: t.triangular_solve(t.tensor(B), t.tensor(S).triu()),
        (True, True),
    ),
    "lu_solve": (lambda t: t.linalg.lu_solve(*_lu(t), t.tensor(B)), (True,)),
    "lu_solve_right": (
        lambda t: t.linalg.lu_solve(*_lu(t), t.tensor(B).mT.contiguous(), left=False),
        (False,),
    ),
    "qr": (lambda t: t.linalg.qr(t.tensor(A)), (True, True)),
    "qr_complete": (lambda t: t.linalg.qr(t.tensor(A), mode="complete"), (True, True)),
    "svd": (lambda t: t.linalg.svd(t.tensor(A)), (True, False, True)),
    "svd_reduced": (lambda t: t.linalg.svd(t.tensor(A), full_matrices=False), (True, False, True)),
    "torch_svd": (lambda t: t.svd(t.tensor(A)), (True, False, False)),
    "eigh": (lambda t: t.linalg.eigh(t.tensor(SPD)), (False, True)),
    "geqrf": (lambda t: t.geqrf(t.tensor(A)), (True, False)),
}


def _strides(lib, name):
    call, _ = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the deprecated spellings warn
        result = call(lib)
    results = result if isinstance(result, tuple) else (result,)
    return [tuple(r.stride()) for r in results]


@pytest.mark.parametrize("name", sorted(CASES))
def test_matrices_are_column_major_as_lapack_writes_them(name):
    results = CASES[name][0](numtorch)
    results = results if isinstance(results, tuple) else (results,)
    for result, column_major in zip(results, CASES[name][1], strict=True):
        if column_major:
            assert result.mT.is_contiguous() and not result.is_contiguous()
        else:
            assert result.is_contiguous()


@pytest.mark.parametrize("name", sorted(CASES))
def test_strides_match_torch(name):
    torch = pytest.importorskip("torch")
    assert _strides(numtorch, name) == _strides(torch, name)


def test_least_squares_solution_is_the_top_of_its_right_hand_side_buffer():
    b = RNG.standard_normal((2, 4, 2))
    solution = numtorch.linalg.lstsq(numtorch.tensor(A), numtorch.tensor(b)).solution
    assert solution.stride() == (8, 1, 4)  # a (3, 2) solution inside a (4, 2) column-major b
    torch = pytest.importorskip("torch")
    expected = torch.linalg.lstsq(torch.tensor(A), torch.tensor(b)).solution
    assert solution.stride() == expected.stride()


def _inplace_after_flat_views(lib):
    # a graph the fuzzer found: view(-1) of an inverse is refused; reshape(-1) copies, so
    # writing into the copy leaves the inverse that backward saved untouched
    x = lib.tensor(S, requires_grad=True)
    inverse = lib.linalg.inv(x)
    try:
        inverse.view(-1)
        refused = None
    except RuntimeError as error:
        refused = type(error).__name__
    flat = inverse.reshape(-1)
    flat.exp_()
    (inverse.sum() + flat.sum()).backward()
    return refused, x.grad.numpy()


def test_flat_views_of_a_result_and_inplace_writes_into_them():
    refused, grad = _inplace_after_flat_views(numtorch)
    assert refused == "RuntimeError"
    torch = pytest.importorskip("torch")
    expected_refused, expected = _inplace_after_flat_views(torch)
    assert refused == expected_refused
    np.testing.assert_allclose(grad, expected, rtol=1e-10)

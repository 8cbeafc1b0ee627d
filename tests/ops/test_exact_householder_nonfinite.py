"""NaN and infinities through Householder products: a reflector H_i touches the rows (or
columns) from i on only, as LAPACK's larf, so what lies above them is never multiplied by
the zeros of v_i."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

A = [[0.3, -1.2], [1.1, 0.4], [-0.7, 2.0], [0.5, -0.6]]
TAU = [1.3, 0.8]


def _ormqr(lib, other, grad, left, transpose):
    a, tau, c = (lib.tensor(v, dtype=lib.float64, requires_grad=True) for v in (A, TAU, other))
    result = lib.ormqr(a, tau, c, left=left, transpose=transpose)
    result.backward(lib.tensor(grad, dtype=lib.float64))
    return [x.detach().numpy() for x in (result, a.grad, tau.grad, c.grad)]


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
def test_a_nan_gradient_reaches_what_torch_reaches(left, transpose):
    other = np.arange(12.0).reshape((4, 3) if left else (3, 4)) / 7 - 0.5
    grad = np.ones(other.shape)
    grad[0, 0] = np.nan
    ours, theirs = (
        _ormqr(numtorch, other, grad, left, transpose),
        _ormqr(torch, other, grad, left, transpose),
    )
    for x, y in zip(ours, theirs):
        np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-12)  # NaN where torch has NaN


@pytest.mark.parametrize("left", [True, False])
def test_an_infinite_entry_stays_in_the_rows_it_reaches(left):
    other = np.arange(12.0).reshape((4, 3) if left else (3, 4)) / 7 - 0.5
    other[(3, 1) if left else (1, 3)] = np.inf
    grad = np.ones(other.shape)
    ours = _ormqr(numtorch, other, grad, left, False)[0]
    theirs = _ormqr(torch, other, grad, left, False)[0]
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(theirs))
    assert not np.isnan(ours).all()


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
def test_second_order_through_a_nan_gradient_follows_torchs_formula(left, transpose):
    # under create_graph torch's backward multiplies whole reflectors (its out-of-place
    # path): the NaN of a second order reaches what that formula reaches
    other = np.arange(12.0).reshape((4, 3) if left else (3, 4)) / 7 - 0.5
    found = []
    for lib in (numtorch, torch):
        a, tau, c = (lib.tensor(v, dtype=lib.float64, requires_grad=True) for v in (A, TAU, other))
        weight = lib.tensor(other.size * [1.0], dtype=lib.float64).reshape(other.shape)
        weight[0, 0] = float("nan")
        result = lib.ormqr(a, tau, c, left=left, transpose=transpose)
        grads = lib.autograd.grad((result * weight).sum(), (a, tau, c), create_graph=True)
        total = sum((g * (i + 1)).sum() for i, g in enumerate(grads))
        found.append([g.numpy() for g in lib.autograd.grad(total, (a, tau, c))])
    for x, y in zip(*found):
        np.testing.assert_allclose(x, y, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", range(6))
def test_householder_product_skips_what_orgqr_skips(dtype, seed):
    # below the diagonal a column is -tau * v: -0.0 where v is 0 (rsqrt makes it -inf); a
    # reflector with tau = 0, the rows past v's last nonzero and the update's columns whose
    # coefficient is 0 are not touched (an infinity there stays), as LAPACK's orgqr
    rng = np.random.default_rng(seed)
    values = [0.0, -0.0, 0.0, 0.5, -1.5, 2.0, 0.3] + [np.inf, np.nan] * (seed % 2)
    a = rng.choice(values, size=(2, 5, 4))
    tau = rng.choice([0.0, 1.0, 0.5, 1.7, -0.3], size=(2, 3))
    outs = []
    for lib in (numtorch, torch):
        kind = getattr(lib, dtype)
        outs.append(
            lib.linalg.householder_product(lib.tensor(a, dtype=kind), lib.tensor(tau, dtype=kind))
        )
    ours, theirs = (o.numpy() for o in outs)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    assert (np.signbit(ours) == np.signbit(theirs))[~np.isnan(theirs)].all()

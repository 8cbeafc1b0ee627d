"""Complex logaddexp and logcumsumexp as torch computes them: the operand of smaller real
part in the exponent, torch's complex log1p, NaN, -inf and +inf corners, the scan's
complex double accumulator, and the gradients (conjugated, through the log of the
conjugate gradient for the scan) to second order."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

INF, NAN = math.inf, math.nan
A = [1 + 2j, 3 - 1j, -2 + 0.5j, complex(-INF, 0), complex(INF, 1), complex(NAN, 0), 0j, 1e-30]
B = [0.5 - 1j, 3 + 1j, complex(-INF, 0), complex(-INF, 2), complex(INF, 1), 1 + 1j, 0j, -1e-30]


def _same(ours, theirs, rtol):
    ours, theirs = ours.detach().resolve_conj(), theirs.detach().resolve_conj()
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=rtol, atol=0)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("op", ["logaddexp", "logcumsumexp"])
def test_complex_corners_as_torch(op, dtype):
    def run(lib):
        a = lib.tensor(A, dtype=getattr(lib, dtype))
        b = lib.tensor(B, dtype=getattr(lib, dtype))
        return lib.logaddexp(a, b) if op == "logaddexp" else lib.logcumsumexp(a, 0)

    _same(run(numtorch), run(torch), rtol=1e-6 if dtype == "complex64" else 1e-14)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_gradients_to_second_order_as_torch(dtype):
    rng = np.random.RandomState(0)
    z = rng.randn(3, 4) * 3 + 1j * rng.randn(3, 4) * 3
    w = rng.randn(3, 4) * 3 + 1j * rng.randn(3, 4) * 3
    w[1, 1] = z[1, 1]  # a tie of real parts

    def run(lib):
        a = lib.tensor(z, dtype=getattr(lib, dtype), requires_grad=True)
        b = lib.tensor(w, dtype=getattr(lib, dtype), requires_grad=True)
        outs = []
        for r in (lib.logaddexp(a, b), lib.logcumsumexp(a, 1), lib.logcumsumexp(b, 0)):
            loss = (r * r.conj()).real.sum() + r.real.sum()
            grads = lib.autograd.grad(loss, (a, b), create_graph=True, allow_unused=True)
            first = [g for g in grads if g is not None]
            square = sum((g.abs() ** 2).sum() for g in first)
            second = lib.autograd.grad(square, (a, b), allow_unused=True)
            outs += [r.grad_fn.name(), r, *first, *[g for g in second if g is not None]]
        return outs

    rtol = 1e-5 if dtype == "complex64" else 1e-12
    for ours, theirs in zip(run(numtorch), run(torch), strict=True):
        if isinstance(ours, str):
            assert ours == theirs
        else:
            _same(ours, theirs, rtol)


def test_complex_logaddexp2_is_refused_as_torch():
    with pytest.raises(NotImplementedError, match="logaddexp2_cpu"):
        numtorch.logaddexp2(numtorch.tensor([1j]), numtorch.tensor([1j]))

"""sin, cos and addmm differentiate complex inputs as torch does (conjugate Wirtinger
derivatives: Note [Complex autograd]): gradients against torch, gradcheck and gradgradcheck."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

Z = np.array([0.3 + 1.2j, -1.1 - 0.4j, 2.0 + 0.0j, -0.2j])
A = np.array([[1 + 2j, -0.5j], [0.3 - 1j, 2.0 + 0.5j], [1j, -1 + 0j]])
B = np.array([[0.5 - 1j, 2 + 0j, 1j], [-1 + 1j, 0.25 + 0j, 0.1 - 0.3j]])
C = np.array([1 - 1j, 0.5j, 2 + 0j])


def _unary_case(lib, name):
    z = lib.tensor(Z, requires_grad=True)
    out = getattr(lib, name)(z)
    (out * lib.tensor(Z[::-1].copy())).abs().sum().backward()
    return out.detach().numpy(), z.grad.numpy(), type(out.grad_fn).__name__


def _addmm_case(lib, beta, alpha):
    tensors = [lib.tensor(v, requires_grad=True) for v in (C, A, B)]
    out = lib.addmm(*tensors, beta=beta, alpha=alpha)
    (out.abs() ** 2).sum().backward()
    grads = [t.grad.numpy() for t in tensors]
    return [out.detach().numpy(), *grads, type(out.grad_fn).__name__]


def _assert_same(ours, theirs):
    for a, b in zip(ours, theirs):
        if isinstance(b, str):
            assert a == b
        else:
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@pytest.mark.parity
@pytest.mark.parametrize("name", ["sin", "cos"])
def test_complex_sin_cos_gradients_match_torch(name):
    _assert_same(_unary_case(numtorch, name), _unary_case(torch, name))


@pytest.mark.parity
@pytest.mark.parametrize("beta, alpha", [(1, 1), (0.5, 2.0), (1j, 1 - 1j)])
def test_complex_addmm_gradients_match_torch(beta, alpha):
    _assert_same(_addmm_case(numtorch, beta, alpha), _addmm_case(torch, beta, alpha))


def test_complex_sin_cos_addmm_pass_gradcheck_and_gradgradcheck():
    check = numtorch.autograd.gradcheck
    check_twice = numtorch.autograd.gradgradcheck
    z = numtorch.tensor(Z, requires_grad=True)
    for fn in (numtorch.sin, numtorch.cos):
        assert check(fn, (z,)) and check_twice(fn, (z,))
    inputs = tuple(numtorch.tensor(v, requires_grad=True) for v in (C, A, B))

    def addmm(c, a, b):
        return numtorch.addmm(c, a, b, beta=0.5 + 1j, alpha=2 - 1j)

    assert check(addmm, inputs) and check_twice(addmm, inputs)

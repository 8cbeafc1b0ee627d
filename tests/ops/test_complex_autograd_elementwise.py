"""Elementwise ops differentiate complex inputs as torch does: the conjugate of the local
derivative (Note [Complex autograd]); a real input of a complex result gets a real gradient."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

Z = np.array([0.3 + 0.4j, -0.6 - 0.2j, 0.5 + 0.1j, -0.2j])
W = np.array([1 - 1j, 0.5j, 2 + 0j, -0.3 + 0.7j])
X = np.array([0.5, -1.2, 2.0, 0.7])

UNARY = (
    *("tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "asinh", "acosh"),
    *("atanh", "exp2", "expm1", "log2", "log10", "log1p", "rsqrt", "sinc"),
)


def _grads(lib, fn, *arrays):
    inputs = [lib.tensor(a, requires_grad=True) for a in arrays]
    out = fn(lib, *inputs)
    loss = (out * lib.tensor(W)).real.sum() if out.is_complex() else (out * 1.5).sum()
    return [g.numpy() for g in lib.autograd.grad(loss, inputs)]


def _assert_same(fn, *arrays):
    for ours, theirs in zip(_grads(numtorch, fn, *arrays), _grads(torch, fn, *arrays)):
        assert ours.dtype == theirs.dtype
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parity
@pytest.mark.parametrize("name", UNARY)
def test_complex_unary_gradients_match_torch(name):
    _assert_same(lambda t, z: getattr(t, name)(z), Z)


BINARY = {
    "div_mode_none": lambda t, a, b: t.div(a, b, rounding_mode=None),
    "pow": lambda t, a, b: t.pow(a, b),
    "addcmul": lambda t, a, b: t.addcmul(a, a, b, value=0.5 - 2j),
    "addcdiv": lambda t, a, b: t.addcdiv(b, a, b, value=1j),
    "lerp": lambda t, a, b: t.lerp(a, b, b),
    "ldexp": lambda t, a, b: t.ldexp(a, t.tensor([1, -2, 0, 3])) * b,
    # alpha * other: the gradient takes conj(alpha)
    "add_alpha": lambda t, a, b: t.add(a, b, alpha=0.5 - 2j),
    "sub_alpha": lambda t, a, b: t.sub(a, b, alpha=1 + 1j),
    "rsub_alpha": lambda t, a, b: t.rsub(a, b, alpha=2j),
    "rsub_number_alpha": lambda t, a, b: t.rsub(a, 3.0, alpha=1 - 1j) * b,
}


@pytest.mark.parity
@pytest.mark.parametrize("name", BINARY)
def test_complex_binary_gradients_match_torch(name):
    _assert_same(BINARY[name], Z, W)


@pytest.mark.parity
@pytest.mark.parametrize("real_first", [True, False])
def test_complex_power_of_a_real_tensor_matches_torch(real_first):
    # a real base's log is taken in the complex plane (a negative base has one)
    args = (X, Z) if real_first else (Z, X)
    _assert_same(lambda t, a, b: t.pow(a, b), *args)
    _assert_same(lambda t, b: t.pow(-2.0, b), Z)
    _assert_same(lambda t, b: t.pow(0.5 - 1j, b), X)  # a complex number to a real power


def test_complex_elementwise_pass_gradcheck():
    z = numtorch.tensor(Z, requires_grad=True)
    w = numtorch.tensor(W, requires_grad=True)
    for name in ("tan", "asinh", "sigmoid", "log1p", "rsqrt"):
        assert numtorch.autograd.gradcheck(getattr(numtorch, name), (z,))
    assert numtorch.autograd.gradcheck(lambda a, b: numtorch.addcdiv(a, a, b, value=2j), (z, w))
    assert numtorch.autograd.gradcheck(numtorch.pow, (z, w))


@pytest.mark.parity
@pytest.mark.parametrize("name", ["add", "sub", "rsub"])
def test_complex_alpha_is_refused_for_real_results(name):
    found = []
    for lib in (numtorch, torch):
        with pytest.raises(RuntimeError) as error:
            getattr(lib, name)(lib.tensor(X), lib.tensor(X), alpha=1 + 1j)
        found.append(str(error.value))
    assert found[0] == found[1]


@pytest.mark.parity
def test_complex_index_add_takes_alpha_as_torch_does():
    # torch multiplies the source's gradient by alpha itself, not by its conjugate
    def index_add(t, a, b):
        return t.index_add(a, 0, t.tensor([2, 0]), b[:2], alpha=0.5 - 1j)

    _assert_same(index_add, Z, W)


def _second_order(lib, name):
    z = lib.tensor(Z, requires_grad=True)
    out = getattr(lib, name)(z)
    (grad,) = lib.autograd.grad((out * lib.tensor(W)).real.sum(), z, create_graph=True)
    (second,) = lib.autograd.grad((grad * lib.tensor(W[::-1].copy())).real.sum(), z)
    return second.detach().resolve_conj().numpy()


@pytest.mark.parity
@pytest.mark.parametrize("name", ["tanh", "sigmoid", "tan", "asinh", "log1p"])
def test_complex_second_order_gradients_match_torch(name):
    ours, theirs = _second_order(numtorch, name), _second_order(torch, name)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)

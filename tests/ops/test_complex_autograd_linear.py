"""Shape, indexing, scatter and sum-like ops, the real-valued moments and norms, and the
products and log-sum-exp reductions take complex gradients as torch does (Note [Complex
autograd]): against torch's gradients, zeros included for the products."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(7)
Z = RNG.standard_normal((3, 4)) + 1j * RNG.standard_normal((3, 4))
ONE_ZERO = Z.copy()
ONE_ZERO[1, 2] = 0
TWO_ZEROS = ONE_ZERO.copy()
TWO_ZEROS[1, 0] = 0
OTHER = RNG.standard_normal((3, 4)) + 1j * RNG.standard_normal((3, 4))

CASES = {
    "gather": lambda t, z: t.gather(z, 1, t.tensor([[0, 2], [1, 1], [3, 0]])),
    "index_select": lambda t, z: t.index_select(z, 1, t.tensor([2, 0, 2])),
    "cumsum": lambda t, z: t.cumsum(z, 0),
    "tril": lambda t, z: t.tril(z, -1),
    "repeat": lambda t, z: z.repeat(2, 1),
    "take": lambda t, z: t.take(z, t.tensor([0, 5, 5, 11])),
    "scatter_value": lambda t, z: z.scatter(1, t.tensor([[0], [2], [3]]), 2.0),
    "rot90": lambda t, z: t.rot90(z, 1, (0, 1)),
    "trace": lambda t, z: t.trace(z),
    "masked_select": lambda t, z: t.masked_select(z, t.tensor(Z.real > 0)),
    "pad_reflect": lambda t, z: t.nn.functional.pad(z[None], (2, 1), mode="reflect"),
    "index_put": lambda t, z: z.index_put((t.tensor([0, 2]),), z[1], accumulate=True),
    "var": lambda t, z: t.var(z, 1),
    "std_mean": lambda t, z: t.std_mean(z, 0)[0],
    "vector_norm": lambda t, z: t.linalg.vector_norm(z, 1.5, dim=1),
    "dist": lambda t, z: t.dist(z, t.tensor(OTHER), 3),
    "renorm": lambda t, z: t.renorm(z, 2, 0, 1.0),
    "renorm_1": lambda t, z: t.renorm(z, 1, 1, 0.5),
    "prod": lambda t, z: t.prod(z),
    "prod_dim": lambda t, z: t.prod(z, 1),
    "cumprod": lambda t, z: t.cumprod(z, 1),
    "logsumexp": lambda t, z: t.logsumexp(z, 0),
}
PRODUCTS = ("prod", "prod_dim", "cumprod")


def _grad(lib, name, values=Z):
    z = lib.tensor(values, requires_grad=True)
    out = CASES[name](lib, z)
    weight = lib.tensor(np.linspace(-1, 2, out.numel()).reshape(out.shape))
    loss = (out * (weight + 0.5j * weight.flip(list(range(out.ndim))))).real.sum()
    (grad,) = lib.autograd.grad(loss, [z])
    return grad.numpy()


@pytest.mark.parity
@pytest.mark.parametrize("name", CASES)
def test_complex_linear_and_norm_gradients_match_torch(name):
    np.testing.assert_allclose(_grad(numtorch, name), _grad(torch, name), rtol=1e-12, atol=1e-12)


@pytest.mark.parity
@pytest.mark.parametrize("values", [ONE_ZERO, TWO_ZEROS], ids=["one_zero", "two_zeros"])
@pytest.mark.parametrize("name", PRODUCTS)
def test_complex_product_gradients_with_zeros_match_torch(name, values):
    ours, theirs = _grad(numtorch, name, values), _grad(torch, name, values)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("values", [Z, ONE_ZERO], ids=["no_zero", "one_zero"])
def test_complex_products_pass_gradcheck_and_gradgradcheck(values):
    z = numtorch.tensor(values[:2, :3].copy(), requires_grad=True)
    for name in (*PRODUCTS, "logsumexp"):
        fn = CASES[name]
        assert numtorch.autograd.gradcheck(lambda x: fn(numtorch, x), (z,))
        assert numtorch.autograd.gradgradcheck(lambda x: fn(numtorch, x), (z,))

"""The scaled products, einsum, cross and the sparse-dense products take complex gradients as
torch does: the other operand and the scales conjugated (Note [Complex autograd])."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(3)


def _c(*shape):
    return RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)


def _sparse(lib, values):
    return lib.sparse_coo_tensor(lib.tensor([[0, 1, 1], [2, 0, 1]]), values, (2, 3))


CASES = {
    "addmv": ((_c(2), _c(2, 3), _c(3)), lambda t, i, a, b: t.addmv(i, a, b, beta=1j, alpha=2 - 1j)),
    "addr": ((_c(2, 3), _c(2), _c(3)), lambda t, i, a, b: t.addr(i, a, b, beta=0.5, alpha=1j)),
    "baddbmm": (
        (_c(2, 2, 2), _c(2, 2, 3), _c(2, 3, 2)),
        lambda t, i, a, b: t.baddbmm(i, a, b, beta=1 - 1j, alpha=0.5j),
    ),
    "addbmm": (
        (_c(2, 2), _c(3, 2, 3), _c(3, 3, 2)),
        lambda t, i, a, b: t.addbmm(i, a, b, beta=2j, alpha=1 + 1j),
    ),
    "einsum": ((_c(2, 3), _c(3, 4), _c(4)), lambda t, a, b, c: t.einsum("ij,jk,k->ij", a, b, c)),
    "cross": ((_c(2, 3), _c(2, 3)), lambda t, a, b: t.linalg.cross(a, b)),
    "sparse_mm": ((_c(3), _c(3, 2)), lambda t, v, b: t.sparse.mm(_sparse(t, v), b)),
    "sparse_mv": ((_c(3), _c(3)), lambda t, v, b: t.mv(_sparse(t, v), b)),
    "dense_sparse_mm": ((_c(2, 2), _c(3)), lambda t, a, v: t.mm(a, _sparse(t, v))),
    "sparse_addmm": (
        (_c(2, 3), _c(3), _c(3, 3)),
        lambda t, i, v, b: t.sparse.addmm(i, _sparse(t, v), b, beta=1j, alpha=2 - 1j),
    ),
}


def _grads(lib, name):
    arrays, fn = CASES[name]
    inputs = [lib.tensor(a, requires_grad=True) for a in arrays]
    out = fn(lib, *inputs)
    if out.layout != lib.strided:
        out = out.to_dense()
    weight = lib.tensor(np.linspace(-1, 1, out.numel()).reshape(out.shape) * (1 - 0.5j))
    loss = (out * weight).real.sum()
    return lib.autograd.grad(loss, inputs, allow_unused=True)


@pytest.mark.parity
@pytest.mark.parametrize("name", CASES)
def test_complex_product_gradients_match_torch(name):
    for ours, theirs in zip(_grads(numtorch, name), _grads(torch, name)):
        assert (ours is None) == (theirs is None)
        if ours is not None:
            np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12, atol=1e-12)

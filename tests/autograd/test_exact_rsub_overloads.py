"""torch.rsub's two overloads: a tensor ``other`` is the Tensor overload (RsubBackward0,
``other`` differentiable); a number is the Scalar one (RsubBackward1), as ``2 - x``."""

from __future__ import annotations

import pytest

import numtorch

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("alpha", [1, 3])
@pytest.mark.parametrize("other_shape", [(), (2,)])
def test_rsub_with_tensor_other_matches_torch(other_shape, alpha):
    def outcome(lib):
        a = lib.ones(2, dtype=lib.float64, requires_grad=True)
        b = lib.full(other_shape, 2.0, dtype=lib.float64, requires_grad=True)
        y = lib.rsub(a, b, alpha=alpha)
        grads = lib.autograd.grad(y.sum(), [a, b])
        names = [type(t.grad_fn).__name__ for t in (y, lib.rsub(a, 2.0), 2.0 - a)]
        return names, y.tolist(), [g.tolist() for g in grads]

    assert outcome(numtorch) == outcome(torch)

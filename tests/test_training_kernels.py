"""The fast paths of a training step give torch's numbers and layouts: product gradients
computed on arrays when no graph is recorded, and the fused recurrent layer."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _linear_grads(lib, x, w, b, g):
    weight = lib.tensor(w, requires_grad=True)
    bias = lib.tensor(b, requires_grad=True)
    inp = lib.tensor(x, requires_grad=True)
    lib.nn.functional.linear(inp, weight, bias).backward(lib.tensor(g))
    return inp.grad, weight.grad, bias.grad


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_linear_gradients_match_torch_and_land_contiguous(dtype):
    rng = np.random.default_rng(0)
    x, w, b, g = (rng.standard_normal(s).astype(dtype) for s in [(5, 7), (3, 7), (3,), (5, 3)])
    ours = _linear_grads(numtorch, x, w, b, g)
    theirs = _linear_grads(torch, x, w, b, g)
    for a, t in zip(ours, theirs):
        np.testing.assert_allclose(a.numpy(), t.numpy(), rtol=1e-5, atol=1e-6)
        assert a.numpy().flags.c_contiguous
        assert a.stride() == t.stride()


def test_addmm_scaled_gradients_match_torch():
    rng = np.random.default_rng(1)
    a, m1, m2 = (rng.standard_normal(s) for s in [(4, 2), (4, 3), (3, 2)])
    results = []
    for lib in (numtorch, torch):
        ts = [lib.tensor(v, requires_grad=True) for v in (a, m1, m2)]
        lib.addmm(ts[0], ts[1], ts[2].t().contiguous().t(), beta=0.5, alpha=-2.0).sum().backward()
        results.append([t.grad.numpy() for t in ts])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)

"""nn.CrossMapLRN2d against torch: outputs, gradients and node name for window sizes
narrower and wider than the channels, float32 and float64, gradcheck, repr and errors."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

CASES = [
    (3, 5, "float32"),
    (5, 4, "float64"),
    (2, 3, "float32"),
    (4, 7, "float64"),
    (9, 3, "float32"),
]


def _run(lib, size, channels, dtype):
    rng = np.random.default_rng(size * 10 + channels)
    x = lib.tensor(rng.standard_normal((2, channels, 3, 2)), dtype=getattr(lib, dtype))
    x.requires_grad_(True)
    module = lib.nn.CrossMapLRN2d(size, alpha=0.1, beta=0.75, k=2)
    y = module(x)
    y.backward(lib.tensor(rng.standard_normal(y.shape), dtype=y.dtype))
    return y.detach().numpy(), x.grad.numpy(), type(y.grad_fn).__name__, repr(module)


@pytest.mark.parity
@pytest.mark.parametrize("size, channels, dtype", CASES)
def test_cross_map_lrn_matches_torch(size, channels, dtype):
    ours, theirs = _run(numtorch, size, channels, dtype), _run(torch, size, channels, dtype)
    assert ours[2:] == theirs[2:]
    for a, b in zip(ours[:2], theirs[:2]):
        assert a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parity
def test_cross_map_lrn_gradient_is_torchs_backward_not_the_exact_derivative():
    # torch's hand-written backward places the window of ratios one channel off, so its
    # gradient fails gradcheck; numtorch gives torch's gradient, and so fails it the same way
    for lib in (numtorch, torch):
        x = lib.randn(2, 4, 2, 3, dtype=lib.float64, requires_grad=True)
        module = lib.nn.CrossMapLRN2d(3, alpha=0.5, beta=0.75, k=1.5)
        assert not lib.autograd.gradcheck(module, (x,), raise_exception=False)


@pytest.mark.parity
def test_cross_map_lrn_refuses_other_than_4d_as_torch():
    for lib in (numtorch, torch):
        with pytest.raises(ValueError, match="Expected input to be 4D, got 2D"):
            lib.nn.CrossMapLRN2d(3)(lib.ones(2, 3))

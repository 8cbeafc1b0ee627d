"""cov and corrcoef of complex variables against torch: the second factor is conjugated, and
corrcoef clips the real and imaginary parts of its result separately."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")

_rng = np.random.default_rng(3)
VALUES = _rng.standard_normal((3, 5)) + 1j * _rng.standard_normal((3, 5))


@pytest.mark.parametrize(
    "name, weights",
    [("cov", None), ("cov", "aweights"), ("cov", "fweights"), ("corrcoef", None)],
)
def test_complex_covariance_matches_torch(name, weights):
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor(VALUES, requires_grad=True)
        kwargs = {}
        if weights == "aweights":
            kwargs[weights] = lib.tensor([1.0, 2.0, 0.5, 1.0, 3.0], dtype=lib.float64)
        elif weights == "fweights":
            kwargs[weights] = lib.tensor([1, 2, 1, 3, 1])
        out = getattr(lib, name)(x, **kwargs)
        out.abs().sum().backward()
        results.append((out.detach().numpy(), x.grad.numpy(), out.grad_fn.name()))
    (ours, our_grad, our_node), (theirs, their_grad, their_node) = results
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(our_grad, their_grad, rtol=1e-8, atol=1e-10)
    assert our_node == their_node

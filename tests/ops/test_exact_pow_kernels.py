"""Powers torch's kernel computes by multiplying (x ** 3, x ** -2): the same bits."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("exponent", [3, -2, 3.0, -2.0, 2, -1])
def test_scalar_powers_bits_match_torch(dtype, exponent):
    gen = torch.Generator().manual_seed(0)
    t = (torch.randn(4000, generator=gen) * 3).to(getattr(torch, dtype))
    t = torch.cat([t, torch.tensor([0.0, -0.0, float("inf"), -float("inf"), float("nan")]).to(t)])
    n = numtorch.tensor(t.numpy())
    ours, theirs = (n**exponent).numpy(), (t**exponent).numpy()
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)


def test_rsqrt_gradient_cubes_as_torch():
    t = (torch.rand(3000, generator=torch.Generator().manual_seed(1)) + 0.1).requires_grad_()
    n = numtorch.tensor(t.detach().numpy(), requires_grad=True)
    t.rsqrt().sum().backward()
    n.rsqrt().sum().backward()
    np.testing.assert_array_equal(n.grad.numpy(), t.grad.numpy())

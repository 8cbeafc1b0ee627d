"""``_standard_gamma`` and ``_standard_gamma_grad`` as torch computes them: the gradient's
three approximations (small-draw series, saddle point, rational) evaluated as torch's kernel
does, and draws for concentrations outside the gamma's domain (negative, NaN, infinite),
which still consume the random stream as torch's sampler does."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch

# one point in each region of torch's approximation, and its borders
ALPHA = [0.5, 2.0, 7.9, 8.0, 9.0, 12.0, 12.0, 50.0, 3.0, 0.3, -0.5, 0.0, 1e3, 5.0]
DRAW = [0.3, 0.79, 0.8, 2.0, 9.0, 10.9, 14.0, 20.0, 6.0, 4.0, 2.0, 1.5, 1100.0, 0.8000001]
# torch 2.13's values at those points (float64)
TORCH_GRAD = [
    1.0098019827369256,
    0.6558421892370813,
    0.2625495230564135,
    0.4711757833144869,
    1.0186475162576842,
    0.9660530875809588,
    1.094143219602188,
    0.6128670050916785,
    1.4649937810228493,
    4.425653707111601,
    math.nan,
    math.nan,
    1.048508240101577,
    0.35974336226400266,
]


def test_standard_gamma_grad_follows_torchs_approximations():
    got = numtorch._standard_gamma_grad(
        numtorch.tensor(ALPHA, dtype=numtorch.float64),
        numtorch.tensor(DRAW, dtype=numtorch.float64),
    )
    np.testing.assert_allclose(got.numpy(), TORCH_GRAD, rtol=1e-13)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_standard_gamma_grad_matches_torch_over_a_grid(dtype):
    torch = pytest.importorskip("torch")
    special = [-2.0, -0.5, -0.0, 0.0, 1e-8, 0.79, 0.8, 1.0, 8.0, 9.0, 1e8, math.inf, math.nan]
    rng = np.random.default_rng(0)
    values = np.array(special + list(rng.uniform(0, 20, 20)))
    alpha, x = (a.ravel().astype(dtype) for a in np.meshgrid(values, values))
    ours = numtorch._standard_gamma_grad(numtorch.tensor(alpha), numtorch.tensor(x)).numpy()
    theirs = torch._standard_gamma_grad(torch.tensor(alpha), torch.tensor(x)).numpy()
    # (1e-7: digamma near alpha = 1e-8, ~-1e8, cancels in the series)
    np.testing.assert_allclose(ours, theirs, rtol=1e-7 if dtype == "float64" else 1e-6)


OUTSIDE_DOMAIN = [-0.16, -0.9, -0.53, math.nan, math.inf, -math.inf, -1.0, 0.0, 1 / 3, 2.0, -1e-30]


def _draws(lib, dtype):
    lib.manual_seed(3)
    alpha = lib.tensor(OUTSIDE_DOMAIN, dtype=getattr(lib, dtype), requires_grad=True)
    draws = lib._standard_gamma(alpha)
    draws.sum().backward()
    return draws.detach().numpy(), alpha.grad.numpy(), lib.rand(1).item()


def test_standard_gamma_draws_outside_the_domain_as_torch():
    draws, grad, after = _draws(numtorch, "float64")
    # a negative alpha above -1 still draws (scaled by u ** (1 / alpha)); below, and at
    # NaN, d = alpha + 1 - 1/3 is not positive and the draw is the smallest normal number
    assert draws[0] == pytest.approx(0.34135330927089785, rel=1e-14)
    tiny = np.finfo(np.float64).tiny
    assert draws[1] == draws[3] == draws[5] == draws[6] == draws[7] == tiny
    assert draws[4] == draws[10] == math.inf
    torch = pytest.importorskip("torch")
    for dtype in ("float64", "float32"):
        ours, theirs = _draws(numtorch, dtype), _draws(torch, dtype)
        np.testing.assert_array_equal(ours[0], theirs[0])
        np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12 if dtype == "float64" else 1e-6)
        assert ours[2] == theirs[2]  # the stream is left where torch leaves it


# near alpha = 0 the series' two terms cancel to ~eps / alpha: the last bit of digamma, pow,
# exp and log shows in the result, so each is taken as torch's kernel takes it
TINY_ALPHA = [2.842170943040400e-14, 1.10745646e-14, 1.01113942e-15, 3.04738698e-14, 1e-9]
TINY_DRAW = [2.842170943040400e-14, 1.10745646e-14, 1.01113942e-15, 0.05069368, 0.28068007]


def test_standard_gamma_grad_near_alpha_zero_matches_torch():
    torch = pytest.importorskip("torch")
    ours = numtorch._standard_gamma_grad(
        numtorch.tensor(TINY_ALPHA, dtype=numtorch.float64),
        numtorch.tensor(TINY_DRAW, dtype=numtorch.float64),
    )
    theirs = torch._standard_gamma_grad(
        torch.tensor(TINY_ALPHA, dtype=torch.float64), torch.tensor(TINY_DRAW, dtype=torch.float64)
    )
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12)
    assert ours.numpy()[0] == 30.62109375002801  # torch's value, from terms of ~1e13

"""numtorch.nn.init: gains, fans, the distributions' bounds and moments, torch's default
initialisation of each layer, and that initialisers run without recording."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch
from numtorch import nn
from numtorch.nn import init


def test_calculate_gain_matches_torch():
    torch = pytest.importorskip("torch")
    for name, param in [
        ("linear", None),
        ("conv2d", None),
        ("sigmoid", None),
        ("tanh", None),
        ("relu", None),
        ("leaky_relu", None),
        ("leaky_relu", 0.2),
        ("leaky_relu", math.sqrt(5)),
        ("selu", None),
    ]:
        assert init.calculate_gain(name, param) == torch.nn.init.calculate_gain(name, param)
    with pytest.raises(ValueError, match="Unsupported nonlinearity"):
        init.calculate_gain("swish")


def test_fans():
    assert init._calculate_fan_in_and_fan_out(numtorch.empty(4, 3, 5, 2)) == (30, 40)
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init._calculate_fan_in_and_fan_out(numtorch.empty(3))
    with pytest.raises(ValueError, match="Mode fan_avg not supported"):
        init.kaiming_uniform_(numtorch.empty(2, 2), mode="fan_avg")


def _stats(t):
    values = t.detach().numpy()
    return values.min(), values.max(), values.mean(), values.std()


def test_distributions_bounds_and_moments():
    numtorch.manual_seed(0)
    w = numtorch.empty(400, 300)
    low, high, _, std = _stats(init.uniform_(w, -2, 3))
    assert low >= -2 and high < 3
    _, _, mean, std = _stats(init.normal_(w, 1.0, 0.5))
    assert abs(mean - 1) < 0.01 and abs(std - 0.5) < 0.01
    bound = math.sqrt(6 / (400 + 300))
    low, high, _, _ = _stats(init.xavier_uniform_(w))
    assert -bound <= low and high <= bound and high > 0.99 * bound
    _, _, _, std = _stats(init.xavier_normal_(w, gain=2.0))
    assert abs(std - 2 * math.sqrt(2 / 700)) < 0.002
    bound = math.sqrt(2.0) * math.sqrt(3 / 300)
    low, high, _, _ = _stats(init.kaiming_uniform_(w, nonlinearity="relu"))
    assert -bound <= low and high <= bound
    _, _, _, std = _stats(init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu"))
    assert abs(std - math.sqrt(2 / 400)) < 0.002
    low, high, _, _ = _stats(init.trunc_normal_(w, 0.0, 1.0, -0.5, 0.5))
    assert low >= -0.5 and high <= 0.5
    assert np.unique(init.constant_(w, 0.25).numpy()).tolist() == [0.25]
    assert init.zeros_(w).abs().sum().item() == 0 and init.ones_(w).mean().item() == 1
    eye = init.eye_(numtorch.empty(2, 3))
    assert eye.tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    q = init.orthogonal_(numtorch.empty(3, 5)).numpy()
    np.testing.assert_allclose(q @ q.T, np.eye(3), atol=1e-5)
    dirac = init.dirac_(numtorch.empty(2, 2, 3, 3))
    assert dirac[0, 0, 1, 1].item() == 1 and dirac.sum().item() == 2


def test_initialisers_run_under_no_grad_on_parameters():
    p = nn.Parameter(numtorch.empty(3, 4))
    out = init.kaiming_uniform_(p, a=math.sqrt(5))
    assert out is p and p.grad_fn is None and p.requires_grad and p._version > 0


@pytest.mark.parametrize(
    "make, fan_in",
    [
        (lambda: nn.Linear(30, 20), 30),
        (lambda: nn.Conv2d(6, 8, 3), 54),
        (lambda: nn.Conv2d(6, 8, 3, groups=2), 27),
        (lambda: nn.Conv1d(4, 2, 5), 20),
        (lambda: nn.ConvTranspose2d(6, 4, 2), 16),
    ],
)
def test_default_initialisation_is_kaiming_uniform_with_fan_in_bias(make, fan_in):
    numtorch.manual_seed(0)
    layer = make()
    bound = 1 / math.sqrt(fan_in)  # kaiming_uniform_(a=sqrt(5)) gives the same bound
    weight = layer.weight.detach().numpy()
    bias = layer.bias.detach().numpy()
    assert np.abs(weight).max() <= bound and np.abs(weight).max() > 0.8 * bound
    assert np.abs(bias).max() <= bound


def test_other_default_initialisations():
    bn = nn.BatchNorm2d(3)
    assert bn.weight.tolist() == [1.0] * 3 and bn.bias.tolist() == [0.0] * 3
    assert bn.running_var.tolist() == [1.0] * 3 and bn.num_batches_tracked.item() == 0
    ln = nn.LayerNorm(2)
    assert ln.weight.tolist() == [1.0, 1.0] and ln.bias.tolist() == [0.0, 0.0]
    emb = nn.Embedding(50, 40, padding_idx=3)
    assert emb.weight[3].abs().sum().item() == 0
    assert abs(emb.weight.detach().numpy().std() - 1) < 0.05
    bil = nn.Bilinear(4, 3, 2)
    assert bil.weight.abs().max().item() <= 0.5

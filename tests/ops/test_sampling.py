"""Statistics of numtorch's random samplers, their shapes, dtypes and errors, and window
functions against NumPy (``test_random_streams.py`` checks the values against torch's)."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch as torch

N = 200_000


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(1234)


def _mean_std(t):
    a = t.double().numpy()
    return a.mean(), a.std()


def test_normal_overloads_have_the_requested_moments():
    mean = torch.full((N,), 2.0)
    m, s = _mean_std(torch.normal(mean, 3.0))
    assert abs(m - 2.0) < 0.05 and abs(s - 3.0) < 0.05
    m, s = _mean_std(torch.normal(-1.0, torch.full((N,), 0.5)))
    assert abs(m + 1.0) < 0.01 and abs(s - 0.5) < 0.01
    m, s = _mean_std(torch.normal(torch.zeros(N), torch.full((N,), 2.0)))
    assert abs(m) < 0.03 and abs(s - 2.0) < 0.03
    m, s = _mean_std(torch.normal(5.0, 1.0, (N,)))
    assert abs(m - 5.0) < 0.02 and abs(s - 1.0) < 0.02


def test_in_place_samplers_follow_their_distributions():
    x = torch.empty(N, dtype=torch.float64)
    median = float(np.median(x.cauchy_(1.0, 2.0).numpy()))
    quartiles = np.percentile(x.numpy(), [25, 75])
    assert abs(median - 1.0) < 0.05 and abs((quartiles[1] - quartiles[0]) / 2 - 2.0) < 0.05
    m, s = _mean_std(x.log_normal_(0.5, 0.25).log())
    assert abs(m - 0.5) < 0.01 and abs(s - 0.25) < 0.01
    m, _ = _mean_std(x.exponential_(4.0))
    assert abs(m - 0.25) < 0.01
    g = torch.empty(N, dtype=torch.int64).geometric_(0.2)
    assert g.min().item() == 1 and abs(g.double().mean().item() - 5.0) < 0.1
    assert abs(x.bernoulli_(0.3).mean().item() - 0.3) < 0.01


def test_poisson_and_bernoulli_rates():
    rates = torch.full((N,), 3.5)
    m, s = _mean_std(torch.poisson(rates))
    assert abs(m - 3.5) < 0.03 and abs(s * s - 3.5) < 0.1
    assert abs(torch.bernoulli(torch.full((N,), 0.25)).mean().item() - 0.25) < 0.01
    assert abs(torch.bernoulli(torch.zeros(N), p=0.75).mean().item() - 0.75) < 0.01


def test_dropout_family_keeps_the_moments_it_promises():
    x = torch.randn(N, dtype=torch.float64)
    kept = torch.dropout(torch.ones(N), 0.3, True)
    assert abs((kept != 0).float().mean().item() - 0.7) < 0.01
    assert abs(kept.mean().item() - 1.0) < 0.02
    # alpha dropout keeps zero mean and unit variance of standard normal inputs
    m, s = _mean_std(torch.alpha_dropout(x, 0.2, True))
    assert abs(m) < 0.02 and abs(s - 1.0) < 0.02
    y = torch.feature_alpha_dropout(torch.randn(400, 500, 1, dtype=torch.float64), 0.2, True)
    m, s = _mean_std(y)
    assert abs(m) < 0.02 and abs(s - 1.0) < 0.02
    out, mask = torch.native_dropout(torch.ones(N), 0.4, True)
    assert abs(mask.float().mean().item() - 0.6) < 0.01
    assert np.allclose(out.numpy(), mask.numpy() / 0.6)


@pytest.mark.parametrize(
    "name, reference",
    [
        ("hann_window", np.hanning),
        ("hamming_window", np.hamming),
        ("blackman_window", np.blackman),
        ("bartlett_window", np.bartlett),
        ("kaiser_window", lambda n: np.kaiser(n, 12.0)),
    ],
)
@pytest.mark.parametrize("length", [2, 5, 8])
def test_windows_match_numpy(name, reference, length):
    window = getattr(torch, name)
    symmetric = window(length, False, dtype=torch.float64).numpy()
    periodic = window(length, dtype=torch.float64).numpy()
    np.testing.assert_allclose(symmetric, reference(length), atol=1e-12)
    np.testing.assert_allclose(periodic, reference(length + 1)[:-1], atol=1e-12)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_samplers_take_zero_dim_parameters(dtype):
    # NumPy draws a Python number for a 0-d parameter; the result stays a 0-d tensor
    rate = torch.tensor(3.0, dtype=dtype)
    for draw in (
        torch.poisson(rate),
        torch.binomial(torch.tensor(5.0, dtype=dtype), torch.tensor(0.5, dtype=dtype)),
    ):
        assert draw.shape == () and draw.dtype == dtype
        assert float(draw) >= 0 and float(draw) == int(float(draw))


@pytest.mark.parametrize("complex_mean", [True, False])
def test_normal_refuses_a_complex_std_as_torch_does(complex_mean):
    mean = torch.zeros(2, dtype=torch.complex64 if complex_mean else torch.float32)
    std = torch.ones(2, dtype=torch.complex64)
    for args in ((mean, std), (0.0, std)):
        with pytest.raises(RuntimeError, match="normal expects standard deviation to be non-"):
            torch.normal(*args)
    assert torch.normal(mean.to(torch.complex64), 1.0).dtype is torch.complex64

"""Gradients of std and var at their corners, as torch's formulas give them: a zero
standard deviation (masked before var's gradient, so the second order is 0, not NaN), and
a reduction along dims with no degrees of freedom left."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import numtorch

X = np.array([[1.0, 1.0, 1.0], [1.0, 2.0, 3.0], [math.nan, 1.0, 2.0], [math.inf, 1.0, 2.0]])


def _second_order(lib, fn, x, **kwargs):
    a = lib.tensor(x, requires_grad=True)
    out = getattr(lib, fn)(a, **kwargs)
    out = out[0] * 2 + out[1] if fn == "std_mean" else out
    (g,) = lib.autograd.grad(out.sum(), a, create_graph=True)
    (gg,) = lib.autograd.grad((g * g).sum(), a)
    return g.detach().numpy(), gg.numpy()


@pytest.mark.parametrize("fn", ["std", "std_mean"])
def test_second_order_is_zero_where_the_deviation_is_zero(fn):
    _, gg = _second_order(numtorch, fn, X, dim=1)
    assert gg[0].tolist() == [0.0, 0.0, 0.0]  # the constant row
    assert np.isnan(gg[2:]).all()


def test_var_along_a_dim_without_degrees_of_freedom_differentiates_again():
    a = numtorch.tensor([[5.0, -1.0]], requires_grad=True)
    (g,) = numtorch.autograd.grad(numtorch.var(a, dim=0).sum(), a, create_graph=True)
    assert g.requires_grad and np.isnan(g.detach().numpy()).all()
    # correction beyond n: torch divides by the negative n - correction as it is
    (g,) = numtorch.autograd.grad(numtorch.var(a, dim=0, correction=2).sum(), a)
    assert g.tolist() == [[-0.0, -0.0]]


@pytest.mark.parametrize("fn", ["std", "std_mean"])
@pytest.mark.parametrize("kwargs", [{"dim": 1}, {"dim": 0}, {"dim": 1, "correction": 0}])
def test_std_gradients_match_torch(fn, kwargs):
    torch = pytest.importorskip("torch")
    with np.errstate(all="ignore"):
        ours = _second_order(numtorch, fn, X, **kwargs)
    theirs = _second_order(torch, fn, X, **kwargs)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-15)


@pytest.mark.parametrize("fn", ["std_mean", "var_mean"])
def test_mean_output_follows_welfords_recurrence(fn):
    # an infinity before the last element: inf - inf in the running mean's update
    x = numtorch.tensor([[0.5, -math.inf, 1.0, 2.0], [1.0, 2.0, 3.0, math.inf]])
    _, mean = getattr(numtorch, fn)(x, dim=1)
    assert math.isnan(mean[0]) and mean[1] == math.inf
    torch = pytest.importorskip("torch")
    _, theirs = getattr(torch, fn)(torch.tensor(x.numpy()), dim=1)
    np.testing.assert_array_equal(mean.numpy(), theirs.numpy())


@pytest.mark.parametrize("fn", ["var", "std", "var_mean", "std_mean"])
def test_a_constant_slice_has_exactly_zero_variance_along_a_dim(fn):
    # torch's Welford kernel (a reduction that keeps several outputs) keeps the running mean
    # exactly at a constant slice's value: no rounding noise (three 0.1s have a mean of sum / 3
    # off by one ulp), so std's gradient there is the masked 0, not grad / (2 * 1e-17)
    a = numtorch.tensor([[0.1, 0.1, 0.1], [1.0, 2.0, 3.0]], dtype=numtorch.float64)
    a.requires_grad_()
    out = getattr(numtorch, fn)(a, dim=1)
    out = out[0] if isinstance(out, tuple) else out
    assert out[0].item() == 0.0
    out.sum().backward()
    if fn.startswith("std"):
        assert a.grad[0].tolist() == [0.0, 0.0, 0.0]
    else:  # var's gradient takes x - mean with the mean as sum / n: noise, as torch's
        assert a.grad[0].tolist() == [-1.3877787807814457e-17] * 3


def test_a_full_reduction_of_a_constant_keeps_the_two_pass_rounding():
    # torch's full reduction takes mean = sum / n first, as NumPy does
    assert numtorch.full((3,), 0.1, dtype=numtorch.float64).var().item() == 2.8888949165808538e-34


@pytest.mark.parametrize("fn", ["var", "std", "var_mean", "std_mean"])
def test_a_slice_whose_deviations_overflow_is_nan_along_a_dim_as_torchs_welford(fn):
    # torch's Welford recurrence meets inf - inf there; the squared deviation from a mean
    # taken first is inf
    big = 1.7976931348623157e308
    rows = [[big, 0.5, -big, 0.3], [1.0, 2.0, 3.0, big], [1.0, 2.0, 3.0, 4.0]]
    out = getattr(numtorch, fn)(numtorch.tensor(rows, dtype=numtorch.float64), dim=1)
    moment = out[0] if isinstance(out, tuple) else out
    assert np.isnan(moment[0].item()) and moment[1].item() == math.inf
    assert moment[2].item() == pytest.approx(1.6666666666666667 ** (0.5 if "std" in fn else 1))
    if isinstance(out, tuple):
        assert np.isnan(out[1][0].item()) and out[1][1].item() == 4.4942328371557893e307


@pytest.mark.parametrize("op", ["std_mean", "var_mean"])
@pytest.mark.parametrize("dim", [None, -1])
def test_moments_with_the_mean_of_equal_values_are_exact(op, dim):
    # torch's var_mean and std_mean run Welford's recurrence on every reduction, full ones
    # too: the running mean of equal values stays that value, the deviations 0 (a mean taken
    # as sum / n leaves rounding noise, and std's gradient noise / noise)
    torch = pytest.importorskip("torch")
    found = []
    for lib in (numtorch, torch):
        x = lib.tensor(0.1, dtype=lib.float64).expand(2, 3).requires_grad_()
        spread, mean = getattr(lib, op)(x, dim=dim)
        (spread.sum() * 2 + mean.sum()).backward()
        found.append([t.detach().numpy() for t in (spread, mean, x.grad)])
    for a, b in zip(*found):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "call",
    [
        lambda L: L.ones(1).std(),
        lambda L: L.var(L.ones(3), dim=0, correction=3),
        lambda L: L.ones(2, 1).std(1, keepdim=True),
        lambda L: L.std_mean(L.ones(1))[0],
        lambda L: L.var_mean(L.ones(1, 2), dim=0)[0],
        lambda L: L.zeros(0, 3).std(1),
        lambda L: L.ones(()).var(),
        lambda L: L.zeros(0, dtype=L.cfloat).var(),
        lambda L: L.ones(2).std(unbiased=False),
        lambda L: L.ones(2, 3).var((0, 1)),
    ],
)
def test_no_degrees_of_freedom_warns_as_torch_and_gives_inf_or_nan(call):
    # each call warns (torch's UserWarning, naming the op), with nothing from NumPy; the result
    # is real for a complex input
    torch = pytest.importorskip("torch")
    results = []
    for lib in (numtorch, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = call(lib)
        said = sorted(
            {(w.category.__name__, str(w.message).split(" (Triggered")[0]) for w in caught}
        )
        results.append((str(out.dtype).split(".")[-1], str(out.tolist()), said))
    assert results[0] == results[1]

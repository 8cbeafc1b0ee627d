"""Pointwise and special functions at their special points (poles, NaN, +-inf, +-0, huge
values), values and gradients each compared with torch's there."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch as nt

torch = pytest.importorskip("torch")

inf, nan = math.inf, math.nan


def _both(lib_fn, values, dtype="float64", grad=True, create_graph=False):
    """``lib_fn(lib, x)`` under both libraries on ``values``: the results and the gradients
    of a weighted sum (as arrays), numtorch's first."""
    out = []
    for lib in (nt, torch):
        x = lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=grad)
        y = lib_fn(lib, x)
        found = [y.detach().numpy()]
        if grad:
            real = lib.view_as_real(y) if y.is_complex() else y
            weights = lib.linspace(-1.5, 2.0, real.numel(), dtype=real.dtype).reshape(real.shape)
            (g,) = lib.autograd.grad((real * weights).sum(), x, create_graph=create_graph)
            found.append(g.detach().numpy())
            if create_graph:
                (g2,) = lib.autograd.grad((g * g).sum(), x, allow_unused=True)
                found.append(None if g2 is None else g2.numpy())
        out.append(found)
    return out


def _assert_same(ours, theirs):
    for a, b in zip(ours, theirs):
        if a is None or b is None:
            assert a is b, (a, b)
            continue
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=0, equal_nan=True)


def test_complex_sgn_of_an_infinite_part_is_nan_in_both_parts():
    # torch divides z by |z| as complex numbers: inf / inf leaves no direction (NumPy's sign
    # gives 1 + 0j); the gradient's 1 / |z| then gives NaN too
    pairs = [[inf, 1.0], [1.0, -inf], [inf, inf], [nan, 1.0], [0.0, 0.0], [3.0, 4.0]]
    ours, theirs = _both(lambda t, x: t.view_as_complex(x).sgn(), pairs)
    _assert_same(ours, theirs)
    assert np.isnan(ours[0][:4].view(np.float64)).all()


@pytest.mark.parametrize("density", [False, True])
def test_histogram_adds_an_infinite_weight_into_its_own_bin_only(density):
    # torch adds each weight into its bin: one infinite weight leaves the other bins finite
    # (0 with density, as finite / inf); NumPy's running sums made every later bin NaN
    x, w = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [1.0, inf, 1.0, 1.0, 1.0, 2.0, 1.0]
    found = [
        lib.histogram(lib.tensor(x), 4, weight=lib.tensor(w), density=density).hist.numpy()
        for lib in (nt, torch)
    ]
    np.testing.assert_array_equal(*found)
    assert np.isfinite(found[0][1:]).all()


def test_trace_gradient_leaves_a_nan_off_the_diagonal():
    # torch fills the gradient into the diagonal of zeros; grad * eye made NaN * 0 = NaN
    for shape in ((3, 3), (2, 4)):
        found = _both(
            lambda t, x: t.special.ndtri(t.trace(x.reshape(shape)) + 2.0),
            [0.5] * (shape[0] * shape[1]),
            create_graph=True,
        )
        _assert_same(*found)
        assert (found[0][1] == 0).sum() == shape[0] * shape[1] - min(shape)


@pytest.mark.parametrize("n", [8, 7, 1])
def test_inverse_real_fft_gradient_keeps_the_zero_imaginary_parts_of_its_ends(n):
    # the gradient of irfft doubles only the entries whose mirror image was dropped; a NaN
    # gradient leaves the first (and for even n the last) entry's imaginary part 0, as torch's
    found = []
    for lib in (nt, torch):
        z = lib.zeros(n // 2 + 1, 3, dtype=lib.complex128, requires_grad=True)
        g = lib.ones(n, 3, dtype=lib.float64)
        g[n // 2, 1] = nan
        (gz,) = lib.autograd.grad(lib.fft.irfft(z, n=n, dim=0), z, g)
        found.append(lib.view_as_real(gz).numpy())
    np.testing.assert_allclose(*found, rtol=1e-12, atol=1e-15, equal_nan=True)
    assert found[0][0, 1, 1] == 0


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
def test_grid_sample_gradient_skips_out_of_bounds_corners_of_a_nan_gradient(mode):
    # torch adds nothing for a corner outside the input (zeros padding): a NaN gradient at
    # such a point must not land on pixel 0, as NaN * a zero mask did
    grid = [[[[-1.4, -1.3], [0.2, 0.1], [1.5, 0.9]]]]
    found = []
    for lib in (nt, torch):
        x = lib.linspace(0.1, 1.2, 12, dtype=lib.float64).reshape(1, 1, 3, 4).requires_grad_()
        out = lib.nn.functional.grid_sample(
            x, lib.tensor(grid, dtype=lib.float64), mode=mode, align_corners=False
        )
        g = lib.tensor([[[[nan, 1.0, nan]]]], dtype=lib.float64)
        (gx,) = lib.autograd.grad(out, x, g)
        found.append(gx.numpy())
    np.testing.assert_allclose(*found, rtol=1e-12, equal_nan=True)
    if mode != "bicubic":  # bicubic's taps of the first point reach pixel 0
        assert found[0][0, 0, 0, 0] == 0


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_igamma_of_a_subnormal_a_underflows_to_zero_as_torch(dtype):
    # torch's series for P(a, x) is 0 where x^a e^-x / Gamma(a) leaves the dtype's exp range
    # (lgamma of a subnormal a is about 100 in float, 744 in double), though dividing by a
    # would bring it back near 1; a normal a is unaffected
    tiny = float(np.finfo(dtype).smallest_subnormal)
    a, x = [tiny, tiny * 8, 1e-30, 0.5], [0.395, 0.9, 0.395, 0.3]
    found = [
        lib.igamma(
            lib.tensor(a, dtype=getattr(lib, dtype)), lib.tensor(x, dtype=getattr(lib, dtype))
        )
        for lib in (nt, torch)
    ]
    np.testing.assert_allclose(found[0].numpy(), found[1].numpy(), rtol=1e-5)
    assert found[0][0] == 0 and found[0][2] > 0.99


def test_ormqr_gradient_is_zero_on_and_above_the_diagonal_of_its_reflectors():
    # the reflectors are read below the diagonal only: torch's gradient elsewhere is 0 even
    # for a NaN gradient (the 0/1 mask made it NaN * 0)
    rng = np.random.default_rng(3)
    a0, tau0, c0 = rng.standard_normal((4, 3)), rng.standard_normal(3), rng.standard_normal((4, 3))
    found = []
    for lib in (nt, torch):
        a = lib.tensor(a0, requires_grad=True)
        out = lib.ormqr(a, lib.tensor(tau0), lib.tensor(c0))
        g = lib.ones(4, 3, dtype=lib.float64)
        g[2, 1] = nan
        (ga,) = lib.autograd.grad(out, a, g)
        found.append(ga.numpy())
    np.testing.assert_allclose(*found, rtol=1e-10, equal_nan=True)
    assert (found[0][np.triu_indices(3)] == 0).all()


def test_digamma_next_to_negative_poles_reflects_as_torch():
    # torch reflects psi(x) = psi(1 - x) - pi / tan(pi r) with r x's fractional part: one
    # ulp from a pole the rounding of pi * r decides the value (-5.5e15 at -1 + ulp, where
    # the exact pole term is -2**53)
    poles = np.array([-1.0, -2.0, -7.0, -30.0])
    values = np.concatenate([np.nextafter(poles, 0), np.nextafter(poles, -inf), [-0.5, -2.25]])
    ours = nt.digamma(nt.tensor(values)).numpy()
    theirs = torch.digamma(torch.tensor(values)).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-13)

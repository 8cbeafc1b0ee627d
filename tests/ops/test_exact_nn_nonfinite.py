"""nn ops on inputs holding inf or NaN, against torch: which outputs and gradient elements
become non-finite (an element no window reaches must stay finite)."""

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("name", ["conv1d", "conv2d", "conv3d", "conv_transpose2d"])
@pytest.mark.parametrize("where", ["input", "weight"])
def test_convolution_gradients_keep_unreached_elements_finite(name, where):
    dims = int(name[-2])
    rng = np.random.default_rng(dims)
    x = rng.standard_normal((1, 2) + (3,) * dims)
    w = rng.standard_normal((2, 2) + (2,) * dims)
    target = x if where == "input" else w
    target.reshape(-1)[1] = np.inf
    target.reshape(-1)[-1] = -np.inf
    results = []
    for lib in (numtorch, torch):
        xs = lib.tensor(x, requires_grad=True)
        ws = lib.tensor(w, requires_grad=True)
        y = getattr(lib.nn.functional, name)(xs, ws)
        g = lib.tensor(np.random.default_rng(7).standard_normal(tuple(y.shape)))
        grads = lib.autograd.grad(y, [xs, ws], g)
        results.append([t.detach().numpy() for t in (y, *grads)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("mode", ["linear", "bilinear", "trilinear", "bicubic"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_interpolation_of_infinite_values_makes_torch_nans(mode, align_corners):
    # an axis whose size is kept still reads each element twice (weights 1 and 0) in torch
    dims = {"linear": 1, "bilinear": 2, "trilinear": 3, "bicubic": 2}[mode]
    rng = np.random.default_rng(dims)
    x = rng.standard_normal((1, 2) + (3,) * dims)
    x.reshape(-1)[[1, 4]] = (np.inf, -np.inf)
    for size in [(3,) * dims, (3,) * (dims - 1) + (5,), (4,) * dims]:
        results = []
        for lib in (numtorch, torch):
            xs = lib.tensor(x, requires_grad=True)
            y = lib.nn.functional.interpolate(xs, size=size, mode=mode, align_corners=align_corners)
            (g,) = lib.autograd.grad(y, xs, lib.ones_like(y))
            results.append((y.detach().numpy(), g.numpy()))
        for ours, theirs in zip(*results):
            np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12, equal_nan=True)

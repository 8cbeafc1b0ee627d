"""Second-order gradients where a non-finite value meets a derivative that is zero on part of
the domain: torch multiplies by a 0/1 mask (0 * inf = NaN) where a select would give 0, and
numtorch follows each formula's own arithmetic."""

from __future__ import annotations

import math

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity


def _second_order(lib, fn, values, outer):
    x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
    (g,) = lib.autograd.grad(fn(lib, x).sum(), x, create_graph=True)
    (g2,) = lib.autograd.grad((g * lib.tensor(outer, dtype=lib.float64)).sum(), x)
    return g2.numpy()


def _softplus(lib, x):
    # the first gradient is scaled by an infinite weight on the linear side (x > 20)
    weight = lib.tensor([1.0, math.inf, -math.inf, 2.0], dtype=lib.float64)
    return lib.nn.functional.softplus(x) * weight


def test_softplus_second_order_is_nan_past_the_threshold():
    values, outer = [0.5, 25.0, 30.0, math.nan], [1.0, 1.0, 1.0, 1.0]
    ours = _second_order(numtorch, _softplus, values, outer)
    assert np.isnan(ours[1:]).all()  # inf * 0 past the threshold, and a NaN input
    np.testing.assert_array_equal(ours, _second_order(torch, _softplus, values, outer))


def _angle_second_order(lib, dtype):
    z = lib.tensor([0j, 1 + 2j, -3 + 0.5j], dtype=getattr(lib, dtype), requires_grad=True)
    y = (z * 1).angle()
    (g,) = lib.autograd.grad(
        (y * lib.tensor([1.0, 2.0, 3.0], dtype=y.dtype)).sum(), z, create_graph=True
    )
    (g2,) = lib.autograd.grad(lib.view_as_real(g).sum(), z)
    return lib.view_as_real(g2).numpy()


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_angle_second_order_is_nan_at_zero(dtype):
    # torch masks i z / |z|^2 to 0 at z = 0 with a select: its derivative is still 0/0
    ours = _angle_second_order(numtorch, dtype)
    assert np.isnan(ours[0]).all() and np.isfinite(ours[1:]).all()
    np.testing.assert_allclose(ours, _angle_second_order(torch, dtype), rtol=1e-5)


def _leaky_relu_gradients(lib, inplace):
    # the first gradient depends on the weights b, which hold -inf and NaN; leaky_relu's
    # backward reads its input (its output, in place) only for the mask: torch's derivative
    # there is zeros_like, so the -inf does not become NaN through a product with 0
    a = lib.tensor([[1.0, -2.0], [3.0, 0.5]], dtype=lib.float64, requires_grad=True)
    b = lib.tensor([[1.0, -math.inf], [2.0, math.nan]], dtype=lib.float64, requires_grad=True)
    y = (a @ b).reshape(-1) * 1.0
    out = lib.nn.functional.leaky_relu(y, 0.1, inplace=inplace)
    weights = lib.tensor([1.0, 2.0, 3.0, 4.0], dtype=lib.float64)
    firsts = lib.autograd.grad((out * weights).sum(), (a, b), create_graph=True)
    seconds = lib.autograd.grad(sum(g.sum() for g in firsts), (a, b))
    return [g.numpy() for g in seconds]


@pytest.mark.parametrize("inplace", [False, True])
def test_leaky_relu_second_order_through_its_mask_is_zero(inplace):
    ours = _leaky_relu_gradients(numtorch, inplace)
    np.testing.assert_allclose(ours[1], [[3.1, 0.6], [3.1, 0.6]])
    for mine, theirs in zip(ours, _leaky_relu_gradients(torch, inplace)):
        np.testing.assert_array_equal(mine, theirs)


def _vector_norm_gradients(lib, ord, values, grad):
    x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
    g0 = lib.tensor(grad, dtype=lib.float64, requires_grad=True)
    (g,) = lib.autograd.grad(lib.linalg.vector_norm(x, ord), x, g0, create_graph=True)
    outer = lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64)
    return [g.detach().numpy(), *(t.numpy() for t in lib.autograd.grad((g * outer).sum(), (x, g0)))]


@pytest.mark.parametrize("ord", [0.5, -1.0, 1.5, 3.0])
@pytest.mark.parametrize(
    "values, grad",
    [
        ([0.0, 1.0, -2.0], 1.0),  # a zero element: |x|^(p-1) is masked (p < 1) or 0
        ([0.0, 0.0, 0.0], 1.0),  # a zero norm: its scale is masked to 0
        ([math.inf, 1.0, 0.0], 1.0),
        ([-1.0, 3.0, 0.5], math.inf),  # an infinite grad meets the factors in torch's order
    ],
)
def test_vector_norm_gradients_follow_torchs_formula_per_order(ord, values, grad):
    # torch's norm_backward: sgn(x) |x|^(p-1) (masked where x is 0) times grad * norm^(1-p)
    # below 1; above, grad / norm^(p-1) masked where the norm is 0, times sgn(x) |x|^(p-1)
    # below 2 or x |x|^(p-2) above
    ours = _vector_norm_gradients(numtorch, ord, values, grad)
    for a, b in zip(ours, _vector_norm_gradients(torch, ord, values, grad)):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def _grid_sample_clamped_second_order(lib, padding_mode):
    x = lib.tensor(np.arange(12.0).reshape(1, 1, 3, 4) / 7, dtype=lib.float64)
    # point 1's y lies past the border: its location is clamped (slope 0)
    grid = lib.tensor([[[[0.3, -0.2], [0.4, 0.95]]]], dtype=lib.float64, requires_grad=True)
    x.requires_grad_()
    out = lib.nn.functional.grid_sample(x, grid, padding_mode=padding_mode, align_corners=False)
    upstream = lib.tensor([[[[1.0, math.nan]]]], dtype=lib.float64)
    (gg,) = lib.autograd.grad((out * upstream).sum(), grid, create_graph=True)
    return lib.autograd.grad(gg.sum(), (x, grid))[1].numpy()


@pytest.mark.parametrize("padding_mode", ["border", "reflection"])
def test_grid_sample_second_order_multiplies_by_the_clamped_slope(padding_mode):
    # torch's kernels multiply the gradient by d location / d grid, 0 where the location is
    # clamped: a NaN gradient there stays NaN (a clamp's backward would select 0)
    ours = _grid_sample_clamped_second_order(numtorch, padding_mode)
    assert np.isnan(ours[0, 0, 1]).all()
    theirs = _grid_sample_clamped_second_order(torch, padding_mode)
    np.testing.assert_allclose(ours, theirs, atol=1e-12)


def _grid_sample_bilinear_second_order(lib, padding_mode, align_corners, upstream):
    x = lib.tensor([[[[1.0, -2.0, 0.5], [3.0, 5.0, 0.0]]]], dtype=lib.float64, requires_grad=True)
    points = [[0.1, -0.2], [0.9, 0.7], [-1.5, 0.3]]  # the last one outside the input
    grid = lib.tensor([[points]], dtype=lib.float64, requires_grad=True)
    weight = lib.tensor([[[[upstream, 2.0, -3.0]]]], dtype=lib.float64, requires_grad=True)
    out = lib.nn.functional.grid_sample(
        x, grid, padding_mode=padding_mode, align_corners=align_corners
    )
    gx, gg = lib.autograd.grad((out * weight).sum(), (x, grid), create_graph=True)
    outer = (gg * lib.tensor([[1.0, 0.0], [0.5, 2.0], [0.0, 1.0]], dtype=lib.float64)).sum()
    outer = outer + (gx * lib.tensor([[1.0, 0.0, 2.0], [0.0, -1.0, 3.0]], dtype=lib.float64)).sum()
    return [g.numpy() for g in lib.autograd.grad(outer, (x, grid, weight))]


@pytest.mark.parametrize("upstream", [math.inf, -math.inf, math.nan])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_grid_sample_bilinear_second_order_forms_torchs_products(
    padding_mode, align_corners, upstream
):
    # torch's bilinear double backward (Note [Bilinear double backward]): the grid's own
    # derivative is the mixed term times the other axis's incoming gradient (an infinite
    # grad_output gives inf there, not the NaN of per-corner terms of both signs), and the
    # input's scatters grad_output * (g_x dW/dx + g_y dW/dy) per corner
    ours = _grid_sample_bilinear_second_order(numtorch, padding_mode, align_corners, upstream)
    theirs = _grid_sample_bilinear_second_order(torch, padding_mode, align_corners, upstream)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-13)


def _grid_sample_empty_second_order(lib, input_shape, grid_shape):
    x = lib.ones(input_shape, dtype=lib.float64, requires_grad=True)
    points = lib.arange(float(np.prod(grid_shape)), dtype=lib.float64).reshape(grid_shape)
    grid = (points / 10 - 0.3).requires_grad_()
    out = lib.nn.functional.grid_sample(x, grid, align_corners=False)
    gx, gg = lib.autograd.grad((out * 2).sum(), (x, grid), create_graph=True)
    return [tuple(g.shape) for g in lib.autograd.grad(gx.sum() + gg.sum(), (x, grid))]


@pytest.mark.parametrize(
    "input_shape, grid_shape",
    [((1, 0, 2, 3), (1, 2, 2, 2)), ((0, 1, 2, 3), (0, 2, 2, 2)), ((1, 1, 2, 3), (1, 0, 2, 2))],
)
def test_grid_sample_bilinear_second_order_of_empty_operands(input_shape, grid_shape):
    # no channels, no batch or no points: the double backward's corner values are empty
    ours = _grid_sample_empty_second_order(numtorch, input_shape, grid_shape)
    assert ours == _grid_sample_empty_second_order(torch, input_shape, grid_shape)

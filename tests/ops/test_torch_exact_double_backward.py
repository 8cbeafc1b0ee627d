"""Second derivatives at the corners of torch's derivative formulas (a zero, a division by
zero, an infinite quotient), found by the differential fuzzer: numtorch differentiates the
same formula torch does, so the NaN and the zeros land where torch's do. Checked against
torch where it is installed."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

INF = float("inf")


def _sinc_second_order(lib):
    # 1e-200 squared underflows: torch's mask (pi x^2 == 0) covers it too
    x = lib.tensor([0.0, 0.5, -1.5, 1e-200], dtype=lib.float64, requires_grad=True)
    (grad,) = lib.autograd.grad(lib.sinc(x).sum(), x, create_graph=True)
    (second,) = lib.autograd.grad(grad.sum(), x)
    return type(grad.grad_fn).__name__, grad.detach().numpy(), second.numpy()


def test_sinc_second_derivative_is_nan_where_the_first_is_masked():
    name, grad, second = _sinc_second_order(numtorch)
    assert name == "WhereBackward0"
    assert grad[0] == 0 and grad[3] == 0
    assert np.isnan(second[[0, 3]]).all() and np.isfinite(second[1:3]).all()
    torch = pytest.importorskip("torch")
    torch_name, torch_grad, torch_second = _sinc_second_order(torch)
    assert name == torch_name
    np.testing.assert_allclose(grad, torch_grad, rtol=1e-12)
    np.testing.assert_allclose(second, torch_second, rtol=1e-12)


def _modulus_second_order(lib, name, dtype):
    dtype = getattr(lib, dtype)
    a = lib.tensor([INF, 5.0, -7.5, 0.0, 3.0, 1e30, -2.0], dtype=dtype, requires_grad=True)
    b = lib.tensor([2.0, 0.0, 2.0, 0.0, -0.7, 3.0, -INF], dtype=dtype, requires_grad=True)
    grad_a, grad_b = lib.autograd.grad(getattr(lib, name)(a, b).sum(), (a, b), create_graph=True)
    second = lib.autograd.grad(grad_b.sum(), (a, b))
    return grad_b.detach().numpy(), [g.numpy() for g in second]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["fmod", "remainder"])
def test_modulus_gradient_of_other_differentiates_the_rounded_quotient_to_zero(name, dtype):
    # d/d(other) = -grad * div(input, other, rounding_mode=...), whose own derivative is 0
    # even where input / other is infinite or NaN (a true division's is NaN there)
    grad_b, second = _modulus_second_order(numtorch, name, dtype)
    for g in second:
        np.testing.assert_array_equal(g, np.zeros(7))
    torch = pytest.importorskip("torch")
    torch_grad_b, torch_second = _modulus_second_order(torch, name, dtype)
    np.testing.assert_array_equal(grad_b, torch_grad_b)
    for g, torch_g in zip(second, torch_second):
        np.testing.assert_array_equal(g, torch_g)


def _prelu_second_order(lib):
    x = lib.tensor([[0.0, -0.0, -1.0, 2.0]], dtype=lib.float64, requires_grad=True)
    weight = lib.tensor([0.25], dtype=lib.float64, requires_grad=True)
    v = lib.tensor([1.0, 2.0, 3.0, 4.0], dtype=lib.float64, requires_grad=True)
    y = lib.nn.functional.prelu(x, weight)
    grad_x, grad_w = lib.autograd.grad((y * v).sum(), (x, weight), create_graph=True)
    second = lib.autograd.grad((grad_x * grad_x).sum() + grad_w.sum() * 3, (x, weight, v))
    return [g.detach().numpy() for g in (grad_x, grad_w, *second)]


def test_prelu_double_backward_takes_the_linear_side_at_zero():
    # the first derivative at x = +-0 is the weight's side (x > 0), the double backward
    # formulas the linear side (x >= 0), as torch's
    grad_x, grad_w, second_x, second_w, second_v = _prelu_second_order(numtorch)
    np.testing.assert_array_equal(grad_x, [[0.25, 0.5, 0.75, 4.0]])
    np.testing.assert_array_equal(second_x, [[0.0, 0.0, 9.0, 0.0]])
    np.testing.assert_array_equal(second_v, [0.5, 1.0, 0.375 - 3, 8.0])
    torch = pytest.importorskip("torch")
    for ours, theirs in zip(_prelu_second_order(numtorch), _prelu_second_order(torch)):
        np.testing.assert_array_equal(ours, theirs)


def _regression_loss_second_order(lib, name, width):
    nan = float("nan")
    x = lib.tensor([0.2, 3.0, -0.1, nan, 2.0], dtype=lib.float64, requires_grad=True)
    t = lib.tensor([0.0, 0.5, 0.3, 0.0, 2.2], dtype=lib.float64, requires_grad=True)
    loss = getattr(lib.nn.functional, name)(x, t, reduction="sum", **width)
    grad_x, grad_t = lib.autograd.grad(loss * nan, (x, t), create_graph=True)
    return [g.numpy() for g in lib.autograd.grad((grad_x * 3).sum() + grad_t.sum(), (x, t))]


@pytest.mark.parametrize(
    "name, width", [("huber_loss", {"delta": 1.0}), ("smooth_l1_loss", {"beta": 0.5})]
)
def test_regression_loss_double_backward_multiplies_by_its_mask(name, width):
    # torch's formula is grad * (|x - t| < width): a NaN gradient stays NaN outside the
    # quadratic part, where a masked select would give 0
    second_x, second_t = _regression_loss_second_order(numtorch, name, width)
    assert np.isnan(second_x).all() and np.isnan(second_t).all()
    torch = pytest.importorskip("torch")
    torch_x, torch_t = _regression_loss_second_order(torch, name, width)
    np.testing.assert_array_equal(second_x, torch_x)
    np.testing.assert_array_equal(second_t, torch_t)

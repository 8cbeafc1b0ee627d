"""Derivative formulas run on arrays when nothing records (Note [Formulas on arrays])."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch as torch
from numtorch._core import array_backward
from numtorch._core.array_backward import _passes_grad_on, array_steps
from numtorch._core.array_formulas import CALLS_ONE_OP, on_arrays
from numtorch._core.op import REGISTRY

cos = torch.cos  # formulas below look their ops up among this module's globals


def test_plain_arithmetic_and_op_calls_are_bound_to_arrays():
    bound = on_arrays(lambda grad, input: -0.5 * grad * cos(input) ** 3)
    assert bound is not None
    a = np.array([0.1, 0.2])
    assert np.array_equal(bound(np.ones(2), a), -0.5 * np.cos(a) ** 3)


@pytest.mark.parametrize(
    "formula",
    [
        lambda grad, input: grad * input.cos(),  # a Tensor method
        lambda grad, input: grad * input[0],  # indexing follows torch's rules
        lambda grad, input: grad * abs(input),  # a builtin
        lambda grad, input: grad * np.cos(input),  # not a numtorch op
        lambda grad, input: grad * torch.sum(input),  # attribute access
    ],
)
def test_other_formulas_keep_the_tensor_path(formula):
    assert on_arrays(formula) is None


def test_a_closure_keeps_the_tensor_path():
    scale = 2.0

    def formula(grad, input):
        return grad * input * scale

    assert on_arrays(formula) is None


def test_common_pointwise_formulas_run_on_arrays():
    for name in ("sin", "cos", "asin", "acos", "exp", "mul"):
        spec = REGISTRY[name]
        assert all(on_arrays(f) is not None for _, f, _ in spec.formulas), name


@pytest.mark.parametrize("op", ["sin", "cos", "asin", "acos", "tan", "exp", "rsqrt"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_array_and_tensor_paths_agree(op, dtype):
    x = torch.tensor([0.1, 0.4, 0.7], dtype=dtype, requires_grad=True)
    (on_arrays_grad,) = torch.autograd.grad(getattr(x, op)().sum(), x)
    (tensor_grad,) = torch.autograd.grad(getattr(x, op)().sum(), x, create_graph=True)
    assert on_arrays_grad.dtype == tensor_grad.dtype == dtype
    assert np.array_equal(on_arrays_grad.numpy(), tensor_grad.detach().numpy())


def test_zero_dim_results_stay_tensors_of_their_dtype():
    x = torch.tensor(0.3, requires_grad=True)
    x.asin().backward()
    assert x.grad.dtype == torch.float32 and x.grad.shape == ()
    assert np.isclose(x.grad.item(), 1 / np.sqrt(1 - 0.09))


def test_integer_operand_falls_back_to_torch_promotion():
    x = torch.tensor([1.5, 2.5], requires_grad=True)
    n = torch.tensor([3, 4])
    (x * n).sum().backward()
    assert x.grad.dtype == torch.float32
    assert x.grad.tolist() == [3.0, 4.0]


def test_saved_input_changed_in_place_still_raises():
    x = torch.tensor([0.1, 0.2], requires_grad=True)
    y = x * 1
    z = y.sin()
    y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()


# Note [Gradients as arrays]: backward without create_graph keeps gradients as arrays and
# runs the formulas' array forms; with create_graph every formula runs on tensors.
def _grads(build, create_graph):
    inputs, loss = build()
    loss.backward(create_graph=create_graph)
    return [t.grad.detach().numpy() for t in inputs]


def _linear_relu():
    x = torch.linspace(-1, 1, 12).reshape(3, 4).requires_grad_()
    w = torch.linspace(-0.5, 0.5, 20).reshape(5, 4).requires_grad_()
    b = torch.linspace(0, 1, 5).requires_grad_()
    return [x, w, b], torch.nn.functional.linear(x, w, b).relu().sum()


def _broadcast_mul_tanh():
    x = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(3, 4).requires_grad_()
    w = torch.linspace(0.5, 1.5, 4, dtype=torch.float64).requires_grad_()
    return [x, w], ((x * w).tanh() + (x * w).sigmoid()).sum()


def _cross_entropy():
    logits = torch.linspace(-2, 2, 15).reshape(3, 5).requires_grad_()
    return [logits], torch.nn.functional.cross_entropy(logits, torch.tensor([0, 3, 4]))


def _mse_of_chain():
    x = torch.linspace(0.1, 0.9, 6).requires_grad_()
    y = x.sin().asin() * 2 - x.exp()
    return [x], torch.nn.functional.mse_loss(y, torch.zeros(6))


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph")
@pytest.mark.parametrize(
    "build", [_linear_relu, _broadcast_mul_tanh, _cross_entropy, _mse_of_chain]
)
def test_backward_on_arrays_matches_backward_on_tensors(build):
    for on_arrays_grad, on_tensors_grad in zip(_grads(build, False), _grads(build, True)):
        assert on_arrays_grad.dtype == on_tensors_grad.dtype
        np.testing.assert_allclose(on_arrays_grad, on_tensors_grad, rtol=1e-6, atol=1e-7)


def test_gradients_of_later_outputs_of_a_node_reach_it():
    # split's node has three outputs: buffers keep outputs 1 and 2 under (node, nr)
    x = torch.arange(6.0, requires_grad=True)
    a, b, c = x.split(2)
    (a * 1 + b * 2 + c.sin()).sum().backward()
    expected = np.concatenate([[1.0, 1.0], [2.0, 2.0], np.cos([4.0, 5.0])]).astype(np.float32)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-6)


def test_hooks_see_tensors_and_replace_gradients_on_the_array_path():
    x = torch.tensor([0.1, 0.2], requires_grad=True)
    y = x.sin()
    seen = []
    y.register_hook(lambda g: seen.append(type(g)) or g * 10)
    y.retain_grad()
    y.cos().sum().backward()
    assert seen == [torch.Tensor]
    # retain_grad sees the hooked gradient (Note [Hooks ordering])
    np.testing.assert_allclose(y.grad.numpy(), 10 * -np.sin(np.sin([0.1, 0.2])), rtol=1e-6)
    np.testing.assert_allclose(
        x.grad.numpy(), 10 * -np.sin(np.sin([0.1, 0.2])) * np.cos([0.1, 0.2]), rtol=1e-6
    )


def test_bfloat16_broadcast_gradient_is_summed_in_float32():
    # a bias gradient reduced over the batch: bfloat16 sums run in float32, rounded once
    b = torch.zeros(4, dtype=torch.bfloat16, requires_grad=True)
    scale = torch.linspace(1.0, 1.1, 256).reshape(64, 4).to(torch.bfloat16)
    ((torch.ones(64, 4, dtype=torch.bfloat16) + b) * scale).sum().backward()
    expected = scale.float().sum(0).to(torch.bfloat16)
    assert b.grad.dtype == torch.bfloat16
    assert torch.equal(b.grad, expected)


def test_a_formula_passing_the_gradient_on_is_not_called():
    assert _passes_grad_on(REGISTRY["add"].compiled[0][0])
    assert not _passes_grad_on(lambda grad: -grad)
    assert not _passes_grad_on(lambda grad, alpha: grad)
    # the gradient itself flows to both inputs of add, and a sum of such branches is right
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = x + x
    (y + y.exp()).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 + 2 * np.exp([2.0, 4.0]))


def test_a_closure_naming_an_op_is_rebound_to_its_array_form():
    op = torch.cos

    def formula(grad, input):
        return grad * op(input)

    bound = on_arrays(formula)
    a = np.array([0.1, 0.2])
    assert bound is not None and np.array_equal(bound(np.ones(2), a), np.cos(a))


@pytest.mark.parametrize("name", ["t", "select", "addmm", "nll_loss", "unsqueeze", "transpose"])
def test_formulas_taking_shapes_strides_strings_and_targets_run_on_arrays(name):
    # shapes, dims, strides and reduction names reach the array form as they are
    steps = array_steps(REGISTRY[name])
    assert steps and all(step[3] is not None for step in steps), name


def test_only_a_formula_that_calls_one_op_takes_integer_arrays():
    # its arguments meet no NumPy arithmetic: they reach the op's forward as dispatch
    # hands them over; arithmetic on an integer array keeps torch's promotion (tensors)
    (nll,) = array_steps(REGISTRY["nll_loss"])
    assert getattr(nll[3], CALLS_ONE_OP, False) and "i" in nll[5]
    mul = array_steps(REGISTRY["mul"])
    assert all(step[5] == "f" for step in mul)


def _products_and_selects():
    x = torch.linspace(-1, 1, 12).reshape(3, 4).requires_grad_()
    w = torch.linspace(-0.5, 0.5, 20).reshape(5, 4).requires_grad_()
    b = torch.linspace(0, 1, 5).requires_grad_()
    return [x, w, b], torch.addmm(b, x, w.t()).t().select(1, 2).unsqueeze(0).transpose(0, 1)


def _nll_with_weight_and_ignored_target():
    logp = torch.linspace(-2, -0.1, 15).reshape(3, 5).requires_grad_()
    weight = torch.linspace(0.5, 1.5, 5)
    target = torch.tensor([0, 3, 4])
    return [logp], torch.nn.functional.nll_loss(logp, target, weight, ignore_index=3)


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph")
@pytest.mark.parametrize("build", [_products_and_selects, _nll_with_weight_and_ignored_target])
def test_formulas_with_plain_arguments_match_the_tensor_path(build, monkeypatch):
    on_tensors = []
    original = array_backward.tensor_of
    monkeypatch.setattr(array_backward, "tensor_of", lambda g: on_tensors.append(g) or original(g))

    def grads(create_graph):
        inputs, out = build()
        out.backward(torch.linspace(1, 2, out.numel()).reshape(out.shape), create_graph)
        return [t.grad.detach().numpy() for t in inputs]

    on_arrays_grads = grads(False)
    assert on_tensors == []  # every node ran its formulas' array forms
    for on_arrays_grad, on_tensors_grad in zip(on_arrays_grads, grads(True)):
        assert on_arrays_grad.dtype == on_tensors_grad.dtype
        np.testing.assert_array_equal(on_arrays_grad, on_tensors_grad)

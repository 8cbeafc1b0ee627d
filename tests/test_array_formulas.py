"""Derivative formulas run on arrays when nothing records (Note [Formulas on arrays])."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch as torch
from numtorch._core.array_formulas import on_arrays
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

"""Regression tests for core behaviour the nn ops rely on."""

import numtorch as torch
from numtorch._core.op import REGISTRY, defop


@defop(
    name="_test_weighted_difference",
    input=lambda grad, weight: grad * weight,
    other=lambda grad, weight: -grad * weight,
)
def _weighted_difference(input, other, weight):
    return (input - other) * weight


del REGISTRY["_test_weighted_difference"]  # a test op: keep it out of the op table checks


def test_binary_op_with_a_tensor_argument_after_its_operands():
    # The fast two-operand runner used to pass trailing Tensor arguments to the array-level
    # forward unconverted (ops like binary_cross_entropy(input, target, weight)).
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    out = _weighted_difference(x, torch.tensor([0.5, 0.5]), torch.tensor([2.0, 3.0]))
    assert out.tolist() == [1.0, 4.5]
    out.sum().backward()
    assert x.grad.tolist() == [2.0, 3.0]


def test_weight_gradient_through_a_transposed_view_is_contiguous():
    # torch's mm_mat2_backward layout rule: x @ w.t() gives w a C-contiguous gradient, so
    # it reaches .grad without a transposing copy
    w = torch.randn(5, 4, requires_grad=True)
    x = torch.randn(3, 4)
    torch.addmm(torch.zeros(5), x, w.t()).sum().backward()
    assert w.grad._data.flags.c_contiguous
    expected = torch.ones(3, 5).t().mm(x)
    assert torch.allclose(w.grad, expected)
    w.grad = None
    x.mm(w.t()).sum().backward()
    assert w.grad._data.flags.c_contiguous and torch.allclose(w.grad, expected)


def test_relu_backward_with_non_finite_gradients_matches_torch():
    x = torch.tensor([-1.0, 0.0, 2.0, 3.0], requires_grad=True)
    x.relu().backward(torch.tensor([float("nan"), float("inf"), 1.0, float("inf")]))
    assert x.grad.tolist() == [0.0, 0.0, 1.0, float("inf")]

"""Regression tests for core behaviour the nn ops rely on."""

import numtorch as torch
from numtorch.ops.registry import defop


@defop(
    name="_test_weighted_difference",
    input=lambda grad, weight: grad * weight,
    other=lambda grad, weight: -grad * weight,
)
def _weighted_difference(input, other, weight):
    return (input - other) * weight


def test_binary_op_with_a_tensor_argument_after_its_operands():
    # The fast two-operand runner used to pass trailing Tensor arguments to the array-level
    # forward unconverted (ops like binary_cross_entropy(input, target, weight)).
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    out = _weighted_difference(x, torch.tensor([0.5, 0.5]), torch.tensor([2.0, 3.0]))
    assert out.tolist() == [1.0, 4.5]
    out.sum().backward()
    assert x.grad.tolist() == [2.0, 3.0]

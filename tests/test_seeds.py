"""The seed examples of the core issue, run unchanged but for `import numtorch as torch`,
with the values torch prints."""

from __future__ import annotations

import pytest

import numtorch as torch
from numtorch.autograd import Function


class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


class GradCoeff(Function):
    @staticmethod
    def forward(ctx, x, coeff):
        ctx.coeff = coeff
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return ctx.coeff * grad_output, None


def autograd(grad_fn, gradient):
    """The toy traversal of the seed: walks next_functions, calling nodes by hand."""
    queue = [[grad_fn, gradient]]
    while queue != []:
        item = queue.pop()
        gradients = item[0](item[1])
        functions = [x[0] for x in item[0].next_functions]
        if type(gradients) is not tuple:
            gradients = (gradients,)
        for grad, func in zip(gradients, functions):
            if type(func).__name__ == "AccumulateGrad":
                if hasattr(func.variable, "auto_grad"):
                    func.variable.auto_grad = func.variable.auto_grad + grad
                else:
                    func.variable.auto_grad = grad
            else:
                queue.append([func, grad])


def test_exp_function():
    x = torch.tensor([1.0], requires_grad=True)
    ret = Exp.apply(x)
    assert repr(ret) == "tensor([2.7183], grad_fn=<ExpBackward>)"
    ret.backward()
    assert repr(x.grad) == "tensor([2.7183])"


def test_grad_coeff():
    x = torch.tensor([2.0], requires_grad=True)
    ret = GradCoeff.apply(x, -0.1)
    ret = ret**2
    assert repr(ret) == "tensor([4.], grad_fn=<PowBackward0>)"
    ret.backward()
    assert repr(x.grad) == "tensor([-0.4000])"


def test_graph_of_exp_of_product():
    A = torch.tensor(2.0, requires_grad=True)
    B = torch.tensor(0.5, requires_grad=True)
    E = torch.tensor(1.0, requires_grad=True)
    C = A * B
    D = C.exp()
    F = D + E
    assert repr(F) == "tensor(3.7183, grad_fn=<AddBackward0>)"
    assert [x.is_leaf for x in [A, B, C, D, E, F]] == [True, True, False, False, True, False]
    names = [type(x.grad_fn).__name__ if x.grad_fn else None for x in [F, D, C, A]]
    assert names == ["AddBackward0", "ExpBackward0", "MulBackward0", None]
    (d_node, d_nr), (e_node, e_nr) = F.grad_fn.next_functions
    assert d_node is D.grad_fn and d_nr == 0
    assert type(e_node).__name__ == "AccumulateGrad" and e_node.variable is E and e_nr == 0
    F.backward(retain_graph=True)
    assert (repr(A.grad), repr(B.grad), repr(E.grad)) == (
        "tensor(1.3591)",
        "tensor(5.4366)",
        "tensor(1.)",
    )
    with pytest.warns(UserWarning, match="not a leaf Tensor"):
        assert C.grad is None and D.grad is None


def test_manual_walk_by_calling_nodes():
    A = torch.tensor([3.0], requires_grad=True)
    B = torch.tensor([2.0], requires_grad=True)
    C = A**2
    D = B**2
    E = C * D
    F = D + E
    F.manual_grad = torch.tensor(1)
    D.manual_grad, E.manual_grad = F.grad_fn(F.manual_grad)
    C.manual_grad, tmp2 = E.grad_fn(E.manual_grad)
    D.manual_grad = D.manual_grad + tmp2
    A.manual_grad = C.grad_fn(C.manual_grad)
    B.manual_grad = D.grad_fn(D.manual_grad)
    assert repr(B.manual_grad) == "tensor([40.], grad_fn=<MulBackward0>)"
    assert repr(A.manual_grad) == "tensor([24.], grad_fn=<MulBackward0>)"


def test_toy_autograd_traversal():
    A = torch.tensor([3.0], requires_grad=True)
    B = torch.tensor([2.0], requires_grad=True)
    C = A**2
    D = B**2
    E = C * D
    F = D + E
    autograd(F.grad_fn, torch.tensor(1))
    assert repr(A.auto_grad) == "tensor([24.], grad_fn=<MulBackward0>)"
    assert repr(B.auto_grad) == "tensor([40.], grad_fn=<AddBackward0>)"


def f(x):
    result = 1
    for ii in x:
        if ii.item() > 0:
            result = ii * result
    return result


@pytest.mark.parametrize(
    "values, expected",
    [
        ([0.3071, 1.1043, 1.3605, -0.3471], "tensor([1.5024, 0.4178, 0.3391, 0.0000])"),
        ([1.1159, -1.1160, 0.2319, 0.9435], "tensor([0.2188, 0.0000, 1.0529, 0.2588])"),
    ],
)
def test_dynamic_control_flow(values, expected):
    x = torch.tensor(values, requires_grad=True)
    y = f(x)
    y.backward()
    assert repr(x.grad) == expected


def test_autograd_grad_of_intermediate_and_leaf():
    A = torch.tensor(2.0, requires_grad=True)
    B = torch.tensor(0.5, requires_grad=True)
    C = A * B
    D = C.exp()
    grads = torch.autograd.grad(D, (C, A))
    assert isinstance(grads, tuple)
    assert repr(grads) == "(tensor(2.7183), tensor(1.3591))"


def test_hook_on_intermediate_and_remove():
    seen = []

    def variable_hook(grad):
        seen.append(grad)

    A = torch.tensor(2.0, requires_grad=True)
    B = torch.tensor(0.5, requires_grad=True)
    C = A * B
    hook_handle = C.register_hook(variable_hook)
    D = C.exp()
    D.backward(retain_graph=True)
    assert [repr(g) for g in seen] == ["tensor(2.7183)"]
    hook_handle.remove()
    hook_handle.remove()  # idempotent
    D.backward()
    assert len(seen) == 1

"""gradcheck / gradgradcheck, including the seed's hand-written Sigmoid."""

from __future__ import annotations

import pytest

import numtorch as torch
from numtorch.autograd import Function


class Sigmoid(Function):
    @staticmethod
    def forward(ctx, x):
        output = 1 / (1 + torch.exp(-x))
        ctx.save_for_backward(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        (output,) = ctx.saved_tensors
        return output * (1 - output) * grad_output


SEED_INPUT = [-0.4646, -0.4403, 1.2525, -0.5953]


@pytest.mark.parametrize("fn", [Sigmoid.apply, torch.sigmoid])
def test_seed_float32_passes_at_eps_1e3_and_fails_at_1e4(fn):
    x = torch.tensor(SEED_INPUT, requires_grad=True)
    with pytest.warns(UserWarning, match="not a double precision"):
        assert torch.autograd.gradcheck(fn, (x,), eps=1e-3)
    with pytest.warns(UserWarning), pytest.raises(torch.autograd.GradcheckError):
        torch.autograd.gradcheck(fn, (x,), eps=1e-4)


@pytest.mark.parametrize("fn", [Sigmoid.apply, torch.sigmoid])
@pytest.mark.parametrize("eps", [1e-3, 1e-4, 1e-6])
def test_seed_float64_passes(fn, eps):
    x = torch.tensor(SEED_INPUT, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(fn, (x,), eps=eps)


class WrongGrad(Function):
    @staticmethod
    def forward(ctx, x):
        return x * x

    @staticmethod
    def backward(ctx, grad):
        return grad  # should be 2 * x * grad


def test_failure_names_output_and_input_and_shows_both_jacobians():
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([3.0], dtype=torch.float64, requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        torch.autograd.gradcheck(lambda a, b: (b * 1, WrongGrad.apply(a)), (x, y))
    message = str(info.value)
    assert "Jacobian mismatch for output 1 with respect to input 0" in message
    assert "numerical:" in message and "analytical:" in message
    assert torch.autograd.gradcheck(WrongGrad.apply, (x,), raise_exception=False) is False


def test_gradcheck_requires_an_input_that_requires_grad():
    with pytest.raises(ValueError, match="at least one input tensor to require gradient"):
        torch.autograd.gradcheck(torch.sin, (torch.ones(2, dtype=torch.float64),))


def test_gradgradcheck_catches_a_wrong_second_derivative():
    class BadSecond(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x.detach() ** 2  # detached: second derivative is lost

    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(BadSecond.apply, (x,))
    assert torch.autograd.gradgradcheck(BadSecond.apply, (x,), raise_exception=False) is False


def test_forward_ad_check_runs_forward_once_per_jvp():
    # the forward-mode AD tutorial's Function hands its result to jvp on ctx and deletes it
    class Exp(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.result = torch.exp(x)
            return ctx.result

        @staticmethod
        def jvp(ctx, x_t):
            tangent = x_t * ctx.result
            del ctx.result
            return tangent

    x = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
    kwargs = dict(check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False)
    assert torch.autograd.gradcheck(Exp.apply, (x,), **kwargs)
    y = torch.randn(2, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a, b: (a * b).sum(0), (x, y), check_forward_ad=True)

    class WrongExp(Exp):
        @staticmethod
        def jvp(ctx, x_t):
            return 2 * Exp.jvp(ctx, x_t)

    assert not torch.autograd.gradcheck(WrongExp.apply, (x,), raise_exception=False, **kwargs)

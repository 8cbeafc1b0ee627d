"""torch's deprecated overloads with the scalar factor first (``p.add_(-lr, grad)``,
``addcmul_(1 - beta2, g, g)``, ``addmm(beta, M, alpha, a, b)``) run as torch runs them, with
one warning per program."""

import warnings

import pytest

import numtorch
from numtorch._core.warn_once import given

torch = pytest.importorskip("torch")

CALLS = [
    "torch.add(x, 2, y)",
    "x.add(2, y)",
    "x.clone().add_(-0.5, y)",
    "x.clone().add_(torch.tensor(2.0), y)",
    "torch.sub(x, 2, y)",
    "x.clone().sub_(3, y)",
    "torch.addcmul(x, 2, y, y)",
    "x.clone().addcmul_(0.25, y, y)",
    "x.clone().addcdiv_(2, y, y)",
    "torch.addcdiv(x, 0.5, y, y)",
    "torch.addmm(2, x, 3, y, y)",
    "torch.addmm(2, x, y, y)",
    "x.clone().addmm_(2, 3, y, y)",
    "x.addmm(2, y, y)",
    "torch.addmv(2, v, 3, y, v)",
    "torch.addr(2, x, 3, v, v)",
    "torch.baddbmm(2, x[None], 3, y[None], y[None])",
    "torch.addbmm(2, x, 3, y[None], y[None])",
    "torch.add(x.long(), 2.5, y.long())",
    "torch.add(x, 2, y, y)",
    "torch.add(w, 2, w).grad_fn.name()",
    "torch.addcmul(w, 2, w, w).grad_fn.name()",
]


def _run(lib, call):
    scope = {
        "torch": lib,
        "x": lib.ones(2, 2),
        "y": lib.full((2, 2), 3.0),
        "v": lib.arange(2.0),
        "w": lib.ones(2, requires_grad=True),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = eval(call, scope)
        except Exception as e:  # the type is what is compared
            return type(e).__name__
    return result.tolist() if isinstance(result, lib.Tensor) else result


@pytest.mark.parametrize("call", CALLS)
def test_deprecated_overload_matches_torch(call):
    assert _run(numtorch, call) == _run(torch, call)


def test_gradient_flows_through_the_deprecated_form():
    w = numtorch.ones(2, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        numtorch.addcmul(w, 2, w, w).sum().backward()
    assert w.grad.tolist() == [5.0, 5.0]  # d/dw (w + 2 w^2) = 1 + 4 w


def test_one_warning_per_program_for_all_deprecated_overloads():
    given.clear()
    x = numtorch.ones(2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x.clone().add_(2, x)
        x.clone().addcmul_(2, x, x)
        numtorch.add(x, x, alpha=2)  # the current form never warns
    assert len(caught) == 1
    message = str(caught[0].message)
    assert message.startswith("This overload of add_ is deprecated:\n\tadd_(Number alpha")
    assert caught[0].filename == __file__

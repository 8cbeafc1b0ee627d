"""Argument checks shared by the optimizers, with torch's messages."""

from __future__ import annotations

from .._core.tensor import Tensor


def check_lr(lr) -> None:
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    # compared as given: a string is refused by the comparison's TypeError, as in torch
    if not (scalar(lr) if isinstance(lr, Tensor) else lr) >= 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")


def check_eps(eps) -> None:
    if not eps >= 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")


def check_nonnegative(name: str, value) -> None:
    """torch's ``Invalid weight_decay value: -1`` for an option that must be >= 0."""
    if not value >= 0.0:
        raise ValueError(f"Invalid {name} value: {value}")


def check_adam_args(lr, eps, betas, weight_decay) -> None:
    """The checks of the Adam family, in torch's order."""
    check_lr(lr)
    check_eps(eps)
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
    check_nonnegative("weight_decay", weight_decay)


def check_compat_flags(*, differentiable=False, fused=None, foreach=None, capturable=False):
    """Accept torch's implementation flags; ``differentiable`` and ``capturable`` are refused
    when a step runs (``check_step_flags``), as torch refuses them."""
    if fused and foreach:
        raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def check_step_flags(optimizer) -> None:
    """torch's failures at ``step`` for flags numtorch cannot honour on the CPU."""
    for group in optimizer.param_groups:
        if group.get("capturable"):
            raise AssertionError(
                "If capturable=True, params and state_steps must be on supported devices: "
                "['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']."
            )
        if group.get("differentiable"):
            # torch's update then runs in-place on the parameters with grad mode on
            if any(p.grad is not None and p.is_leaf and p.requires_grad for p in group["params"]):
                raise RuntimeError(
                    "a leaf Variable that requires grad is being used in an in-place operation."
                )
            raise NotImplementedError(
                "numtorch optimizers do not support differentiable=True: updates are applied "
                "to the parameters' arrays outside autograd"
            )


def scalar(value) -> float:
    """A hyperparameter as a Python float (a 1-element tensor lr is allowed, as in torch)."""
    if isinstance(value, Tensor):
        return float(value._data.reshape(-1)[0])
    return float(value)

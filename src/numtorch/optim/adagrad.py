"""Adagrad: per-element learning rates from the running sum of squared gradients."""

from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor
from ._checks import check_compat_flags, check_eps, check_lr, check_nonnegative, scalar
from ._kernels import add_ratio_, effective_grad
from .optimizer import Optimizer, fill_state, update_elementwise


def adagrad_kernel(param, grad, state_sum, *, weight_decay, eps, maximize, clr):
    """One Adagrad update of ``param`` and ``state_sum`` in place."""
    grad = effective_grad(param, grad, weight_decay=weight_decay, maximize=maximize)
    std = np.multiply(grad, grad)
    state_sum += std
    np.sqrt(state_sum, out=std)
    std += eps
    add_ratio_(param, grad, std, -clr, std)


class Adagrad(Optimizer):
    """Adagrad, torch's formulation.

    ``s += g * g`` (``s`` starts at ``initial_accumulator_value``), then
    ``p -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(s) + eps)`` at step ``t``. As in torch,
    the state of every parameter given to the constructor exists from the start.

    Example:
        >>> import numtorch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Adagrad([w], lr=0.5)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        tensor([ 0.5000, -1.5000], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr: float | Tensor = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        check_lr(lr)
        check_nonnegative("lr_decay", lr_decay)
        check_nonnegative("weight_decay", weight_decay)
        check_nonnegative("initial_accumulator_value", initial_accumulator_value)
        check_eps(eps)
        check_compat_flags(differentiable=differentiable, fused=fused, foreach=foreach)
        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(self.state[p], p, initial_accumulator_value)

    @staticmethod
    def _init_state(state, p, initial_accumulator_value) -> None:
        fill_state(state, p)
        state["sum"] = Tensor._make(np.full_like(p._data, initial_accumulator_value))

    _sparse_gradients = "dense"

    def _update_group(self, group) -> None:
        lr, lr_decay = scalar(group["lr"]), group["lr_decay"]
        options = {
            "weight_decay": group["weight_decay"],
            "eps": group["eps"],
            "maximize": group["maximize"],
        }
        # Parameters added later start from the constructor's accumulator value, as in torch.
        initial = self.defaults["initial_accumulator_value"]
        update_elementwise(
            self,
            group,
            adagrad_kernel,
            options,
            ("sum",),
            lambda state, p: self._init_state(state, p, initial),
            lambda state, step: {"clr": lr / (1 + (step - 1) * lr_decay)},
        )

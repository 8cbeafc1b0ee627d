"""Averaged stochastic gradient descent: SGD with a decaying rate and a running average."""

from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor
from ._checks import check_compat_flags, check_lr, check_nonnegative, scalar
from ._kernels import effective_grad
from .optimizer import Optimizer, fill_state, update_elementwise


def asgd_kernel(param, grad, ax, *, weight_decay, maximize, decay, eta, mu):
    """One ASGD update of ``param`` and the average ``ax`` in place."""
    grad = effective_grad(param, grad, weight_decay=weight_decay, maximize=maximize)
    param *= decay
    param -= eta * grad
    if mu != 1:
        scratch = np.subtract(param, ax)
        scratch *= mu
        ax += scratch
    else:
        np.copyto(ax, param)


class ASGD(Optimizer):
    """Averaged SGD, torch's formulation.

    With the state ``eta`` (starting at ``lr``) and ``mu`` (starting at 1):
    ``p = p * (1 - lambd * eta) - eta * g``, then the average ``ax += mu * (p - ax)``;
    after step ``t``, ``eta = lr / (1 + lambd * lr * t)**alpha`` and
    ``mu = 1 / max(1, t - t0)``.

    Example:
        >>> import numtorch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.ASGD([w], lr=0.1, lambd=0.0)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        tensor([ 0.8000, -1.6000], requires_grad=True)
        >>> list(opt.state[w])
        ['step', 'eta', 'mu', 'ax']
    """

    def __init__(
        self,
        params,
        lr: float | Tensor = 1e-2,
        lambd: float = 1e-4,
        alpha: float = 0.75,
        t0: float = 1e6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        check_lr(lr)
        check_nonnegative("weight_decay", weight_decay)
        check_compat_flags(differentiable=differentiable, foreach=foreach, capturable=capturable)
        defaults = {
            "lr": lr,
            "lambd": lambd,
            "alpha": alpha,
            "t0": t0,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    def _update_group(self, group) -> None:
        lr = scalar(group["lr"])
        lambd, alpha, t0 = group["lambd"], group["alpha"], group["t0"]
        options = {"weight_decay": group["weight_decay"], "maximize": group["maximize"]}

        def rates(state, step):
            # This step uses eta and mu as stored (in their float32 precision); the next
            # step's values are set now.
            eta, mu = state["eta"], state["mu"]
            eta_value, mu_value = eta._data.item(), mu._data.item()
            eta._data[...] = lr / ((1 + lambd * lr * step) ** alpha)
            mu._data[...] = 1 / max(1, step - t0)
            eta._bump_version()
            mu._bump_version()
            return {"decay": 1 - lambd * eta_value, "eta": eta_value, "mu": mu_value}

        update_elementwise(
            self,
            group,
            asgd_kernel,
            options,
            ("ax",),
            lambda state, p: fill_state(state, p, ("ax",), eta=lr, mu=1.0),
            rates,
        )

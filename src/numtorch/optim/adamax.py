"""Adamax: Adam with the infinity norm in place of the second moment."""

from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor
from ._checks import check_adam_args, check_compat_flags
from ._kernels import add_ratio_, effective_grad, lerp_
from .adam import adam_options
from .optimizer import Optimizer, fill_state, update_elementwise


def adamax_kernel(
    param, grad, exp_avg, exp_inf, *, lr, beta1, beta2, eps, weight_decay, decoupled, maximize, clr
):
    """One Adamax update of ``param``, ``exp_avg`` and ``exp_inf`` in place."""
    grad = effective_grad(param, grad, weight_decay=weight_decay, maximize=maximize)
    scratch = np.empty_like(param)
    lerp_(exp_avg, grad, 1 - beta1, scratch)
    exp_inf *= beta2
    np.abs(grad, out=scratch)
    scratch += eps
    np.maximum(exp_inf, scratch, out=exp_inf)
    add_ratio_(param, exp_avg, exp_inf, -clr, scratch)


class Adamax(Optimizer):
    """Adamax, torch's formulation.

    ``m = lerp(m, g, 1 - beta1)``, ``u = max(beta2 * u, |g| + eps)`` and
    ``p -= lr / (1 - beta1**t) * m / u``.

    Example:
        >>> import numtorch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Adamax([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        tensor([ 0.9000, -1.9000], requires_grad=True)
        >>> sorted(opt.state[w])
        ['exp_avg', 'exp_inf', 'step']
    """

    def __init__(
        self,
        params,
        lr: float | Tensor = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        check_adam_args(lr, eps, betas, weight_decay)
        check_compat_flags(differentiable=differentiable, foreach=foreach, capturable=capturable)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    def _update_group(self, group) -> None:
        options = adam_options(group)
        lr, beta1 = options["lr"], options["beta1"]
        keys = ("exp_avg", "exp_inf")
        update_elementwise(
            self,
            group,
            adamax_kernel,
            options,
            keys,
            lambda state, p: fill_state(state, p, keys),
            lambda state, step: {"clr": lr / (1 - beta1**step)},
        )

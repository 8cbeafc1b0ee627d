"""Adadelta: steps scaled by running averages of squared gradients and squared updates."""

from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor
from ._checks import check_compat_flags, check_eps, check_lr, check_nonnegative, scalar
from ._kernels import effective_grad, square_average_
from .optimizer import Optimizer, fill_state, update_elementwise


def adadelta_kernel(param, grad, square_avg, acc_delta, *, lr, rho, eps, weight_decay, maximize):
    """One Adadelta update of ``param`` and both running averages in place."""
    grad = effective_grad(param, grad, weight_decay=weight_decay, maximize=maximize)
    scratch = np.empty_like(param)
    square_average_(square_avg, grad, rho, scratch)
    std = np.add(square_avg, eps, out=scratch)
    np.sqrt(std, out=std)
    delta = np.add(acc_delta, eps)
    np.sqrt(delta, out=delta)
    delta /= std
    delta *= grad
    square_average_(acc_delta, delta, rho, scratch)
    delta *= lr
    param -= delta


class Adadelta(Optimizer):
    """Adadelta, torch's formulation.

    ``v = rho * v + (1 - rho) * g * g``, ``delta = sqrt(u + eps) / sqrt(v + eps) * g``,
    ``u = rho * u + (1 - rho) * delta * delta`` and ``p -= lr * delta``.

    Example:
        >>> import numtorch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Adadelta([w])
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        tensor([ 0.9968, -1.9968], requires_grad=True)
        >>> list(opt.state[w])
        ['step', 'square_avg', 'acc_delta']
    """

    def __init__(
        self,
        params,
        lr: float | Tensor = 1.0,
        rho: float = 0.9,
        eps: float = 1e-6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        capturable: bool = False,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        check_eps(eps)
        check_nonnegative("weight_decay", weight_decay)
        check_compat_flags(differentiable=differentiable, foreach=foreach, capturable=capturable)
        defaults = {
            "lr": lr,
            "rho": rho,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "capturable": capturable,
            "foreach": foreach,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _update_group(self, group) -> None:
        options = {
            "lr": scalar(group["lr"]),
            "rho": group["rho"],
            "eps": group["eps"],
            "weight_decay": group["weight_decay"],
            "maximize": group["maximize"],
        }

        keys = ("square_avg", "acc_delta")
        update_elementwise(
            self, group, adadelta_kernel, options, keys, lambda state, p: fill_state(state, p, keys)
        )

"""RMSprop with momentum and the centered variant."""

from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor
from ._checks import check_compat_flags, check_eps, check_lr, scalar
from ._kernels import effective_grad, lerp_, square_average_
from .optimizer import Optimizer, fill_state, update_elementwise


def rmsprop_kernel(
    param, grad, square_avg, *buffers, lr, alpha, eps, weight_decay, momentum, centered, maximize
):
    """One RMSprop update in place; ``buffers`` are ``grad_avg`` (if centered), then the
    momentum buffer (if momentum > 0)."""
    grad = effective_grad(param, grad, weight_decay=weight_decay, maximize=maximize)
    scratch = np.empty_like(param)
    square_average_(square_avg, grad, alpha, scratch)
    if centered:
        grad_avg = buffers[0]
        lerp_(grad_avg, grad, 1 - alpha, scratch)
        np.multiply(grad_avg, grad_avg, out=scratch)
        np.subtract(square_avg, scratch, out=scratch)
        avg = np.sqrt(scratch, out=scratch)
    else:
        avg = np.sqrt(square_avg, out=scratch)
    avg += eps
    np.divide(grad, avg, out=avg)
    if momentum > 0:
        buf = buffers[-1]
        buf *= momentum
        buf += avg
        np.multiply(buf, lr, out=avg)
    else:
        avg *= lr
    param -= avg


class RMSprop(Optimizer):
    """RMSprop, torch's formulation.

    ``v = alpha * v + (1 - alpha) * g * g``; the denominator is ``sqrt(v) + eps``, or with
    ``centered`` ``sqrt(v - a * a) + eps`` where ``a = lerp(a, g, 1 - alpha)``. Without
    momentum ``p -= lr * g / denom``; with it ``b = momentum * b + g / denom`` and
    ``p -= lr * b``.

    Example:
        >>> import numtorch as torch
        >>> w = torch.tensor([1.0], requires_grad=True)
        >>> opt = torch.optim.RMSprop([w], lr=0.01, alpha=0.75)
        >>> (2 * w).sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.9800], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr: float | Tensor = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_lr(lr)
        check_eps(eps)
        if not momentum >= 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not alpha >= 0.0:
            raise ValueError(f"Invalid alpha value: {alpha}")
        check_compat_flags(differentiable=differentiable, foreach=foreach, capturable=capturable)
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            "capturable": capturable,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _update_group(self, group) -> None:
        momentum = group["momentum"]
        centered = group["centered"]
        options = {
            "lr": scalar(group["lr"]),
            "alpha": group["alpha"],
            "eps": group["eps"],
            "weight_decay": group["weight_decay"],
            "momentum": momentum,
            "centered": centered,
            "maximize": group["maximize"],
        }

        zeros = ("square_avg",) + (("momentum_buffer",) if momentum > 0 else ())
        zeros += ("grad_avg",) if centered else ()
        update_elementwise(
            self,
            group,
            rmsprop_kernel,
            options,
            ("square_avg", "grad_avg", "momentum_buffer"),
            lambda state, p: fill_state(state, p, zeros),
        )

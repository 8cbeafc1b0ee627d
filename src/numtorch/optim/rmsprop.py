"""RMSprop with momentum and the centered variant."""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ._checks import check_compat_flags, check_eps, check_lr, scalar
from .adam import lerp_
from .optimizer import Optimizer, _params_with_grad, new_step


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
        lr = scalar(group["lr"])
        alpha = group["alpha"]
        eps = group["eps"]
        weight_decay = group["weight_decay"]
        momentum = group["momentum"]
        centered = group["centered"]
        maximize = group["maximize"]
        for p in _params_with_grad(group):
            data = p._data
            grad = p._grad._data
            state = self.state[p]
            if not state:
                state["step"] = new_step()
                state["square_avg"] = Tensor._make(np.zeros_like(data))
                if momentum > 0:
                    state["momentum_buffer"] = Tensor._make(np.zeros_like(data))
                if centered:
                    state["grad_avg"] = Tensor._make(np.zeros_like(data))
            written = [p, state["step"], state["square_avg"]]
            state["step"]._data += 1
            if maximize:
                grad = -grad
            if weight_decay != 0:
                grad = grad + weight_decay * data

            square_avg = state["square_avg"]._data
            scratch = np.empty_like(data)
            square_avg *= alpha
            np.multiply(grad, 1 - alpha, out=scratch)
            scratch *= grad
            square_avg += scratch
            if centered:
                grad_avg = state["grad_avg"]
                lerp_(grad_avg._data, grad, 1 - alpha, scratch)
                written.append(grad_avg)
                np.multiply(grad_avg._data, grad_avg._data, out=scratch)
                np.subtract(square_avg, scratch, out=scratch)
                avg = np.sqrt(scratch, out=scratch)
            else:
                avg = np.sqrt(square_avg, out=scratch)
            avg += eps

            if momentum > 0:
                buf = state["momentum_buffer"]
                buf._data *= momentum
                np.divide(grad, avg, out=avg)
                buf._data += avg
                written.append(buf)
                np.multiply(buf._data, lr, out=avg)
            else:
                np.divide(grad, avg, out=avg)
                avg *= lr
            data -= avg
            for t in written:
                t._bump_version()

"""RAdam: Adam with the variance of the adaptive learning rate rectified."""

from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor
from ._checks import check_adam_args, check_compat_flags
from ._kernels import adam_moments_, effective_grad
from .adam import adam_options
from .optimizer import Optimizer, fill_state, update_elementwise


def radam_kernel(
    param,
    grad,
    exp_avg,
    exp_avg_sq,
    *,
    lr,
    beta1,
    beta2,
    eps,
    weight_decay,
    decoupled,
    maximize,
    bias_correction1,
    bias_correction2,
    rect,
):
    """One RAdam update of ``param`` and its moments in place; ``rect`` is ``None`` while
    the variance is not tractable (plain momentum step)."""
    grad = effective_grad(
        param, grad, weight_decay=weight_decay, maximize=maximize, lr=lr, decoupled=decoupled
    )
    scratch = np.empty_like(param)
    adam_moments_(exp_avg, exp_avg_sq, grad, beta1, beta2, scratch)
    update = np.divide(exp_avg, bias_correction1)
    update *= lr
    if rect is not None:
        # bias_correction2**0.5 / (sqrt(v) + eps), as torch's reciprocal times a scalar
        adaptive = np.sqrt(exp_avg_sq, out=scratch)
        adaptive += eps
        np.reciprocal(adaptive, out=adaptive)
        adaptive *= bias_correction2**0.5
        update *= adaptive
        update *= rect
    param -= update


class RAdam(Optimizer):
    """RAdam, torch's formulation.

    Moments as in Adam. With ``rho_inf = 2 / (1 - beta2) - 1`` and
    ``rho_t = rho_inf - 2 t beta2**t / (1 - beta2**t)``: while ``rho_t <= 5`` the step is
    ``p -= lr * m / (1 - beta1**t)``; after it is multiplied by the adaptive rate
    ``sqrt(1 - beta2**t) / (sqrt(v) + eps)`` and the rectification
    ``sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))``.

    Example:
        >>> import numtorch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.RAdam([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        tensor([ 0.8000, -1.6000], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr: float | Tensor = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_adam_args(lr, eps, betas, weight_decay)
        check_compat_flags(differentiable=differentiable, foreach=foreach, capturable=capturable)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "decoupled_weight_decay": decoupled_weight_decay,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _update_group(self, group) -> None:
        options = adam_options(group)
        beta1, beta2 = options["beta1"], options["beta2"]

        def rectification(state, step):
            bias_correction2 = 1 - beta2**step
            rho_inf = 2 / (1 - beta2) - 1
            rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
            rect = None
            if rho_t > 5.0:
                rect = (
                    (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
                ) ** 0.5
            return {
                "bias_correction1": 1 - beta1**step,
                "bias_correction2": bias_correction2,
                "rect": rect,
            }

        keys = ("exp_avg", "exp_avg_sq")
        update_elementwise(
            self,
            group,
            radam_kernel,
            options,
            keys,
            lambda state, p: fill_state(state, p, keys),
            rectification,
        )

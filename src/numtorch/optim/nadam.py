"""NAdam: Adam with Nesterov momentum and a momentum schedule."""

from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor
from ._checks import check_adam_args, check_compat_flags, check_nonnegative
from ._kernels import adam_moments_, add_ratio_, effective_grad
from .adam import adam_options
from .optimizer import Optimizer, fill_state, update_elementwise


def nadam_kernel(
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
    bias_correction2,
    grad_coef,
    exp_avg_coef,
):
    """One NAdam update of ``param`` and its moments in place (torch's operation order)."""
    grad = effective_grad(
        param, grad, weight_decay=weight_decay, maximize=maximize, lr=lr, decoupled=decoupled
    )
    scratch = np.empty_like(param)
    adam_moments_(exp_avg, exp_avg_sq, grad, beta1, beta2, scratch)
    denom = np.divide(exp_avg_sq, bias_correction2)
    np.sqrt(denom, out=denom)
    denom += eps
    add_ratio_(param, grad, denom, grad_coef, scratch)
    add_ratio_(param, exp_avg, denom, exp_avg_coef, scratch)


class NAdam(Optimizer):
    """NAdam, torch's formulation.

    With ``mu_t = beta1 * (1 - 0.5 * 0.96**(t * momentum_decay))`` and ``P_t`` the product
    of ``mu_1 .. mu_t`` (state ``mu_product``), moments as in Adam, and
    ``d = sqrt(v / (1 - beta2**t)) + eps``:
    ``p -= lr * (1 - mu_t) / (1 - P_t) * g / d + lr * mu_{t+1} / (1 - P_t mu_{t+1}) * m / d``.
    ``decoupled_weight_decay`` decays ``p`` as AdamW does.

    Example:
        >>> import numtorch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.NAdam([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        tensor([ 0.8944, -1.8944], requires_grad=True)
        >>> list(opt.state[w])
        ['step', 'mu_product', 'exp_avg', 'exp_avg_sq']
    """

    def __init__(
        self,
        params,
        lr: float | Tensor = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum_decay: float = 4e-3,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_adam_args(lr, eps, betas, weight_decay)
        check_nonnegative("momentum_decay", momentum_decay)
        check_compat_flags(differentiable=differentiable, foreach=foreach, capturable=capturable)
        defaults = {
            "lr": lr,
            "betas": betas,
            "eps": eps,
            "weight_decay": weight_decay,
            "momentum_decay": momentum_decay,
            "decoupled_weight_decay": decoupled_weight_decay,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)

    def _update_group(self, group) -> None:
        options = adam_options(group)
        lr, beta1, beta2 = options["lr"], options["beta1"], options["beta2"]
        momentum_decay = group["momentum_decay"]

        def coefficients(state, step):
            mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
            mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
            mu_product = state["mu_product"]
            mu_product._data *= mu  # in the state's (float32) precision, as torch
            mu_product._bump_version()
            product = mu_product._data.item()
            return {
                "bias_correction2": 1 - beta2**step,
                "grad_coef": -lr * (1.0 - mu) / (1.0 - product),
                "exp_avg_coef": -lr * mu_next / (1.0 - product * mu_next),
            }

        keys = ("exp_avg", "exp_avg_sq")
        update_elementwise(
            self,
            group,
            nadam_kernel,
            options,
            keys,
            lambda state, p: fill_state(state, p, keys, mu_product=1.0),
            coefficients,
        )

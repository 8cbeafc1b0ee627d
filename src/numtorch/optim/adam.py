"""Adam and AdamW (decoupled weight decay), both with AMSGrad."""

from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor
from ._checks import check_adam_args, check_compat_flags, scalar
from ._kernels import adam_moments_, add_ratio_, effective_grad
from .optimizer import Optimizer, fill_state, update_elementwise


def adam_kernel(
    param,
    grad,
    exp_avg,
    exp_avg_sq,
    max_exp_avg_sq=None,
    *,
    lr,
    beta1,
    beta2,
    eps,
    weight_decay,
    decoupled,
    maximize,
    step_size,
    bc2_sqrt,
):
    """One Adam update of ``param`` and its moments in place (torch's operation order)."""
    grad = effective_grad(
        param, grad, weight_decay=weight_decay, maximize=maximize, lr=lr, decoupled=decoupled
    )
    scratch = np.empty_like(param)
    adam_moments_(exp_avg, exp_avg_sq, grad, beta1, beta2, scratch)
    if max_exp_avg_sq is not None:
        np.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq)
        exp_avg_sq = max_exp_avg_sq
    denom = np.sqrt(exp_avg_sq, out=scratch)
    denom /= bc2_sqrt
    denom += eps
    add_ratio_(param, exp_avg, denom, -step_size, denom)


def adam_options(group) -> dict:
    """The kernel options the Adam family reads from a parameter group."""
    beta1, beta2 = group["betas"]
    return {
        "lr": scalar(group["lr"]),
        "beta1": beta1,
        "beta2": beta2,
        "eps": group["eps"],
        "weight_decay": group["weight_decay"],
        "decoupled": group.get("decoupled_weight_decay", False),
        "maximize": group["maximize"],
    }


class Adam(Optimizer):
    """Adam, torch's formulation.

    Per step ``t``: ``m = lerp(m, g, 1 - beta1)``, ``v = beta2 * v + (1 - beta2) * g * g``
    (with ``v_max = max(v_max, v)`` used in place of ``v`` when ``amsgrad``), then
    ``p -= lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)``.
    ``weight_decay`` adds ``weight_decay * p`` to the gradient, or with
    ``decoupled_weight_decay`` (AdamW) scales ``p`` by ``1 - lr * weight_decay`` first.

    Example:
        >>> import numtorch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Adam([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        tensor([ 0.9000, -1.9000], requires_grad=True)
        >>> sorted(opt.state[w])
        ['exp_avg', 'exp_avg_sq', 'step']
    """

    def __init__(
        self,
        params,
        lr: float | Tensor = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        check_adam_args(lr, eps, betas, weight_decay)
        if not (
            all(isinstance(b, float) for b in betas) or all(isinstance(b, Tensor) for b in betas)
        ):
            raise ValueError("betas must be either both floats or both Tensors")
        check_compat_flags(
            differentiable=differentiable, fused=fused, foreach=foreach, capturable=capturable
        )
        defaults = {
            "lr": lr,
            "betas": tuple(scalar(b) for b in betas),
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
            "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay,
        }
        super().__init__(params, defaults)

    def _refuse_sparse(self):
        advice = ", please consider SparseAdam instead" if type(self) is Adam else ""
        raise RuntimeError(f"{type(self).__name__} does not support sparse gradients{advice}")

    def _update_group(self, group) -> None:
        options = adam_options(group)
        lr, beta1, beta2 = options["lr"], options["beta1"], options["beta2"]
        keys = ("exp_avg", "exp_avg_sq") + (("max_exp_avg_sq",) if group["amsgrad"] else ())

        def bias_corrections(state, step):
            return {"step_size": lr / (1 - beta1**step), "bc2_sqrt": (1 - beta2**step) ** 0.5}

        update_elementwise(
            self,
            group,
            adam_kernel,
            options,
            ("exp_avg", "exp_avg_sq", "max_exp_avg_sq"),
            lambda state, p: fill_state(state, p, keys),
            bias_corrections,
        )


class AdamW(Adam):
    """Adam with decoupled weight decay: ``p *= 1 - lr * weight_decay`` before each update.

    Example:
        >>> import numtorch as torch
        >>> w = torch.tensor([1.0], requires_grad=True)
        >>> opt = torch.optim.AdamW([w], lr=0.1, weight_decay=0.5)
        >>> (2 * w).sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.8500], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr: float | Tensor = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            foreach=foreach,
            maximize=maximize,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=True,
        )

    def __setstate__(self, state) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True

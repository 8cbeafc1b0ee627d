"""Adam and AdamW (decoupled weight decay), both with AMSGrad."""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ._checks import check_compat_flags, check_eps, check_lr, scalar
from ._parallel import run_elementwise
from .optimizer import Optimizer, _params_with_grad, advance_step, new_step


def lerp_(start: np.ndarray, end: np.ndarray, weight: float, scratch: np.ndarray) -> None:
    """``start += weight * (end - start)`` in place, in torch's two-sided form."""
    np.subtract(end, start, out=scratch)
    if abs(weight) < 0.5:
        scratch *= weight
        start += scratch
    else:
        # end - (end - start) * (1 - weight): exact at weight == 1, as torch's lerp.
        scratch *= 1 - weight
        np.subtract(end, scratch, out=start)


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
    if maximize:
        grad = -grad
    if weight_decay != 0:
        if decoupled:
            param *= 1 - lr * weight_decay
        else:
            grad = grad + weight_decay * param
    scratch = np.empty_like(param)
    lerp_(exp_avg, grad, 1 - beta1, scratch)
    exp_avg_sq *= beta2
    np.multiply(grad, 1 - beta2, out=scratch)
    scratch *= grad
    exp_avg_sq += scratch
    if max_exp_avg_sq is not None:
        np.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq)
        exp_avg_sq = max_exp_avg_sq
    denom = np.sqrt(exp_avg_sq, out=scratch)
    denom /= bc2_sqrt
    denom += eps
    np.divide(exp_avg, denom, out=denom)
    denom *= step_size
    param -= denom


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
        check_lr(lr)
        check_eps(eps)
        if not (
            all(isinstance(b, float) for b in betas) or all(isinstance(b, Tensor) for b in betas)
        ):
            raise ValueError("betas must be either both floats or both Tensors")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
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

    def _update_group(self, group) -> None:
        lr = scalar(group["lr"])
        beta1, beta2 = group["betas"]
        amsgrad = group["amsgrad"]
        options = {
            "lr": lr,
            "beta1": beta1,
            "beta2": beta2,
            "eps": group["eps"],
            "weight_decay": group["weight_decay"],
            "decoupled": group["decoupled_weight_decay"],
            "maximize": group["maximize"],
        }
        jobs, written = [], []
        for p in _params_with_grad(group):
            state = self.state[p]
            if not state:
                state["step"] = new_step()
                state["exp_avg"] = Tensor._make(np.zeros_like(p._data))
                state["exp_avg_sq"] = Tensor._make(np.zeros_like(p._data))
                if amsgrad:
                    state["max_exp_avg_sq"] = Tensor._make(np.zeros_like(p._data))
            step = advance_step(state)
            tensors = [p, state["exp_avg"], state["exp_avg_sq"]]
            if amsgrad:
                tensors.append(state["max_exp_avg_sq"])
            arrays = (p._data, p._grad._data, *(t._data for t in tensors[1:]))
            step_size = lr / (1 - beta1**step)
            bias_correction2_sqrt = (1 - beta2**step) ** 0.5
            jobs.append(
                (
                    adam_kernel,
                    arrays,
                    {**options, "step_size": step_size, "bc2_sqrt": bias_correction2_sqrt},
                )
            )
            written += tensors
        run_elementwise(jobs)
        for t in written:
            t._bump_version()


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

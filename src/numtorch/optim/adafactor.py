"""Adafactor (Shazeer and Stern, 2018) in torch's formulation: the second moment of a matrix
gradient kept as a row and a column factor, and relative step sizes."""

from __future__ import annotations

import math

from .._core import dtypes as _dtypes
from .._core.tensor import Tensor
from ._checks import scalar
from .optimizer import Optimizer, advance_step, scalar_state


class Adafactor(Optimizer):
    """Adafactor as torch computes it. Per step ``t`` of a parameter ``p`` with gradient
    ``g``: ``beta2_t = 1 - t**beta2_decay``, ``rho = min(lr, 1/sqrt(t))``,
    ``alpha = max(eps2, RMS(p)) * rho``; ``p *= 1 - lr * weight_decay``. A matrix keeps
    ``R = lerp(R, mean(g**2, -1), 1 - beta2_t)`` and ``C`` likewise over dim -2 and estimates
    ``V = R @ C / max(mean(R), eps1)``; a vector keeps ``V = lerp(V, g**2, 1 - beta2_t)``.
    Then ``u = g / sqrt(max(V, eps1**2))`` and ``p -= alpha / max(1, RMS(u) / d) * u``.

    Example:
        >>> import numtorch as torch
        >>> w = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
        >>> opt = torch.optim.Adafactor([w], lr=0.01)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> sorted(opt.state[w])
        ['col_var', 'row_var', 'step']
    """

    def __init__(
        self,
        params,
        lr: float | Tensor = 1e-2,
        beta2_decay: float = -0.8,
        eps: tuple[float | None, float] = (None, 1e-3),
        d: float = 1.0,
        weight_decay: float = 0.0,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
    ) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not lr >= 0.0:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not beta2_decay <= 0.0:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not eps[0] >= 0.0:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not eps[1] >= 0.0:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not d >= 1.0:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not weight_decay >= 0.0:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = {
            "lr": lr,
            "beta2_decay": beta2_decay,
            "eps": eps,
            "d": d,
            "weight_decay": weight_decay,
            "foreach": foreach,
            "maximize": maximize,
        }
        super().__init__(params, defaults)

    def _init_state(self, state: dict, grad: Tensor) -> None:
        state["step"] = scalar_state()
        if grad.ndim > 1:  # the factors: the gradient's shape with dim -1 (rows), -2 (cols) = 1
            state["row_var"] = grad.new_zeros((*grad.shape[:-1], 1))
            state["col_var"] = grad.new_zeros((*grad.shape[:-2], 1, grad.shape[-1]))
        else:
            state["variance"] = grad.new_zeros(grad.shape)

    def _update_group(self, group) -> None:
        lr, d = scalar(group["lr"]), group["d"]
        eps1, eps2 = group["eps"]
        for p in group["params"]:
            grad = p.grad
            if grad is None:
                continue
            if p.is_complex():
                raise RuntimeError("Adafactor does not support complex parameters")
            grad = -grad if group["maximize"] else grad
            state = self.state[p]
            if not state:
                self._init_state(state, grad)
            step = advance_step(state)
            floor = _dtypes.finfo(p.dtype).eps if eps1 is None else eps1
            one_minus_beta2 = step ** group["beta2_decay"]
            rho = min(lr, 1 / math.sqrt(step))
            alpha = max(eps2, p.norm(2).item() / math.sqrt(p.numel())) * rho
            if group["weight_decay"] != 0:
                p.mul_(1 - lr * group["weight_decay"])
            if grad.ndim > 1:
                row_var, col_var = state["row_var"], state["col_var"]
                row_mean = grad.norm(dim=-1, keepdim=True).square_().div_(grad.shape[-1])
                row_var.lerp_(row_mean, one_minus_beta2)
                col_mean = grad.norm(dim=-2, keepdim=True).square_().div_(grad.shape[-2])
                col_var.lerp_(col_mean, one_minus_beta2)
                estimate = row_var @ col_var
                estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=floor))
            else:
                state["variance"].lerp_(grad * grad, one_minus_beta2)
                estimate = state["variance"].clone()
            update = estimate.clamp_(min=floor * floor).rsqrt_()
            update.mul_(grad)
            denom = max(1.0, update.norm(2).item() / (math.sqrt(update.numel()) * d))
            p.add_(update, alpha=-alpha / denom)

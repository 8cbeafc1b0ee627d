"""Muon (Jordan et al., 2024) as torch computes it: momentum, then the update orthogonalized by
a quintic Newton-Schulz iteration in bfloat16, for 2-D parameters."""

from __future__ import annotations

import math

from .._core import dtypes as _dtypes
from .._core.tensor import Tensor
from ..ops.linalg import addmm
from ._checks import scalar
from .optimizer import Optimizer

EPS = 1e-7
DEFAULT_A = 3.4445
DEFAULT_B = -4.7750
DEFAULT_C = 2.0315
DEFAULT_NS_STEPS = 5


def _zeropower_via_newtonschulz(grad: Tensor, ns_coefficients, ns_steps: int, eps: float):
    """``grad`` pushed towards ``U V^T`` (its SVD's orthogonal factor) by ``ns_steps`` steps of
    ``X <- a X + (b A + c A @ A) @ X`` with ``A = X @ X^T``, on the wide orientation, in
    bfloat16; the singular values land near 1 (about 0.5 to 1.5), not exactly on it."""
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if len(grad.shape) != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = ns_coefficients
    tall = grad.size(0) > grad.size(1)
    ortho = grad.to(_dtypes.bfloat16)
    if tall:
        ortho = ortho.T
    ortho.div_(ortho.norm().clamp(min=eps))
    for _ in range(ns_steps):
        gram = ortho @ ortho.T
        gram_update = addmm(gram, gram, gram, beta=b, alpha=c)
        ortho = addmm(ortho, gram_update, ortho, beta=a)
    return ortho.T if tall else ortho


def _adjust_lr(lr: float, adjust_lr_fn: str | None, param_shape) -> float:
    """``original``: ``lr * sqrt(max(1, A / B))``; ``match_rms_adamw``: ``0.2 lr sqrt(max(A, B))``
    for an ``A x B`` parameter."""
    rows, cols = param_shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        return lr * math.sqrt(max(1, rows / cols))
    if adjust_lr_fn == "match_rms_adamw":
        return lr * 0.2 * math.sqrt(max(rows, cols))
    return lr


class Muon(Optimizer):
    """Muon for 2-D parameters (use AdamW or SGD for biases and embeddings). Per step:
    ``B = lerp(B, g, 1 - momentum)``; the update ``lerp(g, B, momentum)`` (Nesterov) or ``B``
    is orthogonalized by Newton-Schulz; ``p *= 1 - lr * weight_decay``;
    ``p -= adjusted_lr * update``.

    Example:
        >>> import numtorch as torch
        >>> w = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
        >>> opt = torch.optim.Muon([w], lr=0.02)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> sorted(opt.state[w])
        ['momentum_buffer']
    """

    def __init__(
        self,
        params,
        lr: float | Tensor = 1e-3,
        weight_decay: float = 0.1,
        momentum: float = 0.95,
        nesterov: bool = True,
        ns_coefficients: tuple[float, float, float] = (DEFAULT_A, DEFAULT_B, DEFAULT_C),
        eps: float = EPS,
        ns_steps: int = DEFAULT_NS_STEPS,
        adjust_lr_fn: str | None = None,
    ) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not lr >= 0.0:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not momentum >= 0.0:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not weight_decay >= 0.0:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ("original", "match_rms_adamw"):
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = {
            "lr": lr,
            "weight_decay": weight_decay,
            "momentum": momentum,
            "nesterov": nesterov,
            "ns_coefficients": ns_coefficients,
            "eps": eps,
            "ns_steps": ns_steps,
            "adjust_lr_fn": adjust_lr_fn,
        }
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(
                        "Muon only supports 2D parameters whereas we found a parameter with "
                        f"size: {p.size()}"
                    )

    def _update_group(self, group) -> None:
        lr, momentum = scalar(group["lr"]), group["momentum"]
        for p in group["params"]:
            grad = p.grad
            if grad is None:
                continue
            if p.is_complex():
                raise RuntimeError("Muon does not support complex parameters")
            state = self.state[p]
            if "momentum_buffer" not in state:
                state["momentum_buffer"] = grad.new_zeros(grad.shape)
            buf = state["momentum_buffer"]
            buf.lerp_(grad, 1 - momentum)
            update = grad.lerp(buf, momentum) if group["nesterov"] else buf
            update = _zeropower_via_newtonschulz(
                update, group["ns_coefficients"], group["ns_steps"], group["eps"]
            )
            adjusted_lr = _adjust_lr(lr, group["adjust_lr_fn"], p.shape)
            p.mul_(1 - lr * group["weight_decay"])
            p.add_(update, alpha=-adjusted_lr)

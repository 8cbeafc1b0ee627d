"""Pieces shared by the elementwise update kernels: in-place NumPy on one parameter's arrays,
in torch's operation order (Note [Optimizer updates on arrays])."""

from __future__ import annotations

import numpy as np


def effective_grad(param, grad, *, weight_decay, maximize, lr=0.0, decoupled=False):
    """The gradient an update follows: negated for ``maximize``, plus ``weight_decay * param``;
    with ``decoupled`` (AdamW) the parameter is scaled by ``1 - lr * weight_decay`` instead.
    ``grad`` itself is never written."""
    if maximize:
        grad = -grad
    if weight_decay != 0:
        if decoupled:
            param *= 1 - lr * weight_decay
        else:
            grad = grad + weight_decay * param
    return grad


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


def square_average_(avg, value, decay: float, scratch) -> None:
    """``avg = decay * avg + (1 - decay) * value * value`` in place."""
    np.multiply(value, 1 - decay, out=scratch)
    scratch *= value
    avg *= decay
    avg += scratch


def adam_moments_(exp_avg, exp_avg_sq, grad, beta1: float, beta2: float, scratch) -> None:
    """Adam's running moments in place: ``m = lerp(m, g, 1 - beta1)`` and
    ``v = beta2 * v + (1 - beta2) * g * g``."""
    lerp_(exp_avg, grad, 1 - beta1, scratch)
    square_average_(exp_avg_sq, grad, beta2, scratch)


def add_ratio_(param, numerator, denominator, value: float, scratch) -> None:
    """``param += value * numerator / denominator`` (torch's ``addcdiv_``)."""
    np.divide(numerator, denominator, out=scratch)
    scratch *= value
    param += scratch

"""Pieces shared by the elementwise update kernels: in-place NumPy on one parameter's arrays,
in torch's operation order (Note [Optimizer updates on arrays])."""

from __future__ import annotations

import numpy as np


def add_scaled(base, other, alpha, out=None):
    """``base + alpha * other`` as torch's ``add(..., alpha=)`` computes it: a fused
    multiply-add, one rounding (float32 through the exact float64 product); ``out`` may be
    ``base`` itself."""
    if base.dtype == np.float32:
        wide = np.multiply(other, np.float32(alpha), dtype=np.float64)
        if out is None:
            out = np.empty(wide.shape, np.float32)
        return np.add(wide, base, out=out, dtype=np.float64, casting="same_kind")
    if out is None:
        return base + alpha * other
    np.add(base, alpha * other, out=out)
    return out


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
            grad = add_scaled(grad, param, weight_decay)
    return grad


def lerp_(start: np.ndarray, end: np.ndarray, weight: float, scratch: np.ndarray) -> None:
    """``start += weight * (end - start)`` in place, in torch's two-sided form."""
    np.subtract(end, start, out=scratch)
    if start.dtype == np.float32:
        # torch's vectorized lerp: fma(weight, end - start, start) for a small weight, else
        # fma(weight - 1, end - start, end), one rounding each
        w = np.float32(weight)
        small = abs(w) < 0.5
        wide = np.multiply(scratch, w if small else w - np.float32(1), dtype=np.float64)
        np.add(wide, start if small else end, out=start, dtype=np.float64, casting="same_kind")
        return
    if abs(weight) < 0.5:
        scratch *= weight
        start += scratch
    else:
        # end - (end - start) * (1 - weight): exact at weight == 1, as torch's lerp.
        scratch *= 1 - weight
        np.subtract(end, scratch, out=start)


def square_average_(avg, value, decay: float, scratch) -> None:
    """``avg = decay * avg + (1 - decay) * value * value`` in place."""
    if avg.dtype == np.float32:
        # torch's avg.mul_(decay).addcmul_(value, value, value=1 - decay): the addcmul is
        # fma((1 - decay) * value, value, avg), one rounding
        avg *= decay
        np.multiply(value, np.float32(1 - decay), out=scratch)
        wide = np.multiply(scratch, value, dtype=np.float64)
        np.add(wide, avg, out=avg, dtype=np.float64, casting="same_kind")
        return
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
    """``param += value * numerator / denominator`` (torch's ``addcdiv_``: the product
    first, then the quotient)."""
    product = np.multiply(numerator, value)  # its own array: scratch may be the denominator
    np.divide(product, denominator, out=scratch)
    param += scratch

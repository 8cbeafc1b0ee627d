"""Gradient clipping, in place on ``.grad`` (as torch's)."""

from __future__ import annotations

import math
import warnings

from ... import _creation, linalg
from ..._core import grad_mode
from ..._core.tensor import Tensor
from ...backend import xp
from ...ops.concatenation import stack


def _grads(parameters):
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach=None) -> Tensor:  # fmt: skip
    """Scale all gradients together so that their joint ``norm_type`` norm is at most
    ``max_norm``; returns the norm before clipping.

    Example:
        >>> import numtorch as torch
        >>> w = torch.ones(4, requires_grad=True)
        >>> (w * 3).sum().backward()
        >>> torch.nn.utils.clip_grad_norm_([w], 1.0)
        tensor(6.)
        >>> round(w.grad.norm().item(), 4)
        1.0
    """
    norm_type = float(norm_type)  # before anything else, as torch: "foo" raises ValueError
    grads = _grads(parameters)
    if not grads:
        return _creation.tensor(0.0)
    if norm_type == math.inf:
        total = max(float(xp.abs(g._data).max()) if g.numel() else 0.0 for g in grads)
    else:
        norms = [xp.linalg.norm(g._data.reshape(-1).astype(xp.float64), norm_type) for g in grads]
        total = float(xp.linalg.norm(xp.asarray(norms), norm_type))
    if error_if_nonfinite and not math.isfinite(total):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is "
            "non-finite, so it cannot be clipped. To disable this error and scale the gradients "
            "by the non-finite norm anyway, set `error_if_nonfinite=False`"
        )
    coefficient = min(float(max_norm) / (total + 1e-6), 1.0)
    with grad_mode.no_grad():
        for g in grads:
            g.mul_(coefficient)
    return _creation.tensor(total, dtype=grads[0].dtype)


def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    """Clamp every gradient element to ``[-clip_value, clip_value]``."""
    clip_value = float(clip_value)
    with grad_mode.no_grad():
        for g in _grads(parameters):
            g.clamp_(-clip_value, clip_value)


def get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                   foreach=None) -> Tensor:  # fmt: skip
    """The ``norm_type`` norm of the tensors taken as one vector (the norm of their norms),
    computed without recording (as torch's).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.utils.get_total_norm([torch.tensor([3.0]), torch.tensor([4.0])])
        tensor(5.)
    """
    tensors = [tensors] if isinstance(tensors, Tensor) else list(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return _creation.tensor(0.0)
    with grad_mode.no_grad():
        norms = [linalg.vector_norm(t, norm_type) for t in tensors]
        total = linalg.vector_norm(stack(norms), norm_type)
    if error_if_nonfinite and not math.isfinite(total.item()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is "
            "non-finite, so it cannot be clipped. To disable this error and scale the gradients "
            "by the non-finite norm anyway, set `error_if_nonfinite=False`"
        )
    return total


def clip_grads_with_norm_(parameters, max_norm: float, total_norm: Tensor, foreach=None) -> None:
    """Scale the gradients in place by ``min(max_norm / (total_norm + 1e-6), 1)``, a total
    norm computed beforehand (``get_total_norm`` of the gradients)."""
    grads = _grads(parameters)
    max_norm = float(max_norm)
    if not grads:
        return
    with grad_mode.no_grad():
        coefficient = (max_norm / (total_norm + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(coefficient)


def clip_grad_norm(parameters, max_norm: float, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach=None) -> Tensor:  # fmt: skip
    """Deprecated name of ``clip_grad_norm_``: warns, then clips in place the same way."""
    warnings.warn(
        "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
        "`torch.nn.utils.clip_grad_norm_`.",
        FutureWarning,
        stacklevel=2,
    )
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)

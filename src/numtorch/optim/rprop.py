"""Rprop: per-element step sizes adapted from the sign of successive gradients."""

from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor
from ._checks import check_compat_flags, check_lr, scalar
from .optimizer import Optimizer, fill_state, update_elementwise


def rprop_kernel(
    param, grad, prev, step_size, *, etaminus, etaplus, step_size_min, step_size_max, maximize
):
    """One Rprop update of ``param``, ``prev`` and ``step_size`` in place."""
    if maximize:
        grad = -grad
    sign = np.multiply(grad, prev)
    np.sign(sign, out=sign)
    positive, negative, zero = sign > 0, sign < 0, sign == 0
    sign[positive] = etaplus
    sign[negative] = etaminus
    sign[zero] = 1
    step_size *= sign
    np.clip(step_size, step_size_min, step_size_max, out=step_size)
    # After a sign change the gradient counts as zero: no step, and no change next time.
    np.copyto(prev, grad)
    prev[sign == etaminus] = 0
    np.sign(prev, out=sign)
    sign *= step_size
    param -= sign


class Rprop(Optimizer):
    """Rprop, torch's formulation.

    Where ``g * g_prev > 0`` the step size grows by ``etas[1]``, where it is ``< 0`` it
    shrinks by ``etas[0]`` and the gradient is taken as 0; step sizes stay within
    ``step_sizes``; then ``p -= sign(g) * step_size``.

    Example:
        >>> import numtorch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Rprop([w], lr=0.1)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        tensor([ 0.9000, -1.9000], requires_grad=True)
        >>> list(opt.state[w])
        ['step', 'prev', 'step_size']
    """

    def __init__(
        self,
        params,
        lr: float | Tensor = 1e-2,
        etas: tuple[float, float] = (0.5, 1.2),
        step_sizes: tuple[float, float] = (1e-6, 50),
        *,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        check_compat_flags(differentiable=differentiable, foreach=foreach, capturable=capturable)
        defaults = {
            "lr": lr,
            "etas": etas,
            "step_sizes": step_sizes,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "capturable": capturable,
        }
        super().__init__(params, defaults)

    def _update_group(self, group) -> None:
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        lr = scalar(group["lr"])
        options = {
            "etaminus": etaminus,
            "etaplus": etaplus,
            "step_size_min": step_size_min,
            "step_size_max": step_size_max,
            "maximize": group["maximize"],
        }

        def init_state(state, p):
            fill_state(state, p, ("prev",))
            # a complex parameter's real and imaginary parts each start at lr, as torch's
            fill = complex(lr, lr) if p._data.dtype.kind == "c" else lr
            state["step_size"] = Tensor._make(np.full_like(p._data, fill))

        update_elementwise(self, group, rprop_kernel, options, ("prev", "step_size"), init_state)

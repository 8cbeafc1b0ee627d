"""Stochastic gradient descent with momentum, dampening, Nesterov and weight decay."""

from __future__ import annotations

import numpy as np

from .._core.tensor import Tensor
from ..backend import lapack
from ._checks import check_compat_flags, check_lr, scalar
from ._kernels import effective_grad
from ._parallel import run_elementwise
from .optimizer import Optimizer, _params_with_grad


def sgd_kernel(
    param, grad, buf=None, *, lr, momentum, dampening, weight_decay, nesterov, maximize, first
):
    """One SGD update of ``param`` (and the momentum buffer ``buf``) in place."""
    grad = effective_grad(param, grad, weight_decay=weight_decay, maximize=maximize)
    scratch = np.empty_like(param) if buf is not None else None
    if buf is not None:
        if first:
            np.copyto(buf, grad)
        else:
            buf *= momentum
            if dampening == 0:
                buf += grad
            else:
                buf += np.multiply(grad, 1 - dampening, out=scratch)
        if nesterov:
            # grad + momentum * buf, the sum written into scratch (addition commutes exactly)
            np.multiply(buf, momentum, out=scratch)
            grad = np.add(scratch, grad, out=scratch)
        else:
            grad = buf
    # torch's param.add_(grad, alpha=-lr), one fused multiply-add per element: BLAS axpy
    # gives its bits (and reads the arrays once); NumPy's two passes round twice. Whether
    # axpy runs must not depend on the size or the layout, or blocks, threads and a
    # transposed gradient would change the bits.
    real = param.dtype.kind == "f"
    if real and grad.strides != param.strides:
        same_layout = np.empty_like(param)
        np.copyto(same_layout, grad)
        grad = same_layout
    if not real or not lapack.axpy(grad, param, -lr, min_size=0):
        param -= np.multiply(grad, lr, out=np.empty_like(param) if scratch is None else scratch)


class SGD(Optimizer):
    """Stochastic gradient descent, torch's formulation.

    With ``g = grad + weight_decay * p`` (negated first when ``maximize``) and momentum ``m``:
    ``b = g`` on the first step, then ``b = m * b + (1 - dampening) * g``; the update is
    ``p -= lr * (g + m * b if nesterov else b)`` (``p -= lr * g`` without momentum).

    Example:
        >>> import numtorch as torch
        >>> w = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.8000, 1.6000], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr: float | Tensor = 1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay: float = 0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        check_lr(lr)
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        check_compat_flags(differentiable=differentiable, fused=fused, foreach=foreach)
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
            "maximize": maximize,
            "foreach": foreach,
            "differentiable": differentiable,
            "fused": fused,
        }
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    _sparse_gradients = "dense"

    def _update_group(self, group) -> None:
        options = {
            "lr": scalar(group["lr"]),
            "momentum": group["momentum"],
            "dampening": group["dampening"],
            "weight_decay": group["weight_decay"],
            "nesterov": group["nesterov"],
            "maximize": group["maximize"],
        }
        jobs, written = [], []
        for p in _params_with_grad(group):
            arrays = (p._data, p._grad._data)
            first = False
            if options["momentum"] != 0:
                state = self.state[p]
                buf = state.get("momentum_buffer")
                if buf is None:
                    first = True
                    buf = state["momentum_buffer"] = Tensor._make(np.empty_like(p._data))
                arrays += (buf._data,)
                written.append(buf)
            jobs.append((sgd_kernel, arrays, {**options, "first": first}))
            written.append(p)
        run_elementwise(jobs)
        for t in written:
            t._bump_version()

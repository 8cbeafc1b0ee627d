"""Derivatives of backward ops whose forward is a composite of tensor ops.

torch's fused backward kernels (``native_batch_norm_backward``...) are differentiable nodes of
their own. Here such a backward op runs its composite formula on arrays (first order: one op,
no graph), and its derivatives are vector-Jacobian products of that same composite, taken by
running it again with grad enabled. Where a formula runs under ``create_graph=True``, the
composite is built on the original tensors, so the result stays connected to them and higher
orders work as well.
"""

from __future__ import annotations

from ..._core import grad_mode
from ..._core.tensor import Tensor
from ...autograd.api import grad as autograd_grad


def tensors_of(*arrays):
    """The forward's arrays as tensors (None stays None), for running a composite on them."""
    return [None if a is None else Tensor._make(a) for a in arrays]


def vjp(composite, tensors, k, grad):
    """``d <grad, composite(*tensors)> / d tensors[k]`` (None where it does not depend on it)."""
    if tensors[k] is None:
        return None
    create = grad_mode.is_grad_enabled()
    args = []
    for i, t in enumerate(tensors):
        if t is not None and not (create and t.requires_grad):
            t = t.detach().requires_grad_(i == k)
        elif t is not None and i == k:
            # an alias of its own: the gradient w.r.t. tensors[k] itself would also count
            # the paths through another argument computed from it (ormqr(s.view(4, 3),
            # tau, s) reaches s twice), which that argument's own derivative already gives
            t = t.view_as(t)
        args.append(t)
    with grad_mode.enable_grad():
        out = composite(*args)
        if not out.requires_grad:
            return None
        (result,) = autograd_grad(out, args[k], grad, create_graph=create, allow_unused=True)
    return result

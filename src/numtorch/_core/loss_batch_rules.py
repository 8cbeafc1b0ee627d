"""Batching rule of the pointwise losses' backward ops (``mse_loss_backward``...), met by
``jacrev``/``hessian`` of a loss and by ``vmap`` over ``grad`` of a per-sample loss."""

from __future__ import annotations

import math

from .batch_rules import _REDUCTIONS, front, pointwise

__all__ = ["loss_backward"]


def loss_backward(spec, args, dims):
    """Reduced losses take one gradient per sample: it is spread over the sample's elements
    (divided by their count for a mean) and the op runs without reduction, pointwise."""
    k = spec.index["reduction"]
    name = _REDUCTIONS.get(args[k], args[k])
    if name == "none":
        return pointwise(spec, args, dims)
    s = spec.index["self"]
    sample = args[s].shape if dims[s] is None else front(args[s], dims[s]).shape[1:]
    new, new_dims = list(args), list(dims)
    grad = args[0]
    if dims[0] is not None:
        grad = front(grad, dims[0])
        grad = grad.reshape((grad.shape[0], *(1,) * len(sample)))
        new_dims[0] = 0
    if name == "mean":
        grad = grad / max(math.prod(sample), 1)
    new[0] = grad
    new[k] = "none" if isinstance(args[k], str) else 0
    return pointwise(spec, tuple(new), tuple(new_dims))

"""Batching rule of the pointwise losses' backward ops (``mse_loss_backward``...), met by
``jacrev``/``hessian`` of a loss and by ``vmap`` over ``grad`` of a per-sample loss."""

from __future__ import annotations

import math

from .batch_rules import _REDUCTIONS, batch_size, front, front_or_expand, pointwise

__all__ = ["loss_backward", "nll_loss_backward"]


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


def nll_loss_backward(spec, args, dims):
    """As ``nll_loss``'s rule: the samples' rows become rows of one call without reduction;
    a reduced loss's per-sample gradient is spread over its targets (divided by the
    sample's own total weight for a mean)."""
    grad, input, target, weight, reduction, ignore_index = args
    if dims[3] is not None:
        return NotImplemented
    size = batch_size(args, dims)
    x = front_or_expand(input, dims[1], size)
    t = front_or_expand(target, dims[2], size)
    g = front_or_expand(grad, dims[0], size)
    if reduction != "none":
        g = g.reshape((size, *(1,) * (t.ndim - 1))).expand(tuple(t.shape))
        if reduction == "mean":
            valid = t != ignore_index
            if weight is None:
                count = valid.to(g.dtype)
            else:
                count = weight[t.clamp(0, weight.shape[0] - 1)] * valid
            count = count.reshape((size, -1)).sum(1)
            count = count + (count == 0).to(count.dtype)  # all ignored: the gradient is 0
            g = g / count.reshape((size, *(1,) * (t.ndim - 1)))
    if x.ndim == 2:  # one sample is a single (C,) row: the batch is N
        rows, targets, g_rows = x, t, g
    else:
        rows = x.reshape((size * x.shape[1], *x.shape[2:]))
        targets = t.reshape((size * t.shape[1], *t.shape[2:]))
        g_rows = g.reshape(tuple(targets.shape))
    out = spec.run((g_rows, rows, targets, weight, "none", ignore_index))
    return out.reshape(tuple(x.shape)), 0

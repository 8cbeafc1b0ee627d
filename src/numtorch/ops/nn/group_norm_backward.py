"""group_norm's backward, as torch's derivative of native_group_norm computes it.

With the input seen as (N, G, D, HxW), per (sample, channel) ds = sum dY x and db = sum dY,
and per group M = D HxW elements:

    dx = rstd weight dY + b x + c,  b = (sum_D(db weight) mean - sum_D(ds weight)) rstd^3 / M,
                                    c = -b mean - sum_D(db weight) rstd / M
    dweight = sum_N (ds - db mean) rstd,  dbias = sum_N db

The saved statistics (the node's mean and rstd outputs) are used as they are: their own
gradients (when something differentiated them) add var_mean_backward's terms to dx, and a
gradient taken with create_graph requires grad through them as torch's does. The folded
form a dY + b x + c is torch's too: where a weight or an incoming gradient is infinite,
which elements turn NaN follows from it.
"""

from __future__ import annotations


def _grouped(input, N, C, HxW, group):
    per_group = C // group if group else 0
    return input.reshape(N, group, per_group, HxW), per_group


def _sums(dY, X):
    return (dY * X).sum(3, keepdim=True), dY.sum(3, keepdim=True)


def _var_mean_backward(dvar, dmean, X, count):
    # the gradient of (var(X), mean(X)) over each group, the variance uncorrected
    centred = X - X.mean((2, 3), keepdim=True)
    return 2.0 * dvar * centred / count + dmean.expand(X.shape) / count


def group_norm_backward(grads, input, weight, result1, result2, N, C, HxW, group, which):
    dY, dmean, drstd = grads
    X, D = _grouped(input, N, C, HxW, group)
    mean, rstd = result1.reshape(N, group, 1, 1), result2.reshape(N, group, 1, 1)
    if dY is not None:
        dY = dY.reshape(X.shape)
        ds, db = _sums(dY, X)
    if which == "weight":
        return None if dY is None else ((ds - db * mean) * rstd).sum(0).reshape(weight.shape)
    if which == "bias":
        return None if dY is None else db.sum(0).reshape(C)
    both_stats = dmean is not None and drstd is not None  # torch drops a lone one
    if both_stats:
        dvar = -0.5 * (rstd * rstd * rstd) * drstd.reshape(N, group, 1, 1)
        stats_term = _var_mean_backward(dvar, dmean.reshape(N, group, 1, 1), X, D * HxW)
    if dY is None:
        return stats_term.reshape(input.shape) if both_stats else None
    count = D * HxW
    gamma = None if weight is None else weight.reshape(1, group, D, 1)
    a = rstd if gamma is None else rstd * gamma
    sum_ds = (ds if gamma is None else ds * gamma).sum(2, keepdim=True)
    sum_db = (db if gamma is None else db * gamma).sum(2, keepdim=True)
    b = (sum_db * mean - sum_ds) * (rstd * rstd * rstd) / count
    c = -b * mean - sum_db * rstd / count
    dX = a * dY + b * X + c
    if both_stats:
        dX = dX + stats_term
    return dX.reshape(input.shape)

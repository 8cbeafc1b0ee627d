"""Autograd Functions of nn modules: SyncBatchNorm's cross-rank batch norm.

Note [SyncBatchNorm statistics]
Forward: each rank computes, per channel and in float64, its element count n_r, mean m_r and
sum of squared deviations M2_r; one all-gather shares them and every rank combines them the
same way (in rank order, so the results are bitwise equal everywhere)::

    N = sum n_r    mean = sum n_r m_r / N    M2 = sum M2_r + sum n_r (m_r - mean)^2

This is exact, unlike float32 sums of x and x^2 (which lose everything when the values are
large next to their spread), and it handles uneven batches: a rank with an empty batch sends
n_r = 0 and drops out of the sums. The batch variance is M2 / N; the running variance gets the
unbiased M2 / (N - 1). Backward all-reduces the per-channel ``[sum(dy), sum(dy * xhat)]``
(float64), which with N gives the input gradient as on the whole batch:
``dx = invstd * weight * (dy - sum(dy) / N - xhat * sum(dy * xhat) / N)``. The weight and
bias gradients stay local sums, as in torch: DistributedDataParallel averages them.
"""

from __future__ import annotations

import math

from ... import distributed as dist
from ..._core.tensor import Tensor
from ...autograd.function import Function, once_differentiable
from ...backend import xp

float64 = xp.float64


def _spatial(input) -> int:
    return math.prod(input.shape[2:])  # reshape(n, c, -1) fails for an empty batch


def _local_stats(x):
    """[n, mean (C), M2 (C)] of an (N, C, L) array, in float64."""
    c = x.shape[1]
    count = x.shape[0] * x.shape[2]
    stats = xp.zeros(2 * c + 1, dtype=float64)
    if count:
        x64 = x.astype(float64)
        mean = x64.mean(axis=(0, 2))
        centred = x64 - mean.reshape(1, c, 1)
        stats[0] = count
        stats[1 : c + 1] = mean
        stats[c + 1 :] = xp.einsum("ncl,ncl->c", centred, centred)
    return stats


def _combine(gathered, c: int):
    """(N, mean, M2) of the whole batch from every rank's [n, mean, M2] rows."""
    counts = gathered[:, :1]
    total = counts.sum()
    if total == 0:
        return 0.0, None, None
    mean = (counts * gathered[:, 1 : c + 1]).sum(axis=0) / total
    spread = counts * (gathered[:, 1 : c + 1] - mean) ** 2
    return float(total), mean, gathered[:, c + 1 :].sum(axis=0) + spread.sum(axis=0)


class SyncBatchNorm(Function):
    """The autograd Function behind nn.SyncBatchNorm in training (grad_fn
    ``SyncBatchNormBackward``), as torch's ``nn.modules._functions.SyncBatchNorm``."""

    @staticmethod
    def forward(ctx, input, weight, bias, running_mean, running_var, eps, momentum, group):
        world_size = dist.get_world_size(group)
        n, c = input.shape[0], input.shape[1]
        x = input._data.reshape(n, c, _spatial(input))
        gathered = Tensor._make(xp.zeros((world_size, 2 * c + 1), dtype=float64))
        dist.all_gather_into_tensor(gathered, Tensor._make(_local_stats(x)), group=group)
        total, mean, m2 = _combine(gathered._data, c)
        if total <= 1:
            raise ValueError(
                "Expected more than 1 value per channel when training, got "
                f"{int(total)} value(s) per channel over all {world_size} ranks"
            )
        invstd = 1.0 / xp.sqrt(m2 / total + eps)
        for stat, value in ((running_mean, mean), (running_var, m2 / (total - 1))):
            if stat is not None:
                data = stat._data
                data[...] = (1 - momentum) * data + momentum * value
                stat._bump_version()
        dtype = x.dtype
        mean_c, invstd_c = mean.astype(dtype), invstd.astype(dtype)
        scale = invstd_c if weight is None else invstd_c * weight._data
        out = x - mean_c.reshape(1, c, 1)
        out *= scale.reshape(1, c, 1)
        if bias is not None:
            out += bias._data.reshape(1, c, 1)
        ctx.save_for_backward(input, weight)
        ctx.mean, ctx.invstd, ctx.total, ctx.group = mean_c, invstd_c, total, group
        return Tensor._make(out.reshape(input.shape))

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        input, weight = ctx.saved_tensors
        n, c = input.shape[0], input.shape[1]
        x = input._data.reshape(n, c, _spatial(input))
        dy = grad_output._data.reshape(n, c, _spatial(input))
        shape = (1, c, 1)
        xhat = (x - ctx.mean.reshape(shape)) * ctx.invstd.reshape(shape)
        sums = xp.empty(2 * c, dtype=float64)
        sums[:c] = dy.sum(axis=(0, 2), dtype=float64)
        sums[c:] = xp.einsum("ncl,ncl->c", dy, xhat, dtype=float64)
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            local = sums.copy()
            dist.all_reduce(Tensor._make(sums), group=ctx.group)
            scale = ctx.invstd if weight is None else ctx.invstd * weight._data
            mean_dy = (sums[:c] / ctx.total).astype(x.dtype).reshape(shape)
            mean_dy_xhat = (sums[c:] / ctx.total).astype(x.dtype).reshape(shape)
            dx = (dy - mean_dy - xhat * mean_dy_xhat) * scale.reshape(shape)
            grad_input = Tensor._make(dx.reshape(input.shape))
            sums = local
        if weight is not None:
            # Local sums (zeros on a rank with an empty batch, so its gradient hooks still
            # fire and DistributedDataParallel's buckets complete).
            dtype = weight._data.dtype
            if ctx.needs_input_grad[1]:
                grad_weight = Tensor._make(sums[c:].astype(dtype))
            if ctx.needs_input_grad[2]:
                grad_bias = Tensor._make(sums[:c].astype(dtype))
        return grad_input, grad_weight, grad_bias, None, None, None, None, None

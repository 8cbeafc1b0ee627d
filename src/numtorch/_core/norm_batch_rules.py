"""Batching rules of the normalization ops (batch norm, group norm), as torch's: the vmap
batch is folded into the dims the op already keeps apart, the op runs once without its
affine parameters, and the weight and bias are applied after (they may be batched).

- batch norm keeps channels apart: ``(B, N, C, *s)`` runs as ``(N, B*C, *s)``, so each
  sample gets its own statistics; the running statistics are repeated per sample in eval
  mode. Training with running statistics that are not batched is refused, as torch
  refuses it (the in-place update would mix the samples).
- group norm keeps rows apart: ``(B, N, C, *s)`` runs as ``(B*N, C, *s)``.
"""

from __future__ import annotations

from .batch_rules import batch_size, front

__all__ = ["native_batch_norm", "native_group_norm"]

_BN_UNBATCHED_STATS = (
    "Batch norm got a batched tensor as input while the running_mean or running_var, which "
    "will be updated in place, were not batched.\nIf you are using a module and do not need "
    "eval mode, please set `track_running_stats` to be False.If you are using a prebuilt "
    "module and do not need eval mode, please see the functorch website for resources on "
    "how to patch your module to work with vmap"
)


def _affine(out, weight, weight_dim, bias, bias_dim, batch_at: int):
    """``out * weight + bias`` for ``out`` batched at ``batch_at`` with its channels at dim
    2; a batched parameter ``(B, C)`` lines its batch up with ``out``'s."""
    trailing = (1,) * (out.ndim - 3)
    for p, d, add in ((weight, weight_dim, False), (bias, bias_dim, True)):
        if p is None:
            continue
        if d is None:
            p = p.reshape((p.shape[0], *trailing))
        else:
            p = front(p, d)
            p = p.reshape((p.shape[0], *(1,) * (1 - batch_at), p.shape[1], *trailing))
        out = out + p if add else out * p
    return out


def native_batch_norm(spec, args, dims):
    input, weight, bias, running_mean, running_var, training, momentum, eps = args
    if dims[0] is None:
        return NotImplemented  # only parameters or statistics batched: once per sample
    size = batch_size(args, dims)
    stats_batched = dims[3] is not None or dims[4] is not None
    for stat, d in ((running_mean, dims[3]), (running_var, dims[4])):
        if training and stat is not None and d is None:
            raise RuntimeError(_BN_UNBATCHED_STATS)
    if stats_batched and training:
        return NotImplemented  # the in-place update must reach each sample's buffer
    x = front(input, dims[0])  # (B, N, C, *s)
    n, c, spatial = x.shape[1], x.shape[2], tuple(x.shape[3:])
    folded = x.transpose(0, 1).reshape((n, size * c, *spatial))
    stats = []
    for stat, d in ((running_mean, dims[3]), (running_var, dims[4])):
        if stat is None:
            stats.append(None)
        elif d is None:
            stats.append(stat.repeat(size))
        else:
            stats.append(front(stat, d).reshape(size * c))
    out, mean, invstd = spec.run((folded, None, None, *stats, training, momentum, eps))
    out = out.view((n, size, c, *spatial))
    out = _affine(out, weight, dims[1], bias, dims[2], 1)
    return (out.transpose(0, 1), mean.view((size, c)), invstd.view((size, c))), 0


def native_group_norm(spec, args, dims):
    input, weight, bias, n, c, hxw, group, eps = args
    if dims[0] is None:
        return NotImplemented
    size = batch_size(args, dims)
    x = front(input, dims[0])  # (B, N, C, *s)
    folded = x.reshape((size * n, *x.shape[2:]))
    out, mean, invstd = spec.run((folded, None, None, size * n, c, hxw, group, eps))
    out = out.view(tuple(x.shape))
    out = _affine(out, weight, dims[1], bias, dims[2], 0)
    return (out, mean.view((size, n, group)), invstd.view((size, n, group))), 0

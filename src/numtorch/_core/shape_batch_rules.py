"""Batching rules of the backward ops that rebuild an input from its shape: a view's
gradient scattered back (``diagonal_backward``, ``unfold_backward``) and the embedding
table's gradient (``embedding_dense_backward``)."""

from __future__ import annotations

from ..backend import xp
from .batch_rules import batch_size, front, front_or_expand, shift
from .tensor import Tensor

__all__ = ["embedding_dense_backward", "into_shape"]


def into_shape(shape_name: str, *dim_names: str):
    """The gradient batched in front and the shape ``(B, *input_shape)``; the dims named
    ``dim_names`` index the input and shift past the batch."""

    def rule(spec, args, dims):
        if any(d is not None for d in dims[1:]):
            return NotImplemented
        k = spec.index[shape_name]
        shape = tuple(args[k])
        if not shape:
            return NotImplemented
        new = list(args)
        new[0] = front(args[0], dims[0])
        new[k] = (new[0].shape[0], *shape)
        for name in dim_names:
            i = spec.index[name]
            new[i] = shift(args[i], len(shape))
        return spec.run(tuple(new)), 0

    return rule


def embedding_dense_backward(spec, args, dims):
    """Each sample's rows go to its own table: the indices are offset by the sample's number
    times the table size, and one table ``(B*V, D)`` is filled."""
    grad, indices, num_weights, padding_idx, scale_grad_by_freq = args
    size = batch_size(args, dims)
    g = front_or_expand(grad, dims[0], size)
    idx = front_or_expand(indices, dims[1], size)
    offsets = Tensor._make(xp.arange(size, dtype=xp.int64) * num_weights)
    idx = idx + offsets.reshape((size, *(1,) * (idx.ndim - 1)))
    out = spec.run((g, idx, size * num_weights, -1, scale_grad_by_freq))
    out = out.view((size, num_weights, out.shape[-1]))
    if padding_idx is not None and padding_idx >= 0:
        keep = xp.ones((num_weights, 1), out._data.dtype)
        keep[padding_idx] = 0
        out = out * Tensor._make(keep)
    return out, 0

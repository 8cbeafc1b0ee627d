"""Batching rules of the ops that write or read at flat or advanced indices: ``index_put``,
``take``, ``put``. The batch goes in front of the input; each sample's indices address its
own row (a leading full slice, or the sample's row of a flattened ``(B, numel)`` view).
"""

from __future__ import annotations

from ..backend import xp
from .batch_rules import batch_size, front, front_or_expand
from .tensor import Tensor

__all__ = ["index_put", "put", "take"]


def _advanced_together(key) -> bool:
    """Whether the array entries of ``key`` stand next to each other (then a leading full
    slice keeps the batch in front of the indexed result, as NumPy places it)."""
    arrays = [i for i, k in enumerate(key) if isinstance(k, xp.ndarray)]
    return not arrays or arrays[-1] - arrays[0] + 1 == len(arrays)


def index_put(spec, args, dims):
    input, key, values, accumulate = args
    if not isinstance(key, tuple) or not _advanced_together(key):
        return NotImplemented
    size = batch_size(args, dims)
    x = front_or_expand(input, dims[0], size)
    if dims[0] is None:
        x = x.clone()  # each sample writes into its own copy of the shared input
    if dims[2] is not None:
        # the sample's values broadcast against the indexed result: pad them to its rank
        stand_in = xp.lib.stride_tricks.as_strided(
            xp.zeros((), bool), x.shape[1:], (0,) * (x.ndim - 1)
        )
        rank = stand_in[key].ndim
        v = front(values, dims[2])
        values = v.reshape((size, *(1,) * (rank - (v.ndim - 1)), *v.shape[1:]))
    return spec.run((x, (slice(None), *key), values, accumulate)), 0


def _flat_index(index, d, size: int, numel: int):
    """``(B, k)`` indices into a ``(B, numel)`` view, negative ones wrapped as torch does."""
    idx = front_or_expand(index, d, size).reshape((size, -1))
    return idx + (idx < 0).to(idx.dtype) * numel


def take(spec, args, dims):
    input, index = args
    size = batch_size(args, dims)
    x = front_or_expand(input, dims[0], size).reshape((size, -1))
    shape = (size, *index.shape) if dims[1] is None else front(index, dims[1]).shape
    return x.gather(1, _flat_index(index, dims[1], size, x.shape[1])).reshape(shape), 0


def put(spec, args, dims):
    input, index, source, accumulate = args
    size = batch_size(args, dims)
    x = front_or_expand(input, dims[0], size)
    shape = x.shape
    flat = x.reshape((size, -1))
    idx = _flat_index(index, dims[1], size, flat.shape[1])
    src = front_or_expand(source, dims[2], size).reshape((size, -1))
    rows = Tensor._make(xp.arange(size).reshape(size, 1))
    return flat.index_put((rows, idx), src, accumulate=accumulate).reshape(shape), 0

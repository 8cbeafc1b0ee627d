"""``repeat_interleave``: each element (or slice along ``dim``) repeated in place.

Composed as torch composes it, so its grad_fn matches: an int count expands a new dim and
views the copy back (``ViewBackward0``); a tensor of counts gathers with ``index_select``
(``IndexSelectBackward0``)."""

from __future__ import annotations

from .._tensor import Tensor, _wrap_dim
from ..backend import xp
from .registry import export


def _indices(repeats: Tensor) -> Tensor:
    counts = repeats._data
    if counts.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if counts.dtype.kind not in "iu":
        raise RuntimeError("repeats has to be Long or Int tensor")
    if counts.size and counts.min() < 0:
        raise RuntimeError("repeats can not be negative")
    return Tensor._make(xp.repeat(xp.arange(counts.size, dtype=xp.int64), counts))


@export
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None) -> Tensor:
    """Repeat each element ``repeats`` times (a count, or one count per element).

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([1, 2]).repeat_interleave(2)
        tensor([1, 1, 2, 2])
    """
    if repeats is None:  # torch.repeat_interleave(counts): the indices they describe
        return _indices(input)
    if dim is None:
        input = input.flatten()
        dim = 0
    dim = _wrap_dim(dim, max(input.ndim, 1))
    if isinstance(repeats, Tensor) and repeats.ndim > 0:
        if repeats.numel() == 1:
            repeats = int(repeats.item())
        else:
            if repeats.shape[0] != input.shape[dim]:
                raise RuntimeError("repeats must have the same size as input along dim")
            return input.index_select(dim, _indices(repeats))
    count = int(repeats)
    if count < 0:
        raise RuntimeError("repeats can not be negative")
    shape = list(input.shape)
    expanded = input.unsqueeze(dim + 1)
    sizes = list(expanded.shape)
    sizes[dim + 1] = count
    shape[dim] *= count
    return expanded.expand(sizes).contiguous().view(shape)

"""``torch.embedding_bag``: ATen's form of ``F.embedding_bag``, with its three bookkeeping
outputs besides the bags (torch's CPU kernels fill them differently per mode)."""

from __future__ import annotations

from ._core.tensor import Tensor
from .backend import xp
from .nn.functional.sparse import embedding_bag as _embedding_bag
from .ops.nn.embedding_bag import _bags

_MODE_NAMES = {0: "sum", 1: "mean", 2: "max"}


def embedding_bag(
    weight,
    indices,
    offsets,
    scale_grad_by_freq=False,
    mode=0,
    sparse=False,
    per_sample_weights=None,
    include_last_offset=False,
    padding_idx=None,
):
    """(bags, offset2bag, bag_size, max_indices), as ``torch.embedding_bag``: ``mode`` 0, 1,
    2 for sum, mean, max. ``offset2bag`` is each index's bag (empty on the plain sum's fast
    path), ``bag_size`` the indices counted per bag (zeros for sums), ``max_indices`` the
    weight row each maximum came from (max), the bag sizes again (mean) or zeros (sum).

    Example:
        >>> import numtorch as torch
        >>> w = torch.arange(8.0).view(4, 2)
        >>> out, offset2bag, size, rows = torch.embedding_bag(
        ...     w, torch.tensor([0, 3, 1]), torch.tensor([0, 2]), False, 2)
        >>> out, rows
        (tensor([[6., 7.],
                [2., 3.]]), tensor([[3, 3],
                [1, 1]]))
    """
    for name, value in (("indices", indices), ("offsets", offsets)):
        if not isinstance(value, Tensor):
            position = 2 if name == "indices" else 3
            raise TypeError(
                f"embedding_bag(): argument '{name}' (position {position}) must be Tensor, not "
                f"{type(value).__name__}"
            )
    if mode not in _MODE_NAMES:
        raise RuntimeError(
            f"embedding_bag: unknown mode {mode}: expected 0 (sum), 1 (mean) or 2 (max)"
        )
    out = _embedding_bag(
        indices,
        weight,
        offsets,
        scale_grad_by_freq=scale_grad_by_freq,
        mode=_MODE_NAMES[mode],
        sparse=sparse,
        per_sample_weights=per_sample_weights,
        include_last_offset=include_last_offset,
        padding_idx=padding_idx,
    )
    idx = indices._data.reshape(-1)
    bag, num_bags = _bags(idx, offsets._data, include_last_offset)
    padding = -1 if padding_idx is None else padding_idx % weight.shape[0]
    valid = idx != padding
    zeros = xp.zeros(num_bags, xp.int64)
    fast = mode == 0 and padding_idx is None  # torch's sum kernel skips the bookkeeping
    offset2bag = xp.zeros(0, xp.int64) if fast else bag.astype(xp.int64)
    if mode == 0:
        return out, _tensor(offset2bag), _tensor(zeros), _tensor(zeros.copy())
    bag_size = xp.bincount(bag[valid], minlength=num_bags).astype(xp.int64)
    if mode == 1:
        return out, _tensor(offset2bag), _tensor(bag_size), _tensor(bag_size.copy())
    return (
        out,
        _tensor(offset2bag),
        _tensor(bag_size),
        _tensor(_max_rows(weight, idx, bag, valid, num_bags)),
    )


def _max_rows(weight, idx, bag, valid, num_bags):
    """Per bag and column, the first weight row holding the bag's maximum (0 if none)."""
    rows = xp.zeros((num_bags, weight.shape[1]), xp.int64)
    values = weight._data
    for b in range(num_bags):
        members = idx[(bag == b) & valid]
        if members.size:
            rows[b] = members[xp.argmax(values[members], axis=0)]
    return rows


def _tensor(array) -> Tensor:
    return Tensor._make(array)

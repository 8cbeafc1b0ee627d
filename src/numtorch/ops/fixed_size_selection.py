"""``nonzero_static``: the indices of the nonzero elements in a result of fixed size, cut
or padded with ``fill_value`` (for code that needs shapes known before it runs)."""

from __future__ import annotations

from .._core.op import export
from .._core.tensor import Tensor
from ..backend import xp


@export
def nonzero_static(input, *, size=None, fill_value: int = -1) -> Tensor:
    """``nonzero(input)`` as a (size, ndim) tensor: the first ``size`` rows, then rows of
    ``fill_value``.

    Example:
        >>> import numtorch as torch
        >>> torch.nonzero_static(torch.tensor([0, 3, 0, 5]), size=3)
        tensor([[ 1],
                [ 3],
                [-1]])
    """
    if size is None:
        raise TypeError('nonzero_static() missing 1 required positional arguments: "size"')
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    found = xp.argwhere(input._data)[:size]
    result = xp.full((size, input.ndim), fill_value, dtype=xp.int64)
    result[: len(found)] = found
    return Tensor._make(result)

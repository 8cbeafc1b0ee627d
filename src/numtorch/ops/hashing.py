"""hash_tensor: an xor of the elements' 64-bit patterns, as torch's (mode 0)."""

from __future__ import annotations

from .._core import dtypes, unsigned
from .._core.meta import refuse_meta
from .._core.op import export
from .._core.tensor import Tensor
from ..backend import xp
from .reduction import reduce_dims


@export
def hash_tensor(input, dim=None, *, keepdim=False, mode=0) -> Tensor:
    """The xor of the elements (over ``dim``, or all), each widened to a 64-bit float or
    integer and read as uint64. Returns a uint64 tensor without gradient.

    Example:
        >>> import numtorch as torch
        >>> torch.hash_tensor(torch.tensor([1.0, 2.0]))
        tensor(9218868437227405312, dtype=torch.uint64)
    """
    refuse_meta("hash_tensor", input)
    if mode != 0:
        raise RuntimeError(f"Unknown hash_tensor mode: {mode}")
    d = input.dtype
    if d.is_complex:
        raise NotImplementedError(f"\"xor_sum_cpu\" not implemented for '{d.scalar_name}'")
    unsigned.refuse("xor_sum_cpu", d)
    data = input._data
    dims = reduce_dims(dim, data.ndim) if dim is not None and dim != [] else None
    if data.size == 0:
        if dims is None:
            raise RuntimeError(
                "hash_tensor: Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        for k in dims:
            if data.shape[k] == 0:
                raise IndexError(f"hash_tensor: Expected reduction dim {k} to have non-zero size.")
    wide = xp.float64 if d.is_floating_point else xp.int64
    bits = data.astype(wide, order="C").view(xp.uint64)
    axes = tuple(range(data.ndim)) if dims is None else dims
    out = xp.bitwise_xor.reduce(bits, axis=axes, keepdims=keepdim)
    dtypes.note_dtype(dtypes.uint64)
    return Tensor._make(xp.asarray(out, dtype=xp.uint64))

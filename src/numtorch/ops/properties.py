"""Questions about a tensor and its dtype: ``is_nonzero``, ``is_signed``, ``is_same_size``,
``can_cast``, the device and memory flags (``is_cpu``, ``layout``, ``is_pinned``,
``is_shared``) that a CPU-only library answers trivially; ``share_memory_`` moves the data
into shared memory (Note in ``_shared_memory``)."""

from __future__ import annotations

from .. import _shared_memory
from .._core import dtypes as _dtypes
from .._core.inplace import _can_cast
from .._core.meta import MetaArray
from .._core.op import FUNCTIONS, export
from .._core.tensor import Tensor


class layout:
    """A memory layout; numtorch has only ``torch.strided`` (dense tensors)."""

    def __init__(self, name: str):
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"


strided = layout("strided")
FUNCTIONS["layout"] = layout
FUNCTIONS["strided"] = strided


@export
def is_nonzero(input) -> bool:
    """Whether a one-element tensor holds a value other than zero."""
    n = input._data.size
    if n != 1:
        what = "no values" if n == 0 else "more than one value"
        raise RuntimeError(f"Boolean value of Tensor with {what} is ambiguous")
    return bool(input._data.reshape(-1)[0] != 0)


@export
def is_signed(input) -> bool:
    """Whether the dtype can hold negative values (False for uint8 and bool)."""
    return input._data.dtype.kind not in "ub"


@export
def is_same_size(input, other) -> bool:
    return input._data.shape == other._data.shape


@export(method=False)
def can_cast(from_, to) -> bool:
    """Whether torch's casting rules allow ``from_`` to ``to`` in an in-place op (no float
    to integer, no complex to real, nothing but bool to bool).

    Example:
        >>> import numtorch as torch
        >>> torch.can_cast(torch.int32, torch.float32), torch.can_cast(torch.float32, torch.int32)
        (True, False)
    """
    for position, (name, value) in enumerate((("from_", from_), ("to", to)), 1):
        if not isinstance(value, _dtypes.dtype):
            raise TypeError(
                f"can_cast(): argument '{name}' (position {position}) must be torch.dtype, not "
                f"{type(value).__name__}"
            )
    return _can_cast(from_, to)


@export(method=False)
def get_device(input) -> int:
    """-1: the device index of a CPU tensor."""
    return -1


def _share_memory_(self) -> Tensor:
    if not isinstance(self._data, MetaArray):  # a meta tensor has no memory to share
        _shared_memory.share(self)
    return self


def _pin_memory(self, device=None) -> Tensor:
    raise RuntimeError("Cannot access accelerator device when none is available.")


Tensor.is_cpu = property(lambda self: self._data.__class__ is not MetaArray)
Tensor.layout = property(lambda self: strided)
Tensor.is_mkldnn = property(lambda self: False)
Tensor.is_nested = property(lambda self: False)
Tensor.is_pinned = lambda self, device=None: False
Tensor.pin_memory = _pin_memory
Tensor.share_memory_ = _share_memory_
Tensor.is_shared = lambda self: _shared_memory.mapping_of(self._data) is not None

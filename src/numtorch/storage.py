"""``torch.UntypedStorage`` and ``torch.TypedStorage``: the memory under a tensor and its
views, as bytes or as elements of the tensor's dtype (``Tensor.untyped_storage()``,
``Tensor.storage()``). Both share memory with the tensor: writes are seen by it."""

from __future__ import annotations

from . import _shared_memory
from ._core import dtypes
from ._core.device import device
from ._core.tensor import Tensor
from ._core.warn_once import warn_once
from .backend import xp


def _owner_bytes(array):
    """The whole buffer ``array`` is a view of, as a flat uint8 array sharing its memory."""
    root = array
    while isinstance(root.base, xp.ndarray):
        root = root.base
    if not root.flags.c_contiguous:
        root = xp.ascontiguousarray(root)
    return root.reshape(-1).view(xp.uint8)


class _Storage:
    def __init__(self, array):
        self._array = array

    def __len__(self) -> int:
        return self.size()

    def size(self) -> int:
        return int(self._array.shape[0])

    def nbytes(self) -> int:
        return int(self._array.nbytes)

    def element_size(self) -> int:
        return int(self._array.itemsize)

    def tolist(self) -> list:
        return self._array.tolist()

    def __iter__(self):
        return iter(self.tolist())

    def _index(self, index):
        if isinstance(index, slice):
            return index
        index = int(index)
        size = self.size()
        if not -size <= index < size:
            raise IndexError(f"index {index} out of range for storage of size {size}")
        return index

    def __getitem__(self, index):
        item = self._array[self._index(index)]
        return type(self)(item.copy()) if isinstance(index, slice) else item.item()

    def __setitem__(self, index, value):
        if not self._array.flags.writeable:
            raise RuntimeError("this storage's memory is read-only (a NumPy array owns it)")
        self._array[self._index(index)] = value

    @property
    def device(self):
        return device("cpu")

    def is_shared(self) -> bool:
        return _shared_memory.mapping_of(self._array) is not None

    is_sparse = False

    def data_ptr(self) -> int:
        return int(self._array.__array_interface__["data"][0])

    def cpu(self):
        return self


class UntypedStorage(_Storage):
    """The bytes under a tensor (``Tensor.untyped_storage()``)."""

    def __repr__(self) -> str:
        body = "\n".join(f" {b}" for b in self.tolist())
        return f"{body}\n[torch.storage.UntypedStorage(device=cpu) of size {self.size()}]"


class TypedStorage(_Storage):
    """The elements under a tensor, of its dtype (``Tensor.storage()``; deprecated in torch)."""

    def __init__(self, data=0, *, dtype=None, device=None):
        # a tensor's elements (an array), or torch's constructors: a size (zero-filled here,
        # uninitialised in torch) or a sequence of values, of dtype (the default float dtype)
        if not isinstance(data, xp.ndarray):
            np_dtype = (dtype or dtypes.get_default_dtype()).np
            if isinstance(data, int):
                data = xp.zeros(data, np_dtype)
            else:
                data = xp.asarray(list(data), np_dtype)
        super().__init__(data)
        self.dtype = dtypes.from_numpy_dtype(data.dtype)

    def untyped(self) -> UntypedStorage:
        return UntypedStorage(self._array.view(xp.uint8))

    def _size(self) -> int:
        return self.size()

    def __repr__(self) -> str:
        body = "\n".join(f" {v}" for v in self.tolist())
        return (
            f"{body}\n[torch.storage.TypedStorage(dtype={self.dtype}, device=cpu) of size "
            f"{self.size()}]"
        )


def untyped_storage(self) -> UntypedStorage:
    return UntypedStorage(_owner_bytes(self._data))


def storage(self) -> TypedStorage:
    warn_once(
        "TypedStorage is deprecated. It will be removed in the future and UntypedStorage "
        "will be the only storage class. This should only matter to you if you are using "
        "storages directly.  To access UntypedStorage directly, use tensor.untyped_storage() "
        "instead of tensor.storage()"
    )
    raw = _owner_bytes(self._data)
    usable = raw.shape[0] - raw.shape[0] % self._data.itemsize
    return TypedStorage(raw[:usable].view(self._data.dtype))


Tensor.untyped_storage = untyped_storage
Tensor.storage = storage

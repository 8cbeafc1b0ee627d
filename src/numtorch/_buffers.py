"""Tensors over memory that other objects own: ``frombuffer`` (the Python buffer protocol)
and ``from_dlpack``/``to_dlpack`` (the DLPack protocol), sharing that memory as torch does."""

from __future__ import annotations

import ctypes

from ._core import dtypes as _dtypes
from ._core.tensor import Tensor
from ._core.warn_once import warn_once
from ._creation import from_numpy
from .backend import xp

__all__ = ["from_dlpack", "frombuffer", "to_dlpack"]

_READ_ONLY_WARNING = (
    "The given buffer is not writable, and PyTorch does not support non-writable tensors. "
    "This means you can write to the underlying (supposedly non-writable) buffer using the "
    "tensor. You may want to copy the buffer to protect its data or make it writable before "
    "converting it to a tensor. This type of warning will be suppressed for the rest of this "
    "program."
)


def frombuffer(buffer, *, dtype=None, count: int = -1, offset: int = 0, requires_grad=False):
    """A 1-D tensor over ``buffer``'s memory (an object with the buffer protocol): ``count``
    elements of ``dtype`` from byte ``offset`` (all that remain when ``count`` is -1).

    Example:
        >>> import numtorch as torch
        >>> data = bytearray(b"\\x01\\x02\\x03\\x04")
        >>> t = torch.frombuffer(data, dtype=torch.uint8, offset=1)
        >>> data[1] = 9
        >>> t
        tensor([9, 3, 4], dtype=torch.uint8)
    """
    if dtype is None:
        raise TypeError('frombuffer() missing 1 required positional arguments: "dtype"')
    dt = _dtypes.to_dtype(dtype)
    try:
        view = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    length = view.nbytes
    size = dt.np.itemsize
    if length <= 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(
            f"offset ({offset} bytes) must be non-negative and no greater than buffer length "
            f"({length} bytes) minus 1"
        )
    if count < 0:
        if (length - offset) % size:
            raise ValueError(
                f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be "
                f"a multiple of element size ({size})"
            )
        count = (length - offset) // size
    elif offset + count * size > length:
        raise ValueError(
            f"requested buffer length ({count} * {size} bytes) after offset ({offset} bytes) "
            f"must not be greater than actual buffer length ({length} bytes)"
        )
    array = xp.frombuffer(view.cast("B"), dtype=dt.np, count=count, offset=offset)
    if not array.flags.writeable:
        # torch shares read-only memory and lets writes through; NumPy refuses them, so the
        # tensor gets a copy (torch's warning still says the buffer is not writable)
        warn_once(_READ_ONLY_WARNING)
        array = array.copy()
    return Tensor._make(array).requires_grad_(requires_grad)


class _Capsule:
    """A bare DLPack capsule presented as an exporter, the form NumPy reads."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **_):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0


def from_dlpack(ext_tensor) -> Tensor:
    """A tensor sharing memory with an object that speaks DLPack (a NumPy array, a tensor)
    or with a DLPack capsule.

    Example:
        >>> import numpy as np
        >>> import numtorch as torch
        >>> a = np.zeros(2)
        >>> t = torch.from_dlpack(a)
        >>> a[0] = 3.0
        >>> t
        tensor([3., 0.], dtype=torch.float64)
    """
    if isinstance(ext_tensor, Tensor):
        ext_tensor = ext_tensor._data
    elif not hasattr(ext_tensor, "__dlpack__"):
        if type(ext_tensor).__name__ != "PyCapsule":
            raise RuntimeError(
                "from_dlpack received an invalid capsule. Note that DLTensor capsules can be "
                "consumed only once, so you might have already constructed a tensor from it once."
            )
        return from_numpy(_writable(xp.from_dlpack(_Capsule(ext_tensor))))
    return from_numpy(xp.from_dlpack(ext_tensor))


def _writable(array):
    """The memory of an array NumPy imported read-only from a legacy DLPack capsule, as a
    writable array: such a capsule has no read-only flag and torch writes through it. The
    new array's buffer keeps the imported one (and so the capsule's owner) alive."""
    if array.flags.writeable or array.size == 0:
        return array
    spans = [(n - 1) * s for n, s in zip(array.shape, array.strides)]
    low = sum(min(0, d) for d in spans)
    high = sum(max(0, d) for d in spans) + array.itemsize
    start = array.__array_interface__["data"][0] + low
    buffer = (ctypes.c_char * (high - low)).from_address(start)
    buffer._owner = array
    return xp.ndarray(array.shape, array.dtype, buffer, -low, array.strides)


def _check_exportable(tensor: Tensor) -> None:
    if tensor.requires_grad:
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")


def to_dlpack(tensor: Tensor):
    """A DLPack capsule over ``tensor``'s memory (consumed once, by ``from_dlpack``)."""
    if not isinstance(tensor, Tensor):
        raise TypeError(
            f"to_dlpack(): argument 'tensor' must be Tensor, not {type(tensor).__name__}"
        )
    return tensor._data.__dlpack__()


def _tensor_dlpack(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    _check_exportable(self)
    return self._data.__dlpack__()


def _tensor_dlpack_device(self):
    return (1, 0)


# the protocol's two methods on Tensor, so that NumPy and other libraries import tensors
Tensor.__dlpack__ = _tensor_dlpack
Tensor.__dlpack_device__ = _tensor_dlpack_device

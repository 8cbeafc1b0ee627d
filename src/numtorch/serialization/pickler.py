"""Writing torch's checkpoint pickle (protocol 2, as torch.save) for the objects numtorch saves.

Written opcode by opcode rather than with ``pickle.Pickler``: a tensor must be named as
``torch._utils._rebuild_tensor_v2`` and a dtype as ``torch.float32``, which the stock
pickler only writes for objects it can import under those names. Plain data, tensors,
parameters, dtypes, Size, device, OrderedDict (with a state dict's ``_metadata``) and
``nn.Module`` instances (their class by module path, their ``__dict__`` as state, as
torch writes them) are written directly; any other object by its pickle reduction, as
the stock pickler writes it (refused by type and path where it has none).
"""

from __future__ import annotations

import pickle
import struct
import sys
import types
from collections import OrderedDict

import numpy as np

from .._core.dtypes import dtype
from .._core.tensor import Size, Tensor
from .._creation import device
from .unpickler import STORAGE_NAMES

_BATCH = 1000


def _long(x: int) -> bytes:
    """Two's-complement little-endian bytes of ``x``, as pickle's LONG1 opcode holds."""
    if x == 0:
        return b""
    data = x.to_bytes((x.bit_length() >> 3) + 1, "little", signed=True)
    if x < 0 and len(data) > 1 and data[-1] == 0xFF and data[-2] & 0x80:
        data = data[:-1]
    return data


class Writer:
    """One pickle; ``storages`` maps each storage key to the contiguous array it holds."""

    def __init__(self) -> None:
        self.parts: list[bytes] = [b"\x80\x02"]
        self.memo: dict[int, int] = {}
        self.keep: list = []  # keeps memoized ids valid
        self.storages: dict[str, np.ndarray] = {}
        self._storage_keys: dict[int, str] = {}

    def dumps(self, obj) -> bytes:
        self.save(obj, "")
        self.parts.append(b".")
        return b"".join(self.parts)

    # -- memo -----------------------------------------------------------------------------
    def _put(self, obj) -> None:
        index = len(self.memo)
        self.memo[id(obj)] = index
        self.keep.append(obj)
        w = self.parts.append
        w(b"q" + bytes([index]) if index < 256 else b"r" + struct.pack("<I", index))

    def _get(self, obj) -> bool:
        index = self.memo.get(id(obj))
        if index is None:
            return False
        w = self.parts.append
        w(b"h" + bytes([index]) if index < 256 else b"j" + struct.pack("<I", index))
        return True

    def _global(self, module: str, name: str) -> None:
        self.parts.append(f"c{module}\n{name}\n".encode())

    # -- values ---------------------------------------------------------------------------
    def save(self, obj, path: str) -> None:
        w = self.parts.append
        if obj is None:
            w(b"N")
        elif obj is True or obj is False:
            w(b"\x88" if obj else b"\x89")
        elif type(obj) is int:
            self._int(obj)
        elif type(obj) is float:
            w(b"G" + struct.pack(">d", obj))
        elif type(obj) is str:
            data = obj.encode("utf-8", "surrogatepass")
            w(b"X" + struct.pack("<I", len(data)) + data)
        elif isinstance(obj, (np.bool_, np.number)) and np.ndim(obj) == 0:
            self.save(obj.item(), path)
        elif self._get(obj):
            pass
        elif isinstance(obj, Tensor):
            self._tensor(obj, path)
        elif isinstance(obj, dtype):
            self._global("torch", str(obj).removeprefix("torch."))
        else:
            self._object(obj, path)

    def _int(self, x: int) -> None:
        if 0 <= x < 256:
            self.parts.append(b"K" + bytes([x]))
        elif 0 <= x < 65536:
            self.parts.append(b"M" + struct.pack("<H", x))
        elif -(2**31) <= x < 2**31:
            self.parts.append(b"J" + struct.pack("<i", x))
        else:
            data = _long(x)
            if len(data) < 256:
                self.parts.append(b"\x8a" + bytes([len(data)]) + data)
            else:
                self.parts.append(b"\x8b" + struct.pack("<i", len(data)) + data)

    def _object(self, obj, path: str) -> None:
        w = self.parts.append
        kind = type(obj)
        if kind in (bytes, bytearray):  # as protocol 2 does: from latin-1 text
            self._global("_codecs" if kind is bytes else "builtins",
                         "encode" if kind is bytes else "bytearray")  # fmt: skip
            self.save(obj.decode("latin1"), path)
            if kind is bytes:
                self.save("latin1", path)
            w(b"\x86R" if kind is bytes else b"\x85R")
        elif kind is complex:
            self._global("builtins", "complex")
            self.save(obj.real, path)
            self.save(obj.imag, path)
            w(b"\x86R")
        elif kind is Size:
            self._global("torch", "Size")
            self._tuple(tuple(obj), path)
            w(b"\x85R")
        elif kind is tuple:
            self._tuple(obj, path)
            return  # a tuple is memoized after its items, as pickle does
        elif kind is device:
            self._global("torch", "device")
            self.save(str(obj), path)
            w(b"\x85R")
        elif kind is set:
            self._global("builtins", "set")
            self._list(list(obj), path, memo=False)
            w(b"\x85R")
        elif kind is list:
            self._list(obj, path)
            return
        elif kind is dict:
            w(b"}")
            self._put(obj)
            self._items(obj, path)
            return
        elif kind is OrderedDict:
            self._global("collections", "OrderedDict")
            w(b")R")
            self._put(obj)
            self._items(obj, path)
            if vars(obj):  # a state dict's _metadata
                self.save(dict(vars(obj)), path)
                w(b"b")
            return
        elif _is_module(obj):
            self._reference(kind, path)
            w(b")\x81")
            self._put(obj)
            self.save(obj.__getstate__(), path)
            w(b"b")
            return
        elif isinstance(obj, (type, types.FunctionType, types.BuiltinFunctionType)):
            self._reference(obj, path)
        else:
            self._reduced(obj, path)
            return
        self._put(obj)

    def _reduced(self, obj, path: str) -> None:
        """Any other object as the stock pickler (and so torch.save) writes it, from its
        ``__reduce_ex__(2)``: a class and arguments (NEWOBJ) or a callable and arguments
        (REDUCE), then its list items, dict items and state (BUILD). A NumPy array, an
        argparse Namespace or a dataclass of settings saved beside the weights lands here."""
        w = self.parts.append
        kind = type(obj)
        try:
            reduced = obj.__reduce_ex__(2)
        except Exception as error:
            raise TypeError(
                f"numtorch.save: cannot store an object of type {kind.__module__}."
                f"{kind.__qualname__} at '{path or '<root>'}': {error}"
            ) from None
        if isinstance(reduced, str):  # a module-level singleton, named as a global
            self._reference(obj, path)
            self._put(obj)
            return
        func, args, state, list_items, dict_items = (*reduced, None, None, None)[:5]
        if getattr(func, "__name__", "") == "__newobj__":  # copyreg's: cls.__new__(cls, *args)
            self._reference(args[0], path)
            self._tuple(tuple(args[1:]), path)
            w(b"\x81")
        else:
            self._reference(func, path)
            self._tuple(tuple(args), path)
            w(b"R")
        self._put(obj)
        if list_items is not None:
            self._list_items(list(list_items), path)
        if dict_items is not None:
            self._items(dict(dict_items), path)
        if state is not None:
            self.save(state, path)
            w(b"b")

    def _list_items(self, items: list, path: str) -> None:
        for start in range(0, len(items), _BATCH):
            self.parts.append(b"(")
            for i, item in enumerate(items[start : start + _BATCH], start):
                self.save(item, _join(path, i))
            self.parts.append(b"e")

    def _tuple(self, items: tuple, path: str) -> None:
        if not items:
            self.parts.append(b")")
            return
        if len(items) > 3:
            self.parts.append(b"(")
        for i, item in enumerate(items):
            self.save(item, _join(path, i))
        self.parts.append(b"t" if len(items) > 3 else (b"\x85", b"\x86", b"\x87")[len(items) - 1])

    def _list(self, items: list, path: str, memo: bool = True) -> None:
        self.parts.append(b"]")
        if memo:
            self._put(items)
        self._list_items(items, path)

    def _items(self, mapping: dict, path: str) -> None:
        items = list(mapping.items())
        for start in range(0, len(items), _BATCH):
            self.parts.append(b"(")
            for key, value in items[start : start + _BATCH]:
                self.save(key, path)
                self.save(value, _join(path, key))
            self.parts.append(b"u")

    def _reference(self, obj, path: str) -> None:
        module, name = getattr(obj, "__module__", None), getattr(obj, "__qualname__", "")
        target = sys.modules.get(module or "")
        for part in name.split("."):
            target = getattr(target, part, None)
        if target is not obj:
            # torch.save raises what Python's pickle raises for it (its type changes across
            # Python versions); pickling a class or function by reference only looks it up
            pickle.dumps(obj)
            raise pickle.PicklingError(
                f"Can't pickle {obj!r} at '{path or '<root>'}': only objects importable by "
                "their name can be stored"
            )
        self._global(module, name)

    # -- tensors --------------------------------------------------------------------------
    def _tensor(self, tensor: Tensor, path: str) -> None:
        w = self.parts.append
        if tensor.is_quantized:
            self._quantized(tensor, path)
            return
        parameter = _is_parameter(tensor)
        if parameter:
            self._global("torch._utils", "_rebuild_parameter")
            w(b"(")
        self._global("torch._utils", "_rebuild_tensor_v2")
        w(b"(")
        storage_class = STORAGE_NAMES[tensor._data.dtype.newbyteorder("=")]
        self._storage_view(tensor._data, storage_class, path)
        self.save(bool(tensor.requires_grad) and not parameter, path)
        self._global("collections", "OrderedDict")
        w(b")RtR")
        if parameter:
            self.save(bool(tensor.requires_grad), path)
            self._global("collections", "OrderedDict")
            w(b")RtR")
        self._put(tensor)

    def _quantized(self, tensor: Tensor, path: str) -> None:
        """A quantized tensor as torch writes one: ``_rebuild_qtensor`` over a QInt8Storage
        (or QUInt8/QInt32) of its integers, with the scheme, scale and zero point."""
        w = self.parts.append
        params = tensor._q
        if params.per_channel:
            raise TypeError(
                f"numtorch.save: the per-channel quantized tensor at '{path or '<root>'}' "
                "cannot be stored yet; save its int_repr() and q_per_channel_* instead"
            )
        self._global("torch._utils", "_rebuild_qtensor")
        w(b"(")
        self._storage_view(tensor._data, params.dtype._tag.replace("Tensor", "Storage"), path)
        self._global("torch", params.qscheme.name)
        self.save(float(params.scale), path)
        self.save(int(params.zero_point), path)
        w(b"\x87")
        self.save(False, path)
        self._global("collections", "OrderedDict")
        w(b")RtR")
        self._put(tensor)

    def _storage_view(self, array: np.ndarray, storage_class: str, path: str) -> None:
        """The arguments every torch tensor rebuild starts with: the persistent reference
        to ``array``'s storage (("storage", torch.<storage_class>, key, "cpu", numel)), then
        the storage offset, the size and the strides."""
        w = self.parts.append
        key, numel, offset, strides = self._storage(array, path)
        w(b"(")
        self.save("storage", path)
        self._global("torch", storage_class)
        for value in (key, "cpu", numel):
            self.save(value, path)
        w(b"tQ")
        self.save(offset, path)
        self._tuple(tuple(array.shape), path)
        self._tuple(strides, path)

    def _storage(self, array: np.ndarray, path: str):
        if array.dtype.newbyteorder("=") not in STORAGE_NAMES or array.dtype.byteorder == ">":
            raise TypeError(f"numtorch.save: tensor at '{path or '<root>'}' has dtype "
                            f"{array.dtype}, which a torch checkpoint cannot hold")  # fmt: skip
        root = array
        while isinstance(root.base, np.ndarray):
            root = root.base
        item = array.itemsize
        start = array.__array_interface__["data"][0] - root.__array_interface__["data"][0]
        shared = (
            array.size > 0
            and root.dtype == array.dtype
            and root.flags.c_contiguous
            and start >= 0
            and start % item == 0
            and all(s >= 0 and s % item == 0 for s in array.strides)
        )
        if not shared:
            root = np.ascontiguousarray(array).reshape(-1)
            start = 0
            strides = tuple(s // item for s in root.reshape(array.shape).strides)
        else:
            strides = tuple(s // item for s in array.strides)
        key = self._storage_keys.get(id(root))
        if key is None:
            key = self._storage_keys[id(root)] = str(len(self.storages))
            self.storages[key] = root
            self.keep.append(root)
        return key, root.size, start // item, strides


def _join(path: str, key) -> str:
    return f"{path}.{key}" if path else str(key)


def _is_parameter(obj) -> bool:
    from ..nn.parameter import Parameter  # nn imports this package: resolve late

    return isinstance(obj, Parameter)


def _is_module(obj) -> bool:
    from ..nn import Module

    return isinstance(obj, Module)

"""The restricted unpickler that reads torch.save files: allow-listed globals only.

# Note [What a torch checkpoint may run]
# A pickle is a program whose only way to run code is through the globals it names, so
# ``find_class`` decides everything, as in torch's ``weights_only`` unpickler:
#   - tensors, parameters, storages, dtypes, Size, device, OrderedDict, set, complex,
#     bytes and bytearray resolve to numtorch's own rebuild functions (methods of the
#     unpickler, so nothing a file does to them outlives its load); storages are read
#     from the archive within the byte budget;
#   - classes a user allows with ``torch.serialization.add_safe_globals`` and, when the
#     caller passes ``weights_only=False`` (where torch would run anything), numtorch's nn
#     classes and torch's nn classes of the same name resolve to a stand-in class:
#     the pickle builds an inert placeholder, which cannot be called; when the whole file
#     has been read each placeholder becomes an instance of the real class and gets its
#     state through ``__setstate__`` (or a ``__dict__`` update). No ``__init__``, no
#     ``__reduce__``, no method of the class runs while the file is being read;
#   - NumPy arrays, scalars and dtypes, with ``weights_only=False`` or when allowed, resolve
#     to numpy_values' rebuilds (numeric and bool dtypes only);
#   - anything else is refused by name, with torch's message.
# Shared objects handed to a pickle (dtypes, allow-listed functions) are checked after
# the load: a BUILD that altered one is undone and the load refused.
"""

from __future__ import annotations

import _compat_pickle
import codecs
import io
import math
import os
import pickle
import pickletools
import sys
import types
from collections import Counter, OrderedDict

import ml_dtypes
import numpy as np

from .._core.dtypes import ALL_DTYPES, QUANTIZED_DTYPES, qint8, qint32, quint8
from .._core.tensor import Size, Tensor
from .._creation import device
from .._quantized.tensor import QUANT_RANGE, QParams, QuantizedTensor, adopt, per_tensor_affine
from . import allowlist, numpy_values
from .errors import Budget, UnpicklingError, UnsafeFileError

STORAGE_DTYPES = {
    "DoubleStorage": np.float64,
    "FloatStorage": np.float32,
    "HalfStorage": np.float16,
    "LongStorage": np.int64,
    "IntStorage": np.int32,
    "ShortStorage": np.int16,
    "CharStorage": np.int8,
    "ByteStorage": np.uint8,
    "BoolStorage": np.bool_,
    "ComplexDoubleStorage": np.complex128,
    "ComplexFloatStorage": np.complex64,
    "BFloat16Storage": ml_dtypes.bfloat16,
}
STORAGE_NAMES = {np.dtype(v): k for k, v in STORAGE_DTYPES.items()}
# quantized tensors' storages hold their integers (Note [Quantized tensors])
QUANTIZED_STORAGES = {"QInt8Storage": qint8, "QUInt8Storage": quint8, "QInt32Storage": qint32}
_DTYPES = {f"torch.{str(d).removeprefix('torch.')}": d for d in ALL_DTYPES + QUANTIZED_DTYPES}
_DTYPE_SLOTS = ("name", "np", "is_floating_point", "is_complex", "is_signed", "itemsize")


class _Frozen:
    """Markers a pickle can name but not change (a BUILD on one fails)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "name", name)

    def __setattr__(self, *_):
        raise AttributeError("read-only")

    def __repr__(self) -> str:
        return f"<{self.name}>"


class StorageType(_Frozen):
    __slots__ = ()


class Storage(_Frozen):
    """One storage of a checkpoint; its array is kept by the unpickler, not on the object."""

    __slots__ = ()


_TENSOR, _PARAMETER = _Frozen("torch.Tensor"), _Frozen("torch.nn.parameter.Parameter")
_MARKERS = {"torch.Tensor": _TENSOR, "torch.nn.parameter.Parameter": _PARAMETER}
_MARKERS |= {f"torch.{n}": StorageType(n) for n in (*STORAGE_DTYPES, *QUANTIZED_STORAGES)}


# Note [Metering a pickle]
# A pickle byte can build an object a hundred times its size (EMPTY_SET, APPEND), and the
# C unpickler runs opcodes without calling back. It does read its input through ``peek``
# and ``read`` every few dozen KiB, so the input is a reader that measures the process's
# memory at each call (its resident size where /proc tells it, else the interpreter's
# allocated blocks at 256 bytes each) and ends the load once the growth passes the
# storages read so far plus the budget's object allowance (40 MiB by default: a
# checkpoint of some 15,000 tensors). The unpickler turns an UnpicklingError raised in
# ``read`` into "Ran out of input", so the reader keeps its own error for the caller.
BLOCK_COST = 256


def _memory() -> int:
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return sys.getallocatedblocks() * BLOCK_COST


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class MeteredReader(io.RawIOBase):
    """A pickle's bytes, read by the unpickler under the budget (Note [Metering a pickle]);
    the bytes are read in place, never copied whole."""

    def __init__(self, data, budget: Budget) -> None:
        self._view = memoryview(data).cast("B")
        self._position = 0
        self._budget = budget
        self._start = _memory()
        self._left = budget.left
        self._allowance = budget.object_allowance()
        self.failure: UnsafeFileError | None = None

    def _check(self) -> None:
        storages = self._left - self._budget.left  # what the budget already paid for
        if _memory() - self._start > self._allowance + storages:
            self.failure = UnsafeFileError(
                f"{self._budget.where}: its pickle builds more Python objects than this load "
                f"may allocate ({self._allowance:,} bytes); if you trust the file, pass a "
                "larger max_bytes to load()"
            )
            raise self.failure

    def readable(self) -> bool:
        return True

    def peek(self, n=0):
        self._check()
        return self._view[self._position : self._position + max(n, 1)].tobytes()

    def read(self, n=-1):
        data = self.peek(len(self._view) if n is None or n < 0 else n)
        self._position += len(data)
        return data

    def readinto(self, buffer):
        self._check()
        target = memoryview(buffer).cast("B")
        chunk = self._view[self._position : self._position + len(target)]
        target[: len(chunk)] = chunk
        self._position += len(chunk)
        return len(chunk)

    def readline(self, size=-1):
        self._check()
        end = len(self._view) if size is None or size < 0 else self._position + size
        line = bytearray()
        while self._position < min(end, len(self._view)) and not line.endswith(b"\n"):
            line += self._view[self._position : self._position + 1]
            self._position += 1
        return bytes(line)


class _PendingBase:
    """What an allow-listed class's instance is while the file is read."""

    def __setstate__(self, state):
        type(self).builds.append((self, state))


def unsupported_global(path: str, where: str, weights_only: bool) -> UnpicklingError:
    """torch's refusal, naming the file; nothing of the global was imported or run."""
    even = "" if weights_only else (
        " numtorch never runs code a file names, even with weights_only=False: beyond "
        "tensors, plain data and numtorch's nn modules, it rebuilds only allowed classes."
    )  # fmt: skip
    return UnpicklingError(
        f"{where}: Unsupported global: GLOBAL {path} was not an allowed global by default."
        f"{even} Please use `torch.serialization.add_safe_globals([{path}])` or the "
        f"`torch.serialization.safe_globals([{path}])` context manager to allowlist this "
        "global if you trust this class/function."
    )


class RestrictedUnpickler(pickle.Unpickler):
    """Unpickles one torch checkpoint pickle; ``storage(key, dtype, numel, location)`` gives
    each storage's 1-D array."""

    def __init__(self, file, storage, where: str, weights_only: bool) -> None:
        super().__init__(file, encoding="latin1")
        self._load_storage = storage
        self._where = where
        self._weights_only = weights_only
        self._storages: dict[int, tuple[Storage, np.ndarray]] = {}
        self._quantized_storages: dict[int, object] = {}  # storage id -> quantized dtype
        self._made: list[tuple[Tensor, np.ndarray]] = []
        self._resolved: dict[str, object] = {}
        self._guarded: dict[int, tuple[object, tuple]] = {}
        self._pending = type("Pending", (_PendingBase,), {"builds": []})
        self._placeholders: list[tuple[object, type]] = []
        self._user = allowlist.user_globals()
        self._numpy = numpy_values.Rebuilds(where).by_path
        self._functions = {
            "collections.OrderedDict": self._ordered_dict,
            "collections.Counter": self._counter,
            "torch._utils._rebuild_tensor": self._rebuild_tensor,
            "torch._utils._rebuild_tensor_v2": self._rebuild_tensor_v2,
            "torch._utils._rebuild_qtensor": self._rebuild_qtensor,
            "torch._utils._rebuild_parameter": self._rebuild_parameter,
            "torch._utils._rebuild_parameter_with_state": self._rebuild_parameter_with_state,
            "torch._tensor._rebuild_from_type_v2": self._rebuild_from_type_v2,
            "torch.Size": self._size,
            "torch.device": self._device,
            "_codecs.encode": self._encode,
            "builtins.set": self._set,
            "builtins.bytearray": self._bytearray,
            "builtins.bytes": self._bytes,
            "builtins.complex": self._complex,
        }

    # -- resolving globals ------------------------------------------------------------------
    def find_class(self, module: str, name: str):
        # protocol 2 (torch's) writes Python 2 names, as torch's reader maps them
        module, name = _compat_pickle.NAME_MAPPING.get((module, name), (module, name))
        module = _compat_pickle.IMPORT_MAPPING.get(module, module)
        path = f"{module}.{name}"
        found = self._resolved.get(path)
        if found is None:
            found = self._resolved[path] = self._resolve(path)
        return found

    def _resolve(self, path: str):
        if path in self._functions:
            return self._functions[path]
        if path in _MARKERS:
            return _MARKERS[path]
        if path in _DTYPES:
            return self._guard(_DTYPES[path])
        if path == "torch.per_tensor_affine":
            return self._guard(per_tensor_affine)
        if path in self._numpy:  # allowed as torch allows them, rebuilt by numpy_values
            if self._weights_only and path not in self._user:
                raise unsupported_global(path, self._where, self._weights_only)
            return self._numpy[path]
        target = self._user.get(path)
        if target is None and not self._weights_only:  # torch would run any class then
            target = allowlist.builtin_class(path)
        if target is None:
            raise unsupported_global(path, self._where, self._weights_only)
        if isinstance(target, type):
            return self._stand_in(target)
        return self._guard(target)

    def _guard(self, obj):
        self._guarded.setdefault(id(obj), (obj, _snapshot(obj)))
        return obj

    def _stand_in(self, cls: type) -> type:
        unpickler = self

        def __new__(stand_in, *args, **kwargs):
            if args or kwargs:
                raise UnsafeFileError(
                    f"{unpickler._where}: the file rebuilds {cls.__module__}."
                    f"{cls.__qualname__} with constructor arguments; numtorch only restores "
                    "allow-listed objects from their state, never by calling them"
                )
            placeholder = object.__new__(unpickler._pending)
            unpickler._placeholders.append((placeholder, cls))
            return placeholder

        return type(cls.__name__, (), {"__new__": __new__, "__module__": cls.__module__})

    # -- storages and tensors ---------------------------------------------------------------
    def persistent_load(self, pid):
        if isinstance(pid, tuple) and len(pid) == 4 and pid[0] == "module":
            # a pre-1.6 file names a module's class with its source; the class was allowed
            # (and stood in for) when the pickle named it, and its source is never used
            if not any(pid[1] is found for found in self._resolved.values()):
                raise UnsafeFileError(f"{self._where}: malformed module reference")
            return pid[1]
        if not (isinstance(pid, tuple) and len(pid) in (5, 6) and pid[0] == "storage"):
            raise UnsafeFileError(f"{self._where}: unsupported persistent id {str(pid)[:80]}")
        kind, key, location, numel = pid[1:5]
        if not (isinstance(kind, StorageType) and isinstance(key, str)) or pid[5:] not in (
            (),
            (None,),
        ):  # a legacy view of part of a storage: never written since torch 1.0
            raise UnsafeFileError(f"{self._where}: malformed storage reference {str(pid)[:80]}")
        quantized = QUANTIZED_STORAGES.get(kind.name)
        if kind.name not in STORAGE_DTYPES and quantized is None:
            raise UnsafeFileError(f"{self._where}: the file holds a torch.{kind.name}, which "
                                  "numtorch cannot hold; convert it in PyTorch first (e.g. "
                                  "tensor.float())")  # fmt: skip
        if not (_is_int(numel) and numel >= 0 and isinstance(location, str)):
            raise UnsafeFileError(f"{self._where}: malformed storage reference {str(pid)[:80]}")
        np_dtype = quantized.np if quantized is not None else np.dtype(STORAGE_DTYPES[kind.name])
        array = self._load_storage(key, np_dtype, numel, location)
        storage = Storage(key)
        self._storages[id(storage)] = (storage, array)
        if quantized is not None:
            self._quantized_storages[id(storage)] = quantized
        return storage

    def _storage_array(self, storage) -> np.ndarray:
        entry = self._storages.get(id(storage))
        if entry is None or entry[0] is not storage:
            raise UnsafeFileError(f"{self._where}: a tensor is rebuilt from {type(storage)}, "
                                  "not from a storage of the file")  # fmt: skip
        return entry[1]

    def _rebuild_tensor(self, storage, storage_offset, size, stride):
        return self._rebuild_tensor_v2(storage, storage_offset, size, stride, False, None)

    def _rebuild_tensor_v2(self, storage, storage_offset, size, stride, requires_grad,
                           backward_hooks, metadata=None):  # fmt: skip
        array = self._storage_array(storage)
        size, stride = tuple(size), tuple(stride)
        if not (
            _is_int(storage_offset)
            and storage_offset >= 0
            and len(size) == len(stride) <= 64
            and all(_is_int(n) and n >= 0 for n in size)
            and all(_is_int(s) and s >= 0 for s in stride)
            and isinstance(requires_grad, bool)
        ):
            raise UnsafeFileError(
                f"{self._where}: malformed tensor (offset {storage_offset!r}, size "
                f"{str(size)[:60]}, stride {str(stride)[:60]})"
            )
        if math.prod(size):
            last = storage_offset + sum((n - 1) * s for n, s in zip(size, stride))
            if last >= array.size:
                raise UnsafeFileError(
                    f"{self._where}: a tensor of size {list(size)} and stride {list(stride)} "
                    f"at offset {storage_offset} reaches element {last:,} of a storage of "
                    f"{array.size:,}"
                )
            # a view whose base is the storage array itself, so that storage_offset() and
            # sharing between tensors of one storage survive the load
            item = array.itemsize
            data = np.ndarray(size, array.dtype, buffer=array, offset=storage_offset * item,
                              strides=[s * item for s in stride])  # fmt: skip
        else:
            data = np.empty(size, dtype=array.dtype)
        if requires_grad and data.dtype.kind not in "fc":
            raise UnsafeFileError(f"{self._where}: a {data.dtype} tensor cannot require grad")
        tensor = Tensor._make(data)
        self._made.append((tensor, data))
        if requires_grad:
            tensor.requires_grad_(True)
        return tensor

    def _rebuild_qtensor(self, storage, storage_offset, size, stride, quantizer_params,
                         requires_grad, backward_hooks):  # fmt: skip
        """A per-tensor quantized tensor over a QInt8/QUInt8/QInt32 storage of the file."""
        dtype = self._quantized_storages.get(id(storage))
        params = quantizer_params
        if not (
            dtype is not None
            and isinstance(params, tuple)
            and len(params) == 3
            and params[0] is per_tensor_affine
            and isinstance(params[1], float)
            and _is_int(params[2])
            and QUANT_RANGE[dtype][0] <= params[2] <= QUANT_RANGE[dtype][1]
            and requires_grad is False
        ):
            raise UnsafeFileError(
                f"{self._where}: malformed or unsupported quantized tensor (numtorch reads "
                "per-tensor affine quantized tensors of QInt8/QUInt8/QInt32 storages)"
            )
        tensor = self._rebuild_tensor_v2(storage, storage_offset, size, stride, False, None)
        tensor.__class__ = QuantizedTensor
        tensor._q = QParams(dtype, per_tensor_affine, params[1], params[2])
        adopt(tensor)
        return tensor

    def _rebuild_parameter(self, data, requires_grad, backward_hooks):
        from ..nn.parameter import Parameter  # nn imports this package: resolve late

        if not (isinstance(data, Tensor) and isinstance(requires_grad, bool)):
            raise UnsafeFileError(f"{self._where}: malformed parameter")
        parameter = Parameter(data, requires_grad=requires_grad)
        self._made.append((parameter, data._data))
        return parameter

    def _rebuild_parameter_with_state(self, data, requires_grad, backward_hooks, state):
        parameter = self._rebuild_parameter(data, requires_grad, backward_hooks)
        _set_attributes(parameter, state, self._where)
        return parameter

    def _rebuild_from_type_v2(self, func, new_type, args, state):
        if getattr(func, "__self__", None) is not self or not isinstance(args, tuple):
            raise UnsafeFileError(f"{self._where}: malformed tensor rebuild {func!r}")
        if new_type is not _TENSOR and new_type is not _PARAMETER:
            raise UnsafeFileError(f"{self._where}: tensor subclass {new_type!r} is not allowed")
        tensor = func(*args)
        _set_attributes(tensor, state, self._where)
        return tensor

    # -- plain values -----------------------------------------------------------------------
    def _ordered_dict(self, *args):
        return OrderedDict(*args)

    def _counter(self, *args):
        return Counter(*args)

    def _size(self, sizes=()):
        return Size(sizes)

    def _device(self, *args):
        return device(*args)

    def _encode(self, text, encoding="latin1"):
        if not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
            raise UnsafeFileError(f"{self._where}: malformed bytes")
        return codecs.encode(text, "latin1")

    def _set(self, items=()):
        return set(items)

    def _bytes(self, *args):
        if args:  # protocol 2 writes only empty bytes this way; bytes(n) allocates n
            raise UnsafeFileError(f"{self._where}: malformed bytes")
        return b""

    def _bytearray(self, *args):
        if len(args) > 2 or (args and isinstance(args[0], int)):  # bytearray(n) allocates n
            raise UnsafeFileError(f"{self._where}: malformed bytearray")
        return bytearray(*args)

    def _complex(self, real=0.0, imag=0.0):
        if not all(isinstance(v, (int, float)) for v in (real, imag)):
            raise UnsafeFileError(f"{self._where}: malformed complex number")
        return complex(real, imag)

    # -- finishing ----------------------------------------------------------------------------
    def finish(self, result):
        """Turn placeholders into their classes' instances and check what the file touched."""
        try:
            for placeholder, cls in self._placeholders:
                try:
                    placeholder.__class__ = cls
                except TypeError:
                    raise UnsafeFileError(
                        f"{self._where}: {cls.__module__}.{cls.__qualname__} keeps its state "
                        "outside __dict__, so numtorch cannot restore it without running it"
                    ) from None
            for obj, state in self._pending.builds:
                _restore(obj, state)
            for tensor, data in self._made:
                if tensor._data is not data or tensor._grad_fn is not None:
                    raise UnsafeFileError(f"{self._where}: the file alters a tensor it built")
        finally:
            self._check_guarded()
        return result

    def _check_guarded(self) -> None:
        altered = [obj for obj, before in self._guarded.values() if _snapshot(obj) != before]
        for obj, before in self._guarded.values():
            _undo(obj, before)
        if altered:
            raise UnsafeFileError(f"{self._where}: the file alters {altered[0]!r}")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _snapshot(obj) -> tuple:
    if isinstance(obj, types.FunctionType):
        return (obj.__defaults__, obj.__kwdefaults__, tuple(obj.__dict__.items()))
    return tuple(getattr(obj, slot, None) for slot in _DTYPE_SLOTS)


def _undo(obj, before: tuple) -> None:
    if _snapshot(obj) == before:
        return
    if isinstance(obj, types.FunctionType):
        obj.__defaults__, obj.__kwdefaults__ = before[0], before[1]
        obj.__dict__.clear()
        obj.__dict__.update(before[2])
    else:
        for slot, value in zip(_DTYPE_SLOTS, before):
            object.__setattr__(obj, slot, value)


def _set_attributes(tensor, state, where: str) -> None:
    if state is None or state == {}:
        return
    if not isinstance(state, dict) or not all(
        isinstance(k, str) and not hasattr(type(tensor), k) for k in state
    ):
        raise UnsafeFileError(f"{where}: malformed tensor attributes")
    tensor.__dict__.update(state)


def _restore(obj, state) -> None:
    """pickle's BUILD, run on the real class once the whole file is read."""
    setstate = getattr(obj, "__setstate__", None)
    if setstate is not None:
        setstate(state)
        return
    slots = None
    if isinstance(state, tuple) and len(state) == 2:
        state, slots = state
    if state:
        obj.__dict__.update(state)
    for key, value in (slots or {}).items():
        setattr(obj, key, value)


def globals_refused(pickled: bytes, where: str) -> list[str]:
    """The globals a checkpoint's pickle names that a weights-only load refuses, in the
    order they first appear. The pickle is read as opcodes, never run: a global that only a
    running pickle would compute is not seen (as in torch)."""
    names: list[str] = []
    strings: list[str] = []  # the last strings pushed: STACK_GLOBAL's module and name
    memo: dict[int, object] = {}
    try:
        for opcode, arg, _ in pickletools.genops(pickled):
            if opcode.name == "GLOBAL":
                names.append(arg.replace(" ", "."))
            elif opcode.name == "STACK_GLOBAL" and len(strings) >= 2:
                names.append(f"{strings[-2]}.{strings[-1]}")
            elif isinstance(arg, str) and "UNICODE" in opcode.name:
                strings.append(arg)
            elif opcode.name in ("BINPUT", "LONG_BINPUT", "PUT") and strings:
                memo[arg] = strings[-1]
            elif opcode.name == "MEMOIZE" and strings:
                memo[len(memo)] = strings[-1]
            elif opcode.name in ("BINGET", "LONG_BINGET", "GET") and isinstance(memo.get(arg), str):
                strings.append(memo[arg])
    except (ValueError, pickle.UnpicklingError) as error:
        raise UnpicklingError(f"{where}: the checkpoint pickle is malformed ({error})") from None
    checker = RestrictedUnpickler(io.BytesIO(b""), None, where, weights_only=True)
    unsafe = []
    for path in dict.fromkeys(names):
        module, _, name = path.rpartition(".")
        try:
            checker.find_class(module, name)
        except UnpicklingError:
            unsafe.append(path)
    return unsafe

"""The legacy typed constructors: ``torch.FloatTensor``, ``torch.LongTensor``, ...

Old torch code builds tensors with ``torch.FloatTensor([1, 2])`` or ``torch.LongTensor(3)``,
converts with ``x.type(torch.LongTensor)`` and tests ``isinstance(x, torch.FloatTensor)``.
As in torch, these are classes whose instances are plain ``Tensor`` objects: calling one makes
a tensor of its dtype, and ``isinstance`` compares dtypes (they are not ``Tensor`` subclasses).
"""

from __future__ import annotations

import numbers

from ._core import dtypes as _dtypes
from ._core.tensor import Size, Tensor
from ._core.warn_once import warn_once
from .backend import xp

_SIGNATURES = (
    " * (*, torch.device device = None)\n"
    " * (torch.Storage storage)\n"
    " * (Tensor other)\n"
    " * (tuple of ints size, *, torch.device device = None)\n"
    " * (object data, *, torch.device device = None)\n"
)


def legacy_new(dtype: _dtypes.dtype, args: tuple, kwargs: dict) -> Tensor:
    """torch's legacy ``new()``: sizes, data, or another tensor of the same dtype."""
    from ._creation import check_device, empty, tensor

    unknown = [k for k in kwargs if k != "device"]
    if unknown:
        got = ", ".join(
            [type(a).__name__ for a in args] + [f"{k}={type(kwargs[k]).__name__}" for k in unknown]
        )
        raise TypeError(
            f"new() received an invalid combination of arguments - got ({got}), but expected "
            f"one of:\n{_SIGNATURES}"
        )
    check_device(kwargs.get("device"))
    if not args:
        return empty(0, dtype=dtype)
    if len(args) == 1:
        (data,) = args
        if isinstance(data, Tensor):
            if data.dtype is not dtype:
                raise TypeError(
                    f"expected {dtype._tag[: -len('Tensor')]} tensor (got {data.dtype} tensor); "
                    f"convert it first, e.g. x.to({dtype})"
                )
            return Tensor._make(data._data)
        if isinstance(data, Size):
            return _sized(dtype, tuple(data))
        if isinstance(data, str):
            raise TypeError("new(): invalid data type 'str'")
        if isinstance(data, numbers.Number) and not isinstance(data, numbers.Integral):
            raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
        if not isinstance(data, numbers.Integral):
            return tensor(data, dtype=dtype)
    if not all(isinstance(a, numbers.Integral) for a in args):
        names = ", ".join(type(a).__name__ for a in args)
        raise TypeError(
            f"new() received an invalid combination of arguments - got ({names}), but "
            f"expected one of:\n{_SIGNATURES}"
        )
    return _sized(dtype, tuple(int(a) for a in args))


def _legacy_init(self, *args, **kwargs):
    # torch.Tensor(2, 3) allocates; torch.Tensor([1, 2]) copies data in the default dtype.
    source = legacy_new(_dtypes.get_default_dtype(), args, kwargs)
    self._data = source._data
    self._requires_grad = False
    self._grad_fn = None
    self._base = None


Tensor.__init__ = _legacy_init


def _sized(dtype, sizes):
    for s in sizes:
        if s < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {s}: {list(sizes)}"
            )
    # torch leaves the memory uninitialised; zeros are one valid choice of "anything"
    return Tensor._make(xp.zeros(sizes, dtype=dtype.np))


class _LegacyTensorType(type):
    """Metaclass of the typed constructors: calling makes a tensor, isinstance checks dtype."""

    def __call__(cls, *args, **kwargs):
        if cls._device == "cuda":
            raise TypeError(
                f"type torch.cuda.{cls.__name__} not available. Torch not compiled with CUDA "
                "enabled (numtorch computes on the CPU only)."
            )
        return legacy_new(cls.dtype, args, kwargs)

    def __instancecheck__(cls, obj) -> bool:
        return (
            cls._device == "cpu"
            and isinstance(obj, Tensor)
            and obj.dtype is cls.dtype
            and not obj.is_sparse  # torch.sparse.FloatTensor's instances, not torch.FloatTensor's
        )

    def __repr__(cls) -> str:
        return f"<class '{cls.__module__}.{cls.__name__}'>"


def _make_type(d: _dtypes.dtype, device: str, module: str):
    return _LegacyTensorType(d._tag, (), {"dtype": d, "_device": device, "__module__": module})


# torch has no legacy classes for the wide unsigned dtypes (only their type() strings)
_LEGACY_DTYPES = [d for d in _dtypes.ALL_DTYPES if d not in _dtypes.WIDE_UNSIGNED]
CPU_TYPES = {d._tag: _make_type(d, "cpu", "torch") for d in _LEGACY_DTYPES}
CUDA_TYPES = {d._tag: _make_type(d, "cuda", "torch.cuda") for d in _LEGACY_DTYPES}


def dtype_of_type(value):
    """The dtype that ``x.type(value)`` converts to: a dtype, a legacy class or its name."""
    if isinstance(value, _LegacyTensorType):
        if value._device == "cuda":
            _no_cuda(value)
        return value.dtype
    if isinstance(value, str):
        module, _, tag = value.rpartition(".")
        if module == "torch" and tag in CPU_TYPES:
            return CPU_TYPES[tag].dtype
        wide = {d._tag: d for d in _dtypes.WIDE_UNSIGNED}  # strings only, as in torch
        if module == "torch" and tag in wide:
            return _dtypes.to_dtype(wide[tag])
        if module == "torch.cuda" and tag in CUDA_TYPES:
            _no_cuda(CUDA_TYPES[tag])
        raise ValueError(f"invalid type: '{value}'")
    if isinstance(value, _dtypes.dtype):
        return value
    raise ValueError(f"invalid type: '{getattr(value, '__name__', value)}'")


def _no_cuda(cls):
    raise RuntimeError(
        f"Cannot convert to torch.cuda.{cls.__name__}: torch was not compiled with CUDA "
        "(numtorch computes on the CPU only)"
    )


def set_default_tensor_type(t) -> None:
    """Deprecated: the default floating dtype from a legacy type (``torch.DoubleTensor``) or
    its name (``"torch.DoubleTensor"``)."""
    warn_once(  # once per program, as torch
        "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
        "torch.set_default_dtype() and torch.set_default_device() as alternatives.",
        stacklevel=2,
    )
    if isinstance(t, str) and t.startswith("torch.cuda."):
        raise TypeError(f"type {t} not available. Torch not compiled with CUDA enabled.")
    if isinstance(t, _LegacyTensorType) and t._device == "cuda":
        raise TypeError(
            f"type torch.cuda.{t.__name__} not available. Torch not compiled with CUDA enabled."
        )
    d = dtype_of_type(t)
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _dtypes.set_default_dtype(d)

"""Copies and casts: clone, contiguous, ``to``, ``type`` and the dtype shortcuts (``float()``,
``double()``, ...), ``cpu``/``cuda``."""

from __future__ import annotations

import warnings

from .._core import batch_rules, layouts
from .._core import dtypes as _dtypes
from .._core.meta import is_meta_device, metafy, no_data
from .._core.op import defop, export
from .._core.tensor import Tensor
from .._legacy_types import dtype_of_type
from ..autograd.forward_grad import batched
from ..backend import layout as dense_layout
from ..backend import xp


# -- copies and casts ------------------------------------------------------------------------
@defop(
    batch=batch_rules.pointwise,
    name="clone",
    input=lambda grad: grad,
    jvp="elementwise",
)
def _clone(input):
    return dense_layout.copy(input)  # torch's preserved layout, not NumPy's order="K"


@export
def clone(input, *, memory_format=None) -> Tensor:
    """A copy of the data that stays in the graph (its gradient flows to ``input``); strides
    are kept unless ``memory_format`` names a layout (Note [Channels last])."""
    name = layouts.format_name(memory_format)
    if name == "contiguous_format":
        return _clone_contiguous(input)
    if name in ("channels_last", "channels_last_3d"):
        layouts.check_rank(input._data.ndim, name)
        return _clone_channels_last(input, name)
    return _clone(input)


@export
def contiguous(input, memory_format=None) -> Tensor:
    name = layouts.format_name(memory_format)
    if name in ("channels_last", "channels_last_3d"):
        layouts.check_rank(input._data.ndim, name)
        if layouts.is_contiguous_as(input._data, name):
            return input
        return _clone_channels_last(input, name)
    return input if input._data.flags.c_contiguous else _clone_contiguous(input)


@defop(
    batch=batch_rules.pointwise,
    name="clone_channels_last",
    aten="clone",
    node="CloneBackward0",
    input=lambda grad: grad,
    jvp="elementwise",
)
def _clone_channels_last(input, name):
    return layouts.copy_as(input, name)


@defop(
    batch=batch_rules.pointwise,
    name="clone_contiguous",
    aten="clone",
    node="CloneBackward0",
    input=lambda grad: grad,
    jvp="elementwise",
)
def _clone_contiguous(input):
    return xp.array(input, order="C", copy=True)


def _to_copy_grad(grad, input_dtype):
    if grad._data.dtype.kind == "c" and not input_dtype.is_complex:
        grad = grad.real  # the gradient of a real input is real (no cast warning)
    return grad.to(input_dtype)


@batched
def _to_copy_jvp(input_t, dtype, layout=None):
    return _to_copy(input_t, dtype)


@defop(
    batch=batch_rules.pointwise,
    name="_to_copy",
    node="ToCopyBackward0",
    input=_to_copy_grad,
    jvp=_to_copy_jvp,
)
def _to_copy(input, dtype, layout=None):
    if input.dtype.kind == "c" and dtype is _dtypes.bool_:
        input = input != 0  # torch's bool of a complex number reads both parts
    elif input.dtype.kind == "c" and dtype.np.kind != "c":
        warnings.warn("Casting complex values to real discards the imaginary part", UserWarning, 2)
        input = input.real
    result = dense_layout.astype(input, dtype.np)
    return result if layout is None else layouts.copy_as(result, layout)


def _parse_to(args, kwargs):
    dtype = kwargs.pop("dtype", None)
    copy = kwargs.pop("copy", False)
    device = kwargs.pop("device", None)
    kwargs.pop("non_blocking", None)
    if kwargs:
        raise TypeError(f"to() got unexpected keyword arguments {list(kwargs)}")
    for a in args:
        if isinstance(a, Tensor):
            dtype = a.dtype
        elif isinstance(a, _dtypes.dtype):
            dtype = a
        elif isinstance(a, bool):
            copy = a
        elif a is not None:
            device = a
    if device is not None and not is_meta_device(device):
        from .._creation import check_device

        check_device(device)
    return dtype, copy, device


@export(function=False)
def to(input, *args, **kwargs) -> Tensor:
    """Convert dtype (``to(torch.float64)``) or device (``'cpu'`` only); returns ``input``
    itself when nothing changes."""
    name = layouts.format_name(kwargs.pop("memory_format", None))
    if name in ("channels_last", "channels_last_3d") and not input.is_meta:
        layouts.check_rank(input._data.ndim, name)
        dtype, copy, _ = _parse_to(args, kwargs)
        target = _dtypes.to_dtype(dtype or input.dtype)
        if target.np == input._data.dtype and not copy and layouts.has_layout(input._data, name):
            return input
        return _to_copy(input, target, name)  # as torch: a copy in that layout
    if name == "contiguous_format" and not input.is_meta and not input._data.flags.c_contiguous:
        dtype, _, _ = _parse_to(args, kwargs)
        return _to_copy(input, _dtypes.to_dtype(dtype or input.dtype), name)
    dtype, copy, device = _parse_to(args, kwargs)
    if device is not None and is_meta_device(device) != input.is_meta:
        if input.is_meta:  # to the CPU: there are no values to copy
            no_data()
        out = _to_copy(input, _dtypes.to_dtype(dtype or input.dtype))
        return metafy(out)
    if dtype is None or _dtypes.to_dtype(dtype).np == input._data.dtype:
        return clone(input) if copy else input
    return _to_copy(input, _dtypes.to_dtype(dtype))


def _caster(name, dtype):
    def cast(self, memory_format=None):
        return to(self, dtype)

    cast.__name__ = name
    cast.__doc__ = f"``self.to({dtype})``."
    setattr(Tensor, name, cast)


for _name, _dt in (
    ("float", _dtypes.float32),
    ("double", _dtypes.float64),
    ("half", _dtypes.float16),
    ("bfloat16", _dtypes.bfloat16),
    ("long", _dtypes.int64),
    ("int", _dtypes.int32),
    ("short", _dtypes.int16),
    ("char", _dtypes.int8),
    ("byte", _dtypes.uint8),
    ("bool", _dtypes.bool_),
    ("cfloat", _dtypes.complex64),
    ("cdouble", _dtypes.complex128),
):
    _caster(_name, _dt)


def _type(self, dtype=None, non_blocking=False, **kwargs):
    if dtype is None:
        dtype = kwargs.pop("dtype", None)
    if kwargs:
        raise TypeError(f"type() got unexpected keyword arguments {list(kwargs)}")
    if dtype is None:
        return f"torch.sparse.{self.dtype._tag}" if self.is_sparse else f"torch.{self.dtype._tag}"
    return to(self, dtype_of_type(dtype))


Tensor.type = _type
Tensor.cpu = lambda self, memory_format=None: no_data() if self.is_meta else self
Tensor.type_as = lambda self, other: to(self, other.dtype)


def _no_cuda(self, *args, **kwargs):
    raise AssertionError("Torch not compiled with CUDA enabled (numtorch runs on the CPU only)")


Tensor.cuda = _no_cuda


def _pin_memory(self, device=None):
    raise RuntimeError("Cannot access accelerator device when none is available.")


# CPU-only: memory is never pinned (DataLoader(pin_memory=True) leaves batches as they are)
Tensor.is_pinned = lambda self, device=None: False
Tensor.pin_memory = _pin_memory

"""Autocast around custom autograd Functions: ``custom_fwd`` and ``custom_bwd`` decorate a
Function's ``forward`` and ``backward`` so that backward runs with the autocast state
forward saw, and forward may cast its inputs (``cast_inputs``) and run with autocast off."""

from __future__ import annotations

import collections.abc
import functools

from .._core import dtypes as _dtypes
from .._core.tensor import Tensor
from ..backend import xp
from .autocast_mode import autocast, get_autocast_dtype, is_autocast_enabled

__all__ = ["custom_bwd", "custom_fwd", "is_autocast_available"]

# the device types torch's autocast knows; ``meta`` has none
_AUTOCAST_DEVICES = ("cpu", "cuda", "xpu", "mps", "hpu", "ipu", "xla", "mtia", "maia")
_DEVICE_TYPES = (*_AUTOCAST_DEVICES, "meta", "mkldnn", "opengl", "opencl", "ideep", "hip",
                 "ve", "fpga", "lazy", "vulkan", "privateuseone")  # fmt: skip


def is_autocast_available(device_type: str) -> bool:
    """Whether autocast exists for ``device_type`` (every device type torch builds it for)."""
    if device_type not in _DEVICE_TYPES:
        raise RuntimeError(
            f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start of device "
            f"string: {device_type}"
        )
    return device_type in _AUTOCAST_DEVICES


def _check_device_type(device_type) -> None:
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")


def _cast(value, dtype):
    """``value`` with its floating-point tensors (float64 aside) cast to ``dtype``, through
    lists, tuples and mappings."""
    if isinstance(value, Tensor):
        eligible = value.is_floating_point() and value.dtype is not _dtypes.float64
        return value.to(dtype) if eligible else value
    if isinstance(value, (str, bytes, xp.ndarray)):
        return value
    if isinstance(value, collections.abc.Mapping):
        return {_cast(k, dtype): _cast(v, dtype) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, dtype) for v in value)
    return value


def custom_fwd(fwd=None, *, device_type: str, cast_inputs=None):
    """Decorate a custom Function's ``forward``: it records the autocast state for
    ``custom_bwd``; with ``cast_inputs``, inside an autocast region it casts its floating
    inputs to that dtype and runs with autocast disabled.

    Example:
        >>> import numtorch as torch
        >>> class Double(torch.autograd.Function):
        ...     @staticmethod
        ...     @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
        ...     def forward(ctx, x):
        ...         return x * 2
        ...     @staticmethod
        ...     @torch.amp.custom_bwd(device_type="cpu")
        ...     def backward(ctx, grad):
        ...         return grad * 2
        >>> with torch.autocast("cpu"):
        ...     Double.apply(torch.ones(2, dtype=torch.bfloat16)).dtype
        torch.float32
    """
    _check_device_type(device_type)
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        ctx = args[0]
        ctx._dtype = get_autocast_dtype(device_type)
        if cast_inputs is None:
            ctx._fwd_used_autocast = is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        ctx._fwd_used_autocast = False
        if not is_autocast_enabled(device_type):
            return fwd(*args, **kwargs)
        with autocast(device_type=device_type, enabled=False):
            return fwd(*_cast(args, cast_inputs), **_cast(kwargs, cast_inputs))

    return decorate_fwd


def custom_bwd(bwd=None, *, device_type: str):
    """Decorate a custom Function's ``backward`` to run with the autocast state its
    ``forward`` (decorated by ``custom_fwd``) ran with."""
    _check_device_type(device_type)
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        ctx = args[0]
        with autocast(device_type=device_type, enabled=ctx._fwd_used_autocast, dtype=ctx._dtype):
            return bwd(*args, **kwargs)

    return decorate_bwd

"""``torch._C``, as far as Python code probes it: torch's C extension, which numtorch does
not have. Scripts and libraries call a handful of its functions to ask whether they are being
traced, to log API usage, to switch the TorchScript executor, or to set grad mode; each
answers as torch's CPU build does. Anything else is missing and says so."""

from __future__ import annotations

from ._core.grad_mode import is_grad_enabled, set_enabled
from ._core.tensor import Tensor
from ._generator import Generator
from .backends import cudnn
from .overrides import (
    DisableTorchFunction,
    DisableTorchFunctionSubclass,
    _disabled_torch_function_impl,
    _get_current_function_mode,
    _get_current_function_mode_stack,
    _is_torch_function_enabled,
    _is_torch_function_mode_enabled,
)
from .overrides import has_torch_function as _has_torch_function

# isinstance(x, torch._C.TensorBase) (and the older _TensorBase) holds for every tensor.
TensorBase = _TensorBase = Tensor
__all__ = [
    "DisableTorchFunction",
    "DisableTorchFunctionSubclass",
    "Generator",
    "TensorBase",
    "_disabled_torch_function_impl",
    "_get_current_function_mode",
    "_get_current_function_mode_stack",
    "_has_torch_function",
    "_is_torch_function_enabled",
    "_is_torch_function_mode_enabled",
    "is_grad_enabled",
]

_jit = {"profiling_executor": True, "profiling_mode": True}


def _get_tracing_state():
    """None: nothing is being traced (numtorch's ``jit.trace`` runs the function eagerly)."""
    return None


def _log_api_usage_once(event: str) -> None:
    """torch logs an API's first use to its telemetry hooks; numtorch logs nothing."""


def _set_grad_enabled(enabled: bool) -> None:
    if enabled.__class__ is not bool:
        raise TypeError(
            "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
            f"{type(enabled).__name__}"
        )
    set_enabled(enabled)


def _jit_set_profiling_executor(enabled: bool) -> bool:
    """Record the TorchScript executor setting; returns the previous one, as torch does."""
    previous, _jit["profiling_executor"] = _jit["profiling_executor"], bool(enabled)
    return previous


def _jit_set_profiling_mode(enabled: bool) -> bool:
    previous, _jit["profiling_mode"] = _jit["profiling_mode"], bool(enabled)
    return previous


def _jit_override_can_fuse_on_cpu(enabled: bool) -> None:
    """numtorch fuses nothing: accepted and ignored."""


def _jit_set_texpr_fuser_enabled(enabled: bool) -> None:
    """numtorch fuses nothing: accepted and ignored."""


def _get_graph_executor_optimize() -> bool:
    return True


def _get_cudnn_enabled() -> bool:
    return cudnn.enabled


def _get_privateuse1_backend_name() -> str:
    return "privateuseone"


def _get_default_device() -> str:
    return "cpu"


def __getattr__(name):
    raise AttributeError(
        f"torch._C.{name} is not supported by numtorch (numtorch has no C extension; "
        f"module 'numtorch._C' has no attribute '{name}')"
    )

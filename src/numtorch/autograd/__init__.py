"""torch.autograd: backward, grad, custom Functions, grad modes, gradcheck, anomaly mode."""

import importlib

from . import forward_checks, functional, graph  # noqa: F401
from .anomaly_mode import (
    detect_anomaly,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_anomaly_enabled,
    set_detect_anomaly,
)
from .api import backward, grad
from .engine import is_checkpoint_valid as _is_checkpoint_valid  # noqa: F401
from .function import Function, FunctionCtx, once_differentiable
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
    set_multithreading_enabled,
)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .variable import Variable


def __getattr__(name):
    # the profiler loads on first use (Note [Lazy submodules] in numtorch/__init__.py)
    if name in ("profiler", "profiler_util"):
        return importlib.import_module(f"{__name__}.{name}")
    if name == "DeviceType":
        return importlib.import_module(f"{__name__}.profiler_util").DeviceType
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# what `from ... import *` gives, and the names type checkers treat as this module's API
__all__ = [
    "Function",
    "FunctionCtx",
    "GradcheckError",
    "Variable",
    "backward",
    "detect_anomaly",
    "enable_grad",
    "functional",
    "grad",
    "gradcheck",
    "gradgradcheck",
    "graph",
    "inference_mode",
    "is_anomaly_check_nan_enabled",
    "is_anomaly_enabled",
    "is_grad_enabled",
    "no_grad",
    "once_differentiable",
    "set_anomaly_enabled",
    "set_detect_anomaly",
    "set_grad_enabled",
    "set_multithreading_enabled",
]

"""torch.autograd: backward, grad, custom Functions, grad modes, gradcheck, anomaly mode."""

import importlib
import sys

from .._core import anomaly_mode, forward_checks, grad_mode  # noqa: F401
from .._core.anomaly_mode import (
    detect_anomaly,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_anomaly_enabled,
    set_detect_anomaly,
)
from .._core.backward_run import is_checkpoint_valid as _is_checkpoint_valid  # noqa: F401
from .._core.grad_mode import (
    enable_grad,
    enforce_grad_layout_policy,
    inference_mode,
    is_grad_enabled,
    is_multithreading_enabled,
    is_view_replay_enabled,
    no_grad,
    set_grad_enabled,
    set_multithreading_enabled,
)
from .._tensor_queries import is_tensor_like
from . import functional, graph
from .api import backward, grad
from .function import Function, FunctionCtx, once_differentiable
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .variable import Variable

# torch.autograd.grad_mode and .anomaly_mode are public module paths; here they are the
# core's own modules, so importing them by either name gives the same objects.
for _name in ("anomaly_mode", "grad_mode"):
    sys.modules[f"{__name__}.{_name}"] = globals()[_name]


def __getattr__(name):
    # the profiler loads on first use (Note [Lazy submodules] in numtorch/__init__.py)
    if name in ("profiler", "profiler_util", "forward_ad"):
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
    "enforce_grad_layout_policy",
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
    "is_multithreading_enabled",
    "is_view_replay_enabled",
    "is_tensor_like",
]

"""torch.autograd: backward, grad, custom Functions, grad modes, gradcheck, anomaly mode."""

import importlib

from . import forward_checks, functional, graph  # noqa: F401
from .anomaly_mode import (  # noqa: F401
    detect_anomaly,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_anomaly_enabled,
    set_detect_anomaly,
)
from .api import backward, grad  # noqa: F401
from .engine import is_checkpoint_valid as _is_checkpoint_valid  # noqa: F401
from .function import Function, FunctionCtx, once_differentiable  # noqa: F401
from .grad_mode import (  # noqa: F401
    enable_grad,
    inference_mode,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
    set_multithreading_enabled,
)
from .gradcheck import GradcheckError, gradcheck, gradgradcheck  # noqa: F401
from .variable import Variable  # noqa: F401


def __getattr__(name):
    # the profiler loads on first use (Note [Lazy submodules] in numtorch/__init__.py)
    if name in ("profiler", "profiler_util", "forward_ad"):
        return importlib.import_module(f"{__name__}.{name}")
    if name == "DeviceType":
        return importlib.import_module(f"{__name__}.profiler_util").DeviceType
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

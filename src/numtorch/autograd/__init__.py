"""torch.autograd: backward, grad, custom Functions, grad modes, gradcheck, anomaly mode."""

from . import forward_checks, functional, graph, profiler  # noqa: F401
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
from .profiler_util import DeviceType  # noqa: F401
from .variable import Variable  # noqa: F401

"""torch.autograd.profiler, torch's public face of the profiler in ``numtorch.profiler``."""

from ..futures import Future  # noqa: F401 - torch.autograd.profiler imports it too
from ..profiler.autograd_profiler import (  # noqa: F401
    EventList,
    FunctionEvent,
    FunctionEventAvg,
    emit_itt,
    emit_nvtx,
    profile,
    record_function,
)

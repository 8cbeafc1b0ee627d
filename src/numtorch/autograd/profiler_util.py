"""torch.autograd.profiler_util: the profiler's event types (in ``numtorch.profiler.events``)."""

from ..profiler.events import (  # noqa: F401
    DeviceType,
    EventList,
    FunctionEvent,
    FunctionEventAvg,
    Interval,
)

"""torch.autograd.profiler: time every op, backward node and labelled range.

``profile()`` records each op (named like torch: ``aten::mm``), each backward node run
(``autograd::engine::evaluate_function: MmBackward0`` around ``MmBackward0`` around the
ops of its formula), ``AccumulateGrad``, and the ranges of ``record_function``. Results:
``prof.key_averages().table(sort_by="self_cpu_time_total")``, ``prof.events()``,
``export_chrome_trace``, ``export_stacks``. With the profiler off an op pays one flag
check. The recorder discounts its own time (Note [Profiler clock] in
``profiler.recorder``), and ``profile_memory`` counts the NumPy arrays ops return (Note
[Profiler memory]).

>>> import numtorch as torch
>>> x = torch.ones(2, 3, requires_grad=True)
>>> with torch.autograd.profiler.profile() as prof:
...     with torch.autograd.profiler.record_function("step"):
...         loss = (x * 2).sum()
...     loss.backward()
>>> rows = {e.key: e.count for e in prof.key_averages()}
>>> rows["MulBackward0"], rows["torch::autograd::AccumulateGrad"]
(1, 1)
>>> rows["aten::mul"]  # one in forward, one in MulBackward0's formula
2
"""

from __future__ import annotations

import functools
import warnings

from . import recorder as profiler_recorder
from .events import EventList, FunctionEvent, FunctionEventAvg  # noqa: F401
from .modules import install_module_hooks
from .recorder import Recorder, to_events

__all__ = ["EventList", "emit_itt", "emit_nvtx", "profile", "record_function"]


class profile:
    """Context manager that profiles the ops run inside it (CPU only).

    Args:
        enabled: ``False`` makes the context manager a no-op.
        record_shapes: keep each op's input shapes (``key_averages(group_by_input_shape=
            True)``, the trace's ``Input Dims``).
        profile_memory: count the bytes each op allocates and frees (CPU Mem columns).
        with_stack: keep the Python stack of each op (``export_stacks``, ``group_by_stack_n``).

    ``use_cuda``, ``use_device``, ``with_flops``, ``with_modules``, ``use_kineto`` and the
    other arguments of torch's signature are accepted; there is no device to profile, and
    modules are recorded whenever ``numtorch.nn`` is loaded (``group_by="module"``).

    >>> import numtorch as torch
    >>> with torch.autograd.profiler.profile(record_shapes=True) as prof:
    ...     y = torch.ones(2, 3).exp()
    >>> [(e.name, e.input_shapes) for e in prof.events()]
    [('aten::exp', [[2, 3]])]
    """

    def __init__(
        self,
        enabled: bool = True,
        *,
        use_cuda: bool = False,
        use_device=None,
        record_shapes: bool = False,
        with_flops: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_modules: bool = False,
        use_kineto: bool = False,
        use_cpu: bool = True,
        experimental_config=None,
        acc_events: bool = False,
        custom_trace_id_callback=None,
        post_processing_timeout_s=None,
        activity_filters=None,
    ):
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_flops = with_flops
        self.with_modules = with_modules
        if use_cuda or use_device not in (None, "cpu"):
            warnings.warn(
                "numtorch runs on the CPU only: profiling CPU activity", UserWarning, stacklevel=2
            )
        self.entered = False
        self._recorder = None
        self._hooks = []
        self._function_events = None

    def __enter__(self):
        if not self.enabled:
            return None  # as torch: ``with profile(enabled=False) as prof`` binds None
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        self._start()
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> bool:
        if self.enabled:
            self._stop()
        return False

    def _start(self) -> None:
        recorder = Recorder(self.record_shapes, self.profile_memory, self.with_stack)
        recorder.start()
        try:
            self._hooks = install_module_hooks()
        except BaseException:
            recorder.stop()
            raise
        self._recorder = recorder

    def _stop(self) -> None:
        recorder = self._recorder
        if recorder is None:
            return
        try:
            recorder.stop()
        finally:
            for handle in self._hooks:
                handle.remove()
            self._hooks = []
            self._recorder = None
        self._function_events = to_events(recorder)

    # -- results --

    @property
    def function_events(self) -> EventList:
        # before the profile ends there is nothing to report: an empty list, as torch
        if self._function_events is None:
            return EventList(profile_memory=self.profile_memory)
        return self._function_events

    def events(self) -> EventList:
        """Every recorded event, in the order the ranges began."""
        return self.function_events

    def key_averages(
        self,
        group_by_input_shape: bool = False,
        group_by_stack_n: int = 0,
        group_by_overload_name: bool = False,
        group_by: str | None = None,
    ) -> EventList:
        """Events summed per name (and input shapes, stack); a new list on every call.

        ``group_by="module"`` (beyond torch): one row per module or ``record_function``
        scope, backward time included (see ``profiler.modules``).
        """
        return self.function_events.key_averages(
            group_by_input_shape, group_by_stack_n, group_by=group_by
        )

    def table(self, sort_by=None, row_limit=100, header=None, **kwargs) -> str:
        """The table of every event (not averaged), as torch's ``profile.table``."""
        return self.function_events.table(
            sort_by=sort_by, row_limit=row_limit, header=header, **kwargs
        )

    def total_average(self) -> FunctionEventAvg:
        return self.function_events.total_average()

    @property
    def self_cpu_time_total(self) -> float:
        """Microseconds spent in the events, each counted once."""
        return self.function_events.self_cpu_time_total

    def export_chrome_trace(self, path: str) -> None:
        self.function_events.export_chrome_trace(path)

    def export_stacks(self, path: str, metric: str = "self_cpu_time_total") -> None:
        if not self.with_stack:
            raise AssertionError("export_stacks() requires with_stack=True")
        self.function_events.export_stacks(path, metric)

    def __str__(self) -> str:
        if self._function_events is None:
            return "<unfinished numtorch.autograd.profile>"
        return str(self._function_events)

    def __repr__(self) -> str:
        if self._function_events is None:
            return "<unfinished numtorch.autograd.profile>"
        return repr(self._function_events)


class record_function:
    """Label a range of code; it shows as an event (and a scope) while profiling.

    A context manager or a decorator. Costs one check when no profiler is active.

    >>> import numtorch as torch
    >>> @torch.autograd.profiler.record_function("double")
    ... def double(x):
    ...     return x * 2
    >>> with torch.autograd.profiler.profile() as prof:
    ...     y = double(torch.ones(2))
    >>> [(e.name, [c.name for c in e.cpu_children]) for e in prof.events()][0]
    ('double', ['aten::mul'])
    """

    def __init__(self, name: str, args: str | None = None):
        self.name = name
        self.args = args
        self._recorder = None
        self._range = None

    def __enter__(self):
        recorder = profiler_recorder.current
        if recorder is not None:
            self._recorder = recorder
            self._range = recorder.enter_label(self.name)
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> bool:
        r = self._range
        if r is not None:
            self._range = None
            if self._recorder.active:
                self._recorder.exit_label(r)
        return False

    def __call__(self, fn):
        # a fresh instance per call, so recursive and concurrent calls each get a range
        @functools.wraps(fn)
        def labelled(*args, **kwargs):
            with record_function(self.name, self.args):
                return fn(*args, **kwargs)

        return labelled


class emit_nvtx:
    """No-op on the CPU: torch emits NVTX ranges for Nsight here; numtorch has no GPU.

    Accepted so that torch code runs unchanged; use ``profile()`` for the timings.

    >>> import numtorch as torch
    >>> with torch.autograd.profiler.emit_nvtx():
    ...     y = torch.ones(2) + 1
    """

    def __init__(self, enabled: bool = True, record_shapes: bool = False):
        self.enabled = enabled
        self.record_shapes = record_shapes

    def __enter__(self):
        return self if self.enabled else None  # torch's disabled context gives None

    def __exit__(self, exc_type, exc_value, traceback) -> bool:
        return False


class emit_itt(emit_nvtx):
    """No-op on the CPU: torch emits Intel ITT ranges for VTune here.

    Accepted so that torch code runs unchanged; use ``profile()`` for the timings.

    >>> import numtorch as torch
    >>> with torch.autograd.profiler.emit_itt():
    ...     y = torch.ones(2) + 1
    """

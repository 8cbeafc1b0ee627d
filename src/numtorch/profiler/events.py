"""Profiler results: FunctionEvent, FunctionEventAvg and EventList, as in torch.

Times are in microseconds (floats); memory in bytes. Every statistic is computed on
demand from the recorded ranges and never stored back into them, so ``key_averages()``
and ``table()`` can be called any number of times, in any order, with the same result
(torch's #43869).

Self time excludes children: ``self_cpu_time_total + sum(c.cpu_time_total for c in
cpu_children) == cpu_time_total`` for every event. The same holds for memory.
"""

from __future__ import annotations

import enum
import itertools
from collections import defaultdict

MEMORY_EVENT_NAME = "[memory]"


class DeviceType(enum.IntEnum):
    """Where an event ran (torch.autograd.DeviceType); numtorch's events are all CPU."""

    CPU = 0
    CUDA = 1
    MKLDNN = 2
    OPENGL = 3
    OPENCL = 4
    IDEEP = 5
    HIP = 6
    FPGA = 7
    MAIA = 8
    XLA = 9
    Vulkan = 10
    Metal = 11
    XPU = 12
    MPS = 13
    Meta = 14
    HPU = 15
    VE = 16
    Lazy = 17
    IPU = 18
    MTIA = 19
    PrivateUse1 = 20

    def __str__(self) -> str:
        return f"DeviceType.{self.name}"


class Interval:
    """A time range in microseconds."""

    __slots__ = ("start", "end")

    def __init__(self, start: float, end: float):
        self.start = start
        self.end = end

    def elapsed_us(self) -> float:
        return self.end - self.start

    def __repr__(self) -> str:
        return f"Interval(start={self.start}, end={self.end})"


def _format_time(time_us: float) -> str:
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _format_memory(nbytes: int) -> str:
    kb, mb, gb = 1024, 1024**2, 1024**3
    if abs(nbytes) >= gb:
        return f"{nbytes / gb:.2f} GB"
    if abs(nbytes) >= mb:
        return f"{nbytes / mb:.2f} MB"
    if abs(nbytes) >= kb:
        return f"{nbytes / kb:.2f} KB"
    return f"{nbytes} B"


class _FormattedTimes:
    """``*_str`` views of the time statistics (torch's FormattedTimesMixin)."""

    @property
    def cpu_time(self) -> float:
        """Average CPU time per call."""
        return 0.0 if self.count == 0 else self.cpu_time_total / self.count

    @property
    def cpu_time_str(self) -> str:
        return _format_time(self.cpu_time)

    @property
    def cpu_time_total_str(self) -> str:
        return _format_time(self.cpu_time_total)

    @property
    def self_cpu_time_total_str(self) -> str:
        return _format_time(self.self_cpu_time_total)

    # CPU only: device statistics exist for torch code that reads them.
    device_time_total = self_device_time_total = device_time = 0.0
    device_memory_usage = self_device_memory_usage = 0
    cuda_time_total = self_cuda_time_total = cuda_time = 0.0
    node_id = -1
    is_async = is_remote = is_legacy = False
    device_type = DeviceType.CPU
    device_index = 0
    use_device = None
    overload_name = ""
    flops = 0


class FunctionEvent(_FormattedTimes):
    """One profiled range: an op, a backward node, a ``record_function`` label.

    Attributes follow torch: ``name``, ``id``, ``thread``, ``time_range`` (µs),
    ``input_shapes``, ``stack`` (innermost frame first), ``sequence_nr`` (links a backward
    node to the forward op that created it), ``scope`` (1 for a backward node),
    ``cpu_memory_usage`` (net bytes allocated during the range, children included),
    ``cpu_parent`` and ``cpu_children``.

    Beyond torch, ``forward_scope`` names the ``record_function`` labels and modules
    that were open when the forward op behind a backward event ran (empty for others).
    """

    def __init__(
        self,
        id,
        name,
        thread,
        start_us,
        end_us,
        fwd_thread=None,
        input_shapes=None,
        stack=None,
        scope=0,
        cpu_memory_usage=0,
        sequence_nr=-1,
        trace_name=None,
        is_user_annotation=False,
        forward_scope=(),
    ):
        self.id = id
        self.name = name
        self.trace_name = name if trace_name is None else trace_name
        self.thread = thread
        self.fwd_thread = fwd_thread
        self.time_range = Interval(start_us, end_us)
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.stack = stack if stack is not None else []
        self.scope = scope
        self.cpu_memory_usage = cpu_memory_usage
        self.sequence_nr = sequence_nr
        self.is_user_annotation = is_user_annotation
        self.forward_scope = tuple(forward_scope)
        self.count = 1
        self.cpu_parent = None
        self.cpu_children = []

    @property
    def key(self) -> str:
        return self.name

    @property
    def cpu_time_total(self) -> float:
        return self.time_range.elapsed_us()

    @property
    def self_cpu_time_total(self) -> float:
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def self_cpu_memory_usage(self) -> int:
        return self.cpu_memory_usage - sum(c.cpu_memory_usage for c in self.cpu_children)

    def append_cpu_child(self, child: FunctionEvent) -> None:
        self.cpu_children.append(child)

    def set_cpu_parent(self, parent: FunctionEvent) -> None:
        self.cpu_parent = parent

    def __repr__(self) -> str:
        return (
            f"<FunctionEvent id={self.id} name={self.name} cpu_time={self.cpu_time_str} "
            f"start_us={self.time_range.start} end_us={self.time_range.end} "
            f"cpu_children={[c.id for c in self.cpu_children]} thread={self.thread} "
            f"input_shapes={self.input_shapes} cpu_memory_usage={self.cpu_memory_usage} "
            f"seq_nr={self.sequence_nr}>"
        )


class FunctionEventAvg(_FormattedTimes):
    """Statistics summed over the events that share a key (one row of ``key_averages``)."""

    def __init__(self) -> None:
        self.key = None
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.input_shapes = None
        self.stack = None
        self.scope = None
        self.cpu_parent = None
        self.cpu_children = None
        self.is_user_annotation = False

    def add(self, other) -> FunctionEventAvg:
        if self.key is None:
            self.key = other.key
            self.input_shapes = other.input_shapes
            self.stack = other.stack
            self.scope = other.scope
            self.cpu_parent = other.cpu_parent
            self.cpu_children = other.cpu_children
            self.is_user_annotation = other.is_user_annotation
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        self.cpu_memory_usage += other.cpu_memory_usage
        self.self_cpu_memory_usage += other.self_cpu_memory_usage
        self.count += other.count
        return self

    def __iadd__(self, other) -> FunctionEventAvg:
        return self.add(other)

    def __repr__(self) -> str:
        return (
            f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
            f"cpu_time={self.cpu_time_str} input_shapes={self.input_shapes} "
            f"cpu_memory_usage={self.cpu_memory_usage}>"
        )


def _grouping_name(name: str) -> str:
    # every step of a schedule gets its own label; they are one row in the averages
    return "ProfilerStep*" if name.startswith("ProfilerStep#") else name


class EventList(list):
    """A list of events with torch's helpers: ``key_averages``, ``table``, exports.

    >>> import numtorch as torch
    >>> with torch.autograd.profiler.profile() as prof:
    ...     y = torch.ones(3) * 2
    >>> [e.key for e in prof.key_averages()]
    ['aten::mul']
    """

    def __init__(self, *args, profile_memory: bool = False, **kwargs):
        self._scopes = kwargs.pop("scopes", [])
        self._layout = kwargs.pop("layout", "ops")
        kwargs.pop("use_device", None)
        kwargs.pop("with_flops", None)
        super().__init__(*args, **kwargs)
        self._profile_memory = profile_memory

    def _build_tree(self) -> None:
        """Link parents and children by time containment, per thread (as torch does).

        The profiler links events as it records them; this is for lists built by hand.
        """
        by_thread = sorted(self, key=lambda e: e.thread)
        for _, events in itertools.groupby(by_thread, key=lambda e: e.thread):
            ordered = sorted(events, key=lambda e: (e.time_range.start, -e.time_range.end))
            open_events: list = []
            for event in ordered:
                while open_events:
                    parent = open_events[-1]
                    if (
                        event.time_range.start >= parent.time_range.end
                        or event.time_range.end > parent.time_range.end
                    ):
                        open_events.pop()
                    else:
                        parent.append_cpu_child(event)
                        event.set_cpu_parent(parent)
                        break
                open_events.append(event)

    @property
    def self_cpu_time_total(self) -> float:
        return sum(e.self_cpu_time_total for e in self)

    def key_averages(
        self, group_by_input_shapes: bool = False, group_by_stack_n: int = 0, group_by=None
    ) -> EventList:
        """One :class:`FunctionEventAvg` per event name (and shapes / top stack frames).

        ``group_by="module"`` (beyond torch) gives one row per module or
        ``record_function`` scope instead, backward time included: see
        ``numtorch.profiler.modules``.
        """
        if group_by == "module":
            from .modules import module_averages

            return module_averages(self)
        if group_by is not None:
            raise ValueError(f"group_by must be None or 'module', got {group_by!r}")
        stats: dict = defaultdict(FunctionEventAvg)
        for event in self:
            key = [_grouping_name(event.key), event.is_user_annotation]
            if group_by_input_shapes:
                key.append(str(event.input_shapes))
            if group_by_stack_n > 0:
                key.extend(event.stack[:group_by_stack_n])
            stats[tuple(key)].add(event)
        rows = EventList(stats.values(), profile_memory=self._profile_memory)
        for row in rows:
            row.key = _grouping_name(row.key)
            row.stack = row.stack[:group_by_stack_n] if row.stack else []
            if not group_by_input_shapes:
                row.input_shapes = ""
        return rows

    def total_average(self) -> FunctionEventAvg:
        """All events summed into one row with key ``"Total"``."""
        total = FunctionEventAvg()
        for event in self:
            total.add(event)
        total.key = "Total"
        return total

    def table(
        self,
        sort_by: str | None = None,
        row_limit: int = 100,
        max_src_column_width: int = 75,
        max_name_column_width: int = 55,
        max_shapes_column_width: int = 80,
        header: str | None = None,
        top_level_events_only: bool = False,
        time_unit: str | None = None,
        width: int | None = None,
    ) -> str:
        """The events as a text table with torch's columns (see ``profiler.table``).

        Args:
            sort_by: ``cpu_time``, ``cpu_time_total``, ``self_cpu_time_total``,
                ``count``, ``cpu_memory_usage`` or ``self_cpu_memory_usage`` (largest
                first); ``None`` keeps the recorded order.
            width: fit the table into this many columns (beyond torch). ``None``: the
                terminal's width when printing to one, else torch's layout.
        """
        from .table import build_table

        return build_table(
            self,
            sort_by=sort_by,
            row_limit=row_limit,
            max_src_column_width=max_src_column_width,
            max_name_column_width=max_name_column_width,
            max_shapes_column_width=max_shapes_column_width,
            header=header,
            profile_memory=self._profile_memory,
            top_level_events_only=top_level_events_only,
            time_unit=time_unit,
            width=width,
        )

    def export_chrome_trace(self, path: str) -> None:
        """Write the events as a Trace Event Format JSON file (chrome://tracing, Perfetto)."""
        from .export import export_chrome_trace

        export_chrome_trace(self, path)

    def supported_export_stacks_metrics(self) -> list:
        # the device metrics are torch's; on numtorch they are zero (nothing is written)
        return [
            "self_cpu_time_total",
            "cpu_time_total",
            "self_cuda_time_total",
            "self_xpu_time_total",
            "self_privateuse1_time_total",
        ]

    def export_stacks(self, path: str, metric: str = "self_cpu_time_total") -> None:
        """Write collapsed stacks (``frame;frame;op value`` lines) for flame graph tools."""
        from .export import export_stacks

        if metric not in self.supported_export_stacks_metrics():
            raise ValueError(f"metric should be one of: {self.supported_export_stacks_metrics()}")
        export_stacks(self, path, metric)

    def __str__(self) -> str:
        return self.table()

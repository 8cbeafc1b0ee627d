"""Profiler exports: Chrome trace JSON and collapsed stacks for flame graphs."""

from __future__ import annotations

import json
import os
import socket
import time
import uuid

from .events import MEMORY_EVENT_NAME
from .recorder import MODULE
from .table import device_neutral


def _category(event) -> str:
    if event.is_user_annotation:
        return "user_annotation"
    if event.scope == 1 or event.name.startswith("autograd::engine::"):
        return "backward"
    return "cpu_op"


def trace_events(events) -> list:
    """Trace Event Format records: one complete (``"ph": "X"``) event per range.

    Times are microseconds since the profile started, on the profiler's corrected clock
    (Note [Profiler clock]). Module scopes are added as ``nn.Module: <path>`` events.
    """
    pid = os.getpid()
    records = [
        {"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": "numtorch"}}
    ]
    scopes = [s for s in events._scopes.scopes if s.kind == MODULE] if events._scopes else []
    for tid in sorted({e.thread for e in events} | {s.thread for s in scopes}):
        records.append(
            {
                "ph": "M",
                "name": "thread_name",
                "pid": pid,
                "tid": tid,
                "args": {"name": f"thread {tid}"},
            }
        )
    for e in events:
        if e.name == MEMORY_EVENT_NAME:
            continue
        args = {}
        if e.input_shapes:
            args["Input Dims"] = e.input_shapes
        if e.sequence_nr >= 0:
            args["Sequence number"] = e.sequence_nr
        if e.forward_scope:
            args["Forward scope"] = ".".join(e.forward_scope)
        if e.cpu_memory_usage:
            args["CPU Mem"] = e.cpu_memory_usage
        records.append(
            {
                "name": e.trace_name,
                "ph": "X",
                "cat": _category(e),
                "ts": round(e.time_range.start, 3),
                "dur": round(e.cpu_time_total, 3),
                "pid": pid,
                "tid": e.thread,
                "args": args,
            }
        )
    for s in scopes:
        name = ".".join(s.path) + (f" ({s.module_type})" if s.module_type != s.path[-1] else "")
        records.append(
            {
                "name": "nn.Module: " + name,
                "ph": "X",
                "cat": "python_function",
                "ts": round(s.start / 1000, 3),
                "dur": round((s.end - s.start) / 1000, 3),
                "pid": pid,
                "tid": s.thread,
                "args": {},
            }
        )
    return records


def export_chrome_trace(events, path: str) -> None:
    """Write a JSON object ``{"traceEvents": [...]}`` that Perfetto and chrome://tracing load.

    Names go through ``json`` with ASCII escapes, so labels with quotes, newlines or any
    Unicode stay valid JSON.
    """
    trace = {  # torch's top-level keys, in its order
        "schemaVersion": 1,
        "deviceProperties": [],
        "trace_id": uuid.uuid4().hex.upper(),
        "host_name": socket.gethostname(),
        "displayTimeUnit": "ms",
        "baseTimeNanoseconds": time.time_ns(),
        "traceEvents": trace_events(events),
        "traceName": path,
    }
    if any(e.input_shapes for e in events):  # recorded with record_shapes=True
        trace["record_shapes"] = 1
    with open(path, "w", encoding="ascii") as f:
        json.dump(trace, f)


_FRAME_SAFE = str.maketrans(" ;\t\n\r", "_____")


def export_stacks(events, path: str, metric: str) -> None:
    """One ``outer;...;inner;event value`` line per event with a stack (``with_stack=True``).

    The value is ``metric`` in whole microseconds; the event's name is the innermost
    frame, so each op gets its own box in the flame graph.
    """
    with open(path, "w", encoding="utf-8") as f:
        for e in events:
            if not e.stack:
                continue
            value = int(getattr(e, device_neutral(metric)))
            if value > 0:
                frames = [entry.translate(_FRAME_SAFE) for entry in reversed(e.stack)]
                frames.append(e.name.translate(_FRAME_SAFE))
                f.write(";".join(frames) + f" {value}\n")

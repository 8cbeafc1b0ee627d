"""Text tables of profiler results: torch's layout, or a compact one for narrow terminals.

Columns (all times are sums over the row's calls):

* Self CPU: time in the row's events minus the time in events nested in them.
* CPU total: time in the row's events, nested events included.
* CPU time avg: CPU total / # of Calls.
* Self CPU % and CPU total %: shares of the table's summed Self CPU (the time profiled).
* CPU Mem / Self CPU Mem: net bytes allocated (negative when more was freed), with and
  without nested events.
* Backward (``group_by="module"`` only): the part of CPU total spent in backward nodes.

Torch prints ~150 columns. ``width`` (or, when printing to a terminal, its width) makes
the table fit: short headers, narrow numbers, the least useful columns dropped first, and
long standard prefixes shortened (``autograd::engine::evaluate_function: MulBackward0``
becomes ``evaluate: MulBackward0``, ``torch::autograd::AccumulateGrad`` becomes
``AccumulateGrad``).
"""

from __future__ import annotations

import shutil
import sys

from .events import EventList, _format_memory, _format_time

SORT_KEYS = (
    "cpu_time",
    "cpu_time_total",
    "self_cpu_time_total",
    "count",
    "cpu_memory_usage",
    "self_cpu_memory_usage",
)
# torch code often sorts by device time; numtorch has none, so these keep the order
DEVICE_SORT_KEYS = (
    "device_time",
    "device_time_total",
    "self_device_time_total",
    "device_memory_usage",
    "self_device_memory_usage",
)


def device_neutral(key: str) -> str:
    """torch's ``cuda``/``xpu``/``privateuse1`` attribute names mean the device ones."""
    for device in ("cuda", "xpu", "privateuse1"):
        key = key.replace(device, "device")
    return key


SHORT_HEADERS = {
    "Self CPU %": "Self %",
    "Self CPU": "Self",
    "CPU total %": "Total %",
    "CPU total": "Total",
    "CPU time avg": "Avg",
    "CPU Mem": "Mem",
    "Self CPU Mem": "Self Mem",
    "Backward": "Backward",
    "# of Calls": "Calls",
    "Input Shapes": "Input Shapes",
}
COMPACT_WIDTHS = {"Self CPU %": 7, "CPU total %": 7, "# of Calls": 6}  # others: 9
DROP_ORDER = (
    "CPU time avg",
    "CPU total %",
    "Self CPU Mem",
    "Self CPU %",
    "Backward",
    "CPU Mem",
    "CPU total",
)  # Self CPU and # of Calls stay
MIN_NAME_WIDTH = 20
COMPACT_PREFIXES = (
    ("autograd::engine::evaluate_function: ", "evaluate: "),
    ("torch::autograd::", ""),
)


_ESCAPES = str.maketrans({"\n": "\\n", "\r": "\\r", "\t": "\\t"})


def _display_name(event) -> str:
    """The key on one line: a label with a newline must not break the table."""
    return event.key.translate(_ESCAPES)


def _compact_name(name: str) -> str:
    for long, short in COMPACT_PREFIXES:
        name = name.replace(long, short)
    return name


def _share(value: float, total: float) -> str:
    return "NaN" if total == 0 else f"{value * 100.0 / total:.2f}%"


def _time(time_us: float, unit: str | None) -> str:
    if unit == "s":
        return f"{time_us / 1e6:.3f}s"
    if unit == "ms":
        return f"{time_us / 1e3:.3f}ms"
    if unit == "us":
        return f"{time_us:.3f}us"
    return _format_time(time_us)


def _cells(event, total: float, unit: str | None) -> dict:
    return {
        "Self CPU %": _share(event.self_cpu_time_total, total),
        "Self CPU": _time(event.self_cpu_time_total, unit),
        "CPU total %": _share(event.cpu_time_total, total),
        "CPU total": _time(event.cpu_time_total, unit),
        "CPU time avg": _time(event.cpu_time, unit),
        "CPU Mem": _format_memory(event.cpu_memory_usage),
        "Self CPU Mem": _format_memory(event.self_cpu_memory_usage),
        "Backward": _time(getattr(event, "backward_time_total", 0.0), unit),
        "# of Calls": str(event.count),
    }


def _terminal_width() -> int | None:
    try:
        if sys.stdout.isatty():
            return shutil.get_terminal_size().columns
    except (AttributeError, ValueError, OSError):
        pass
    return None


def _truncate(text: str, width: int, keep_end: bool = False) -> str:
    if len(text) <= width:
        return text
    if keep_end:  # module paths: the innermost part is the informative one
        return "..." + text[len(text) - width + 3 :]
    return text[: width - 3] + "..."


def build_table(
    events,
    sort_by=None,
    row_limit=100,
    max_src_column_width=75,
    max_name_column_width=55,
    max_shapes_column_width=80,
    header=None,
    profile_memory=False,
    top_level_events_only=False,
    time_unit=None,
    width=None,
) -> str:
    """The table text; never changes the events (so it can be called again)."""
    if len(events) == 0:
        return ""
    module_layout = getattr(events, "_layout", "ops") == "module"
    if sort_by is not None:
        key = device_neutral(sort_by)
        # torch sorts by any attribute of the rows: an unknown name is an AttributeError
        if key not in SORT_KEYS + DEVICE_SORT_KEYS and not hasattr(events[0], key):
            raise AttributeError(f"sort_by must be one of {SORT_KEYS}, got {sort_by!r}")
        events = EventList(sorted(events, key=lambda e: getattr(e, key), reverse=True))
    total = sum(e.self_cpu_time_total for e in events)
    numeric = ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
    if profile_memory:
        numeric += ["CPU Mem", "Self CPU Mem"]
    if module_layout:
        numeric.insert(4, "Backward")
    numeric.append("# of Calls")
    shown = [e for e in events if not (top_level_events_only and e.cpu_parent is not None)]
    shown = shown[:row_limit] if row_limit is not None and row_limit >= 0 else shown
    has_shapes = any(e.input_shapes for e in events)
    has_stack = any(e.stack for e in events)

    name_width = max(len(_display_name(e)) for e in events) + 4  # compact: see below
    if max_name_column_width is not None:
        name_width = min(name_width, max_name_column_width)
    shapes_width = min(max(len(str(e.input_shapes)) for e in events) + 4, max_shapes_column_width)
    src_width = 0
    if has_stack:
        src_width = max(len(f) for e in events for f in e.stack) + 4
        src_width = min(src_width, max_src_column_width)
    widths = dict.fromkeys(numeric, 12)
    line = name_width + sum(w + 2 for w in widths.values())
    line += (shapes_width + 2) * has_shapes + (src_width + 2) * has_stack
    limit = width if width is not None else _terminal_width()
    compact = limit is not None and line > limit
    if compact:
        widths = {c: COMPACT_WIDTHS.get(c, 9) for c in numeric}
        spacing = 1
        shapes_min = 14 if has_shapes else 0
        for column in DROP_ORDER:
            used = sum(w + 1 for w in widths.values()) + (shapes_min + 1) * has_shapes
            if limit - used >= MIN_NAME_WIDTH or len(widths) <= 2:
                break
            widths.pop(column, None)
        used = sum(w + 1 for w in widths.values())
        name_width = max(len(_compact_name(_display_name(e))) for e in shown or events) + 1
        if has_shapes:
            name_width = max(MIN_NAME_WIDTH, min(name_width, limit - used - shapes_min - 1))
            shapes_width = max(shapes_min, limit - used - name_width - 1)
        else:
            name_width = max(MIN_NAME_WIDTH, min(name_width, limit - used))
        headers = {c: SHORT_HEADERS[c] for c in widths}
    else:
        spacing = 2
        headers = {c: c for c in widths}

    sep = " " * spacing
    specs = [("Name", name_width, ">")] + [(headers[c], widths[c], ">") for c in widths]
    if has_shapes:
        specs.append(("Input Shapes", shapes_width, ">"))
    if has_stack and not compact:
        specs.append(("Source Location", src_width, "<"))
    row_format = sep.join(f"{{:{align}{w}}}" for _, w, align in specs)
    rule = sep.join("-" * w for _, w, _ in specs)
    line_length = len(rule)
    if not compact:  # torch ends every row with the column spacing (not its "=" lines)
        row_format += sep
        rule += sep

    out = []
    if header is not None:
        out += ["=" * line_length, header]
    if top_level_events_only:
        out += ["=" * line_length, "This report only display top-level ops statistics"]
    out += [rule, row_format.format(*[h for h, _, _ in specs]), rule]
    for e in shown:
        cells = _cells(e, total, time_unit)
        name = _display_name(e)
        if compact:
            name = _truncate(_compact_name(name), name_width, module_layout)
        elif max_name_column_width is not None and len(name) >= max_name_column_width - 3:
            cut = max_name_column_width - 3  # torch's rule: cut, then "..."
            name = "..." + name[-cut:] if module_layout else name[:cut] + "..."
        values = [name] + [cells[c] for c in widths]
        if has_shapes:
            values.append(_truncate(str(e.input_shapes), shapes_width))
        stack = e.stack or []
        if has_stack and not compact:
            values.append(_truncate_path(stack[0] if stack else "", src_width))
        out.append(row_format.format(*values))
        if has_stack and not compact:
            blanks = [""] * (len(specs) - 1)
            out += [row_format.format(*blanks, _truncate_path(f, src_width)) for f in stack[1:]]
            out.append(row_format.format(*blanks, ""))
        elif has_stack:
            out += [_truncate("    " + f, line_length) for f in stack]
    out += [rule, f"Self CPU time total: {_time(total, time_unit)}"]
    return "\n".join(out) + "\n"


def _truncate_path(path: str, width: int) -> str:
    if len(path) > width:
        path = "..." + path[len(path) - width + 3 :]
    return path

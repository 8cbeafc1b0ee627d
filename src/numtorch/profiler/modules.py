"""Beyond torch: profile results grouped by module, forward and backward together.

``prof.key_averages(group_by="module")`` gives one row per scope path: the modules a
model calls (``ResNet.layer1.0.conv1 (Conv2d)``) and the ``record_function`` labels, so
a model without ``nn`` can be grouped too. A row's time is

* forward: the time its scope was open, minus its child scopes, and
* backward: the time the engine spent in the backward nodes created by ops that ran
  directly in that scope (matched by sequence number),

so every moment inside a scope or a backward node counts for exactly one row: the
``Self CPU`` column adds up without double counting, and ``CPU total`` is a row's self
time plus its descendants'. The ``Backward`` column is the backward part of ``CPU total``.
Time outside every scope is not shown.

Modules are seen through torch's global hooks
(``nn.modules.module.register_module_forward_pre_hook`` / ``register_module_forward_hook``),
installed for the duration of a ``profile()`` when ``numtorch.nn`` has been imported.
"""

from __future__ import annotations

import sys

from . import recorder as profiler_recorder
from .recorder import MODULE


class Scope:
    """A label or module range, in ns since the profile started."""

    __slots__ = ("name", "kind", "module_type", "parent", "start", "end", "thread", "path")

    def __init__(self, name, kind, module_type, parent, start, end, thread):
        self.name = name
        self.kind = kind
        self.module_type = module_type
        self.parent = parent
        self.start = start
        self.end = end
        self.thread = thread
        self.path = (parent.path if parent is not None else ()) + (name,)


class ScopeData:
    """What ``group_by="module"`` needs besides the events.

    ``backward`` holds one ``(duration_ns, enclosing_scope, forward_scope)`` per outermost
    backward node run: the scope open when the engine ran it, and the scope its forward
    op ran in.
    """

    def __init__(self, scopes=(), backward=()):
        self.scopes = list(scopes)
        self.backward = list(backward)


def _row_key(path: tuple, module_type: str | None) -> str:
    key = ".".join(path)
    if module_type is not None and module_type != path[-1]:
        key += f" ({module_type})"
    return key


def module_averages(events):
    """The rows of ``key_averages(group_by="module")`` (see the module docstring)."""
    from .events import EventList, FunctionEventAvg

    data = events._scopes or ScopeData()
    forward: dict = {}  # path -> self forward ns; dicts keep first-seen (tree) order
    backward: dict = {}
    calls: dict = {}
    types: dict = {}
    for s in data.scopes:
        duration = s.end - s.start
        forward[s.path] = forward.get(s.path, 0) + duration
        calls[s.path] = calls.get(s.path, 0) + 1
        types[s.path] = s.module_type
        if s.parent is not None:
            forward[s.parent.path] = forward.get(s.parent.path, 0) - duration
    for duration, enclosing, origin in data.backward:
        if enclosing is not None:
            forward[enclosing.path] = forward.get(enclosing.path, 0) - duration
        owner = origin if origin is not None else enclosing
        if owner is not None:
            backward[owner.path] = backward.get(owner.path, 0) + duration
    paths = list(dict.fromkeys([*forward, *backward]))
    rows = []
    for path in paths:
        n = len(path)
        inside = [q for q in paths if q[:n] == path]
        row = FunctionEventAvg()
        row.key = _row_key(path, types.get(path))
        row.count = calls.get(path, 0)
        row.self_cpu_time_total = (forward.get(path, 0) + backward.get(path, 0)) / 1000
        row.cpu_time_total = sum(forward.get(q, 0) + backward.get(q, 0) for q in inside) / 1000
        row.backward_time_total = sum(backward.get(q, 0) for q in inside) / 1000
        rows.append(row)
    return EventList(rows, layout="module")


# -- module scopes, fed by nn's global forward hooks --


def module_pre_hook(module, args) -> None:
    """Open ``module``'s scope (a global forward pre-hook)."""
    recorder = profiler_recorder.current
    if recorder is not None:
        recorder.enter_module(module, _scope_name(recorder, module))


def module_hook(module, args, output) -> None:
    """Close ``module``'s scope (a global forward hook)."""
    recorder = profiler_recorder.current
    if recorder is None:
        return
    state = recorder._state()
    for s in reversed(state.scopes):
        if s.kind == MODULE and s.module is module:
            recorder.exit_module(s)
            return


def _scope_name(recorder, module) -> str:
    """The attribute name ``module`` has in the module around it, else its class name."""
    state = recorder._state()
    for s in reversed(state.scopes):
        if s.kind == MODULE:
            names = recorder._child_names
            key = (id(s.module), id(module))
            found = names.get(key)
            if found is None:
                children = getattr(s.module, "_modules", None) or {}
                name = next((n for n, m in children.items() if m is module), None)
                # the modules are kept so their ids are not reused while profiling
                found = names[key] = (s.module, module, name or type(module).__name__)
            return found[2]
    return type(module).__name__


def install_module_hooks() -> list:
    """Register the module scope hooks with ``numtorch.nn`` if it is loaded; the handles."""
    hooks = sys.modules.get("numtorch.nn.modules.module")
    register_pre = getattr(hooks, "register_module_forward_pre_hook", None)
    register = getattr(hooks, "register_module_forward_hook", None)
    if register_pre is None or register is None:
        return []
    handles = [register_pre(module_pre_hook)]
    try:  # a forward that raises must still close its scope
        handles.append(register(module_hook, always_call=True))
    except TypeError:
        handles.append(register(module_hook))
    return handles

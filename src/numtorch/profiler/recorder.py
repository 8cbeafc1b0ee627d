"""The observer behind ``profile()``: records ops, backward nodes, labels and module scopes.

While a recorder is active, ``_core.observers`` routes every op through ``wrap`` and every
backward node through ``wrap_node``. Each becomes a ``Range`` on its thread's stack, so
ranges nest exactly as the calls did, across forward and backward. ``events()`` turns the
ranges into torch's FunctionEvents when profiling ends.

Note [Profiler clock]
Timestamps are read on a corrected clock: wall time minus the time the recorder itself
has spent so far on that thread (building records, reading shapes, walking the Python
stack, tracking memory). Each stretch of recorder work is measured between two clock
reads and added to the thread's overhead, so neither the op nor the label around it is
charged for profiling (torch's #62390). What stays uncounted is the Python call overhead
of the hooks themselves (a fraction of a microsecond per op), which lands in the
enclosing range's self time.

Note [Profiler memory]
With ``profile_memory=True`` an op is charged the bytes of the NumPy arrays it returns
that are new memory (not views of its inputs, not arrays seen before); a ``weakref``
finalizer charges the negative amount to the range running on the freeing thread when
the array dies. This counts what ops allocate and keep, as torch's CPU Mem does;
scratch arrays an op frees before returning are net zero in torch and are not seen here.
Arrays made outside ops (factories, the engine's gradient sums) are not counted.
"""

from __future__ import annotations

import math
import os
import sys
import threading
import weakref
from time import perf_counter_ns

from .._core.observers import add_observer, remove_observer
from ..backend import xp

_clock = perf_counter_ns
_get_ident = threading.get_ident
_ndarray = xp.ndarray

# Range kinds
OP, USER, EVALUATE, NODE, MODULE = "op", "user", "evaluate", "node", "module"
EVALUATE_PREFIX = "autograd::engine::evaluate_function: "
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class Range:
    """One recorded range; ``start``/``end`` on the corrected clock, in ns."""

    start = end = 0
    shapes = None
    stack = None
    sequence_nr = -1
    memory = 0  # net bytes charged to this range itself (children not included)
    scope = None  # innermost open label or module scope (a Range) when this one began
    module_type = None
    module = None  # the module object while its scope is open

    def __init__(self, name, kind, thread):
        self.name = name
        self.kind = kind
        self.thread = thread
        self.parent = None


class ThreadState:
    """One thread's open ranges and open scopes, and the time the recorder spent on it."""

    def __init__(self):
        self.stack = []  # open ranges, innermost last
        self.scopes = []  # open labels and modules, innermost last
        self.overhead = 0
        self.tid = threading.get_native_id()


def input_shapes(args) -> list:
    """torch's ``input_shapes``: a tensor's shape, ``[]`` for anything else."""
    return [list(a._data.shape) if hasattr(a, "_data") else [] for a in args]


class Recorder:
    """Collects ranges while active; one per ``profile()`` session."""

    def __init__(self, record_shapes=False, profile_memory=False, with_stack=False):
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.ranges = []  # every op, node and label range, in order of entry
        self.module_ranges = []
        self.untracked_free = 0  # bytes freed while no range was open ([memory])
        self._threads = {}
        self._tracked = {}  # id(array) -> finalizer, see Note [Profiler memory]
        self._frames = {}  # (code, line) -> "file(line): function"
        self._child_names = {}  # see modules._scope_name
        self.start_ns = 0
        self.active = False

    # -- lifecycle --

    def start(self) -> None:
        global current
        if current is not None:
            raise RuntimeError("Profiler is already enabled on this thread")
        self.start_ns = _clock()
        self.active = True
        current = self
        add_observer(self)

    def stop(self) -> None:
        """Close every open range, stop observing, release memory finalizers."""
        global current
        end = _clock()
        for state in list(self._threads.values()):
            for r in reversed(state.stack):
                r.end = end - state.overhead
            state.stack.clear()
            for s in reversed(state.scopes):
                s.end = end - state.overhead
            state.scopes.clear()
        remove_observer(self)
        if current is self:
            current = None
        self.active = False
        for finalizer in list(self._tracked.values()):
            finalizer.detach()
        self._tracked.clear()

    def _state(self) -> ThreadState:
        state = self._threads.get(_get_ident())
        if state is None:
            state = self._threads[_get_ident()] = ThreadState()
        return state

    # -- ranges (Note [Profiler clock]) --

    def _open(self, r: Range, state: ThreadState, t0: int) -> None:
        stack = state.stack
        r.parent = stack[-1] if stack else None
        if state.scopes:
            r.scope = state.scopes[-1]
        stack.append(r)
        self.ranges.append(r)
        t1 = _clock()
        state.overhead += t1 - t0
        r.start = t1 - state.overhead

    def _close(self, r: Range, state: ThreadState, t0: int) -> None:
        stack = state.stack
        if stack and stack[-1] is r:
            r.end = t0 - state.overhead
            stack.pop()
        elif r in stack:
            r.end = t0 - state.overhead
            _remove(stack, r, r.end)
        # else: it was closed already, with a misnested range around it

    def _done(self, state: ThreadState, t0: int) -> None:
        state.overhead += _clock() - t0

    def wrap(self, spec, args, run):
        return self._observe(spec.profiler_name, args, run, _clock(), spec.schema_args)

    def wrap_composite(self, name, args, run):
        """A function composed of ops, shown as the aten op torch records for it."""
        return self._observe(name, args, run, _clock())

    def _observe(self, name, args, run, t0, schema_args=None):
        state = self._state()
        r = Range(name, OP, state)
        if self.record_shapes:
            r.shapes = input_shapes(args)
            if schema_args is not None:  # Note [Op facts]: torch's argument count
                r.shapes = (r.shapes + [[]] * schema_args)[:schema_args]
        if self.with_stack:
            r.stack = self.python_stack()

        def observed():
            self._open(r, state, t0)
            try:
                out = run()
            except BaseException:
                t1 = _clock()
                self._close(r, state, t1)
                self._done(state, t1)
                raise
            t1 = _clock()
            self._close(r, state, t1)
            first = out[0] if isinstance(out, tuple) and out else out
            fn = getattr(first, "_grad_fn", None)
            if fn is not None:  # a NotImplemented node has none (inf: it runs first)
                r.sequence_nr = -1 if fn._sequence_nr == math.inf else fn._sequence_nr
            if self.profile_memory:
                self._charge_outputs(r, out, args)
            self._done(state, t1)
            return out

        return observed

    def wrap_node(self, node, run):
        t0 = _clock()
        state = self._state()
        name = node.name()
        outer = Range(EVALUATE_PREFIX + name, EVALUATE, state)
        inner = Range(name, NODE, state)
        seq = node._sequence_nr
        outer.sequence_nr = inner.sequence_nr = -1 if seq == math.inf else seq

        def observed():
            self._open(outer, state, t0)
            self._open(inner, state, _clock())
            try:
                return run()
            finally:
                t1 = _clock()
                self._close(inner, state, t1)
                self._close(outer, state, t1)
                self._done(state, t1)

        return observed

    def enter_label(self, name: str) -> Range:
        """Open a ``record_function`` range; it is also a scope for module grouping."""
        t0 = _clock()
        state = self._state()
        r = Range(name, USER, state)
        if self.with_stack:
            r.stack = self.python_stack()
        self._open(r, state, t0)
        state.scopes.append(r)
        return r

    def exit_label(self, r: Range) -> None:
        t0 = _clock()
        state = r.thread
        self._close(r, state, t0)
        _remove(state.scopes, r, r.end)
        self._done(state, t0)

    def enter_module(self, module, name: str) -> Range:
        """Open a module scope: not an event, a frame for ``group_by="module"``."""
        t0 = _clock()
        state = self._state()
        r = Range(name, MODULE, state)
        r.module_type = type(module).__name__
        r.module = module
        r.scope = state.scopes[-1] if state.scopes else None
        state.scopes.append(r)
        self.module_ranges.append(r)
        t1 = _clock()
        state.overhead += t1 - t0
        r.start = t1 - state.overhead
        return r

    def exit_module(self, r: Range) -> None:
        t0 = _clock()
        state = r.thread
        r.end = t0 - state.overhead
        r.module = None
        _remove(state.scopes, r, r.end)
        self._done(state, t0)

    # -- memory (Note [Profiler memory]) --

    def _charge_outputs(self, r: Range, out, args) -> None:
        outputs = out if isinstance(out, tuple) else (out,)
        inputs = None
        for t in outputs:
            root = getattr(t, "_data", None)
            if root is None:
                continue
            root = _root(root)
            if id(root) in self._tracked:
                continue
            if inputs is None:
                inputs = {id(_root(a._data)) for a in args if hasattr(a, "_data")}
            if id(root) in inputs:
                continue
            r.memory += root.nbytes
            key = id(root)
            self._tracked[key] = weakref.finalize(root, self._freed, key, root.nbytes)

    def _freed(self, key: int, nbytes: int) -> None:
        # Not timed as overhead: a free can happen inside the recorder's own timed
        # work (a garbage collection), which would then be discounted twice.
        self._tracked.pop(key, None)
        state = self._threads.get(_get_ident())
        if state is not None and state.stack:
            state.stack[-1].memory -= nbytes
        else:
            self.untracked_free -= nbytes

    # -- stacks --

    def python_stack(self) -> list:
        """The caller's frames outside numtorch, innermost first, as ``file(line): fn``."""
        entries = []
        frames = self._frames
        frame = sys._getframe(1)
        while frame is not None:
            code = frame.f_code
            if not code.co_filename.startswith(_PACKAGE_DIR):
                key = (code, frame.f_lineno)
                entry = frames.get(key)
                if entry is None:
                    entry = frames[key] = (
                        f"{_short_path(code.co_filename)}({frame.f_lineno}): {code.co_name}"
                    )
                entries.append(entry)
            frame = frame.f_back
        return entries


current: Recorder | None = None  # the active recorder, read by record_function


def _root(array):
    """The array that owns the memory ``array`` views."""
    while isinstance(array.base, _ndarray):
        array = array.base
    return array


def _remove(items: list, item, end: int) -> None:
    """Take ``item`` off a stack; ranges still open above it (misnested) end with it."""
    if items and items[-1] is item:
        items.pop()
    elif item in items:
        k = items.index(item)
        for inner in items[k + 1 :]:
            inner.end = end
            inner.module = None
        del items[k:]


def _short_path(path: str) -> str:
    """A file name relative to the longest ``sys.path`` entry that contains it."""
    best = ""
    for entry in sys.path:
        if entry and path.startswith(entry) and len(entry) > len(best):
            best = entry
    return path[len(best) :].lstrip(os.sep) if best else path


def to_events(recorder: Recorder):
    """The recorded ranges as torch's EventList, with the data ``group_by="module"`` needs.

    A backward node's events take the stack and the scopes of the forward op that created
    the node (matched by sequence number, as torch does for stacks), so labels and modules
    entered in forward are attributable in backward.
    """
    from .events import MEMORY_EVENT_NAME, EventList, FunctionEvent
    from .modules import Scope, ScopeData

    base = recorder.start_ns
    scopes: dict = {}  # Range -> Scope

    def scope_of(r):
        if r is None:
            return None
        s = scopes.get(r)
        if s is None:
            parent = scope_of(r.scope)
            s = Scope(
                r.name, r.kind, r.module_type, parent, r.start - base, r.end - base, r.thread.tid
            )
            scopes[r] = s
        return s

    forward = {}  # sequence_nr -> the op range that created the node
    for r in recorder.ranges:
        if r.kind == OP and r.sequence_nr >= 0:
            forward.setdefault(r.sequence_nr, r)
    events = []
    by_range = {}
    backward = []  # (duration ns, enclosing scope, forward scope) per outermost node
    for i, r in enumerate(recorder.ranges):
        parent = by_range.get(r.parent) if r.parent is not None else None
        event = FunctionEvent(
            id=i,
            name=r.name,
            thread=r.thread.tid,
            start_us=(r.start - base) / 1000,
            end_us=(r.end - base) / 1000,
            input_shapes=r.shapes,
            stack=r.stack,
            scope=1 if r.kind == NODE else 0,
            sequence_nr=r.sequence_nr,
            is_user_annotation=r.kind == USER,
        )
        event._memory = r.memory
        event._origin = None  # the forward op range behind a backward event
        if r.kind == EVALUATE:
            origin = forward.get(r.sequence_nr)
            event._origin = origin
            if parent is None or parent._origin is None:
                fwd_scope = scope_of(origin.scope) if origin is not None else None
                backward.append((r.end - r.start, scope_of(r.scope), fwd_scope))
        elif parent is not None:
            event._origin = parent._origin
        origin = event._origin
        if origin is not None:
            event.fwd_thread = origin.thread.tid
            if origin.stack is not None:
                event.stack = origin.stack
            fwd_scope = scope_of(origin.scope)
            event.forward_scope = fwd_scope.path if fwd_scope is not None else ()
        if parent is not None:
            parent.append_cpu_child(event)
            event.set_cpu_parent(parent)
        by_range[r] = event
        events.append(event)
    for event in reversed(events):  # children come after their parent
        event.cpu_memory_usage += event._memory
        if event.cpu_parent is not None:
            event.cpu_parent.cpu_memory_usage += event.cpu_memory_usage
        del event._memory, event._origin
    if recorder.profile_memory and recorder.untracked_free:
        end = (_clock() - base) / 1000
        memory = FunctionEvent(len(events), MEMORY_EVENT_NAME, 0, end, end)
        memory.cpu_memory_usage = recorder.untracked_free
        events.append(memory)
    for r in recorder.ranges:
        if r.kind == USER:
            scope_of(r)
    for r in recorder.module_ranges:
        scope_of(r)
    data = ScopeData(sorted(scopes.values(), key=lambda s: s.start), backward)
    return EventList(events, profile_memory=recorder.profile_memory, scopes=data)

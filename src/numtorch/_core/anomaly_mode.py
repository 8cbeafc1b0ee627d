"""Anomaly detection: forward traces for backward errors, NaN checks, forward NaN/Inf checks.

With anomaly mode on, every node records the stack of the forward call that created it, as
(file, line, function) values: frames would keep every local alive. When a backward function
raises, torch's "Error detected in <Node>" report with that trace is emitted as a warning and
also attached to the exception itself (``add_note``), so frameworks that only show exceptions
keep it.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import traceback
import warnings

from . import forward_checks
from .observers import dispatch

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class _State:
    enabled = False
    check_nan = True
    check_forward = False


_state = _State()
_current = threading.local()  # the node being run by the engine, for parent chains


def is_anomaly_enabled() -> bool:
    return _state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    return _state.check_nan


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """``torch.set_anomaly_enabled``: switch anomaly mode (prefer ``set_detect_anomaly``)."""
    _apply_state(bool(enabled), check_nan, _state.check_forward and bool(enabled))


def _apply_state(enabled: bool, check_nan: bool, check_forward: bool) -> None:
    _state.enabled, _state.check_nan, _state.check_forward = enabled, check_nan, check_forward
    dispatch.anomaly = enabled
    forward_checks.set_active(enabled and check_forward)


class detect_anomaly:
    """Context manager and decorator enabling anomaly detection.

    Args:
        check_nan: raise when a backward function returns NaN (default True).
        check_forward: beyond torch, raise at the first op whose forward output holds NaN
            or Inf, naming the op and its input shapes.
    """

    def __init__(self, check_nan: bool = True, check_forward: bool = False):
        self.check_nan = check_nan
        self.check_forward = check_forward
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and "
            "should only be enabled for debugging.",
            UserWarning,
            stacklevel=2,
        )
        self._previous = []  # a stack: a decorated function may recurse

    def __enter__(self):
        self._previous.append((_state.enabled, _state.check_nan, _state.check_forward))
        _apply_state(True, self.check_nan, self.check_forward)
        return self

    def __exit__(self, *exc):
        _apply_state(*self._previous.pop())

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return wrapper


class set_detect_anomaly:
    """Turn anomaly detection on or off: at once, and restored when used as a context."""

    def __init__(self, mode: bool, check_nan: bool = True, check_forward: bool = False):
        self.prev = (_state.enabled, _state.check_nan, _state.check_forward)
        _apply_state(bool(mode), check_nan, check_forward)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _apply_state(*self.prev)


def _user_stack() -> tuple:
    # (file, line, function) of each user frame, outermost first: plain values, so no frame
    # (and none of its locals) stays alive; source lines are read only if a report is made.
    frame = sys._getframe(2)
    entries = []
    while frame is not None:
        code = frame.f_code
        if not code.co_filename.startswith(_PACKAGE_DIR):
            entries.append((code.co_filename, frame.f_lineno, code.co_name))
        frame = frame.f_back
    entries.reverse()
    return tuple(entries)


def record_forward_trace(node) -> None:
    node._anomaly_trace = _user_stack()
    node._anomaly_parent = getattr(_current, "node", None)


def forward_trace(node) -> str:
    """The forward stack recorded for ``node``, formatted like a traceback ('' if none)."""
    entries = node._anomaly_trace
    if not entries:
        return ""
    frames = [traceback.FrameSummary(f, line, name) for f, line, name in entries]
    return "".join(traceback.format_list(frames))


def _report(node) -> str:
    lines = [
        f"Error detected in {node.name()}. Traceback of forward call that caused the "
        f"error:\n{forward_trace(node) or '  (no forward trace was recorded)'}"
    ]
    parent = node._anomaly_parent
    while parent is not None:
        lines.append(
            f"\n\nPrevious calculation was induced by {parent.name()}. Traceback of forward "
            f"call that induced the previous calculation:\n{forward_trace(parent)}"
        )
        parent = parent._anomaly_parent
    return "".join(lines)


def run_with_anomaly(node, grads: tuple) -> tuple:
    """Run one node for the engine with anomaly reporting and the NaN check."""
    outer = getattr(_current, "node", None)
    _current.node = node
    try:
        outputs = node._apply(grads)
    except Exception as error:
        report = _report(node)
        warnings.warn(report, UserWarning, stacklevel=2)
        error.add_note(report)
        raise
    finally:
        _current.node = outer
    if _state.check_nan:
        for i, g in enumerate(outputs):
            if g is not None and g._data.dtype.kind in "fcV" and (g._data != g._data).any():
                error = RuntimeError(
                    f"Function '{node.name()}' returned nan values in its {i}th output."
                )
                report = _report(node)
                warnings.warn(report, UserWarning, stacklevel=2)
                error.add_note(report)
                raise error
    return outputs

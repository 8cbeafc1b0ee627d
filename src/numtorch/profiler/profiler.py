"""torch.profiler.profile: the autograd profiler driven by activities and a step schedule.

Each step loop calls ``prof.step()``; ``schedule(wait, warmup, active, repeat)`` decides
which steps are recorded. A recorded cycle ends on its last active step, after which
``on_trace_ready(prof)`` runs and ``prof.events()`` / ``prof.key_averages()`` describe
that cycle. While recording with a schedule, each step is labelled ``ProfilerStep#<n>``.
"""

from __future__ import annotations

import enum
import gzip
import os
import socket
import time
import warnings
from collections.abc import Callable

from . import autograd_profiler


class ProfilerActivity(enum.Enum):
    """What to profile; numtorch has CPU activity only (others are ignored with a warning)."""

    CPU = 0
    CUDA = 1
    XPU = 2
    MTIA = 3
    HPU = 4
    PrivateUse1 = 5


def supported_activities() -> set:
    return {ProfilerActivity.CPU}


class ProfilerAction(enum.Enum):
    """What the profiler does during a step, as returned by a schedule."""

    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3
    DEVICE_STOPPED = 4  # torch's: a device tracer stopped early (never on the CPU)


_RECORDING = (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)


def schedule(
    *,
    wait: int,
    warmup: int,
    active: int,
    repeat: int = 0,
    skip_first: int = 0,
    skip_first_wait: int = 0,
) -> Callable:
    """Skip ``skip_first`` steps, then cycle: ``wait`` idle, ``warmup``, ``active`` recorded.

    ``repeat`` cycles (0: until the profiler stops).

    >>> from numtorch.profiler import schedule
    >>> plan = schedule(wait=1, warmup=1, active=2, repeat=1)
    >>> [plan(step).name for step in range(5)]
    ['NONE', 'WARMUP', 'RECORD', 'RECORD_AND_SAVE', 'NONE']
    """
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), "
            f"warmup={warmup} (need >= 0), active={active} (need > 0), repeat={repeat} "
            f"(need >= 0), skip_first={skip_first} (need >= 0)."
        )

    def schedule_fn(step: int) -> ProfilerAction:
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait:
            step += wait
        cycle = wait + warmup + active
        if repeat > 0 and step // cycle >= repeat:
            return ProfilerAction.NONE
        at = step % cycle
        if at < wait:
            return ProfilerAction.NONE
        if at < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if at < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    return schedule_fn


def _always_record(step: int) -> ProfilerAction:
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name: str, worker_name: str | None = None, use_gzip=False):
    """An ``on_trace_ready`` that writes each cycle's Chrome trace into ``dir_name``."""

    def handler(prof) -> None:
        os.makedirs(dir_name, exist_ok=True)
        worker = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        path = os.path.join(dir_name, f"{worker}.{time.time_ns()}.pt.trace.json")
        prof.export_chrome_trace(path)
        if use_gzip:
            with open(path, "rb") as src, gzip.open(path + ".gz", "wb") as dst:
                dst.write(src.read())
            os.remove(path)

    return handler


class profile:
    """Profile the steps chosen by ``schedule`` (every step without one).

    >>> import numtorch as torch
    >>> from numtorch.profiler import ProfilerActivity, profile, schedule
    >>> x = torch.ones(3, requires_grad=True)
    >>> plan = schedule(wait=1, warmup=0, active=2, repeat=1)
    >>> with profile(activities=[ProfilerActivity.CPU], schedule=plan) as prof:
    ...     for _ in range(4):
    ...         (x * 2).sum().backward()
    ...         prof.step()
    >>> {e.key: e.count for e in prof.key_averages()}["MulBackward0"]
    2
    """

    def __init__(
        self,
        *,
        activities=None,
        schedule: Callable | None = None,
        on_trace_ready: Callable | None = None,
        record_shapes: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_flops: bool = False,
        with_modules: bool = False,
        experimental_config=None,
        execution_trace_observer=None,
        acc_events: bool = False,
        use_cuda: bool | None = None,
        custom_trace_id_callback=None,
        post_processing_timeout_s=None,
    ):
        requested = set(activities) if activities is not None else supported_activities()
        if not requested:
            raise AssertionError("No valid profiler activities found")
        if requested - supported_activities() or use_cuda:
            warnings.warn(
                "numtorch profiles CPU activity only; other activities are ignored",
                UserWarning,
                stacklevel=2,
            )
        self.activities = requested  # as torch keeps them; CPU activity is what gets recorded
        self.schedule = schedule if schedule is not None else _always_record
        self.record_steps = schedule is not None
        self.on_trace_ready = on_trace_ready
        self._options = dict(
            record_shapes=record_shapes,
            profile_memory=profile_memory,
            with_stack=with_stack,
            with_flops=with_flops,
            with_modules=with_modules,
        )
        self.step_num = 0
        self.current_action = self.schedule(0)
        self.profiler = None  # the last finished cycle (an autograd profiler)
        self._session = None  # the cycle being recorded
        self._step_label = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> bool:
        self.stop()
        return False

    def start(self) -> None:
        self._transit(ProfilerAction.NONE, self.current_action)
        self._enter_step()

    def stop(self) -> None:
        self._exit_step()
        self._transit(self.current_action, None)

    def step(self) -> None:
        """Mark the end of a step: the schedule then decides about the next one."""
        self._exit_step()
        previous = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._transit(previous, self.current_action)
        self._enter_step()

    def _enter_step(self) -> None:
        if self.record_steps and self._session is not None:
            self._step_label = autograd_profiler.record_function(f"ProfilerStep#{self.step_num}")
            self._step_label.__enter__()

    def _exit_step(self) -> None:
        if self._step_label is not None:
            label, self._step_label = self._step_label, None
            label.__exit__(None, None, None)

    def _transit(self, previous, current) -> None:
        if self._session is not None and (
            previous == ProfilerAction.RECORD_AND_SAVE or current not in _RECORDING
        ):
            session, self._session = self._session, None
            session.__exit__(None, None, None)
            self.profiler = session
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)
        if self._session is None and current in _RECORDING:
            session = autograd_profiler.profile(**self._options)
            session.__enter__()
            self._session = session

    # -- results of the last finished cycle --

    def _finished(self, what: str = "accessing events"):
        # while a cycle records, its (still empty) results; before any, torch's assertion
        if self.profiler is None and self._session is not None:
            return self._session
        if self.profiler is None:
            raise AssertionError(f"Profiler must be initialized before {what}")
        return self.profiler

    def events(self):
        return self._finished().events()

    def key_averages(
        self,
        group_by_input_shape=False,
        group_by_stack_n=0,
        group_by_overload_name=False,
        group_by=None,
    ):
        return self._finished("getting key averages").key_averages(
            group_by_input_shape, group_by_stack_n, group_by=group_by
        )

    def export_chrome_trace(self, path: str) -> None:
        self._finished().export_chrome_trace(path)

    def export_stacks(self, path: str, metric: str = "self_cpu_time_total") -> None:
        self._finished().export_stacks(path, metric)

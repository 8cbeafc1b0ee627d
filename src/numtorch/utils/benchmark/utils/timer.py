"""``Timer``: timeit with torch's statistics, thread settings and blocked measurement loops,
as ``torch.utils.benchmark.Timer`` on a CPU build (Python statements only)."""

from __future__ import annotations

import enum
import textwrap
import timeit
from collections.abc import Callable
from typing import Any

import numpy as np

import numtorch

from . import common

__all__ = ["Language", "Timer", "timer"]

# a CPU build has nothing to synchronise before reading the clock
timer = timeit.default_timer

_MAX_BLOCK = 2**31 - 1


class Language(enum.Enum):
    PYTHON = 0
    CPP = 1


def _clean(code: str) -> str:
    code = textwrap.dedent(code)
    return (code[1:] if code.startswith("\n") else code).rstrip()


class Timer:
    """Times a Python statement, as ``torch.utils.benchmark.Timer``.

    ``stmt`` runs in a namespace made of ``globals`` (with ``torch`` added) after ``setup``
    ran there once; ``num_threads`` sets the intra-op thread count while measuring.
    ``label``, ``sub_label``, ``description`` and ``env`` only name the result (``Compare``
    builds its rows and columns from them).

    >>> import numtorch as torch
    >>> from numtorch.utils import benchmark
    >>> m = benchmark.Timer("x + 1", globals={"x": torch.ones(3)}).timeit(10)
    >>> m.number_per_run, len(m.times)
    (10, 1)
    """

    def __init__(
        self,
        stmt: str = "pass",
        setup: str = "pass",
        global_setup: str = "",
        timer: Callable[[], float] = timer,
        globals: dict[str, Any] | None = None,
        label: str | None = None,
        sub_label: str | None = None,
        description: str | None = None,
        env: str | None = None,
        num_threads: int = 1,
        language: Language | str = Language.PYTHON,
    ) -> None:
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        self._globals = dict(globals or {})
        if language in (Language.PYTHON, "py", "python"):
            self._globals.setdefault("torch", numtorch)
            self._language = Language.PYTHON
            if global_setup:
                raise ValueError(
                    f"global_setup is C++ only, got `{global_setup}`. Most "
                    "likely this code can simply be moved to `setup`."
                )
        elif language in (Language.CPP, "cpp", "c++"):
            raise NotImplementedError(
                "Timer(language='c++') compiles C++ against libtorch, which numtorch does not "
                "have: time the Python statement instead"
            )
        else:
            raise ValueError(f"Invalid language `{language}`.")
        stmt, setup = _clean(stmt), _clean(setup)
        self._timer = timeit.Timer(stmt=stmt, setup=setup, timer=timer, globals=self._globals)
        self._task_spec = common.TaskSpec(
            stmt=stmt,
            setup=setup,
            global_setup=global_setup,
            label=label,
            sub_label=sub_label,
            description=description,
            env=env,
            num_threads=num_threads,
        )

    def _timeit(self, number: int) -> float:
        # a zero time would divide by zero in the statistics
        return max(self._timer.timeit(number), 1e-9)

    def timeit(self, number: int = 1000000) -> common.Measurement:
        """Run ``stmt`` ``number`` times after a warm-up of a hundredth as many."""
        with common.set_torch_threads(self._task_spec.num_threads):
            self._timeit(number=max(int(number // 100), 2))
            times = [self._timeit(number=number)]
        return common.Measurement(number_per_run=number, raw_times=times, task_spec=self._task_spec)

    def repeat(self, repeat: int = -1, number: int = -1) -> None:
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def autorange(self, callback=None) -> None:
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def _measure_blocks(self, number, stop, min_run_time, max_run_time=None, callback=None):
        """Time blocks of ``number`` runs until ``min_run_time`` is spent and ``stop`` agrees,
        or ``max_run_time`` is passed."""
        total, can_stop, times = 0.0, False, []
        with common.set_torch_threads(self._task_spec.num_threads):
            while total < min_run_time or not can_stop:
                spent = self._timeit(number)
                times.append(spent)
                total += spent
                if callback:
                    callback(number, spent)
                can_stop = stop(times)
                if max_run_time and total > max_run_time:
                    break
        return times

    def _estimate_block_size(self, min_run_time: float) -> int:
        """The smallest power of ten of runs whose time dwarfs the timer's own overhead."""
        with common.set_torch_threads(self._task_spec.num_threads):
            overhead = float(np.median([self._timeit(0) for _ in range(5)]))
            number = 1
            while True:
                taken = self._timeit(number)
                if overhead / taken <= 1e-4 and taken >= min_run_time / 1000:
                    break
                if taken > min_run_time or number * 10 > _MAX_BLOCK:
                    break
                number *= 10
        return number

    def blocked_autorange(self, callback=None, min_run_time: float = 0.2) -> common.Measurement:
        """Time blocks of runs (the block size chosen so the timer's overhead is under
        0.01%) until ``min_run_time`` seconds are spent."""
        number = self._estimate_block_size(min_run_time)
        times = self._measure_blocks(number, lambda times: True, min_run_time, callback=callback)
        return common.Measurement(number_per_run=number, raw_times=times, task_spec=self._task_spec)

    def adaptive_autorange(
        self,
        threshold: float = 0.1,
        *,
        min_run_time: float = 0.01,
        max_run_time: float = 10.0,
        callback=None,
    ) -> common.Measurement:
        """As ``blocked_autorange``, going on until the IQR is under ``threshold`` of the
        median (with more than three blocks) or ``max_run_time`` is spent."""
        number = self._estimate_block_size(min_run_time=0.05)

        def stop(times):
            if len(times) <= 3:
                return False
            measured = common.Measurement(number, times, self._task_spec)
            return measured.meets_confidence(threshold=threshold)

        times = self._measure_blocks(number, stop, min_run_time, max_run_time, callback)
        return common.Measurement(number_per_run=number, raw_times=times, task_spec=self._task_spec)

    def collect_callgrind(self, number: int = 100, *, repeats=None, **kwargs):
        raise NotImplementedError(
            "Timer.collect_callgrind counts instructions of libtorch under Valgrind, which "
            "numtorch does not have: use blocked_autorange for wall times"
        )

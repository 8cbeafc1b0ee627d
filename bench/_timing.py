"""Shared timing helpers for the benchmarks: interleaved runs, best of N, the torch oracle."""

from __future__ import annotations

import time

import numtorch


def libraries(single_thread_torch: bool = True) -> dict:
    """numtorch, and torch when it is installed (the comparison point)."""
    libs = {"numtorch": numtorch}
    try:
        import torch
    except ImportError:
        return libs
    if single_thread_torch:
        torch.set_num_threads(1)
    libs["torch"] = torch
    return libs


def best_of_interleaved(cases: dict, repeat: int, clock=time.perf_counter) -> dict:
    """Seconds for each case: the best of ``repeat`` runs, the cases taking turns so a
    machine whose speed drifts (shared cores) treats them alike. ``clock=time.thread_time``
    counts only the CPU time of the running thread, for machines other programs load."""
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(repeat):
        for name, fn in cases.items():
            start = clock()
            fn()
            best[name] = min(best[name], clock() - start)
    return best


CPU_TIME_HELP = (
    "time each run by the CPU time of this thread (time.thread_time) instead of wall time: "
    "fairer on a machine other programs load, for one thread per library"
)


def clock_for(cpu_time: bool):
    return time.thread_time if cpu_time else time.perf_counter

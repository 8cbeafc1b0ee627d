"""The backward run in progress, per thread: its number, whether it accumulates into
``.grad``, and which nodes it reaches. The engine sets it; checkpointing and multi-gradient
hooks ask it."""

from __future__ import annotations

import itertools
import threading


class _Task(threading.local):
    accumulating = True  # False while autograd.grad or backward(inputs=...) runs
    run = 0  # the backward run in progress (0: none), see current_run
    reached = None  # (deps, scheduled, accumulate) of the run in progress, see will_execute


task = _Task()
next_run = itertools.count(1).__next__


def current_run() -> int:
    """Which backward run is executing (a new number per run; 0 outside backward): the
    non-reentrant checkpoint recomputes its block once per run, as torch does per graph task."""
    return task.run


def will_execute(node) -> bool:
    """Whether the backward run in progress reaches ``node`` (runs it or captures its
    gradient): ``torch._C._will_engine_execute_node``, which multi-gradient hooks use to know
    how many of their tensors get a gradient in this run."""
    if task.reached is None:
        raise RuntimeError(
            "_will_engine_execute_node should only be called during the backward pass"
        )
    deps, scheduled, accumulate = task.reached
    if not accumulate and node._is_accumulator:
        raise RuntimeError(
            "A leaf node was passed to _will_engine_execute_node but we are currently running "
            "autograd.grad(). This is currently not supported."
        )
    return node in deps and (scheduled is None or node in scheduled)


def is_checkpoint_valid() -> bool:
    """``torch.autograd._is_checkpoint_valid``: False inside ``autograd.grad`` or
    ``backward(inputs=...)``, where a reentrant checkpoint cannot write ``.grad``."""
    return task.accumulating

"""``torch.jit.fork`` and ``torch.jit.wait`` (also ``torch.fork``/``torch.wait``), run eagerly.

Without TorchScript, torch's ``fork`` runs its function at once in the calling thread and
returns a completed ``Future``; an error raised by the function propagates from ``fork``.
"""

from __future__ import annotations

from .futures import Future


def fork(func, *args, **kwargs) -> Future:
    """Run ``func(*args, **kwargs)`` now and return a completed ``Future`` holding its result.

    Example::

        >>> import numtorch as torch
        >>> fut = torch.fork(lambda x: x + 1, torch.tensor(1))
        >>> torch.wait(fut)
        tensor(2)
    """
    fut = Future()
    fut.set_result(func(*args, **kwargs))
    return fut


def wait(future: Future):
    """The value of ``future`` (blocks until it is complete)."""
    if not isinstance(future, Future):
        raise TypeError(f"wait(): expected a torch.futures.Future, got {type(future).__name__}")
    return future.wait()

"""``torch.futures``: a ``Future`` holds a value (or an error) that becomes available later.

numtorch runs everything eagerly on the CPU, so a ``Future`` is completed by whoever calls
``set_result``/``set_exception`` (another thread, or ``torch.jit.fork``, which runs its function
at once). Callbacks run inline in the completing thread, or at once when the ``Future`` is
already complete, as torch's do.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from ._core.device import device as _device

T = TypeVar("T")
S = TypeVar("S")

__all__ = ["Future", "collect_all", "wait_all"]

_log = logging.getLogger(__name__)


def _check_devices(devices) -> None:
    # a CPU-only build: a Future may only be told about accelerator devices, and it has none
    for d in devices:
        if isinstance(d, int):
            raise RuntimeError("Cannot access accelerator device when none is available.")
        d = _device(d)
        if d.type == "cpu":
            raise ValueError(f"Expected devices to have indices, got {d.type}")
        raise RuntimeError(f"PyTorch is not linked with support for {d.type} devices")


def _callback_error(error: BaseException) -> RuntimeError:
    return RuntimeError(
        f"Got the following error when running the callback: {type(error).__name__}: {error}"
    )


class Future(Generic[T]):
    """A value that becomes available later; ``wait()`` blocks until it has.

    Example::

        >>> import numtorch as torch
        >>> fut = torch.futures.Future()
        >>> chained = fut.then(lambda f: f.wait() + 1)
        >>> fut.set_result(5)
        >>> chained.wait()
        6
    """

    def __init__(self, *, devices=None):
        if devices:
            _check_devices(devices)
        self._done = threading.Condition()
        self._completed = False
        self._value = None
        self._error: BaseException | None = None
        self._callbacks: list[Callable] = []

    def done(self) -> bool:
        """True when the ``Future`` holds a value or an error."""
        return self._completed

    def wait(self) -> T:
        """Block until the ``Future`` completes; return its value or raise its error."""
        with self._done:
            self._done.wait_for(lambda: self._completed)
        return self.value()

    def value(self) -> T:
        """The value of a completed ``Future`` (its error raised); does not block."""
        if not self._completed:
            raise RuntimeError(
                "Future.value(): the Future is not completed yet; call wait() to block until it is"
            )
        if self._error is not None:
            raise self._error
        return self._value

    def then(self, callback: Callable[[Future[T]], S]) -> Future[S]:
        """A new ``Future`` holding what ``callback(self)`` returns once this one completes."""
        if not callable(callback):
            raise TypeError(f"then(): callback must be callable, got {type(callback).__name__}")
        child: Future[S] = Future()

        def run(fut):
            try:
                result = callback(fut)
            except Exception as error:
                child.set_exception(_callback_error(error))
            else:
                child.set_result(result)

        self._add(run)
        return child

    def add_done_callback(self, callback: Callable[[Future[T]], None]) -> None:
        """Run ``callback(self)`` once this ``Future`` completes; its errors are only logged."""
        if not callable(callback):
            raise TypeError(
                f"add_done_callback(): callback must be callable, got {type(callback).__name__}"
            )

        def run(fut):
            try:
                callback(fut)
            except Exception as error:
                _log.error("%s", _callback_error(error))

        self._add(run)

    def set_result(self, result: T) -> None:
        """Complete the ``Future`` with ``result`` and run its callbacks."""
        self._complete(result, None)

    def set_exception(self, result: BaseException) -> None:
        """Complete the ``Future`` with an error that ``wait()``/``value()`` raise."""
        assert isinstance(result, BaseException), (
            f"{result} is of type {type(result)}, not an Exception."
        )
        self._complete(None, result)

    def _add(self, run: Callable) -> None:
        with self._done:
            if not self._completed:
                self._callbacks.append(run)
                return
        run(self)  # already complete: inline, outside the lock so the callback may wait()

    def _complete(self, value, error) -> None:
        with self._done:
            if self._completed:
                raise RuntimeError(
                    "Attempting to mark a completed Future as complete again. Note that a "
                    "Future can only be marked completed once."
                )
            self._value, self._error, self._completed = value, error, True
            callbacks, self._callbacks = self._callbacks, []
            self._done.notify_all()
        for run in callbacks:
            run(self)


def _check_futures(futures, op: str) -> list:
    futures = list(futures)
    for fut in futures:
        if not isinstance(fut, Future):
            raise TypeError(
                f"{op}(): expected a list of torch.futures.Future, got an element of type "
                f"{type(fut).__name__}"
            )
    return futures


def collect_all(futures: list[Future]) -> Future[list[Future]]:
    """A ``Future`` that completes with the list of ``futures`` once all of them have.

    Example::

        >>> import numtorch as torch
        >>> a, b = torch.futures.Future(), torch.futures.Future()
        >>> both = torch.futures.collect_all([a, b])
        >>> a.set_result(1)
        >>> b.set_result(2)
        >>> [f.wait() for f in both.wait()]
        [1, 2]
    """
    futures = _check_futures(futures, "collect_all")
    result: Future[list[Future]] = Future()
    remaining = [len(futures)]
    lock = threading.Lock()

    def finish():
        errors = [f._error for f in futures if f._error is not None]
        if errors:
            result.set_exception(errors[0])
        else:
            result.set_result(futures)

    def one_done(_):
        with lock:
            remaining[0] -= 1
            last = remaining[0] == 0
        if last:
            finish()

    if not futures:
        result.set_result([])
    for fut in futures:
        fut.add_done_callback(one_done)
    return result


def wait_all(futures: list[Future]) -> list:
    """Wait for every one of ``futures`` and return their values (raising the first error)."""
    return [fut.wait() for fut in collect_all(futures).wait()]

"""One pass over a DataLoader whose batches are loaded by worker processes.

Batches of indices go to the workers round-robin, at most ``prefetch_factor`` per worker
ahead of what was consumed, and come back in any order; each is returned in the order it
was dispatched, so the batches and their order equal those of ``num_workers=0``. The main
process waits on the workers' result pipes and their process sentinels together, so a worker
that dies (killed, segfault, ``os._exit``) is reported at once, not after a timeout.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import multiprocessing
import os
import signal
import time
from multiprocessing.connection import wait

from ..._core.dtypes import int64
from ..._creation import empty
from . import _worker

_JOIN_SECONDS = 5.0  # a worker told to stop gets this long before it is terminated
_iterators = itertools.count()
_EXHAUSTED = object()


def _context(loader):
    context = loader.multiprocessing_context
    if context is None:
        return multiprocessing.get_context()
    if isinstance(context, str):
        return multiprocessing.get_context(context)
    return context


class _FetcherFactory:
    """Builds a worker's fetcher from its copy of the dataset (picklable for spawn)."""

    def __init__(self, fetcher_class, auto_collation, collate_fn, drop_last, iterable) -> None:
        self.args = (fetcher_class, auto_collation, collate_fn, drop_last, iterable)

    def __call__(self, dataset):
        fetcher_class, auto_collation, collate_fn, drop_last, iterable = self.args
        return fetcher_class(dataset, auto_collation, collate_fn, drop_last, iterable)


class MultiProcessIterator:
    """Iterates a DataLoader with ``num_workers > 0``."""

    def __init__(self, loader, fetcher_class) -> None:
        self._parent_pid = os.getpid()
        self._loader = loader
        self._num_workers = loader.num_workers
        self._prefetch = loader.prefetch_factor if loader.prefetch_factor is not None else 2
        self._timeout = loader.timeout
        self._persistent = loader.persistent_workers
        self._base_seed = int(empty((), dtype=int64).random_(generator=loader.generator).item())
        use_shm = os.path.isdir(_worker.SHM_FOLDER)
        self._prefix = f"numtorch_dl_{os.getpid()}_{next(_iterators)}" if use_shm else None
        factory = _FetcherFactory(
            fetcher_class,
            loader._auto_collation,
            loader.collate_fn,
            loader.drop_last,
            loader._iterable,
        )
        context = _context(loader)
        self._shutdown = False
        self._ready: dict[int, object] = {}
        self._workers, self._tasks, self._results = [], [], []
        for worker_id in range(self._num_workers):
            task_out, task_in = context.Pipe(duplex=False)
            result_out, result_in = context.Pipe(duplex=False)
            # the main process's ends of every pipe so far: a forked worker closes its copies,
            # so that it sees EOF when the main process dies (and so do its siblings)
            main_ends = [*self._tasks, *self._results, task_in, result_out]
            process = context.Process(
                target=_worker.worker_loop,
                args=(
                    main_ends,
                    factory,
                    loader.dataset,
                    task_out,
                    result_in,
                    loader.worker_init_fn,
                    self._base_seed,
                    worker_id,
                    self._num_workers,
                    self._prefix,
                ),
                daemon=True,
            )
            process.start()
            task_out.close()  # the worker's ends: closed here, so EOF tells either side
            result_in.close()
            self._workers.append(process)
            self._tasks.append(task_in)
            self._results.append(result_out)
        self._start_epoch(first=True)

    def _start_epoch(self, first: bool) -> None:
        self._sampler_iter = iter(self._loader._index_sampler)
        self._sent = 0  # tasks dispatched
        self._next_task = 0  # the task whose batch is returned next
        self._owner: dict[int, int] = {}  # task -> worker
        self._ready: dict[int, object] = {}  # task -> reply not yet returned
        self._active = [True] * self._num_workers
        self._turn = itertools.cycle(range(self._num_workers))
        if not first:
            for conn in self._tasks:
                conn.send("resume")
        for _ in range(max(self._prefetch, 1) * self._num_workers):
            self._dispatch()

    def _reset(self) -> None:
        """A new epoch on the same (persistent) workers."""
        for data in self._ready.values():
            _worker.discard(data)
        while self._owner.keys() - self._ready.keys():  # replies still on their way
            self._receive()
        for data in self._ready.values():
            _worker.discard(data)
        self._start_epoch(first=False)

    def _dispatch(self) -> None:
        for _ in range(self._num_workers):
            worker = next(self._turn)
            if self._active[worker]:
                break
        else:
            return
        index = next(self._sampler_iter, _EXHAUSTED)
        if index is _EXHAUSTED:
            return
        self._tasks[worker].send((self._sent, index))
        self._owner[self._sent] = worker
        self._sent += 1

    def __iter__(self):
        return self

    def __len__(self) -> int:
        return len(self._loader)

    def __next__(self):
        while True:
            if self._next_task == self._sent:
                if not self._persistent:
                    self._shutdown_workers()
                raise StopIteration
            task = self._next_task
            if task not in self._ready:
                self._receive()
                continue
            reply = self._ready.pop(task)
            worker = self._owner.pop(task)
            self._next_task += 1
            if isinstance(reply, _worker._Ended):
                self._active[worker] = False
                continue
            self._dispatch()
            if isinstance(reply, _worker._WorkerError):
                reply.reraise()
            return _worker.decode(reply)

    def _receive(self) -> None:
        """Wait for one more reply (or raise if a worker died or the timeout passed)."""
        if self._shutdown:
            raise RuntimeError("the DataLoader's workers have been shut down")
        deadline = time.monotonic() + self._timeout if self._timeout > 0 else None
        waiting = {conn: i for i, conn in enumerate(self._results)}
        sentinels = {p.sentinel: i for i, p in enumerate(self._workers)}
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                self._shutdown_workers(graceful=False)
                raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")
            ready = wait([*waiting, *sentinels], timeout=left)
            received = False
            for conn in ready:
                if conn in waiting:
                    try:
                        task, reply = conn.recv()
                    except (EOFError, OSError):
                        continue  # the worker ended; its sentinel says how
                    self._ready[task] = reply
                    received = True
            if received:
                return
            dead = [self._workers[sentinels[s]] for s in ready if s in sentinels]
            if dead:
                self._worker_died(dead)

    def _worker_died(self, dead) -> None:
        pids = ", ".join(str(p.pid) for p in dead)
        how = []
        for p in dead:
            p.join(0.1)
            code = p.exitcode
            if code is not None and code < 0:
                how.append(f"pid {p.pid} was killed by signal {signal.Signals(-code).name}")
            elif code is not None:
                how.append(f"pid {p.pid} exited with status {code}")
        self._shutdown_workers(graceful=False)
        detail = f" ({'; '.join(how)})" if how else ""
        raise RuntimeError(
            f"DataLoader worker (pid(s) {pids}) exited unexpectedly{detail}. A worker ends "
            "like this when it is killed (e.g. out of memory), crashes in native code, or "
            "calls os._exit; try num_workers=0 to see the error in the main process."
        )

    def _shutdown_workers(self, graceful: bool = True) -> None:
        """Stop the workers: told to finish (``graceful``), or terminated at once (after a
        timeout or a death, when some may be stuck in the dataset)."""
        if self._shutdown:
            return
        self._shutdown = True
        for conn in self._tasks:
            with contextlib.suppress(OSError):
                conn.send(None)
        deadline = time.monotonic() + (_JOIN_SECONDS if graceful else 0)
        for p in self._workers:
            p.join(max(deadline - time.monotonic(), 0))
            if p.is_alive():
                p.terminate()
                p.join(1)
        for conn in self._tasks + self._results:
            conn.close()
        for data in self._ready.values():
            _worker.discard(data)
        self._ready.clear()
        if self._prefix is not None:  # batches sent but never received
            for path in glob.glob(os.path.join(_worker.SHM_FOLDER, self._prefix + "_*")):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)

    def __del__(self) -> None:
        # a process forked later (another loader's worker) inherits this iterator: only the
        # process that started the workers may stop and join them
        if getattr(self, "_workers", None) is not None and os.getpid() == self._parent_pid:
            self._shutdown_workers()

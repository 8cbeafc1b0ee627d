"""``torch.multiprocessing.spawn``: run ``fn(i, *args)`` in ``nprocs`` processes and raise
in the parent when one of them fails, with the child's traceback."""

from __future__ import annotations

import multiprocessing
import signal
import sys
import traceback


class ProcessException(Exception):
    __slots__ = ["error_index", "error_pid"]

    def __init__(self, msg: str, error_index: int, pid: int):
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.pid = pid

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid)


class ProcessRaisedException(ProcessException):
    """A spawned process raised: the message carries its traceback."""

    def __init__(self, msg: str, error_index: int, error_pid: int):
        super().__init__(msg, error_index, error_pid)


class ProcessExitedException(ProcessException):
    """A spawned process exited with a non-zero code (or a signal)."""

    __slots__ = ["exit_code"]

    def __init__(
        self,
        msg: str,
        error_index: int,
        error_pid: int,
        exit_code: int,
        signal_name: str | None = None,
    ):
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid, self.exit_code, self.signal_name)


def _wrap(fn, i, args, error_queue):
    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass
    except Exception:
        error_queue.put(traceback.format_exc())
        sys.exit(1)


class ProcessContext:
    """The spawned processes; ``join`` waits for them and raises the first failure."""

    def __init__(self, processes, error_queues):
        self.error_queues = error_queues
        self.processes = processes

    def pids(self):
        return [int(process.pid) for process in self.processes]

    def join(self, timeout: float | None = None) -> bool:
        """True once every process has ended; raises if one failed."""
        for process in self.processes:
            process.join(timeout)
        failed = next(
            (i for i, p in enumerate(self.processes) if p.exitcode not in (0, None)), None
        )
        if failed is None:
            return all(p.exitcode is not None for p in self.processes)
        for process in self.processes:
            if process.is_alive():
                process.terminate()
            process.join()
        process, queue = self.processes[failed], self.error_queues[failed]
        if queue.empty():
            code = process.exitcode
            if code < 0:
                name = signal.Signals(-code).name
                raise ProcessExitedException(
                    f"process {failed} terminated with signal {name}",
                    error_index=failed,
                    error_pid=process.pid,
                    exit_code=code,
                    signal_name=name,
                )
            raise ProcessExitedException(
                f"process {failed} terminated with exit code {code}",
                error_index=failed,
                error_pid=process.pid,
                exit_code=code,
            )
        message = f"\n\n-- Process {failed} terminated with the following error:\n"
        raise ProcessRaisedException(message + queue.get(), failed, process.pid)


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Starts ``nprocs`` processes running ``fn(i, *args)``; joins them when ``join``."""
    context = multiprocessing.get_context(start_method)
    processes, queues = [], []
    for i in range(nprocs):
        queue = context.SimpleQueue()
        process = context.Process(target=_wrap, args=(fn, i, args, queue), daemon=daemon)
        process.start()
        processes.append(process)
        queues.append(queue)
    result = ProcessContext(processes, queues)
    if not join:
        return result
    while not result.join():
        pass
    return None


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Runs ``fn(i, *args)`` for i in range(nprocs), each in a new process."""
    return start_processes(fn, args, nprocs, join, daemon, start_method)

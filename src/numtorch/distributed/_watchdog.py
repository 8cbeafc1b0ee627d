"""Turn a collective that never completes into an error that names it, instead of a hang.

A blocking MPI collective waits forever when another rank skipped it, called a different
one, crashed without aborting the job, or is stuck elsewhere. Each collective records what it
is (name, sequence number on this rank, buffer) while it runs; a daemon thread checks that
record and, past the process group's timeout, prints it with every thread's Python stack and
aborts the whole MPI job (mpi4py releases the GIL inside MPI calls, so the thread runs while
the main thread waits).
"""

from __future__ import annotations

import faulthandler
import sys
import threading
import time


class CollectiveWatchdog:
    """Watches the collectives of one process group; ``timeout`` is in seconds."""

    def __init__(self, timeout: float, rank: int, world_size: int, abort) -> None:
        self.timeout = timeout
        self.rank = rank
        self.world_size = world_size
        self.abort = abort
        self.count = 0
        self.current = None  # (name, sequence number, buffer, start time)
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._watch, name="numtorch-collective-watchdog", daemon=True
        )
        self._thread.start()

    def start(self, name: str, buffer) -> None:
        """Record that collective ``name`` on ``buffer`` (an array, or None) begins."""
        self.count += 1
        self.current = (name, self.count, buffer, time.monotonic())

    def finish(self) -> None:
        self.current = None

    def stop(self) -> None:
        self._stop.set()

    def _watch(self) -> None:
        period = min(1.0, self.timeout / 4)
        while not self._stop.wait(period):
            current = self.current
            if current is not None and time.monotonic() - current[3] > self.timeout:
                self._report(*current)
                self.abort()
                return

    def _report(self, name, number, buffer, started) -> None:
        waited = time.monotonic() - started
        description = "no data"
        if buffer is not None:
            description = f"{buffer.dtype} buffer of shape {list(buffer.shape)}"
        print(
            f"numtorch.distributed: rank {self.rank} of {self.world_size} waited {waited:.1f} s "
            f"(timeout {self.timeout:g} s) in {name} #{number} on this rank ({description}); "
            "not every rank reached this collective. A rank that skipped it, called "
            "collectives in a different order, crashed, or is stuck elsewhere causes this. "
            "Aborting the job. Stacks of this rank:",
            file=sys.stderr,
            flush=True,
        )
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)

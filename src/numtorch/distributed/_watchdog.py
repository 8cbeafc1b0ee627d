"""Turn a collective that never completes into an error that names it, instead of a hang.

A blocking MPI collective waits forever when another rank skipped it, called a different
one, crashed without aborting the job, or is stuck elsewhere. Each collective records what it
is (name, sequence number on this rank, buffer) while it runs; a daemon thread checks that
record and, past the process group's timeout, prints it with every thread's Python stack and
aborts the whole MPI job (mpi4py releases the GIL inside MPI calls, so the thread runs while
the main thread waits).

When all ranks share one machine, each also posts its state on a ``StatusBoard`` in MPI
shared memory, which any rank reads without communicating: the report then says where every
rank is (``rank 1: in broadcast #7`` next to ``rank 0: in all_reduce #7`` shows two ranks
that called collectives in different orders; ``not in a collective`` shows one that skipped).
"""

from __future__ import annotations

import faulthandler
import sys
import threading
import time

COLLECTIVES = (
    "all_reduce",
    "broadcast",
    "all_gather",
    "all_gather_into_tensor",
    "reduce_scatter",
    "reduce_scatter_tensor",
    "reduce",
    "gather",
    "scatter",
    "barrier",
)
_CODES = {name: i for i, name in enumerate(COLLECTIVES)}


class StatusBoard:
    """Per-rank [in a collective, its number in its group, which collective, start time in
    ns, which group] in an MPI shared-memory window; None from ``create`` when the ranks
    span several machines. Groups are numbered as created: 0 is the world."""

    FIELDS = 5

    def __init__(self, window, slots, rank: int) -> None:
        self.window = window
        self.slots = slots  # one int64 view per rank
        self.mine = slots[rank]
        self.groups = [None]  # global ranks of each group (None: the world)

    @classmethod
    def create(cls, comm, mpi):
        node = comm.Split_type(mpi.COMM_TYPE_SHARED)
        try:
            if node.Get_size() != comm.Get_size():
                return None
            from ..backend import xp

            window = mpi.Win.Allocate_shared(cls.FIELDS * 8, 8, comm=node)
            slots = []
            for r in range(node.Get_size()):
                buffer, _ = window.Shared_query(r)
                slots.append(xp.frombuffer(buffer, dtype=xp.int64, count=cls.FIELDS))
            slots[node.Get_rank()][:] = 0
            return cls(window, slots, node.Get_rank())
        finally:
            node.Free()

    def describe(self) -> list[str]:
        now = time.monotonic_ns()
        lines = []
        for rank, (active, count, code, start, group) in enumerate(s.tolist() for s in self.slots):
            if active:
                what = f"in {COLLECTIVES[code]} #{count}"
                if group:
                    what += f" of the group of ranks {self.groups[group]}"
                what += f" for {(now - start) / 1e9:.1f} s"
            else:
                what = f"not in a collective ({count} started)"
            lines.append(f"  rank {rank}: {what}")
        return lines

    def free(self) -> None:
        self.slots = self.mine = None
        self.window.Free()


class CollectiveWatchdog:
    """Watches the collectives of one process group; ``timeout`` is in seconds."""

    def __init__(
        self, timeout: float, rank: int, world_size: int, abort, board=None, group: int = 0
    ) -> None:
        self.timeout = timeout
        self.rank = rank
        self.world_size = world_size
        self.abort = abort
        self.board = board
        self.group = group  # this group's number on the board
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
        if self.board is not None:
            mine = self.board.mine
            mine[1] = self.count
            mine[2] = _CODES[name]
            mine[3] = time.monotonic_ns()
            mine[4] = self.group
            mine[0] = 1

    def finish(self) -> None:
        self.current = None
        if self.board is not None:
            self.board.mine[0] = 0

    def stop(self) -> None:
        self._stop.set()
        self.board = None  # its owner, the world group, frees it

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
        board = self.board
        where = ["Where the ranks are:", *board.describe()] if board is not None else []
        print(
            f"numtorch.distributed: rank {self.rank} of {self.world_size} waited {waited:.1f} s "
            f"(timeout {self.timeout:g} s) in {name} #{number} on this rank ({description}); "
            "not every rank reached this collective. A rank that skipped it, called "
            "collectives in a different order, crashed, or is stuck elsewhere causes this.",
            *where,
            "Aborting the job. Stacks of this rank:",
            sep="\n",
            file=sys.stderr,
            flush=True,
        )
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)

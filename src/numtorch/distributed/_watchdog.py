"""Turn a collective that cannot complete into an error that names it, instead of a hang.

A blocking MPI collective waits forever when another rank skipped it, called a different
one, crashed without aborting the job, or is stuck elsewhere. Each collective records what it
is (name, sequence number on this rank, buffer) while it runs; a daemon thread checks that
record and aborts the whole MPI job with a report (the collective, where every rank is, this
rank's Python stacks) as soon as the wait is known to be hopeless, or past the process
group's timeout otherwise (mpi4py releases the GIL inside MPI calls, so the thread runs while
the main thread waits).

When all ranks share one machine, each also posts its state on a ``StatusBoard`` in MPI
shared memory (its collective, its pid, whether it is exiting, a heartbeat), which any rank
reads without communicating. That finds the hopeless waits within seconds:

- a rank of the group has exited (its ``atexit`` mark) or died (its pid is gone: killed by a
  signal, ``os._exit``) while this rank waits for it: reported after ``DEAD_GRACE`` seconds;
- every rank the wait depends on is itself blocked in a *different* collective (calls in
  different orders across groups, a skipped collective followed by one on another group), so
  none can ever arrive: reported once that picture has held for ``STALL_GRACE`` seconds.

A rank that is merely slow (computing, not in a collective) is waited for up to the timeout.
"""

from __future__ import annotations

import atexit
import faulthandler
import os
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
    "destroy_process_group",  # its barrier, before the shared memory is freed
)
CODES = {name: i for i, name in enumerate(COLLECTIVES)}

DEAD_GRACE = 1.0  # a collective the dead rank took part in may still finish meanwhile
STALL_GRACE = 3.0
_PERIOD = 0.2
_SILENT = 5.0  # seconds without a heartbeat worth reporting

# A board slot's fields
ACTIVE, COUNT, CODE, START, GROUP, PID, EXITING, BEAT = range(8)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        return True


class StatusBoard:
    """Per-rank [in a collective, its number in its group, which collective, start time in
    ns, which group, pid, exiting, heartbeat in ns] in an MPI shared-memory window; None
    from ``create`` when the ranks span several machines. Groups are numbered as created:
    0 is the world."""

    FIELDS = 8

    def __init__(self, window, slots, rank: int) -> None:
        self.window = window
        self.slots = slots  # one int64 view per rank
        self.mine = slots[rank]
        self.rank = rank
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
            board = cls(window, slots, node.Get_rank())
            board.mine[:] = 0
            board.mine[PID] = os.getpid()
            board.mine[BEAT] = time.monotonic_ns()
            node.Barrier()  # every slot is written before anyone reads one
            atexit.register(board.mark_exiting)
            return board
        finally:
            node.Free()

    def mark_exiting(self) -> None:
        if self.mine is not None:
            self.mine[EXITING] = 1

    def members(self, group: int) -> list[int]:
        ranks = self.groups[group]
        return list(range(len(self.slots))) if ranks is None else ranks

    def where(self, rank: int, now: int) -> str:
        active, count, code, start, group = self.slots[rank][:5].tolist()
        if not active:
            return f"not in a collective ({count} started on its last group)"
        what = f"in {COLLECTIVES[code]} #{count}"
        if group:
            what += f" of the group of ranks {self.groups[group]}"
        return what + f" for {(now - start) / 1e9:.1f} s"

    def describe(self) -> list[str]:
        now = time.monotonic_ns()
        lines = []
        for rank, slot in enumerate(self.slots):
            line = f"  rank {rank} (pid {int(slot[PID])}): {self.where(rank, now)}"
            silent = (now - int(slot[BEAT])) / 1e9
            if slot[EXITING]:
                line += ", exiting"
            elif not _alive(int(slot[PID])):
                line += ", dead"
            elif silent > _SILENT:
                # its watchdog thread cannot run: a long call holding the GIL, or a stopped process
                line += f", no heartbeat for {silent:.0f} s"
            lines.append(line)
        return lines

    def gone(self, rank: int) -> str | None:
        """Why rank ``rank`` will never take part in a collective again, or None."""
        slot = self.slots[rank]
        if slot[EXITING]:
            return "has exited (its script ended or called sys.exit)"
        if not _alive(int(slot[PID])):
            return f"died (pid {int(slot[PID])} is gone: killed by a signal, or os._exit)"
        return None

    def deadlocked(self, now: int, grace_ns: int) -> list[int]:
        """Ranks blocked for good: each waits in a collective for a rank that is itself
        blocked in a different one (empty when some rank can still move things along)."""
        state = [s[:5].tolist() for s in self.slots]
        key = [(s[GROUP], s[COUNT]) if s[ACTIVE] else None for s in state]
        waiting = {}
        for r, k in enumerate(key):
            if k is not None:
                behind = [m for m in self.members(k[0]) if key[m] != k]
                if behind:
                    waiting[r] = behind
        stuck = set(waiting)
        changed = True
        while changed:  # a rank that waits for a free (or completing) rank is not stuck
            changed = False
            for r in list(stuck):
                if any(m not in stuck for m in waiting[r]):
                    stuck.discard(r)
                    changed = True
        if any(now - state[r][START] < grace_ns for r in stuck):
            return []
        return sorted(stuck)

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
        self.current = None  # (name, sequence number, buffer, start time)
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._watch, name="numtorch-collective-watchdog", daemon=True
        )
        self._thread.start()

    def start(self, name: str, buffer, number: int) -> None:
        """Record that collective ``name`` (this group's ``number``-th) on ``buffer`` (an
        array, or None) begins."""
        self.current = (name, number, buffer, time.monotonic())
        if self.board is not None:
            mine = self.board.mine
            mine[COUNT] = number
            mine[CODE] = CODES[name]
            mine[START] = time.monotonic_ns()
            mine[GROUP] = self.group
            mine[ACTIVE] = 1

    def finish(self) -> None:
        self.current = None
        if self.board is not None:
            self.board.mine[ACTIVE] = 0

    def stop(self) -> None:
        self._stop.set()
        self.board = None  # its owner, the world group, frees it
        if threading.current_thread() is not self._thread:
            self._thread.join(2 * _PERIOD)  # not reading the board while it is freed

    def _watch(self) -> None:
        period = min(_PERIOD, self.timeout / 4)
        gone_since: dict[int, float] = {}
        while not self._stop.wait(period):
            board = self.board
            if board is not None and board.mine is not None:
                board.mine[BEAT] = time.monotonic_ns()
            current = self.current
            if current is None:
                gone_since.clear()
                continue
            now = time.monotonic()
            if now - current[3] > self.timeout:
                self._report(current, "not every rank reached this collective before the timeout")
                self.abort()
                return
            if board is None or board.mine is None:
                continue
            why = self._hopeless(board, current, now, gone_since)
            if why is not None:
                self._report(current, why)
                self.abort()
                return

    def _hopeless(self, board, current, now: float, gone_since: dict) -> str | None:
        me = board.rank
        for peer in board.members(self.group):
            if peer == me:
                continue
            why = board.gone(peer)
            if why is None:
                gone_since.pop(peer, None)
                continue
            since = gone_since.setdefault(peer, now)
            if now - since >= DEAD_GRACE and self.current is current:
                return f"rank {peer} {why} while rank {me} waits for it in this collective"
        stuck = board.deadlocked(time.monotonic_ns(), int(STALL_GRACE * 1e9))
        # The lowest stuck rank reports; the others only if it has not aborted the job soon.
        if me in stuck and (me == stuck[0] or now - current[3] > 2 * STALL_GRACE + 2):
            return (
                f"ranks {stuck} each wait in a collective for a rank that is blocked in a "
                "different one, so none can finish: the ranks called collectives in "
                "different orders (or on different groups), or one skipped a collective"
            )
        return None

    def _report(self, current, why: str) -> None:
        name, number, buffer, started = current
        waited = time.monotonic() - started
        description = "no data"
        if buffer is not None:
            description = f"{buffer.dtype} buffer of shape {list(buffer.shape)}"
        board = self.board
        where = ["Where the ranks are:", *board.describe()] if board is not None else []
        print(
            f"numtorch.distributed: rank {self.rank} of {self.world_size} waited {waited:.1f} s "
            f"(timeout {self.timeout:g} s) in {name} #{number} on this rank ({description}): "
            f"{why}.",
            *where,
            "Aborting the job. Stacks of this rank:",
            sep="\n",
            file=sys.stderr,
            flush=True,
        )
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)

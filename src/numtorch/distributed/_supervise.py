"""The launcher's watch over the ranks: a rank that dies ends the job at once, naming it.

``mpiexec`` tears a job down when a rank exits with an error, but it names only a pid, takes
a few seconds, and a rank that vanishes with status 0 (``os._exit(0)``) leaves the others to
be killed silently with the job reported as a success. So each rank (``_rank.py``) writes its
pid into a folder the launcher made (``NUMTORCH_RUN_DIR``) when it starts, and its exit status
when its script ends. The launcher looks for a rank whose process is gone without an exit
status (every ``POLL`` seconds, and at once when a rank's pidfd says it ended, so the rank
that died first is the one named, not one that ``mpiexec`` ended next; a launcher delayed
past ``mpiexec``'s teardown finds several gone together and names them all), prints which
rank it was, and stops the job (SIGTERM to ``mpiexec``, which ends the other ranks; SIGKILL if that
does not). The exit status is 0 only if every rank finished its script with status 0.

MPICH's ranks share a /dev/shm file that it deletes on a clean exit but leaves behind when a
job is aborted (2 MB each time); each rank lists the ones it maps, and the launcher deletes
those that remain once the job is over.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ._watchdog import _alive

POLL = 0.1


def rank_record(folder: str, rank: int, what: str, value) -> None:
    """Write one rank's ``pid`` or ``exit`` record (called from the rank itself)."""
    path = Path(folder) / f"rank{rank}.{what}"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(str(value))
    tmp.replace(path)  # the launcher never reads half a record


def shared_memory_files() -> list[str]:
    """The /dev/shm files this process maps."""
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split(None, 5)[-1].strip() for line in f if "/dev/shm/" in line}
    except OSError:
        return []
    return sorted(p for p in paths if p.startswith("/dev/shm/") and not p.endswith("(deleted)"))


def remove_leftovers(folder: Path) -> None:
    """Delete the /dev/shm files the ranks of a finished job recorded, if still there."""
    for record in folder.glob("rank*.shm"):
        for path in record.read_text().split():
            with contextlib.suppress(OSError):
                os.unlink(path)


def _read(folder: Path, rank: int, what: str) -> int | None:
    try:
        return int((folder / f"rank{rank}.{what}").read_text())
    except (OSError, ValueError):
        return None


class _Ranks:
    """The ranks' processes, as they register; wakes on the first death (``pidfd``)."""

    def __init__(self, folder: Path, nprocs: int) -> None:
        self.folder = folder
        self.nprocs = nprocs
        self.pids: dict[int, int] = {}
        self.fds: dict[int, int] = {}  # pidfd -> rank, where the OS has pidfds
        self.first: list[int] = []  # ranks whose end woke us first
        # ranks already gone when their pid was first read (a busy machine can delay the
        # watch past a rank's death): they ended before any rank that was being watched
        self.gone_unwatched: list[int] = []

    def wait(self, seconds: float) -> None:
        """Sleep up to ``seconds``, less if a registered rank's process ends."""
        for rank in range(self.nprocs):
            if rank not in self.pids:
                pid = _read(self.folder, rank, "pid")
                if pid is not None:
                    self.pids[rank] = pid
                    try:
                        self.fds[os.pidfd_open(pid)] = rank
                    except ProcessLookupError:
                        self.gone_unwatched.append(rank)
                    except (AttributeError, OSError):
                        pass  # no pidfds here: the POLL loop finds the death
        if self.fds:
            ready, _, _ = select.select(list(self.fds), [], [], seconds)
            if ready and not self.first:
                self.first = sorted(self.fds[fd] for fd in ready)
        else:
            time.sleep(seconds)

    def dead(self) -> list[tuple[int, int]]:
        """The ranks (and pids) gone without writing their exit status that ended first: one,
        or several when the launcher woke to find them all gone and cannot tell which went
        first (a busy machine can delay it past mpiexec's teardown of the others). Empty while
        none is, or once a rank has reported a failure: mpiexec then ends the others, who are
        not to blame."""
        if any(_read(self.folder, r, "exit") not in (None, 0) for r in self.pids):
            return []
        for together in [*([r] for r in self.gone_unwatched), self.first, list(self.pids)]:
            gone = [(r, self.pids[r]) for r in together if self._gone(r)]
            if gone:
                return gone if together is self.first else gone[:1]
        return []

    def _gone(self, rank: int) -> bool:
        # the exit record is read again: the rank may have written it and ended meanwhile
        return (
            _read(self.folder, rank, "exit") is None
            and not _alive(self.pids[rank])
            and _read(self.folder, rank, "exit") is None
        )

    def close(self) -> None:
        for fd in self.fds:
            os.close(fd)


def _say(message: str) -> None:
    print(f"numtorch.distributed.run: {message}", file=sys.stderr, flush=True)


def _death_report(dead: list[tuple[int, int]]) -> str:
    named = ", ".join(f"rank {r} (pid {pid})" for r, pid in dead)
    if len(dead) == 1:
        return (
            f"{named} died without finishing its script "
            "(killed by a signal, crashed, or os._exit); stopping the job"
        )
    return (
        f"{named} died without finishing their scripts (killed by a signal, crashed, or "
        "os._exit) and were found gone together: one died first and mpiexec ended the "
        "others; stopping the job"
    )


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def supervise(cmd: list[str], env: dict, nprocs: int) -> int:
    """Run ``mpiexec`` (``cmd``) and watch its ``nprocs`` ranks; the job's exit status."""
    with tempfile.TemporaryDirectory(prefix="numtorch-run-") as name:
        folder = Path(name)
        proc = subprocess.Popen(cmd, env={**env, "NUMTORCH_RUN_DIR": name})

        def forward(signum, frame):  # MPICH's mpiexec ignores SIGINT from a Python parent
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)

        ranks = _Ranks(folder, nprocs)
        previous = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            while True:
                ranks.wait(POLL)
                status = proc.poll()
                if status is not None:
                    break
                dead = ranks.dead()
                if dead:
                    _say(_death_report(dead))
                    _stop(proc)
                    return proc.returncode if proc.returncode > 0 else 1
        finally:
            ranks.close()
            if proc.poll() is not None:
                remove_leftovers(folder)
            for s, handler in previous.items():
                signal.signal(s, handler)
        if status == 0:
            unfinished = [r for r in range(nprocs) if _read(folder, r, "exit") is None]
            failed = [r for r in range(nprocs) if _read(folder, r, "exit") not in (None, 0)]
            if unfinished or failed:
                _say(
                    f"mpiexec reported success, but ranks {unfinished} did not finish their "
                    f"script and ranks {failed} exited with an error status"
                )
                return 1
        return status

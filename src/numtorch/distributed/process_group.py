"""The process group: which processes take part, and this one's rank among them.

The default group wraps a duplicate of MPI's world communicator (so user code talking to
``MPI.COMM_WORLD`` directly cannot mix its messages with numtorch's). Ranks and world size
come from the MPI launcher; ``init_process_group`` only checks values it is given.
"""

from __future__ import annotations

import importlib.util
import os
from datetime import timedelta

from . import _fingerprint, _mpi
from ._supervise import rank_record
from ._watchdog import CollectiveWatchdog, StatusBoard

# torch's default for CPU process groups; NUMTORCH_DIST_TIMEOUT (seconds) overrides it.
DEFAULT_TIMEOUT = timedelta(minutes=30)

_NOT_INITIALIZED = (
    "Default process group has not been initialized, please make sure to call init_process_group."
)


class ProcessGroup:
    """A set of ranks that run collectives together (one MPI communicator)."""

    def __init__(self, comm, ranks: list[int], timeout: float, board=None, number=0) -> None:
        self.comm = comm
        self.ranks = ranks  # global rank of each group rank
        self._rank = comm.Get_rank()
        self._size = comm.Get_size()
        self.timeout = timeout
        self.seq = 0  # collectives started on this group by this rank
        self.check = _fingerprint.enabled()
        self.in_place = _mpi.in_place_marker(comm)
        self.board = None  # set on the world group, which owns the status board
        self.watchdog = None
        if self._size > 1:
            self.watchdog = CollectiveWatchdog(
                timeout, self._rank, self._size, self._abort, board, number
            )

    def rank(self) -> int:
        return self._rank

    def size(self) -> int:
        return self._size

    def name(self) -> str:
        return "mpi"

    def group_rank(self, global_rank: int, what: str) -> int:
        """The rank inside this group of a global rank given as ``src`` or ``dst``."""
        try:
            return self.ranks.index(global_rank)
        except ValueError:
            raise ValueError(
                f"{what} rank {global_rank} is not part of the process group "
                f"(its global ranks are {self.ranks})"
            ) from None

    def _abort(self) -> None:
        folder = os.environ.get("NUMTORCH_RUN_DIR")
        if folder:  # the launcher then knows this rank ended on purpose, after its report
            rank_record(folder, self.ranks[self._rank], "exit", 1)
        self.comm.Abort(1)

    def _wait_for_everyone(self) -> None:
        """A barrier the watchdog watches: freeing the status board's shared memory waits for
        every rank, and a rank that has gone is reported instead of hanging it."""
        if self.watchdog is None:
            return
        self.seq += 1
        self.watchdog.start("destroy_process_group", None, self.seq)
        try:
            self.comm.Barrier()
        finally:
            self.watchdog.finish()

    def _free(self) -> None:
        if self.board is not None:
            self._wait_for_everyone()
        if self.watchdog is not None:
            self.watchdog.stop()
        if self.board is not None:
            self.board.free()
        self.comm.Free()

    def __repr__(self) -> str:
        return f"ProcessGroup(backend=mpi, rank={self._rank}, size={self._size})"


class GroupMember:
    """``torch.distributed.group``: ``WORLD`` is the default group once initialised."""

    WORLD: ProcessGroup | None = None
    NON_GROUP_MEMBER = object()  # what new_group returns on ranks outside the new group


group = GroupMember


class Backend(str):
    """Backend names; numtorch has one, MPI (``"gloo"`` is accepted and runs on it)."""

    MPI = "mpi"
    GLOO = "gloo"


_subgroups: list[ProcessGroup] = []


def is_available() -> bool:
    """True: numtorch.distributed is always present (it needs mpi4py only for >1 process)."""
    return True


def is_mpi_available() -> bool:
    """Whether mpi4py is installed (checked without initialising MPI)."""
    return importlib.util.find_spec("mpi4py") is not None


def is_initialized() -> bool:
    return GroupMember.WORLD is not None


def init_process_group(
    backend: str | None = None,
    init_method: str | None = None,
    timeout: timedelta | None = None,
    world_size: int = -1,
    rank: int = -1,
    store=None,
    group_name: str = "",
    pg_options=None,
    device_id=None,
) -> None:
    """Join the default process group: every rank started by ``mpiexec`` (or the launcher).

    Without a launcher this process is a world of one, with or without mpi4py installed.
    Rank and world size come from MPI; ``world_size``/``rank`` given here are only checked.
    ``timeout`` bounds each collective: past it the rank prints the stalled collective
    and aborts the job; a rank of the group that died or exited, or ranks blocked in
    different collectives, end the job within seconds regardless (see ``_watchdog.py``).
    ``init_method`` and ``store`` are not used.

    Example:
        >>> import numtorch.distributed as dist
        >>> dist.init_process_group("mpi")
        >>> dist.get_rank(), dist.get_world_size()
        (0, 1)
        >>> dist.destroy_process_group()
    """
    if GroupMember.WORLD is not None:
        raise ValueError("trying to initialize the default process group twice!")
    if backend is not None and str(backend).lower() not in (Backend.MPI, Backend.GLOO):
        raise ValueError(
            f"numtorch.distributed runs on MPI only; backend {backend!r} is not available "
            "(use backend='mpi'; 'gloo' is accepted as an alias for CPU code written for torch)"
        )
    seconds = _timeout_seconds(timeout)
    comm = _mpi.world_comm()
    size, me = comm.Get_size(), comm.Get_rank()
    for name, given, actual in (("world_size", world_size, size), ("rank", rank, me)):
        if given not in (-1, None) and given != actual:
            comm.Free()
            raise ValueError(
                f"init_process_group got {name}={given}, but the MPI launcher made this "
                f"process {name} {actual}; ranks and world size come from mpiexec "
                "(python -m numtorch.distributed.run -n N script.py)"
            )
    board = None
    if size > 1 and not isinstance(comm, _mpi.LocalComm):
        board = StatusBoard.create(comm, _mpi.load_mpi())
    GroupMember.WORLD = ProcessGroup(comm, list(range(size)), seconds, board)
    GroupMember.WORLD.board = board


def _timeout_seconds(timeout) -> float:
    if timeout is None:
        env = os.environ.get("NUMTORCH_DIST_TIMEOUT")
        return float(env) if env else DEFAULT_TIMEOUT.total_seconds()
    if isinstance(timeout, timedelta):
        return timeout.total_seconds()
    raise TypeError(f"Expected timeout argument to be of type datetime.timedelta, got {timeout}")


def destroy_process_group(group: ProcessGroup | None = None) -> None:
    """Leave ``group`` (by default the world, and with it every group made by new_group)."""
    if group is None or group is GroupMember.WORLD:
        if GroupMember.WORLD is None:
            raise AssertionError("Process group cannot be None")
        for sub in _subgroups:
            sub._free()
        _subgroups.clear()
        GroupMember.WORLD._free()
        GroupMember.WORLD = None
    elif group is not GroupMember.NON_GROUP_MEMBER and group in _subgroups:
        _subgroups.remove(group)
        group._free()


def default_group() -> ProcessGroup:
    if GroupMember.WORLD is None:
        raise ValueError(_NOT_INITIALIZED)
    return GroupMember.WORLD


def resolve(group) -> ProcessGroup | None:
    """The group a collective runs on; None on a rank outside ``group``."""
    if group is None:
        return default_group()
    if group is GroupMember.NON_GROUP_MEMBER:
        return None
    default_group()
    return group


def get_rank(group: ProcessGroup | None = None) -> int:
    """This process's rank in ``group`` (-1 outside it)."""
    pg = resolve(group)
    return -1 if pg is None else pg.rank()


def get_world_size(group: ProcessGroup | None = None) -> int:
    """How many processes ``group`` has (-1 outside it)."""
    pg = resolve(group)
    return -1 if pg is None else pg.size()


def get_backend(group: ProcessGroup | None = None) -> str:
    resolve(group)
    return Backend.MPI


def get_process_group_ranks(group: ProcessGroup) -> list[int]:
    pg = resolve(group)
    return list(pg.ranks) if pg is not None else []


def new_group(ranks=None, timeout: timedelta | None = None, backend=None, pg_options=None, **_):
    """A group of some world ranks; every world rank must call it, with the same ``ranks``.

    Ranks outside it get ``GroupMember.NON_GROUP_MEMBER``; collectives there are no-ops.
    """
    world = default_group()
    ranks = sorted(range(world.size()) if ranks is None else {int(r) for r in ranks})
    bad = [r for r in ranks if not 0 <= r < world.size()]
    if bad:
        raise ValueError(f"new_group got ranks {bad} outside the world of size {world.size()}")
    seconds = world.timeout if timeout is None else _timeout_seconds(timeout)
    number = 0
    if world.board is not None:  # numbered on every rank, members or not
        world.board.groups.append(ranks)
        number = len(world.board.groups) - 1
    if isinstance(world.comm, _mpi.LocalComm):
        comm = world.comm if ranks == [0] else None
    else:
        everyone = world.comm.Get_group()
        members = everyone.Incl(ranks)
        comm = world.comm.Create_group(members)
        members.Free()
        everyone.Free()
        if comm == _mpi.load_mpi().COMM_NULL:
            comm = None
    if comm is None:
        return GroupMember.NON_GROUP_MEMBER
    pg = ProcessGroup(comm, ranks, seconds, world.board, number)
    _subgroups.append(pg)
    return pg

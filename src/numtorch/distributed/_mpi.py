"""Loading MPI lazily, and the one-process communicator used when there is no MPI.

Importing ``mpi4py.MPI`` initialises MPI, so nothing imports it until a process group is
created. Without mpi4py (or without a loadable libmpi) a process that was not started by an
MPI launcher still gets a working world of size 1 (``LocalComm``), so single-process code
written for distributed training runs anywhere.
"""

from __future__ import annotations

import os

INSTALL_HINT = (
    "numtorch.distributed runs on MPI through mpi4py: pip install 'numtorch[mpi]' "
    "(mpi4py>=4.1 and the mpich wheel), or pip install 'mpi4py>=4.1' to use the system MPI"
)

# Variables an MPI launcher sets in every rank (MPICH/Hydra, Open MPI/PRRTE, Intel MPI,
# Slurm's PMI): their presence means this process is one of several.
_LAUNCHER_VARS = ("PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS")

_mpi = None  # the mpi4py.MPI module once loaded
_load_error = None


def load_mpi():
    """The ``mpi4py.MPI`` module, or None when it cannot be loaded (reason in ``load_error``)."""
    global _mpi, _load_error
    if _mpi is None and _load_error is None:
        try:
            from mpi4py import MPI
        except ImportError as e:
            _load_error = f"mpi4py is not installed ({e})"
        except RuntimeError as e:  # mpi4py is there but no libmpi could be loaded
            _load_error = f"mpi4py could not load an MPI library ({e})"
        else:
            _mpi = MPI
    return _mpi


def load_error() -> str | None:
    return _load_error


def launched_by_mpi() -> bool:
    return any(name in os.environ for name in _LAUNCHER_VARS)


def world_comm():
    """A private duplicate of MPI's world communicator, or a LocalComm when MPI is absent.

    Raises RuntimeError naming what to install when MPI is absent but this process is one
    rank of a multi-process launch (a silent world of one would train on a shard alone).
    """
    mpi = load_mpi()
    if mpi is not None:
        return mpi.COMM_WORLD.Dup()
    if launched_by_mpi():
        raise RuntimeError(
            f"this process was started by an MPI launcher but {load_error()}. {INSTALL_HINT}."
        )
    return LocalComm()


def in_place_marker(comm):
    """MPI's IN_PLACE marker for ``comm``'s kind of communicator."""
    return LocalComm.IN_PLACE if isinstance(comm, LocalComm) else _mpi.IN_PLACE


class LocalComm:
    """The subset of an mpi4py communicator numtorch uses, for a world of one process."""

    IN_PLACE = object()

    def Get_rank(self) -> int:
        return 0

    def Get_size(self) -> int:
        return 1

    def Barrier(self) -> None:
        pass

    def Bcast(self, buf, root=0) -> None:
        pass

    def Allreduce(self, sendbuf, recvbuf, op=None) -> None:
        _copy(sendbuf, recvbuf)

    def Reduce(self, sendbuf, recvbuf, op=None, root=0) -> None:
        _copy(sendbuf, recvbuf)

    def Allgather(self, sendbuf, recvbuf) -> None:
        _copy(sendbuf, recvbuf)

    def Gather(self, sendbuf, recvbuf, root=0) -> None:
        _copy(sendbuf, recvbuf)

    def Scatter(self, sendbuf, recvbuf, root=0) -> None:
        _copy(sendbuf, recvbuf)

    def Reduce_scatter_block(self, sendbuf, recvbuf, op=None) -> None:
        _copy(sendbuf, recvbuf)

    def Abort(self, errorcode=1) -> None:
        os._exit(errorcode)

    def Free(self) -> None:
        pass


def _copy(sendbuf, recvbuf) -> None:
    if sendbuf is not LocalComm.IN_PLACE and recvbuf is not None:
        recvbuf.reshape(-1)[...] = sendbuf.reshape(-1)

"""What each rank runs under ``numtorch.distributed.run`` (inside ``python -m mpi4py``).

It sets torchrun's per-rank variables, arms a per-rank watchdog when NUMTORCH_RANK_TIMEOUT
is set (faulthandler's timer fires even while the rank is blocked inside MPI: the rank prints
its stack and exits, and mpiexec tears the job down), then runs the target as ``__main__``.
"""

from __future__ import annotations

import faulthandler
import os
import sys

from ._supervise import rank_record, shared_memory_files


def _set_torchrun_env() -> None:
    from mpi4py import MPI

    world = MPI.COMM_WORLD
    node = world.Split_type(MPI.COMM_TYPE_SHARED)
    os.environ.update(
        RANK=str(world.Get_rank()),
        WORLD_SIZE=str(world.Get_size()),
        LOCAL_RANK=str(node.Get_rank()),
        LOCAL_WORLD_SIZE=str(node.Get_size()),
    )
    node.Free()


def main() -> None:
    timeout = os.environ.get("NUMTORCH_RANK_TIMEOUT")
    if timeout:
        faulthandler.dump_traceback_later(float(timeout), exit=True)
    _set_torchrun_env()
    from mpi4py.run import run_command_line

    folder = os.environ.get("NUMTORCH_RUN_DIR")  # set by the launcher, which watches us
    rank = int(os.environ["RANK"])
    if folder:
        rank_record(folder, rank, "shm", "\n".join(shared_memory_files()))
        rank_record(folder, rank, "pid", os.getpid())
    status = 1
    try:
        run_command_line(sys.argv[1:])
        status = 0
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
        if status:
            _say(f"exited with status {e.code}")
        raise
    except BaseException as e:
        _say(f"failed with {type(e).__name__}: {e}")
        raise
    finally:
        if folder:
            rank_record(folder, rank, "exit", status)


def _say(what: str) -> None:
    # After the traceback (printed by mpi4py as the exception leaves) the job is aborted, so
    # this line is what tells the user which rank brought it down.
    print(
        f"numtorch.distributed.run: rank {os.environ['RANK']} of {os.environ['WORLD_SIZE']} "
        f"(pid {os.getpid()}) {what}; aborting the job",
        file=sys.stderr,
        flush=True,
    )


if __name__ == "__main__":
    main()

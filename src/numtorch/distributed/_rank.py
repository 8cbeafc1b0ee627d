"""What each rank runs under ``numtorch.distributed.run`` (inside ``python -m mpi4py``).

It sets torchrun's per-rank variables, arms a per-rank watchdog when NUMTORCH_RANK_TIMEOUT
is set (faulthandler's timer fires even while the rank is blocked inside MPI: the rank prints
its stack and exits, and mpiexec tears the job down), then runs the target as ``__main__``.
"""

from __future__ import annotations

import faulthandler
import os
import sys


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

    run_command_line(sys.argv[1:])


if __name__ == "__main__":
    main()

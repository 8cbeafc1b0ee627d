"""``python -m numtorch.distributed.run -n 2 train.py [args]``: torchrun, on MPI.

It runs ``mpiexec -n N python -m mpi4py -m numtorch.distributed._rank train.py [args]``
with the ``mpiexec`` installed next to this Python (the mpich wheel puts it there):

- ``python -m mpi4py`` makes an uncaught exception on any rank abort the whole job (plain
  ``python`` would leave the other ranks waiting in a collective forever);
- each rank gets torchrun's variables (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE);
- each rank uses one BLAS/OpenMP thread unless told otherwise (N ranks on N cores);
- Open MPI's root and oversubscription switches are added only for Open MPI;
- the launcher watches the ranks while they run (``_supervise.py``): one that dies without
  exiting through Python (killed, crashed, ``os._exit``) ends the job at once, with a line
  naming it, and the exit status is never 0 unless every rank finished.

torchrun's one-machine command lines work unchanged (``--standalone --nnodes=1
--nproc-per-node=2``); several machines are refused with what to run instead.
"""

from __future__ import annotations

import argparse
import functools
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from ._supervise import supervise

_BLAS_VARS = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)
# Set by an enclosing MPI job; a launch from inside a rank must not inherit them.
_MPI_JOB_PREFIXES = ("PMI_", "PMIX_", "OMPI_COMM_WORLD", "OMPI_UNIVERSE", "PRTE_", "HYDI_")


def find_mpiexec() -> str | None:
    """The ``mpiexec`` of this Python's environment, else the first one on PATH."""
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        exe = Path(folder) / "mpiexec"
        if exe.is_file() and os.access(exe, os.X_OK):
            return str(exe)
    return shutil.which("mpiexec")


@functools.cache
def mpi_flavor(mpiexec: str) -> str:
    """``"openmpi"``, ``"impi"`` or ``"mpich"`` (the default), from ``mpiexec --version``."""
    try:
        out = subprocess.run(
            [mpiexec, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return "mpich"
    text = out.stdout + out.stderr
    if "Open MPI" in text or "OpenRTE" in text or "PRRTE" in text:
        return "openmpi"
    return "impi" if "Intel" in text else "mpich"


def launch_env(nprocs: int, flavor: str, blas_threads: int | None = 1, base=None) -> dict:
    """The environment for the ranks of an ``nprocs``-rank job.

    ``blas_threads=None`` keeps thread settings already in the environment.
    """
    env = {
        k: v
        for k, v in (os.environ if base is None else base).items()
        if not k.startswith(_MPI_JOB_PREFIXES)
    }
    env["PYTHONUNBUFFERED"] = "1"  # rank output interleaves line by line, not at exit
    if blas_threads is not None:
        env.update(dict.fromkeys(_BLAS_VARS, str(blas_threads)))
    if flavor == "openmpi":
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        if nprocs > (os.cpu_count() or 1):
            env.setdefault("PRTE_MCA_rmaps_default_mapping_policy", ":oversubscribe")
    return env


def rank_command(mpiexec: str, nprocs: int, target: list[str], mpiexec_args=()) -> list[str]:
    """``mpiexec -n N python -m mpi4py -m numtorch.distributed._rank TARGET...``."""
    rank = [sys.executable, "-m", "mpi4py", "-m", "numtorch.distributed._rank"]
    return [mpiexec, *mpiexec_args, "-n", str(nprocs), *rank, *target]


def _nproc(value: str) -> int:
    if value in ("cpu", "auto"):  # no accelerators: torchrun's "auto" is the CPU count too
        return os.cpu_count() or 1
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--nproc-per-node takes a number, 'cpu' or 'auto' (numtorch has no {value!r} "
            "devices), got " + repr(value)
        ) from None


def _one_node(value: str) -> str:
    low, _, high = value.partition(":")
    try:
        nodes = {int(low), int(high or low)}
    except ValueError:
        raise argparse.ArgumentTypeError(f"--nnodes takes N or MIN:MAX, got {value!r}") from None
    if nodes != {1}:
        raise argparse.ArgumentTypeError(
            f"--nnodes={value}: numtorch.distributed.run starts the ranks of one machine only; "
            "for several machines run mpiexec yourself with its host options (e.g. mpiexec "
            "-hosts a,b -n 4 python -m mpi4py train.py), or pass them with --mpiexec-args"
        )
    return value


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m numtorch.distributed.run",
        description="Run a training script on N processes with MPI (torchrun for numtorch). "
        "torchrun's one-machine options are accepted; rendezvous options are not needed.",
    )
    p.add_argument(
        "-n",
        "--nproc-per-node",
        "--nproc_per_node",
        dest="nprocs",
        type=_nproc,
        default=1,
        help="number of processes (ranks) to start: a number, or 'cpu'/'auto' for one per "
        "CPU core (default 1)",
    )
    p.add_argument("--nnodes", type=_one_node, default="1", help="1 or 1:1 (one machine)")
    p.add_argument("--node-rank", "--node_rank", type=int, default=0, help="0 (one machine)")
    p.add_argument("--standalone", action="store_true", help="accepted (always standalone)")
    p.add_argument(
        "--max-restarts", "--max_restarts", type=int, default=0, help="0: failed jobs end"
    )
    p.add_argument("--master-addr", "--master_addr", default="127.0.0.1", help="MASTER_ADDR")
    p.add_argument("--master-port", "--master_port", type=int, default=29500, help="MASTER_PORT")
    for ignored in ("rdzv-backend", "rdzv-endpoint", "rdzv-id", "rdzv-conf", "monitor-interval"):
        flags = [f"--{ignored}", f"--{ignored.replace('-', '_')}"]
        p.add_argument(*flags, default=None, help="accepted and ignored (one machine)")
    p.add_argument(
        "--blas-threads",
        type=int,
        default=None,
        help="BLAS/OpenMP threads per rank (default 1, or OMP_NUM_THREADS when it is set)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="seconds a collective may wait for the other ranks before the job is aborted "
        "with a report of the stalled collective (default 1800; ranks that died, exited or "
        "called collectives in different orders are found within seconds regardless)",
    )
    p.add_argument(
        "--rank-timeout",
        type=float,
        default=None,
        help="seconds after which a rank still running prints its stack and exits",
    )
    p.add_argument("--mpiexec", default=None, help="the mpiexec to use (default: this venv's)")
    p.add_argument(
        "--mpiexec-args", default="", help="extra mpiexec options, e.g. '-hosts a,b' (quoted)"
    )
    p.add_argument(
        "-m",
        "--module",
        action="store_true",
        help="run the target as a module (python -m), not a script file",
    )
    p.add_argument("training_script", help="the script (or module with -m) every rank runs")
    p.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.nprocs < 1:
        raise SystemExit(f"-n must be at least 1, got {args.nprocs}")
    if args.node_rank != 0:
        parser.error(f"--node-rank={args.node_rank}: there is one machine, node 0")
    if args.max_restarts != 0:
        parser.error(
            f"--max-restarts={args.max_restarts}: numtorch does not restart failed jobs; a "
            "failing rank ends the job with its error (checkpoint and relaunch instead)"
        )
    mpiexec = args.mpiexec or find_mpiexec()
    if mpiexec is None:
        raise SystemExit(
            "numtorch.distributed.run: no mpiexec found next to "
            f"{sys.executable} or on PATH; pip install 'numtorch[mpi]' (mpi4py and mpich)"
        )
    threads = args.blas_threads
    if threads is None and "OMP_NUM_THREADS" not in os.environ:
        threads = 1
    env = launch_env(args.nprocs, mpi_flavor(mpiexec), threads)
    env["MASTER_ADDR"] = args.master_addr
    env["MASTER_PORT"] = str(args.master_port)
    if args.timeout is not None:
        env["NUMTORCH_DIST_TIMEOUT"] = str(args.timeout)
    if args.rank_timeout is not None:
        env["NUMTORCH_RANK_TIMEOUT"] = str(args.rank_timeout)
    target = ["-m"] if args.module else []
    target += [args.training_script, *args.training_script_args]
    cmd = rank_command(mpiexec, args.nprocs, target, shlex.split(args.mpiexec_args))
    return supervise(cmd, env, args.nprocs)


if __name__ == "__main__":
    sys.exit(main())

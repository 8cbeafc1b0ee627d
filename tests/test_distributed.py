"""numtorch.distributed: the process group, collectives, failure handling and the launcher.

Multi-rank checks run real MPI jobs (tests/mpi_harness.py) of scripts in tests/mpi_scripts;
each script runs many checks, since every launch costs ~1 s of interpreter start-up.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
import uuid

import pytest
from mpi_harness import descendants, mpi_unavailable_reason, run_mpi

import numtorch as torch
import numtorch.distributed as dist
from numtorch.distributed import _mpi

MPI_REASON = mpi_unavailable_reason()
needs_mpi = pytest.mark.skipif(MPI_REASON is not None, reason=str(MPI_REASON))
pytestmark = pytest.mark.mpi


@pytest.fixture
def no_strays():
    """Fails the test if any process it started is still alive afterwards."""
    yield
    time.sleep(0.05)
    left = descendants(os.getpid())
    assert not left, f"processes left behind: {left}"


@pytest.fixture
def world():
    dist.init_process_group("mpi")
    yield
    dist.destroy_process_group()


# -- one process, in this interpreter -----------------------------------------------------------
def test_importing_numtorch_does_not_load_mpi():
    code = "import sys, numtorch, numtorch.nn; sys.exit('mpi4py' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_not_initialized_errors():
    assert dist.is_available() and not dist.is_initialized()
    for call in (dist.get_rank, dist.get_world_size, dist.barrier):
        with pytest.raises(ValueError, match="Default process group has not been initialized"):
            call()
    with pytest.raises(ValueError, match="not been initialized"):
        dist.all_reduce(torch.ones(1))
    with pytest.raises(AssertionError, match="Process group cannot be None"):
        dist.destroy_process_group()


def test_init_checks(world):
    with pytest.raises(ValueError, match="twice"):
        dist.init_process_group("mpi")
    assert dist.get_backend() == "mpi" and dist.group.WORLD is not None


def test_init_rejects_other_backends_and_wrong_sizes():
    with pytest.raises(ValueError, match="runs on MPI only; backend 'nccl'"):
        dist.init_process_group("nccl")
    with pytest.raises(ValueError, match="world_size=4.*mpiexec"):
        dist.init_process_group("gloo", world_size=4)
    assert not dist.is_initialized()
    with pytest.raises(TypeError, match="timedelta"):
        dist.init_process_group("mpi", timeout=5)
    assert not dist.is_initialized()


def test_world_of_one_without_mpi(monkeypatch):
    """No mpi4py: a plain process still gets a world of one; a launched rank gets told what
    to install instead of silently training alone."""
    monkeypatch.setattr(_mpi, "load_mpi", lambda: None)
    monkeypatch.setattr(_mpi, "load_error", lambda: "mpi4py is not installed")
    for name in _mpi._LAUNCHER_VARS:
        monkeypatch.delenv(name, raising=False)
    dist.init_process_group("mpi")
    try:
        assert isinstance(dist.group.WORLD.comm, _mpi.LocalComm)
        t = torch.tensor([[1.0, 2.0], [3.0, 4.0]]).t()
        dist.all_reduce(t, op=dist.ReduceOp.AVG)
        assert t.tolist() == [[1.0, 3.0], [2.0, 4.0]] and t._version == 1
        out = [torch.zeros(2)]
        dist.all_gather(out, torch.ones(2))
        dist.broadcast(t, src=0)
        dist.barrier()
        assert out[0].tolist() == [1.0, 1.0]
    finally:
        dist.destroy_process_group()
    monkeypatch.setenv("PMI_RANK", "1")
    with pytest.raises(
        RuntimeError, match=r"MPI launcher but mpi4py is not installed.*numtorch\[mpi\]"
    ):
        dist.init_process_group("mpi")
    assert not dist.is_initialized()


def test_missing_libmpi_is_reported(monkeypatch):
    """``from mpi4py import MPI`` raises RuntimeError (not ImportError) without libmpi."""

    def broken_import(name, *args, **kwargs):
        if name == "mpi4py":
            raise RuntimeError("cannot load MPI library")
        return real_import(name, *args, **kwargs)

    real_import = __builtins__["__import__"] if isinstance(__builtins__, dict) else __import__
    monkeypatch.setattr(_mpi, "_mpi", None)
    monkeypatch.setattr(_mpi, "_load_error", None)
    monkeypatch.setattr("builtins.__import__", broken_import)
    assert _mpi.load_mpi() is None
    assert "could not load an MPI library" in _mpi.load_error()


# -- real multi-rank jobs -----------------------------------------------------------------------
@needs_mpi
@pytest.mark.parametrize("nprocs", [2, 3])
def test_collectives(nprocs, no_strays):
    out = run_mpi("collectives.py", nprocs=nprocs, timeout=60).stdout
    for r in range(nprocs):
        assert f"rank {r} of {nprocs}: collectives OK" in out, out


@needs_mpi
def test_raising_rank_fails_the_job_fast(no_strays):
    done = run_mpi("failures.py", "raise", check=False, timeout=60)
    assert done.returncode != 0
    assert "ValueError: rank 1 failed on purpose" in done.stdout
    assert 'failures.py", line' in done.stdout  # the rank's own traceback
    assert done.seconds < 15, done.seconds


@needs_mpi
def test_skipped_collective_is_reported_by_the_collective_watchdog(no_strays):
    done = run_mpi("failures.py", "skip", check=False, env={"NUMTORCH_DIST_TIMEOUT": "2"})
    assert done.returncode != 0
    assert "rank 0 of 2 waited" in done.stdout and "in all_reduce #2" in done.stdout
    assert "float32 buffer of shape [4]" in done.stdout
    assert 'failures.py", line' in done.stdout  # the waiting rank's stack
    assert "rank 1: not in a collective (1 started)" in done.stdout


@needs_mpi
def test_collectives_in_different_orders_are_reported(no_strays):
    done = run_mpi("failures.py", "reorder", check=False, env={"NUMTORCH_DIST_TIMEOUT": "2"})
    assert done.returncode != 0
    assert "rank 0: in all_reduce #2" in done.stdout, done.stdout
    assert "rank 1: in all_reduce #1 of the group of ranks [0, 1]" in done.stdout, done.stdout


@needs_mpi
def test_stuck_rank_is_stopped_by_the_rank_watchdog(no_strays):
    done = run_mpi("failures.py", "sleep", check=False, rank_timeout=3, timeout=30)
    assert done.returncode != 0
    assert "Timeout" in done.stdout and "in main" in done.stdout
    assert done.seconds < 15, done.seconds


@needs_mpi
def test_outer_timeout_leaves_no_processes(no_strays):
    token = uuid.uuid4().hex
    with pytest.raises(TimeoutError, match="timed out"):
        run_mpi("failures.py", "sleep", token, rank_timeout=600, timeout=4)
    time.sleep(0.2)
    leftovers = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if token.encode() in f.read():
                    leftovers.append(pid)
        except OSError:
            pass
    assert not leftovers


@needs_mpi
def test_launcher_propagates_exit_code_and_traceback(no_strays):
    script = os.path.join(os.path.dirname(__file__), "mpi_scripts", "failures.py")
    launch = [sys.executable, "-m", "numtorch.distributed.run", "-n", "2", "--rank-timeout", "30"]
    done = subprocess.run(
        [*launch, script, "exit3"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 3, done.stdout + done.stderr
    done = subprocess.run(
        [*launch, script, "ok"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run(  # -m: the target is a module (this one prints the platform)
        [*launch, "-m", "platform"], capture_output=True, text=True, timeout=60, check=False
    )
    # the two ranks print concurrently, so their lines may interleave: count, don't split
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(platform.platform()) == 2, done.stdout


def test_launcher_usage_errors():
    from numtorch.distributed import run

    with pytest.raises(SystemExit, match="at least 1"):
        run.main(["-n", "0", "x.py"])
    env = run.launch_env(4, "openmpi", blas_threads=2, base={"PMI_RANK": "3", "KEEP": "1"})
    assert "PMI_RANK" not in env and env["KEEP"] == "1" and env["OMP_NUM_THREADS"] == "2"
    assert env["OMPI_ALLOW_RUN_AS_ROOT"] == "1"
    assert "OMPI_ALLOW_RUN_AS_ROOT" not in run.launch_env(2, "mpich", base={})

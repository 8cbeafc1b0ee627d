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

import numpy as np
import pytest
from mpi_harness import descendants, finish, launch, mpi_unavailable_reason, run_mpi, start_mpi

import numtorch as torch
import numtorch.distributed as dist
from numtorch.distributed import _mpi, _supervise

MPI_REASON = mpi_unavailable_reason()
needs_mpi = pytest.mark.skipif(MPI_REASON is not None, reason=str(MPI_REASON))
pytestmark = pytest.mark.mpi


@pytest.fixture
def no_strays():
    """Fails the test if any process it started is still alive afterwards (children of this
    process from before the test, a worker pool another test file left, are not its own)."""
    before = set(descendants(os.getpid()))
    yield
    time.sleep(0.05)
    left = sorted(set(descendants(os.getpid())) - before)
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


def _ended_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_launcher_names_every_rank_it_found_gone_together(tmp_path):
    """Woken late (a busy machine), the launcher may find the rank that died and the one
    mpiexec ended next both gone: it cannot tell which went first, so it names both, and
    never only the one that was not to blame."""
    ranks = _supervise._Ranks(tmp_path, 3)
    ranks.pids = {0: _ended_pid(), 1: _ended_pid(), 2: os.getpid()}
    ranks.first = [0, 1]
    assert ranks.dead() == [(0, ranks.pids[0]), (1, ranks.pids[1])]
    report = _supervise._death_report(ranks.dead())
    assert f"rank 0 (pid {ranks.pids[0]}), rank 1 (pid {ranks.pids[1]}) died" in report
    assert "found gone together" in report
    ranks.first = [1]  # woken by rank 1 alone: it is the one named
    assert ranks.dead() == [(1, ranks.pids[1])]
    assert _supervise._death_report(ranks.dead()).startswith(f"rank 1 (pid {ranks.pids[1]}) died")
    (tmp_path / "rank2.exit").write_text("3")  # a rank reported its failure: no one else named
    assert ranks.dead() == []


# -- real multi-rank jobs -----------------------------------------------------------------------
@needs_mpi
@pytest.mark.parametrize("nprocs", [2, 3])
def test_collectives(nprocs, no_strays):
    out = run_mpi("collectives.py", nprocs=nprocs, timeout=60).stdout
    for r in range(nprocs):
        assert f"rank {r} of {nprocs}: collectives OK" in out, out


# Note [Fault scenarios]
# Each scenario is a 2-rank job in which rank 1 misbehaves (tests/mpi_scripts/failures.py),
# run with the default settings (30-minute collective timeout). The jobs of one run start
# together, since each spends most of its time starting interpreters; each must end well
# within a minute with a message naming the rank or ranks at fault. "launcher" scenarios need
# the launcher's watch over the ranks, the others are found by the ranks themselves.
FAULTS = {
    # scenario: (through the launcher, expected exit status or None for any non-zero, text)
    "raise": (False, None, ["rank 1 of 2", "failed with ValueError: rank 1 failed on purpose"]),
    "skip": (
        False,
        None,
        ["rank 1 has exited", "rank 0 waits for it", "in all_reduce #2", "shape [4]"],
    ),
    "kill": (True, None, ["rank 1 (pid", "died without finishing"]),
    "leave": (False, None, ["in destroy_process_group #2", "rank 1 has exited"]),
    "reorder": (
        False,
        None,
        [
            "ranks [0, 1] each wait in a collective",
            "rank 0 (pid",
            "in all_reduce #2 for",
            "rank 1 (pid",
            "in all_reduce #1 of the group of ranks [0, 1]",
        ],
    ),
    "order": (
        False,
        None,
        [
            "ranks called different collectives (rank 0 called all_reduce #2, rank 1 called "
            "broadcast #2"
        ],
    ),
    "shape": (
        False,
        None,
        [
            "all_gather #2 got tensors that do not match across ranks (rank 0 has shape [2] and "
            "dtype torch.float32, rank 1 has shape [3] and dtype torch.float32)"
        ],
    ),
}
SLOW_FAULTS = {
    "dtype": (
        False,
        None,
        [
            "rank 0 has shape [3] and dtype torch.float32, rank 1 has shape [3] and dtype "
            "torch.float64"
        ],
    ),
    "segfault": (True, None, ["rank 1 (pid", "died without finishing"]),
    "os_exit": (True, None, ["rank 1 (pid", "died without finishing"]),
    "exit3": (True, 3, ["rank 1 of 2", "exited with status 3"]),
}


def _run_faults(faults: dict) -> dict:
    jobs = {}
    for mode, (via_launcher, _, _) in faults.items():
        if via_launcher:
            jobs[mode] = launch("failures.py", mode)
        else:
            jobs[mode] = start_mpi("failures.py", mode)
    return {mode: finish(job, timeout=90) for mode, job in jobs.items()}


def _check_fault(mode: str, done, expected) -> None:
    _, status, texts = expected
    assert done.returncode != 0, f"{mode}: the job succeeded\n{done.stdout}"
    if status is not None:
        assert done.returncode == status, f"{mode}: status {done.returncode}\n{done.stdout}"
    for text in texts:
        assert text in done.stdout, f"{mode}: {text!r} is missing\n{done.stdout}"
    assert "1.26e-28" not in done.stdout and "gathered" not in done.stdout
    assert done.seconds < 60, f"{mode} took {done.seconds:.1f} s"


@pytest.fixture(scope="module")
def fault_runs():
    if MPI_REASON is not None:
        pytest.skip(MPI_REASON)
    return _run_faults(FAULTS)


@needs_mpi
@pytest.mark.parametrize("mode", list(FAULTS))
def test_fault_ends_the_job_naming_the_rank(mode, fault_runs):
    _check_fault(mode, fault_runs[mode], FAULTS[mode])


@needs_mpi
@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("NUMTORCH_LONG_TESTS") != "1", reason="long test: set NUMTORCH_LONG_TESTS=1"
)
def test_more_faults_end_the_job_naming_the_rank(no_strays):
    for mode, done in _run_faults(SLOW_FAULTS).items():
        _check_fault(mode, done, SLOW_FAULTS[mode])


@needs_mpi
def test_collective_timeout_reports_where_the_ranks_are(no_strays):
    """A rank that is alive but never arrives is waited for up to the timeout only."""
    done = run_mpi("failures.py", "sleep", check=False, env={"NUMTORCH_DIST_TIMEOUT": "2"})
    assert done.returncode != 0
    assert "rank 0 of 2 waited" in done.stdout and "in all_reduce #2" in done.stdout
    assert "float32 buffer of shape [4]" in done.stdout
    assert "before the timeout" in done.stdout
    assert 'failures.py", line' in done.stdout  # the waiting rank's stack
    assert "rank 1 (pid" in done.stdout and "not in a collective" in done.stdout


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
    tests = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    script = os.path.join(tests, "mpi_scripts", "failures.py")
    launch = [sys.executable, "-m", "numtorch.distributed.run", "-n", "2", "--rank-timeout", "30"]
    done = subprocess.run(
        [*launch, script, "exit3"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert "rank 1 of 2" in done.stderr and "exited with status 3" in done.stderr
    assert "died without finishing" not in done.stderr  # rank 0, ended by mpiexec, is not blamed
    done = subprocess.run(  # -m: the target is a module (this one prints the platform)
        [*launch, "-m", "platform"], capture_output=True, text=True, timeout=60, check=False
    )
    # the two ranks print concurrently, so their lines may interleave: count, don't split
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(platform.platform()) == 2, done.stdout


@needs_mpi
def test_launcher_takes_torchrun_command_lines(no_strays):
    options = [
        "--standalone",
        "--nnodes=1:1",
        "--nproc_per_node=2",
        "--node-rank=0",
        "--master-port=29555",
        "--rdzv-backend=c10d",
        "--rdzv_endpoint=localhost:0",
        "--max-restarts=0",
    ]
    done = finish(launch("torchrun_env.py", "--lr", "0.1", nprocs=1, options=options), 60)
    assert done.returncode == 0, done.stdout
    for rank in (0, 1):
        assert (
            f"env RANK={rank} LOCAL_RANK={rank} WORLD_SIZE=2 LOCAL_WORLD_SIZE=2 "
            "MASTER_ADDR=127.0.0.1 MASTER_PORT=29555 args --lr 0.1"
        ) in done.stdout, done.stdout


def test_launcher_refuses_what_needs_several_machines(capsys):
    from numtorch.distributed import run

    parse = run._parser().parse_args
    assert parse(["--nproc-per-node", "cpu", "x.py"]).nprocs == os.cpu_count()
    assert parse(["--nproc_per_node=auto", "--nnodes=1", "x.py"]).nprocs == os.cpu_count()
    assert parse(["-m", "pkg.train", "--epochs", "2"]).training_script_args == ["--epochs", "2"]
    for argv, message in (
        (["--nnodes=2", "x.py"], "one machine only"),
        (["--nnodes=1:4", "x.py"], "one machine only"),
        (["--nproc-per-node=gpu", "x.py"], "no 'gpu' devices"),
        (["--node-rank=1", "x.py"], "one machine, node 0"),
        (["--max-restarts=3", "x.py"], "does not restart"),
    ):
        with pytest.raises(SystemExit):
            run.main(argv)
        assert message in capsys.readouterr().err


def test_launcher_usage_errors():
    from numtorch.distributed import run

    with pytest.raises(SystemExit, match="at least 1"):
        run.main(["-n", "0", "x.py"])
    env = run.launch_env(4, "openmpi", blas_threads=2, base={"PMI_RANK": "3", "KEEP": "1"})
    assert "PMI_RANK" not in env and env["KEEP"] == "1" and env["OMP_NUM_THREADS"] == "2"
    assert env["OMPI_ALLOW_RUN_AS_ROOT"] == "1"
    assert "OMPI_ALLOW_RUN_AS_ROOT" not in run.launch_env(2, "mpich", base={})


# -- the checks that run inside collectives, on made-up states -------------------------------
def _table(*records):
    return np.stack(records)


def test_call_records_name_what_differs():
    from numtorch.distributed import _fingerprint
    from numtorch.distributed._watchdog import COLLECTIVES

    ops = {0: "ReduceOp.SUM", 4: "ReduceOp.MAX"}
    f32 = np.zeros((2, 3), dtype=np.float32)
    same = _fingerprint.record(0, 5, 0, -1, f32)
    assert _fingerprint.mismatch(_table(same, same), COLLECTIVES, [0, 1], ops) is None
    why = _fingerprint.mismatch(
        _table(same, _fingerprint.record(0, 5, 4, -1, f32)), COLLECTIVES, [0, 1], ops
    )
    assert why == (
        "all_reduce #5 was called with different reduce op "
        "(rank 0: ReduceOp.SUM, rank 1: ReduceOp.MAX)"
    )
    bcast = [_fingerprint.record(1, 2, -1, root, f32) for root in (0, 1)]
    assert "different root (src/dst) (rank 0: 0, rank 1: 1)" in _fingerprint.mismatch(
        _table(*bcast), COLLECTIVES, [0, 1], ops
    )
    deep = np.zeros((1,) * 9 + (2, 3), dtype=np.float64)
    why = _fingerprint.mismatch(
        _table(same, _fingerprint.record(0, 5, 0, -1, deep)), COLLECTIVES, [2, 3], ops
    )
    assert "rank 2 has shape [2, 3] and dtype torch.float32" in why
    assert "rank 3 has shape [1, 1, 1, 1, 1, 1, 1, 1, '...'] and dtype torch.float64" in why
    barrier = _fingerprint.record(9, 6, -1, -1, None)
    why = _fingerprint.mismatch(_table(same, barrier), COLLECTIVES, [0, 1], ops)
    assert "rank 0 called all_reduce #5, rank 1 called barrier #6" in why


def test_status_board_finds_ranks_blocked_in_different_collectives():
    from numtorch.distributed._watchdog import StatusBoard

    def board(*states, groups=([0, 1, 2],)):
        # state: None (computing) or (group, number, started seconds ago)
        slots = []
        for s in states:
            slot = np.zeros(StatusBoard.FIELDS, dtype=np.int64)
            if s is not None:
                slot[:5] = 1, s[1], 0, now - int(s[2] * 1e9), s[0]
            slots.append(slot)
        b = StatusBoard.__new__(StatusBoard)
        b.slots, b.groups = slots, [None, *groups]
        return b

    now = 100 * 10**9
    grace = 3 * 10**9
    # rank 0 on the world, ranks 1 and 2 on group 1 (ranks 0-2): all wait, none can finish
    assert board((0, 2, 5), (1, 1, 5), (1, 1, 5)).deadlocked(now, grace) == [0, 1, 2]
    assert board((0, 2, 5), (1, 1, 1), (1, 1, 1)).deadlocked(now, grace) == []  # too recent
    # a rank that is computing can still arrive: nobody is stuck
    assert board((0, 2, 5), None, (0, 2, 5)).deadlocked(now, grace) == []
    # ranks 1 and 2 complete their group's collective; rank 0 then gets them
    pair = ([1, 2],)
    assert board((0, 2, 5), (1, 1, 5), (1, 1, 5), groups=pair).deadlocked(now, grace) == []
    assert board((0, 3, 5), (0, 2, 5), (0, 3, 5)).deadlocked(now, grace) == [0, 1, 2]

"""Run a script as a real multi-rank MPI job from a test, without ever hanging the suite.

Ranks run exactly as under ``python -m numtorch.distributed.run``: ``python -m mpi4py`` (an
exception on one rank aborts the job) and a per-rank faulthandler watchdog
(NUMTORCH_RANK_TIMEOUT: a rank still running then prints its stack and exits). Around that,
an outer timeout sends SIGTERM to mpiexec (Hydra and PRRTE tear their ranks down on it),
then SIGKILL, then kills every process that descended from it (Open MPI orphans ranks on
SIGKILL; ranks live in their own sessions, so killing the process group would miss them).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from numtorch.distributed._supervise import remove_leftovers
from numtorch.distributed.run import find_mpiexec, launch_env, mpi_flavor, rank_command

SCRIPTS = Path(__file__).with_name("mpi_scripts")


def mpi_unavailable_reason() -> str | None:
    """Why multi-rank tests cannot run here, or None (never imports mpi4py.MPI)."""
    if importlib.util.find_spec("mpi4py") is None:
        return "mpi4py is not installed (pip install 'numtorch[mpi]')"
    if find_mpiexec() is None:
        return "no mpiexec next to this Python or on PATH (pip install mpich)"
    return None


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (read from /proc; no psutil)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _kill_all(pids) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _start(cmd: list[str], env: dict) -> subprocess.Popen:
    # the ranks record their MPI shared-memory files there, removed after the job (an
    # aborted MPICH job leaves them behind)
    run_dir = tempfile.mkdtemp(prefix="numtorch-test-run-")
    env = {**env, "NUMTORCH_RUN_DIR": run_dir}
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
        start_new_session=True,
    )
    proc.started = time.monotonic()
    proc.run_dir = run_dir
    return proc


def _clean(proc) -> None:
    remove_leftovers(Path(proc.run_dir))
    shutil.rmtree(proc.run_dir, ignore_errors=True)


def finish(proc: subprocess.Popen, timeout: float, check: bool = False):
    """Wait for a job from ``launch`` (or ``run_mpi``) for at most ``timeout`` seconds since it
    started; the finished process (output in ``stdout``, wall time in ``seconds``)."""
    try:
        left = max(timeout - (time.monotonic() - proc.started), 0.1)
        out, _ = proc.communicate(timeout=left)
    except subprocess.TimeoutExpired:
        stragglers = descendants(proc.pid)
        proc.send_signal(signal.SIGTERM)
        try:
            out, _ = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
        _kill_all(stragglers + descendants(proc.pid))
        _clean(proc)
        raise TimeoutError(f"{' '.join(proc.args)} timed out after {timeout} s\n{out}") from None
    _clean(proc)
    result = subprocess.CompletedProcess(proc.args, proc.returncode, out, "")
    result.seconds = time.monotonic() - proc.started
    if check and proc.returncode != 0:
        raise AssertionError(f"exited with {proc.returncode}\n{out}")
    return result


def _script(script) -> str:
    return str(Path(script) if os.path.isabs(script) else SCRIPTS / script)


def launch(script, *args, nprocs: int = 2, options=(), env: dict | None = None):
    """Start ``python -m numtorch.distributed.run -n nprocs [options] script args`` (default
    settings: no rank or collective timeout unless ``options`` give one); see ``finish``."""
    run_env = {k: v for k, v in os.environ.items() if not k.startswith("NUMTORCH_")}
    run_env.update(env or {})
    cmd = [sys.executable, "-m", "numtorch.distributed.run", "-n", str(nprocs), *options]
    return _start([*cmd, _script(script), *map(str, args)], run_env)


def run_mpi(
    script,
    *args,
    nprocs: int = 2,
    timeout: float = 60.0,
    rank_timeout: float | None = None,
    check: bool = True,
    env: dict | None = None,
) -> subprocess.CompletedProcess:
    """Run ``script`` (a path, or a name in tests/mpi_scripts) on ``nprocs`` ranks.

    Returns the finished process with stdout and stderr merged in ``stdout``; raises
    AssertionError on a non-zero exit when ``check``, TimeoutError past ``timeout``.
    """
    mpiexec = find_mpiexec()
    if rank_timeout is None:
        rank_timeout = max(timeout - 10, timeout * 0.75)  # ranks give up (with stacks) first
    run_env = launch_env(nprocs, mpi_flavor(mpiexec), blas_threads=1)
    run_env["NUMTORCH_RANK_TIMEOUT"] = str(rank_timeout)
    run_env.update(env or {})
    cmd = rank_command(mpiexec, nprocs, [_script(script), *map(str, args)])
    return finish(_start(cmd, run_env), timeout, check)


def start_mpi(script, *args, nprocs: int = 2, env: dict | None = None):
    """Start ``script`` on ``nprocs`` ranks under ``mpiexec`` with the default settings (no
    launcher, no timeouts); see ``finish``."""
    mpiexec = find_mpiexec()
    run_env = launch_env(nprocs, mpi_flavor(mpiexec), blas_threads=1)
    run_env = {k: v for k, v in run_env.items() if not k.startswith("NUMTORCH_")}
    run_env.update(env or {})
    cmd = rank_command(mpiexec, nprocs, [_script(script), *map(str, args)])
    return _start(cmd, run_env)


if __name__ == "__main__":  # manual use: python tests/mpi_harness.py SCRIPT [N]
    done = run_mpi(sys.argv[1], nprocs=int(sys.argv[2]) if len(sys.argv) > 2 else 2, check=False)
    print(done.stdout)
    sys.exit(done.returncode)

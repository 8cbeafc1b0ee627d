"""numtorch.distributed on this machine: all-reduce bandwidth against raw mpi4py, and
DistributedDataParallel step time on the 784-512-512-10 MLP from 1 to 2 ranks.

The script launches itself under the venv's mpiexec (MPICH from the mpich wheel). All-reduce:
float32 sums of 1-100 MB, ``dist.all_reduce(t)`` against ``comm.Allreduce(MPI.IN_PLACE, a)``
on an array of the same size, interleaved, each call after a barrier; a call's time is the
slowest rank's, and the best of ``--repeat`` is kept. DDP: forward, backward (with the bucketed
gradient all-reduce) and SGD step, batch 64 per rank (so 2 ranks do twice the work per step),
each step timed alone; the 10th percentile shows the machine's quiet moments, the median
what a busy shared machine gives.

Run: python bench/distributed.py [--repeat R] [--skip-ddp]
"""

from __future__ import annotations

import argparse
import contextlib
import subprocess
import sys
import time

import numpy as np

SIZES_MB = (1 / 256, 1 / 16, 1, 4, 16, 25, 64, 100)  # 4 KiB to 100 MiB


def _slowest(comm, seconds: float) -> float:
    from mpi4py import MPI

    out = np.array([seconds])
    comm.Allreduce(MPI.IN_PLACE, out, op=MPI.MAX)
    return float(out[0])


def allreduce_worker(repeat: int) -> None:
    from mpi4py import MPI

    import numtorch
    import numtorch.distributed as dist

    dist.init_process_group("mpi")
    comm = MPI.COMM_WORLD.Dup()
    rank = comm.Get_rank()
    if rank == 0:
        print(f"all-reduce (SUM, float32) on {comm.Get_size()} ranks, best of >= {repeat} calls")
        print(
            f"{'size':>8} | {'raw mpi4py':>18} | {'numtorch':>18} | numtorch/raw | "
            "numtorch without the call check (NUMTORCH_DIST_CHECKS=0)/raw"
        )
    for mb in SIZES_MB:
        n = int(mb * 2**20) // 4
        raw = np.ones(n, dtype=np.float32)
        tensor = numtorch.ones(n)
        best = {"raw": float("inf"), "numtorch": float("inf"), "unchecked": float("inf")}

        def unchecked():
            dist.group.WORLD.check = False
            dist.all_reduce(tensor)
            dist.group.WORLD.check = True

        calls = [
            ("raw", lambda: comm.Allreduce(MPI.IN_PLACE, raw, op=MPI.SUM)),
            ("numtorch", lambda: dist.all_reduce(tensor)),
            ("unchecked", unchecked),
        ]
        for i in range(int(max(repeat, min(400 / mb, 2000))) + 2):  # the first two: warm-ups
            for name, call in calls[i % 3 :] + calls[: i % 3]:
                comm.Barrier()
                start = time.perf_counter()
                call()
                best[name] = min(best[name], _slowest(comm, time.perf_counter() - start))
        if rank == 0:
            cells = [f"{best[k] * 1e3:7.3f} ms {mb / 1024 / best[k]:5.2f} GB/s" for k in best]
            ratio = best["raw"] / best["numtorch"]
            plain = best["raw"] / best["unchecked"]
            size = f"{mb:g} MB" if mb >= 1 else f"{mb * 1024:g} KB"
            print(f"{size:>8} | {cells[0]:>18} | {cells[1]:>18} | {ratio:12.1%} | {plain:6.1%}")
    dist.destroy_process_group()


def ddp_worker(steps: int, batch: int, local: bool) -> None:
    import numtorch
    import numtorch.distributed as dist
    from numtorch import nn

    dist.init_process_group("mpi")
    numtorch.manual_seed(0)
    model = nn.Sequential(
        nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10)
    )
    ddp = nn.parallel.DistributedDataParallel(model)
    opt = numtorch.optim.SGD(ddp.parameters(), lr=0.01)
    x = numtorch.randn(batch, 784)
    y = numtorch.randint(0, 10, (batch,))
    loss_fn = nn.CrossEntropyLoss()

    def step():
        opt.zero_grad()
        with ddp.no_sync() if local else contextlib.nullcontext():
            loss_fn(ddp(x), y).backward()
        opt.step()

    for _ in range(3):
        step()
    times = []
    for _ in range(steps):  # each step timed alone: the best ones are the quiet moments
        dist.barrier()
        start = time.perf_counter()
        step()
        times.append(_slowest(dist.group.WORLD.comm, time.perf_counter() - start))
    if dist.get_rank() == 0:
        times.sort()
        print(f"DDP_STEP_SECONDS {times[len(times) // 10]:.6f} {times[len(times) // 2]:.6f}")
    dist.destroy_process_group()


def launch(nprocs: int, args: list[str]) -> str:
    from numtorch.distributed.run import find_mpiexec, launch_env, mpi_flavor, rank_command

    mpiexec = find_mpiexec()
    if mpiexec is None:
        raise SystemExit("no mpiexec: pip install 'numtorch[mpi]'")
    cmd = rank_command(mpiexec, nprocs, [__file__, *args])
    env = launch_env(nprocs, mpi_flavor(mpiexec), blas_threads=1)
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


def ddp_scaling(steps: int, rounds: int, batch: int) -> None:
    # (ranks, averaging): 2 ranks without averaging (no_sync) show what the machine gives
    # two processes at once, apart from communication.
    jobs = [(1, True), (2, True), (2, False)]
    fast = dict.fromkeys(jobs, float("inf"))
    typical = dict(fast)
    for _ in range(rounds):  # interleave the jobs: the machine is shared
        for n, sync in jobs:
            args = ["--worker", "ddp", "--steps", str(steps), "--batch", str(batch)]
            out = launch(n, args + ([] if sync else ["--local"]))
            tenth, median = map(float, out.split("DDP_STEP_SECONDS")[1].split()[:2])
            key = (n, sync)
            fast[key], typical[key] = min(fast[key], tenth), min(typical[key], median)
    print(
        f"\nDDP step (forward, backward with gradient averaging, SGD), 784-512-512-10 MLP, "
        f"batch {batch} per rank; {steps} steps timed one by one, best of {rounds} jobs"
    )
    print("                      | 10th percentile      | median")
    for n, sync in jobs:
        label = f"{n} rank{'s' if n > 1 else ''}" + ("" if sync else ", no averaging")
        times = (fast[n, sync], typical[n, sync])
        cells = [f"{t * 1e3:6.2f} ms {n * batch / t:6.0f}/s" for t in times]
        print(f"{label:<21} | {cells[0]:>20} | {cells[1]:>20}")
    one, two = (1, True), (2, True)
    print(
        f"throughput 2 ranks / 1 rank: {2 * fast[one] / fast[two]:.2f}x (10th percentile), "
        f"{2 * typical[one] / typical[two]:.2f}x (median); ideal 2.00x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=3, help="DDP jobs per world size")
    parser.add_argument("--steps", type=int, default=100, help="DDP steps timed per job")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--skip-ddp", action="store_true")
    parser.add_argument("--worker", choices=("allreduce", "ddp"), help=argparse.SUPPRESS)
    parser.add_argument("--local", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker == "allreduce":
        allreduce_worker(args.repeat)
    elif args.worker == "ddp":
        ddp_worker(args.steps, args.batch, args.local)
    else:
        print(launch(2, ["--worker", "allreduce", "--repeat", str(args.repeat)]), end="")
        if not args.skip_ddp:
            ddp_scaling(args.steps, args.rounds, args.batch)
    sys.stdout.flush()


if __name__ == "__main__":
    main()

"""numtorch.distributed on this machine: all-reduce bandwidth against raw mpi4py, and
DistributedDataParallel step time on the 784-512-512-10 MLP from 1 to 2 ranks.

The script launches itself under the venv's mpiexec (MPICH from the mpich wheel). All-reduce:
float32 sums of 1-100 MB, ``dist.all_reduce(t)`` against ``comm.Allreduce(MPI.IN_PLACE, a)``
on an array of the same size, interleaved, each call after a barrier; a call's time is the
slowest rank's, and the best of ``--repeat`` is kept. DDP: forward, backward (with the bucketed
gradient all-reduce) and SGD step, batch 64 per rank (so 2 ranks do twice the work per step).

Run: python bench/distributed.py [--repeat R] [--skip-ddp]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

import numpy as np

SIZES_MB = (1, 4, 16, 25, 64, 100)


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
        print(f"{'size':>7} | {'raw mpi4py':>18} | {'numtorch':>18} | numtorch/raw")
    for mb in SIZES_MB:
        n = mb * 2**20 // 4
        raw = np.ones(n, dtype=np.float32)
        tensor = numtorch.ones(n)
        best = {"raw": float("inf"), "numtorch": float("inf")}
        calls = [
            ("raw", lambda: comm.Allreduce(MPI.IN_PLACE, raw, op=MPI.SUM)),
            ("numtorch", lambda: dist.all_reduce(tensor)),
        ]
        for i in range(max(repeat, 200 // mb) + 2):  # the first two are warm-ups
            for name, call in calls if i % 2 else calls[::-1]:
                comm.Barrier()
                start = time.perf_counter()
                call()
                best[name] = min(best[name], _slowest(comm, time.perf_counter() - start))
        if rank == 0:
            cells = [f"{best[k] * 1e3:7.2f} ms {mb / 1024 / best[k]:5.1f} GB/s" for k in best]
            ratio = best["raw"] / best["numtorch"]
            print(f"{mb:>4} MB | {cells[0]:>18} | {cells[1]:>18} | {ratio:6.1%}")
    dist.destroy_process_group()


def ddp_worker(repeat: int, steps: int, batch: int) -> None:
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
        loss_fn(ddp(x), y).backward()
        opt.step()

    for _ in range(3):
        step()
    best = float("inf")
    for _ in range(repeat):
        dist.barrier()
        start = time.perf_counter()
        for _ in range(steps):
            step()
        elapsed = (time.perf_counter() - start) / steps
        best = min(best, _slowest(dist.group.WORLD.comm, elapsed))
    if dist.get_rank() == 0:
        print(f"DDP_STEP_SECONDS {best:.6f}")
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


def ddp_scaling(repeat: int, rounds: int, batch: int) -> None:
    best = {1: float("inf"), 2: float("inf")}
    for _ in range(rounds):  # interleave 1- and 2-rank jobs: the machine is shared
        for n in best:
            out = launch(n, ["--worker", "ddp", "--repeat", str(repeat), "--batch", str(batch)])
            seconds = float(out.split("DDP_STEP_SECONDS")[1].split()[0])
            best[n] = min(best[n], seconds)
    one, two = best[1], best[2]
    print(f"\nDDP step, 784-512-512-10 MLP, batch {batch} per rank, SGD (best of {rounds} jobs)")
    print(f"1 rank : {one * 1e3:6.2f} ms/step  {batch / one:8.0f} samples/s")
    print(f"2 ranks: {two * 1e3:6.2f} ms/step  {2 * batch / two:8.0f} samples/s")
    print(f"throughput scaling 1 -> 2 ranks: {2 * one / two:.2f}x (ideal 2.00x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=3, help="DDP jobs per world size")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--skip-ddp", action="store_true")
    parser.add_argument("--worker", choices=("allreduce", "ddp"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker == "allreduce":
        allreduce_worker(args.repeat)
    elif args.worker == "ddp":
        ddp_worker(max(args.repeat // 3, 3), steps=10, batch=args.batch)
    else:
        print(launch(2, ["--worker", "allreduce", "--repeat", str(args.repeat)]), end="")
        if not args.skip_ddp:
            ddp_scaling(max(args.repeat // 3, 3), args.rounds, args.batch)
    sys.stdout.flush()


if __name__ == "__main__":
    main()

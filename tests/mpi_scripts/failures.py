"""Ways a rank can go wrong; the first argument picks one (rank 1 misbehaves)."""

import os
import signal
import sys
import time

import numtorch as torch
import numtorch.distributed as dist


def main(mode):
    dist.init_process_group("mpi")
    t = torch.ones(4)
    dist.all_reduce(t)
    pair = dist.new_group([0, 1])
    rank = dist.get_rank()
    time.sleep(0.3)  # the launcher has seen every rank start
    if rank == 1:
        print(f"rank 1 misbehaves ({mode}) at {time.time():.3f}", flush=True)
        if mode == "raise":
            raise ValueError("rank 1 failed on purpose")
        if mode in ("skip", "leave"):  # leaves rank 0 alone in the next collective
            sys.exit(0)
        if mode == "sleep":  # neither in a collective nor finishing
            time.sleep(600)
        if mode == "exit3":
            sys.exit(3)
        if mode == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        if mode == "segfault":
            os.kill(os.getpid(), signal.SIGSEGV)
        if mode == "os_exit":  # no Python exit at all, status 0
            os._exit(0)
        if mode == "reorder":  # rank 0 all-reduces on the world next, rank 1 on a group
            dist.all_reduce(t, group=pair)
        if mode == "order":  # the same communicator, another collective
            dist.broadcast(t, src=0)
    if mode == "shape":
        out = [torch.zeros(2 + rank) for _ in range(2)]
        dist.all_gather(out, torch.ones(2 + rank))
        print(f"rank {rank} gathered {out}")  # never reached: nothing uninitialised is seen
    if mode == "dtype":
        dist.all_reduce(torch.ones(3, dtype=torch.float64 if rank else torch.float32))
    if mode != "leave":  # "leave": rank 0's next collective call is the teardown
        dist.all_reduce(t)
    dist.destroy_process_group()


if __name__ == "__main__":
    main(sys.argv[1])

"""Ways a rank can go wrong; the first argument picks one."""

import sys
import time

import numtorch as torch
import numtorch.distributed as dist


def main(mode):
    dist.init_process_group("mpi")
    t = torch.ones(4)
    dist.all_reduce(t)
    pair = dist.new_group([0, 1])
    if dist.get_rank() == 1:
        if mode == "raise":
            raise ValueError("rank 1 failed on purpose")
        if mode == "skip":  # leaves rank 0 alone in the next collective
            sys.exit(0)
        if mode == "sleep":  # neither in a collective nor finishing
            time.sleep(600)
        if mode == "exit3":
            sys.exit(3)
        if mode == "reorder":  # rank 0 all-reduces on the world next, rank 1 on a group
            dist.all_reduce(t, group=pair)
    dist.all_reduce(t)
    dist.destroy_process_group()


if __name__ == "__main__":
    main(sys.argv[1])

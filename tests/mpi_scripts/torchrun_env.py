"""Prints the variables torchrun gives each rank, and this script's arguments."""

import os
import sys

names = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")
line = " ".join(["env", *(f"{n}={os.environ.get(n)}" for n in names), "args", *sys.argv[1:]])
os.write(1, f"{line}\n".encode())  # one write: the ranks' lines must not interleave

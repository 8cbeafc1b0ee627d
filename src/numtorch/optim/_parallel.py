"""Run elementwise optimizer updates on several cores.

An update is a list of jobs ``(kernel, arrays, options)``: ``kernel(*arrays, **options)``
changes the arrays in place, element by element. Large contiguous jobs are cut into equal
flat pieces, and the pieces are spread over threads. NumPy releases the GIL inside its
ufunc loops, so the threads really run at once; every element sees the same operations in
the same order, so results are bitwise the same on any number of threads.

Each thread then runs a large job block by block: an update makes a dozen passes over its
arrays, and on blocks that fit the cache together those passes read the cache, not main
memory. Cutting changes no element's arithmetic, so blocked results are bitwise the same.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor, wait

# Below these sizes a thread hand-off (~10-30 µs) costs more than it saves.
MIN_TOTAL = 1 << 17  # elements in one update before threads are used
MIN_PIECE = 1 << 15  # elements in one piece of a split array
# 1 MiB of each array: a kernel's four or five arrays plus scratch (about 6 MiB) stay in the
# last-level cache, so main memory is read once per block. Each block costs an update's dozen
# NumPy calls in Python, which outweighed what L2-sized blocks gained: on one thread, Adam,
# SGD and SGD with Nesterov momentum took 0.90x, 0.82x and 0.85x the time of 256 KiB blocks
# on the 670,706 floats of bench/optim_step.py, Adam and SGD with momentum 0.93x and 0.83x
# on one 4096 x 2048 parameter; 128 KiB blocks were slower than 256 KiB.
BLOCK_BYTES = 1 << 20

_pool: list = [None, None]  # [executor, pid that made it]


def _workers() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 8))


def _executor(workers: int) -> ThreadPoolExecutor:
    # A forked child inherits the executor object but not its threads: make a new one.
    if _pool[0] is None or _pool[1] != os.getpid():
        _pool[0] = ThreadPoolExecutor(workers - 1, thread_name_prefix="numtorch-optim")
        _pool[1] = os.getpid()
    return _pool[0]


def _flat_views(arrays) -> list | None:
    """The arrays as 1-d views when all are contiguous and of one shape, else None."""
    if not all(a.flags.c_contiguous and a.shape == arrays[0].shape for a in arrays):
        return None
    return [a.reshape(-1) for a in arrays]


def _split(job, parts: int) -> list:
    kernel, arrays, options = job
    size = arrays[0].size
    parts = min(parts, size // MIN_PIECE)
    flat = _flat_views(arrays) if parts >= 2 else None
    if flat is None:
        return [(size, job)]
    bounds = [size * i // parts for i in range(parts + 1)]
    return [
        (hi - lo, (kernel, tuple(a[lo:hi] for a in flat), options))
        for lo, hi in zip(bounds, bounds[1:])
    ]


def _blocks(arrays) -> list:
    """The arrays cut into blocks of ``BLOCK_BYTES`` each (one block if they can't be cut)."""
    block = max(1, BLOCK_BYTES // arrays[0].itemsize)
    size = arrays[0].size
    flat = _flat_views(arrays) if size > block else None
    if flat is None:
        return [arrays]
    return [tuple(a[lo : lo + block] for a in flat) for lo in range(0, size, block)]


def _run(jobs) -> None:
    for kernel, arrays, options in jobs:
        for block in _blocks(arrays):
            kernel(*block, **options)


def run_elementwise(jobs: list) -> None:
    """Run every job, in parallel when the update is large enough."""
    workers = _workers()
    if workers < 2 or sum(job[1][0].size for job in jobs) < MIN_TOTAL:
        _run(jobs)
        return
    pieces = [piece for job in jobs for piece in _split(job, workers)]
    pieces.sort(key=lambda piece: -piece[0])
    buckets: list[list] = [[] for _ in range(workers)]
    loads = [0] * workers
    for size, job in pieces:
        i = loads.index(min(loads))
        buckets[i].append(job)
        loads[i] += size
    pool = _executor(workers)
    futures = [pool.submit(_run, bucket) for bucket in buckets[1:] if bucket]
    try:
        _run(buckets[0])
    finally:
        wait(futures)
    for future in futures:
        future.result()

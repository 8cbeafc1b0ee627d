"""DataLoader worker processes on this machine: throughput against loading in the main process,
and what passing batches through shared memory saves over pickling them.

1. A loading-bound dataset: each ``__getitem__`` spends ``--work-ms`` building a 3x32x32
   float32 sample, either on the CPU (a NumPy FFT loop: two workers need two free cores) or
   waiting (``sleep``, as for files or the network); batches of 16; ``num_workers`` 0, 1, 2.
   The load average is printed too: on a busy machine the CPU-bound case cannot scale.
2. Moving finished batches: a dataset whose batches are ready-made float32 tensors of a given
   size, loaded by one worker, with tensors sent through /dev/shm files (the default from
   ``SHARED_MIN_BYTES``) and forced through the pipe as pickles.

Each number is the best of ``--repeat`` passes (the machine is shared).
Run: python bench/dataloader.py [--repeat R] [--work-ms MS]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import numtorch as torch
from numtorch.utils.data import DataLoader, Dataset, _worker


class Costly(Dataset):
    """Samples that take ``work_ms`` of CPU each to make."""

    def __init__(self, n: int, work_ms: float, sleep: bool) -> None:
        self.n = n
        self.work_ms = work_ms
        self.sleep = sleep

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        rng = np.random.default_rng(i)
        image = rng.standard_normal((3, 32, 32)).astype(np.float32)
        if self.sleep:
            time.sleep(self.work_ms / 1e3)
            return torch.from_numpy(image), i % 10
        end = time.process_time() + self.work_ms / 1e3
        while time.process_time() < end:
            image = np.fft.ifft2(np.fft.fft2(image)).real.astype(np.float32)
        return torch.from_numpy(image), i % 10


class Ready(Dataset):
    """Batches that cost nothing to make: only the transport is measured."""

    def __init__(self, batches: int, numel: int) -> None:
        self.batches = batches
        self.data = np.ones(numel, dtype=np.float32)

    def __len__(self) -> int:
        return self.batches

    def __getitem__(self, i):
        return torch.from_numpy(self.data)


def best_pass(loader, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _batch in loader:
            pass
        best = min(best, time.perf_counter() - start)
    return best


def throughput(repeat: int, work_ms: float, samples: int, sleep: bool) -> None:
    kind = "waiting" if sleep else "CPU"
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"loading-bound dataset: {samples} samples of {work_ms:g} ms {kind} each, batch 16 "
        f"({len(os.sched_getaffinity(0))} cores, load average {load})"
    )
    base = None
    for workers in (0, 1, 2):
        loader = DataLoader(
            Costly(samples, work_ms, sleep),
            batch_size=16,
            num_workers=workers,
            persistent_workers=workers > 0,
        )
        seconds = best_pass(loader, repeat)
        base = base or seconds
        print(
            f"  num_workers={workers}: {seconds:6.2f} s, {samples / seconds:7.1f} samples/s, "
            f"{base / seconds:4.2f}x num_workers=0"
        )


def transport(repeat: int) -> None:
    print("\nmoving ready batches from 1 worker (batch_size=None, 64 batches per pass)")
    print(f"{'batch':>8} | {'shared memory':>14} | {'pickle':>14} | pickle / shared")
    default = _worker.SHARED_MIN_BYTES
    for kb in (64, 256, 1024, 4096, 16384):
        times = {}
        for name, threshold in (("shared", 0), ("pickle", 1 << 62)):
            _worker.SHARED_MIN_BYTES = threshold  # read by the workers (fork) when they start
            loader = DataLoader(Ready(64, kb * 256), batch_size=None, num_workers=1)
            times[name] = best_pass(loader, repeat) / 64
        _worker.SHARED_MIN_BYTES = default
        cells = [f"{times[k] * 1e3:8.3f} ms" for k in ("shared", "pickle")]
        size = f"{kb} KB" if kb < 1024 else f"{kb // 1024} MB"
        ratio = times["pickle"] / times["shared"]
        print(f"{size:>8} | {cells[0]:>14} | {cells[1]:>14} | {ratio:5.2f}x")
    print(f"(the default sends tensors of at least {default // 1024} KB through shared memory)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--work-ms", type=float, default=2.0)
    parser.add_argument("--samples", type=int, default=512)
    parser.add_argument("--skip-transport", action="store_true")
    args = parser.parse_args()
    for sleep in (False, True):
        throughput(args.repeat, args.work_ms, args.samples, sleep)
    if not args.skip_transport:
        transport(args.repeat)


if __name__ == "__main__":
    main()

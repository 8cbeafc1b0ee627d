"""ResNet-18: forward+backward time against torch, and inference memory with and without grad.

Time: one step is ``model(x).sum().backward()`` on a 1x3x224x224 input in train mode, for
numtorch's ``models.resnet18`` and the same architecture built with torch.nn (same weights,
from ``tests/torch_reference.py``: there is no CPU torchvision here). Runs are interleaved
and the best of each kept.

Memory: the peak of what a batch-8 forward allocates beyond the parameters and the input
(both exist before tracing starts), under ``no_grad`` and with grad (where the graph's saved
activations stay alive), measured with tracemalloc, which NumPy reports its arrays to.
numtorch only: torch's allocator is invisible to tracemalloc.

Run: python bench/resnet.py [--repeat R] [--threads N] [--batch B] [--size S] [--skip-memory]
     [--cpu-time]

``--threads N`` runs both libraries on N threads (torch.set_num_threads, and
OPENBLAS_NUM_THREADS for NumPy, which must be set before NumPy loads).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tracemalloc
from pathlib import Path

if "--threads" in sys.argv:  # NumPy's BLAS reads its thread count when it loads
    os.environ["OPENBLAS_NUM_THREADS"] = sys.argv[sys.argv.index("--threads") + 1]

import numpy as np
from _timing import CPU_TIME_HELP, best_of_interleaved, clock_for

import numtorch
from numtorch.models import resnet18

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def step_cases(size: int) -> dict:
    """name -> a forward+backward step, numtorch's and (when installed) torch's."""
    x = np.random.default_rng(0).standard_normal((1, 3, size, size)).astype(np.float32)
    numtorch.manual_seed(0)
    ours = resnet18()
    cases = {"numtorch": _step(numtorch, ours, x)}
    try:
        import torch
        from torch_reference import torch_resnet
    except ImportError:
        return cases
    theirs = torch_resnet(torch, False, [2, 2, 2, 2])
    theirs.load_state_dict({k: torch.tensor(v.numpy()) for k, v in ours.state_dict().items()})
    cases["torch"] = _step(torch, theirs, x)
    return cases


def _step(lib, model, x):
    inputs = lib.tensor(x)

    def step():
        model.zero_grad(set_to_none=True)
        model(inputs).sum().backward()

    return step


def forward_peak_bytes(model, x, grad: bool) -> int:
    """Peak bytes a forward allocates beyond what exists before it (parameters, input);
    with grad the output, and so its graph, is still alive when the peak is read."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        with numtorch.set_grad_enabled(grad):
            out = model(x)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    del out
    return peak


def memory(batch: int, size: int) -> dict:
    numtorch.manual_seed(0)
    model = resnet18()
    x = numtorch.randn(batch, 3, size, size)
    model.eval()  # inference: batch norm uses its running statistics
    model(x[:2])  # warm up (first-call caches), outside the measurement
    return {grad: forward_peak_bytes(model, x, grad) for grad in (True, False)}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, help="threads for both libraries")
    parser.add_argument("--size", type=int, default=224, help="image side for the timing")
    parser.add_argument("--batch", type=int, default=8, help="batch for the memory test")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--cpu-time", action="store_true", help=CPU_TIME_HELP)
    args = parser.parse_args()
    try:
        import torch

        if args.threads:
            torch.set_num_threads(args.threads)
        torch_threads = f"torch {torch.__version__} intra-op threads: {torch.get_num_threads()}"
    except ImportError:
        torch_threads = "torch not installed: numtorch times only"
    print(f"NumPy BLAS threads: {os.environ.get('OPENBLAS_NUM_THREADS', 'default')}; "
          f"cores: {os.cpu_count()}; {torch_threads}")  # fmt: skip

    cases = step_cases(args.size)
    for fn in cases.values():  # warm up caches and allocators
        fn()
    best = best_of_interleaved(cases, args.repeat, clock=clock_for(args.cpu_time))
    line = f"ResNet-18 forward+backward, 1x3x{args.size}x{args.size}: "
    line += f"numtorch {best['numtorch'] * 1e3:7.1f} ms"
    if "torch" in best:
        line += (
            f"   torch {best['torch'] * 1e3:7.1f} ms   ratio {best['numtorch'] / best['torch']:.2f}"
        )
    print(line)

    if not args.skip_memory:
        peaks = memory(args.batch, 224)
        ratio = peaks[False] / peaks[True]
        print(
            f"ResNet-18 forward, {args.batch}x3x224x224, peak beyond parameters and input: "
            f"with grad {peaks[True] / 2**20:.1f} MiB, no_grad {peaks[False] / 2**20:.1f} MiB "
            f"(ratio {ratio:.3f}, target <= 1/3)"
        )


if __name__ == "__main__":
    main()

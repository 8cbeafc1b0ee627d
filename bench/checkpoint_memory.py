"""Peak memory of forward+backward on a deep MLP, with and without checkpointing.

Peaks are measured with tracemalloc (NumPy reports its array allocations to it), from just
before the forward to the end of backward; the parameters and the input are allocated
before, so the numbers are activations, saved tensors and gradients. Times are the best of
a few runs.

Run: OPENBLAS_NUM_THREADS=1 python bench/checkpoint_memory.py [--depth D] [--width W] [--batch B]
"""

from __future__ import annotations

import argparse
import gc
import math
import time
import tracemalloc

import numpy as np

import numtorch
from numtorch.utils.checkpoint import checkpoint, checkpoint_sequential


def make_layers(depth: int, width: int):
    rng = np.random.default_rng(0)
    weights = [
        numtorch.tensor(
            (rng.standard_normal((width, width)) / math.sqrt(width)).astype(np.float32),
            requires_grad=True,
        )
        for _ in range(depth)
    ]
    # A gated residual layer: several activations saved per layer, as in real blocks.
    return [lambda x, w=w: x + (x @ w).tanh() * (x * 0.5).sigmoid() for w in weights], weights


def run(mode: str, layers, x):
    if mode == "plain":
        h = x
        for layer in layers:
            h = layer(h)
    elif mode in ("every layer", "every layer, reentrant"):
        reentrant = mode.endswith("reentrant")
        h = x
        for layer in layers:
            h = checkpoint(layer, h, use_reentrant=reentrant)
    else:
        segments = int(math.sqrt(len(layers)))
        h = checkpoint_sequential(layers, segments, x, use_reentrant=False)
    h.pow(2).mean().backward()


def measure(depth: int, width: int, batch: int, repeat: int = 5) -> dict:
    layers, weights = make_layers(depth, width)
    x = numtorch.tensor(np.ones((batch, width), np.float32), requires_grad=True)
    modes = ["plain", "every layer", "every layer, reentrant", "sqrt(depth) segments"]

    def fresh_step(mode):
        for w in weights:
            w.grad = None
        x.grad = None
        run(mode, layers, x)

    peaks = {}
    for mode in modes:
        fresh_step(mode)  # warm up, and leave .grad buffers of the same size behind
        for w in weights:
            w.grad = None
        x.grad = None
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        run(mode, layers, x)
        peaks[mode] = tracemalloc.get_traced_memory()[1] - base
        tracemalloc.stop()
    best = dict.fromkeys(modes, float("inf"))
    for _ in range(repeat):  # interleaved: a machine whose speed drifts still gives fair ratios
        for mode in modes:
            start = time.perf_counter()
            fresh_step(mode)
            best[mode] = min(best[mode], time.perf_counter() - start)
    return {mode: (peaks[mode], best[mode]) for mode in modes}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=32)
    parser.add_argument("--width", type=int, default=128)
    parser.add_argument("--batch", type=int, default=1024)
    args = parser.parse_args()
    results = measure(args.depth, args.width, args.batch)
    activation = args.batch * args.width * 4 / 2**20
    weights = args.depth * args.width**2 * 4 / 2**20
    print(
        f"MLP: {args.depth} layers, {args.width} wide, batch {args.batch} (float32); one "
        f"activation = {activation:.2f} MiB, all weight gradients = {weights:.2f} MiB"
    )
    plain_peak, plain_time = results["plain"]
    for mode, (peak, seconds) in results.items():
        print(
            f"{mode:24s} peak {peak / 2**20:8.2f} MiB  ({peak / plain_peak:5.2f}x)   "
            f"time {seconds * 1e3:8.1f} ms  ({seconds / plain_time:4.2f}x)"
        )


if __name__ == "__main__":
    main()

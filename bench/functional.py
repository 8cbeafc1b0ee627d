"""Jacobian with ``vectorize=True`` (one batched backward) vs the row-by-row loop.

The function maps 256 inputs to 256 outputs through a small MLP-like chain, so the loop runs
256 backward passes and the vectorized version one. Runs are interleaved and the best of each
is kept; torch's two modes are shown too when it is installed.

Run: OPENBLAS_NUM_THREADS=1 python bench/functional.py [--size N] [--repeat R]
(one BLAS thread, like torch.set_num_threads(1) here: steadier numbers on a shared machine)
"""

from __future__ import annotations

import argparse

import numpy as np
from _timing import best_of_interleaved, libraries


def make_function(lib, size: int):
    rng = np.random.default_rng(0)
    w1 = lib.tensor((rng.standard_normal((size, 64)) / 16).astype(np.float32))
    w2 = lib.tensor((rng.standard_normal((64, size)) / 8).astype(np.float32))

    def f(x):
        return ((x @ w1).tanh() @ w2).sigmoid() * x

    return f


def measure(size: int = 256, repeat: int = 5) -> dict:
    cases = {}
    for name, lib in libraries().items():
        f = make_function(lib, size)
        x = lib.tensor(np.linspace(-1, 1, size, dtype=np.float32))
        for vectorize in (False, True):
            label = f"{name} {'vectorize' if vectorize else 'loop'}"
            cases[label] = lambda lib=lib, f=f, x=x, v=vectorize: lib.autograd.functional.jacobian(
                f, x, vectorize=v
            )
    return best_of_interleaved(cases, repeat)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    best = measure(args.size, args.repeat)
    for name, seconds in best.items():
        print(f"{name + ' (ms)':28s} {seconds * 1e3:9.2f}")
    ratio = best["numtorch loop"] / best["numtorch vectorize"]
    print(f"{'numtorch loop / vectorize':28s} {ratio:9.2f}x")
    if "torch loop" in best:
        torch_ratio = best["torch loop"] / best["torch vectorize"]
        versus = best["numtorch vectorize"] / best["torch vectorize"]
        print(f"{'torch loop / vectorize':28s} {torch_ratio:9.2f}x")
        print(f"{'numtorch / torch vectorize':28s} {versus:9.2f}x")


if __name__ == "__main__":
    main()

"""Per-op overhead: µs per recorded op (forward + its share of backward) on a chain of
small-tensor ops, with and without grad, against torch when it is installed.

Runs of numtorch, torch and bare NumPy are interleaved and the best of each is kept, so a
machine whose speed drifts still gives fair ratios.

Run: python bench/overhead.py [--ops N] [--repeat R]
"""

from __future__ import annotations

import argparse

import numpy as np
from _timing import best_of_interleaved, libraries


def chain(x, w, n_ops):
    """n_ops recorded ops: a mix of binary and unary elementwise ops."""
    y = x
    for _ in range(n_ops // 4):
        y = y * w
        y = y + x
        y = y.tanh()
        y = y - w
    return y.sum()


def numpy_chain(x, w, n_ops):
    y = x
    for _ in range(n_ops // 4):
        y = np.multiply(y, w)
        y = np.add(y, x)
        y = np.tanh(y)
        y = np.subtract(y, w)
    return np.sum(y)


def measure(n_ops=400, repeat=40) -> dict:
    cases = {}
    for name, lib in libraries().items():
        x = lib.ones(16, requires_grad=True)
        w = lib.full((16,), 0.5, requires_grad=True)

        def grad_step(lib=lib, x=x, w=w):
            chain(x, w, n_ops).backward()

        def no_grad_step(lib=lib, x=x, w=w):
            with lib.no_grad():
                chain(x, w, n_ops)

        cases[f"{name} fwd+bwd"] = grad_step
        cases[f"{name} no_grad fwd"] = no_grad_step
    a = np.ones(16, np.float32)
    b = np.full(16, 0.5, np.float32)
    cases["bare NumPy"] = lambda: numpy_chain(a, b, n_ops)
    best = best_of_interleaved(cases, repeat)
    return {name: t / (n_ops + 1) * 1e6 for name, t in best.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ops", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=40)
    args = parser.parse_args()
    rows = measure(args.ops, args.repeat)
    for name, value in rows.items():
        print(f"{name + ' (µs/op)':36s} {value:8.2f}")
    gap = rows["numtorch no_grad fwd"] - rows["bare NumPy"]
    print(f"{'no_grad overhead vs NumPy (µs/op)':36s} {gap:8.2f}   (target <= 1.0)")
    if "torch fwd+bwd" in rows:
        ratio = rows["numtorch fwd+bwd"] / rows["torch fwd+bwd"]
        print(f"{'ratio numtorch/torch fwd+bwd':36s} {ratio:8.2f}   (target <= 1.5)")


if __name__ == "__main__":
    main()

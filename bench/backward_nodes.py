"""Backward's cost per node for ops whose formulas take shapes, dims, strides, strings or
integer arrays (transposes, selects, products, the loss), numtorch against torch.

Each case records a chain of one kind of op on small float32 tensors (so the arrays cost
little and the engine's per-node work shows), then times ``backward`` alone, the chain
recorded anew before each run. Runs of the two libraries are interleaved, the best of each
kept, and the time is given per node.

- ``t``: ``y = y.t()`` repeated (TBackward0);
- ``select``: ``y = y.unsqueeze(0).select(0, 0)`` repeated (SelectBackward0 and
  UnsqueezeBackward0);
- ``addmm``: ``y = addmm(b, y, w.t())`` repeated (AddmmBackward0, whose weight gradient
  takes the strides of ``w.t()``, and TBackward0);
- ``nll_loss``: ``nll_loss(log_softmax(x @ w), target)``, summed over many losses.

Run: python bench/backward_nodes.py [--repeat R] [--length N] [--cpu-time]
"""

from __future__ import annotations

import argparse

import numpy as np
from _timing import CPU_TIME_HELP, clock_for, libraries


def _t(lib, x, n):
    y = x
    for _ in range(n):
        y = y.t()
    return y.sum(), n


def _select(lib, x, n):
    y = x
    for _ in range(n):
        y = y.unsqueeze(0).select(0, 0)
    return y.sum(), 2 * n


def _addmm(lib, x, n, w, b):
    y = x
    for _ in range(n):
        y = lib.addmm(b, y, w.t())
    return y.sum(), 2 * n


def _nll_loss(lib, x, n, target):
    loss = 0
    for _ in range(n):
        loss = loss + lib.nn.functional.nll_loss(x, target)
    return loss, 2 * n


def cases(length: int) -> tuple[dict, dict]:
    rng = np.random.default_rng(0)
    data = {
        "x": rng.standard_normal((8, 8)).astype(np.float32),
        "w": (rng.standard_normal((8, 8)) / 8).astype(np.float32),
        "b": rng.standard_normal(8).astype(np.float32),
        "target": rng.integers(0, 8, 8),
    }
    runs, nodes = {}, {}
    for lib_name, lib in libraries().items():
        x = lib.tensor(data["x"], requires_grad=True)
        w = lib.tensor(data["w"], requires_grad=True)
        b = lib.tensor(data["b"], requires_grad=True)
        target = lib.tensor(data["target"])
        builders = {
            "t": lambda lib=lib, x=x: _t(lib, x, length),
            "select": lambda lib=lib, x=x: _select(lib, x, length),
            "addmm": lambda lib=lib, x=x, w=w, b=b: _addmm(lib, x, length, w, b),
            "nll_loss": lambda lib=lib, x=x, t=target: _nll_loss(lib, x, length, t),
        }
        for case, build in builders.items():
            runs[(case, lib_name)] = _backward_only(build)
            nodes[case] = build()[1]
    return runs, nodes


def _backward_only(build):
    """A run that records the chain untimed and returns the timed backward."""
    state = {}

    def prepare():
        state["loss"] = build()[0]

    def backward():
        state["loss"].backward()

    backward.prepare = prepare
    return backward


def measure(repeat: int, length: int, cpu_time: bool) -> dict:
    runs, nodes = cases(length)
    clock = clock_for(cpu_time)
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeat):
        for key, fn in runs.items():
            fn.prepare()
            start = clock()
            fn()
            best[key] = min(best[key], clock() - start)
    return {key: seconds / nodes[key[0]] for key, seconds in best.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--length", type=int, default=200)
    parser.add_argument("--cpu-time", action="store_true", help=CPU_TIME_HELP)
    args = parser.parse_args()
    per_node = measure(args.repeat, args.length, args.cpu_time)
    print(f"{'chain':<10} {'numtorch µs/node':>17} {'torch µs/node':>14} {'ratio':>7}")
    for case in ("t", "select", "addmm", "nll_loss"):
        ours = per_node[(case, "numtorch")] * 1e6
        theirs = per_node.get((case, "torch"))
        if theirs is None:
            print(f"{case:<10} {ours:>17.2f}")
            continue
        print(f"{case:<10} {ours:>17.2f} {theirs * 1e6:>14.2f} {ours / (theirs * 1e6):>7.2f}")


if __name__ == "__main__":
    main()

"""Optimizer step time on the parameters of a 784-512-512-10 MLP (669,706 floats), against
torch when it is installed. Gradients are fixed random arrays; only ``step()`` is timed.

Runs of numtorch and torch are interleaved and the best of each is kept.

Run: python bench/optim_step.py [--repeat R]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import numtorch

SHAPES = [(512, 784), (512,), (512, 512), (512,), (10, 512), (10,)]
CASES = [
    ("SGD", {"lr": 0.01}),
    ("SGD", {"lr": 0.01, "momentum": 0.9, "nesterov": True}),
    ("Adam", {"lr": 1e-3}),
    ("AdamW", {"lr": 1e-3, "amsgrad": True}),
    ("RMSprop", {"lr": 1e-3, "momentum": 0.9, "centered": True}),
    ("Adagrad", {"lr": 1e-2}),
    ("Adadelta", {}),
    ("Adamax", {"lr": 2e-3}),
    ("NAdam", {"lr": 2e-3}),
    ("RAdam", {"lr": 1e-3}),
    ("ASGD", {"lr": 1e-2, "t0": 0}),
    ("Rprop", {"lr": 1e-2}),
]


def make_step(lib, name, options):
    rng = np.random.default_rng(0)
    params = []
    for shape in SHAPES:
        p = lib.tensor(rng.standard_normal(shape).astype(np.float32), requires_grad=True)
        p.grad = lib.tensor(rng.standard_normal(shape).astype(np.float32))
        params.append(p)
    opt = getattr(lib.optim, name)(params, **options)
    opt.step()  # create the state
    return opt.step


def best_of(step, repeat, inner=10, clock=time.perf_counter):
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        for _ in range(inner):
            step()
        best = min(best, (clock() - start) / inner)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--torch-threads", type=int, default=None, help="default: torch's own")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time with the process's CPU clock (all its threads), steadier on loaded machines",
    )
    args = parser.parse_args()
    clock = time.process_time if args.cpu_time else time.perf_counter
    try:
        import torch

        if args.torch_threads:
            torch.set_num_threads(args.torch_threads)
        print(f"torch {torch.__version__} on {torch.get_num_threads()} thread(s)")
    except ImportError:
        torch = None
    print(f"{'optimizer':<46} {'numtorch ms':>11} {'torch ms':>9} {'ratio':>6}")
    for name, options in CASES:
        ours_step = make_step(numtorch, name, options)
        theirs_step = make_step(torch, name, options) if torch else None
        ours = theirs = float("inf")
        for _ in range(3):  # interleave to share any drift in machine speed
            ours = min(ours, best_of(ours_step, args.repeat, clock=clock))
            if theirs_step:
                theirs = min(theirs, best_of(theirs_step, args.repeat, clock=clock))
        label = f"{name} {options}"
        if theirs_step:
            print(f"{label:<46} {ours * 1e3:>11.2f} {theirs * 1e3:>9.2f} {ours / theirs:>6.2f}")
        else:
            print(f"{label:<46} {ours * 1e3:>11.2f} {'-':>9} {'-':>6}")


if __name__ == "__main__":
    main()

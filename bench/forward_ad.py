"""Forward-mode AD against torch, interleaved in one process, one thread each.

- ``jacfwd`` of a 256 -> 256 function (``tanh(W2 tanh(W1 x + b))``, two 256x256 layers):
  numtorch pushes the standard basis as one batched tangent, torch vmaps its jvp;
- ``hessian`` (``jacfwd(jacrev(f))``, forward-over-reverse) of the scalar
  ``sum(tanh(W x)**2)`` over 256 inputs;
- one ``func.jvp`` of the same 256 -> 256 function (the per-call cost of a dual level).

Run: OPENBLAS_NUM_THREADS=1 python bench/forward_ad.py [--size N] [--repeat R]
"""

from __future__ import annotations

import argparse

import numpy as np
from _timing import best_of_interleaved, libraries


def make_cases(lib, name: str, size: int) -> dict:
    rng = np.random.default_rng(0)
    w1, w2 = (lib.tensor(rng.standard_normal((size, size)) / size**0.5) for _ in range(2))
    b = lib.tensor(rng.standard_normal(size))
    x = lib.tensor(rng.standard_normal(size))
    v = lib.tensor(rng.standard_normal(size))

    def layers(x):
        return lib.tanh(w2 @ lib.tanh(w1 @ x + b))

    def energy(x):
        return (lib.tanh(w1 @ x) ** 2).sum()

    jacobian = lib.func.jacfwd(layers)
    hessian = lib.func.hessian(energy)
    return {
        f"{name} jacfwd": lambda: jacobian(x),
        f"{name} hessian": lambda: hessian(x),
        f"{name} jvp": lambda: lib.func.jvp(layers, (x,), (v,)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    libs = libraries()
    cases = {}
    for name, lib in libs.items():
        cases.update(make_cases(lib, name, args.size))
    if "torch" in libs:  # same numbers from both before timing anything
        ours, theirs = cases["numtorch jacfwd"](), cases["torch jacfwd"]()
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-8, atol=1e-10)
        ours, theirs = cases["numtorch hessian"](), cases["torch hessian"]()
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-8, atol=1e-10)
    best = best_of_interleaved(cases, args.repeat)
    print(f"forward-mode AD, size {args.size}, float64, best of {args.repeat} (ms)")
    for what in ("jacfwd", "hessian", "jvp"):
        ours = best[f"numtorch {what}"] * 1e3
        line = f"  {what:8s} numtorch {ours:8.3f}"
        if "torch" in libs:
            theirs = best[f"torch {what}"] * 1e3
            line += f"  torch {theirs:8.3f}  ratio {ours / theirs:5.2f}x"
        print(line)


if __name__ == "__main__":
    main()

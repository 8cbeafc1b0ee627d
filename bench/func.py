"""Per-sample gradients with ``vmap(grad(loss))`` (numtorch.func / torch.func).

A small MLP (features -> hidden -> 10, ReLU, cross-entropy) called through
``functional_call``; ``vmap(grad(loss), in_dims=(None, 0, 0))`` gives one gradient per sample.
Both libraries run the function once on batched tensors (numtorch: docs/vmap.md); a plain
loop of forward + autograd.grad per sample is timed too. Runs are interleaved and the best of
each is kept.

Run: OPENBLAS_NUM_THREADS=1 python bench/func.py [--batch B] [--features F] [--hidden H]
"""

from __future__ import annotations

import argparse

import numpy as np
from _timing import best_of_interleaved, libraries


def make_cases(lib, name: str, batch: int, features: int, hidden: int) -> dict:
    rng = np.random.default_rng(0)
    model = lib.nn.Sequential(
        lib.nn.Linear(features, hidden), lib.nn.ReLU(), lib.nn.Linear(hidden, 10)
    )
    with lib.no_grad():
        for p in model.parameters():
            p.copy_(lib.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32) / 8))
    params = {k: v.detach() for k, v in model.named_parameters()}
    x = lib.tensor(rng.standard_normal((batch, features)).astype(np.float32))
    y = lib.tensor(rng.integers(0, 10, batch))

    def loss(p, xb, yb):
        out = lib.func.functional_call(model, p, (xb.unsqueeze(0),))
        return lib.nn.functional.cross_entropy(out, yb.unsqueeze(0))

    per_sample = lib.func.vmap(lib.func.grad(loss), in_dims=(None, 0, 0))
    leaves = list(model.parameters())

    def loop():
        return [
            lib.autograd.grad(
                lib.nn.functional.cross_entropy(model(x[b : b + 1]), y[b : b + 1]), leaves
            )
            for b in range(batch)
        ]

    return {
        f"{name} vmap(grad)": lambda: per_sample(params, x, y),
        f"{name} loop": loop,
    }


def measure(batch=64, features=32, hidden=64, repeat=7) -> dict:
    cases = {}
    for name, lib in libraries().items():
        cases.update(make_cases(lib, name, batch, features, hidden))
    return best_of_interleaved(cases, repeat)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--features", type=int, default=32)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    best = measure(args.batch, args.features, args.hidden, args.repeat)
    for name, seconds in best.items():
        print(f"{name + ' (ms)':28s} {seconds * 1e3:9.2f}")
    ratio = best["numtorch vmap(grad)"] / best["numtorch loop"]
    print(f"{'numtorch vmap(grad) / loop':28s} {ratio:9.2f}x")
    if "torch vmap(grad)" in best:
        versus = best["numtorch vmap(grad)"] / best["torch vmap(grad)"]
        torch_ratio = best["torch loop"] / best["torch vmap(grad)"]
        print(f"{'torch loop / vmap(grad)':28s} {torch_ratio:9.2f}x")
        print(f"{'numtorch / torch vmap(grad)':28s} {versus:9.2f}x")


if __name__ == "__main__":
    main()

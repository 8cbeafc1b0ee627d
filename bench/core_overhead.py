"""The core's cost per recorded op, against torch, in one process with one thread each.

- a 600-op chain, forward + backward, and the same chain's forward under ``no_grad``;
- the per-op cost of a 20,000-op chain with the cyclic garbage collector on (default
  thresholds) and off, and of a 1,000-op chain: large graphs must not cost more per op;
- graph memory per recorded op (tracemalloc: everything the graph keeps alive, the saved
  arrays included, divided by the number of ops).

The chain cycles through multiply, sin, asin, add, cos, acos: values stay near 1 and every
gradient factor is near 1, so neither library meets denormal numbers (which slow both).
Runs of the two libraries are interleaved and the best of each is kept.

Run: python bench/core_overhead.py [--repeat R] [--cpu-time]
(``--cpu-time`` times with the thread's CPU clock: steadier where other programs share the
cores, since time spent descheduled is not counted.)
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc

from _timing import best_of_interleaved, libraries


def chain(x, w, b, n_ops):
    """``n_ops`` recorded ops whose values and gradients stay near 1."""
    y = x
    for _ in range(n_ops // 6):
        y = y * w
        y = y.sin()
        y = y.asin()
        y = y + b
        y = y.cos()
        y = y.acos()
    return y


def operands(lib):
    x = lib.full((16,), 0.9, requires_grad=True)
    w = lib.ones(16, requires_grad=True)
    b = lib.zeros(16, requires_grad=True)
    return x, w, b


def chain_step(lib, n_ops, grad=True):
    x, w, b = operands(lib)

    def step():
        if grad:
            chain(x, w, b, n_ops).sum().backward()
        else:
            with lib.no_grad():
                chain(x, w, b, n_ops)

    return step


def with_gc(step, enabled: bool):
    def run():
        was = gc.isenabled()
        if enabled:
            gc.enable()
        else:
            gc.disable()
        try:
            step()
        finally:
            if was:
                gc.enable()

    return run


def per_op_us(cases: dict, repeat: int, n_ops: int, clock) -> dict:
    best = best_of_interleaved(cases, repeat, clock)
    return {name: t / n_ops * 1e6 for name, t in best.items()}


def graph_bytes_per_op(lib, n_ops: int = 3000) -> float:
    """Memory the recorded graph of ``n_ops`` ops keeps alive, per op."""
    x, w, b = operands(lib)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    y = chain(x, w, b, n_ops)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del y
    return (after - before) / n_ops


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--cpu-time", action="store_true", help="time with the CPU clock")
    args = parser.parse_args()
    clock = time.thread_time if args.cpu_time else time.perf_counter
    libs = libraries()
    numtorch = libs["numtorch"]
    torch = libs.get("torch")
    both = {"numtorch": numtorch, **({"torch": torch} if torch else {})}

    small = {}
    for name, lib in both.items():
        small[f"{name} 600-op fwd+bwd"] = chain_step(lib, 600)
        small[f"{name} 600-op no_grad fwd"] = chain_step(lib, 600, grad=False)
    rows = per_op_us(small, args.repeat, 600, clock)

    large = {}
    for name, lib in both.items():
        large[f"{name} 1k-op fwd+bwd, gc on"] = with_gc(chain_step(lib, 1_002), True)
        large[f"{name} 20k-op fwd+bwd, gc on"] = with_gc(chain_step(lib, 19_998), True)
        large[f"{name} 20k-op fwd+bwd, gc off"] = with_gc(chain_step(lib, 19_998), False)
    best = best_of_interleaved(large, max(3, args.repeat // 6), clock)
    for name, seconds in best.items():
        rows[name] = seconds / (1_002 if " 1k-op" in name else 19_998) * 1e6

    for name, value in rows.items():
        print(f"{name + ' (µs/op)':44s} {value:8.2f}")
    print()
    if torch is not None:
        for case, target in (("600-op fwd+bwd", 0.8), ("600-op no_grad fwd", 0.8)):
            ratio = rows[f"numtorch {case}"] / rows[f"torch {case}"]
            print(f"{'numtorch/torch ' + case:44s} {ratio:8.2f}   (target <= {target})")
    on = rows["numtorch 20k-op fwd+bwd, gc on"]
    print(f"{'20k gc on / 20k gc off':44s} {on / rows['numtorch 20k-op fwd+bwd, gc off']:8.2f}")
    print(f"{'20k gc on / 1k gc on':44s} {on / rows['numtorch 1k-op fwd+bwd, gc on']:8.2f}")
    print(f"{'   (targets: <= 1.10 and <= 1.30)':44s}")
    print(f"{'graph bytes per recorded op':44s} {graph_bytes_per_op(numtorch):8.0f}")


if __name__ == "__main__":
    main()

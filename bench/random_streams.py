"""Random draws: ms per call of numtorch's torch-exact samplers against torch's own (and the
ratio), for the sizes programs draw: initial weights, data, dropout masks, shuffles.

Run: python bench/random_streams.py [--repeat R] [--cpu-time]
"""

from __future__ import annotations

import argparse

from _timing import CPU_TIME_HELP, best_of_interleaved, clock_for, libraries

CASES = {
    "rand(1e6)": lambda t: t.rand(1_000_000),
    "randn(1e6)": lambda t: t.randn(1_000_000),
    "randn(1e5, float64)": lambda t: t.randn(100_000, dtype=t.float64),
    "randn(10) x 1000": lambda t: [t.randn(10) for _ in range(1000)],
    "randint(1e6)": lambda t: t.randint(0, 10, (1_000_000,)),
    "randperm(60000)": lambda t: t.randperm(60_000),
    "Linear(1024, 1024)": lambda t: t.nn.Linear(1024, 1024),
    "dropout(1e6)": lambda t: t.nn.functional.dropout(t.ones(1_000_000), 0.5),
    "exponential_(1e5)": lambda t: t.empty(100_000).exponential_(),
    "poisson(1e4)": lambda t: t.poisson(t.full((10_000,), 4.0)),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--cpu-time", action="store_true", help=CPU_TIME_HELP)
    args = parser.parse_args()
    libs = libraries()
    cases = {
        (case, name): (lambda fn=fn, lib=lib: fn(lib))
        for case, fn in CASES.items()
        for name, lib in libs.items()
    }
    best = best_of_interleaved(cases, args.repeat, clock_for(args.cpu_time))
    print(f"{'case':24s} {'numtorch ms':>12s} {'torch ms':>10s} {'ratio':>7s}")
    for case in CASES:
        ours = best[(case, "numtorch")] * 1e3
        theirs = best.get((case, "torch"))
        if theirs is None:
            print(f"{case:24s} {ours:12.2f}")
        else:
            print(f"{case:24s} {ours:12.2f} {theirs * 1e3:10.2f} {ours / (theirs * 1e3):7.1f}")


if __name__ == "__main__":
    main()

"""Anomaly mode's cost: forward+backward on the bench/overhead.py chain with it off, on, and
on with the forward NaN/Inf check; torch's on/off ratio too when it is installed.

With anomaly mode on, every recorded op stores its forward stack as text and every backward
node's outputs are checked for NaN. Runs are interleaved; the best of each is kept.

Run: python bench/anomaly_overhead.py [--ops N] [--repeat R]
"""

from __future__ import annotations

import argparse
import warnings

from _timing import best_of_interleaved, libraries
from overhead import chain

import numtorch


def _step(lib, x, w, n_ops, mode):
    if mode == "off":
        chain(x, w, n_ops).backward()
        return
    kwargs = {"check_forward": True} if mode == "on+forward" else {}
    with lib.autograd.detect_anomaly(**kwargs):
        chain(x, w, n_ops).backward()


def measure(n_ops: int = 400, repeat: int = 20) -> dict:
    cases = {}
    for name, lib in libraries().items():
        x = lib.ones(16, requires_grad=True)
        w = lib.full((16,), 0.5, requires_grad=True)
        modes = ("off", "on", "on+forward") if lib is numtorch else ("off", "on")
        for mode in modes:
            cases[f"{name} anomaly {mode}"] = lambda lib=lib, x=x, w=w, mode=mode: _step(
                lib, x, w, n_ops, mode
            )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        best = best_of_interleaved(cases, repeat)
    return {name: t / (n_ops + 1) * 1e6 for name, t in best.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ops", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    rows = measure(args.ops, args.repeat)
    for name, value in rows.items():
        print(f"{name + ' (µs/op)':40s} {value:8.2f}")
    for lib in ("numtorch", "torch"):
        if f"{lib} anomaly on" in rows:
            ratio = rows[f"{lib} anomaly on"] / rows[f"{lib} anomaly off"]
            print(f"{lib + ' on / off':40s} {ratio:8.2f}x")
    ratio = rows["numtorch anomaly on+forward"] / rows["numtorch anomaly off"]
    print(f"{'numtorch on+forward / off':40s} {ratio:8.2f}x")


if __name__ == "__main__":
    main()

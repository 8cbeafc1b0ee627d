"""Profiler cost: the op chain of ``overhead.py`` with the profiler off and on.

Off: the chain timed with this tree against the same chain with a tree that has no
profiler code (``--baseline-rev``, by default the commit this branch started from, taken
with ``git archive``). Each side runs in its own processes, alternated round by round,
and the best time of each is kept, so a machine whose speed drifts still compares fairly.

On: in one process, interleaved runs with no profiler, with ``profile()``, and with
``profile(record_shapes=True, profile_memory=True, with_stack=True)``; the slowdown is
the wall time ratio (what the user waits), not the times the profiler reports.

Run: python bench/profiler_overhead.py [--ops N] [--repeat R] [--rounds K]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CHILD = """
import gc, json, sys, time
sys.path.insert(0, {bench!r})
import numtorch
from overhead import chain
x = numtorch.ones(16, requires_grad=True)
w = numtorch.full((16,), 0.5, requires_grad=True)
def grad_step():
    chain(x, w, {ops}).backward()
def no_grad_step():
    with numtorch.no_grad():
        chain(x, w, {ops})
best = {{"fwd+bwd": float("inf"), "no_grad fwd": float("inf")}}
for _ in range({repeat}):
    for name, fn in (("fwd+bwd", grad_step), ("no_grad fwd", no_grad_step)):
        gc.collect()
        gc.disable()  # a collection landing in one side's run is noise, not overhead
        start = time.perf_counter()
        fn()
        best[name] = min(best[name], time.perf_counter() - start)
        gc.enable()
print(json.dumps(best))
"""


def _git(*args) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()


def export_baseline(rev: str, into: str) -> str:
    """The ``src`` folder of ``rev``, unpacked into ``into``."""
    archive = os.path.join(into, "src.tar")
    with open(archive, "wb") as f:
        subprocess.run(["git", "archive", rev, "src"], cwd=ROOT, check=True, stdout=f)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return os.path.join(into, "src")


def time_in_child(src: str, ops: int, repeat: int) -> dict:
    code = CHILD.format(bench=HERE, ops=ops, repeat=repeat)
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out)


def profiler_off(rev: str, ops: int, repeat: int, rounds: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        sides = {"baseline": export_baseline(rev, tmp), "this tree": os.path.join(ROOT, "src")}
        best: dict = {}
        for _ in range(rounds):
            for side, src in sides.items():
                for case, seconds in time_in_child(src, ops, repeat).items():
                    key = (side, case)
                    best[key] = min(best.get(key, float("inf")), seconds)
    return best


def profiler_on(ops: int, repeat: int) -> dict:
    sys.path.insert(0, HERE)
    from overhead import chain

    import numtorch
    from numtorch.autograd.profiler import profile

    x = numtorch.ones(16, requires_grad=True)
    w = numtorch.full((16,), 0.5, requires_grad=True)

    def step():
        chain(x, w, ops).backward()

    def run(options):
        if options is None:
            step()
        else:
            with profile(**options):
                step()

    cases = {
        "off": None,
        "profile()": {},
        "profile(shapes, memory, stack)": dict(
            record_shapes=True, profile_memory=True, with_stack=True
        ),
    }
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(repeat):
        for name, options in cases.items():
            start = time.perf_counter()
            run(options)
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ops", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--baseline-rev", default=None, help="default: merge-base with main")
    args = parser.parse_args()
    rev = args.baseline_rev or _git("merge-base", "HEAD", "main")
    per_op = 1e6 / (args.ops + 1)

    off = profiler_off(rev, args.ops, args.repeat, args.rounds)
    print(f"profiler off: this tree vs {rev[:10]} (best of {args.rounds} x {args.repeat})")
    for case in ("fwd+bwd", "no_grad fwd"):
        base, mine = off[("baseline", case)], off[("this tree", case)]
        print(
            f"  {case:12s} baseline {base * per_op:6.2f} µs/op   this tree "
            f"{mine * per_op:6.2f} µs/op   overhead {100 * (mine / base - 1):+5.1f}%"
        )
    on = profiler_on(args.ops, args.repeat)
    print("profiler on: fwd+bwd wall time")
    for name, seconds in on.items():
        ratio = seconds / on["off"]
        print(f"  {name:32s} {seconds * per_op:6.2f} µs/op   x{ratio:5.2f}")


if __name__ == "__main__":
    main()

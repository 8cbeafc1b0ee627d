"""Python opcodes and calls per op of the 600-op chain of ``core_overhead.py``, forward and
backward: deterministic where timings on a shared machine are not (``sys.settrace`` with
per-opcode events; the trace slows the run, the counts do not change).

Run: python bench/opcode_counts.py [--ops N] [--top K]
(``--top`` lists the K functions that run the most opcodes in each phase.)
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from core_overhead import chain, operands

import numtorch


def count(fn):
    """Opcodes and calls per function (``name:file``) while ``fn()`` runs, and its result."""
    opcodes, calls = Counter(), Counter()

    def where(frame):
        code = frame.f_code
        return f"{code.co_name}:{code.co_filename.rsplit('/', 1)[-1]}"

    def tracer(frame, event, arg):
        if event == "call":
            frame.f_trace_opcodes = True
            calls[where(frame)] += 1
        elif event == "opcode":
            opcodes[where(frame)] += 1
        return tracer

    sys.settrace(tracer)
    try:
        result = fn()
    finally:
        sys.settrace(None)
    return opcodes, calls, result


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ops", type=int, default=600)
    parser.add_argument("--top", type=int, default=0)
    args = parser.parse_args()
    n = args.ops
    x, w, b = operands(numtorch)
    chain(x, w, b, 12).sum().backward()  # compile the runners and array formulas first
    x, w, b = operands(numtorch)
    phases = {}
    phases["forward (per op)"] = count(lambda: chain(x, w, b, n).sum())
    root = phases["forward (per op)"][2]
    phases["backward (per node)"] = count(root.backward)
    for phase, (opcodes, calls, _) in phases.items():
        total, frames = sum(opcodes.values()) / n, sum(calls.values()) / n
        print(f"{phase:22s} {total:7.1f} opcodes in {frames:5.2f} Python calls")
        for name, k in opcodes.most_common(args.top):
            print(f"    {name:48s} {k / n:7.1f} opcodes {calls[name] / n:6.2f} calls")


if __name__ == "__main__":
    main()

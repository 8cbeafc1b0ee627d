"""Run torch's documentation examples under torch and numtorch and print a classified summary.

``PYTHONPATH=src:tests python -m doc_examples [--out FILE] [--only PREFIX] [--subset K/N]``
writes one JSON line per example that differs (or is skipped) to FILE (default
doc-examples.jsonl).
"""

from __future__ import annotations

import argparse
import collections
import json
import time

import torch

import numtorch
from doc_examples.compare import compare
from doc_examples.extract import examples
from doc_examples.known import KNOWN, UNINITIALISED


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m doc_examples")
    parser.add_argument("--out", default="doc-examples.jsonl")
    parser.add_argument("--only", default="", help="run only the ids starting with this")
    parser.add_argument("--verbose", action="store_true", help="print each difference")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # torch's thread pool only contends on a small shared machine
    start = time.perf_counter()
    results = [compare(e, torch, numtorch) for e in examples() if e.id.startswith(args.only)]
    for r in results:
        if r.id in UNINITIALISED and r.kind in ("value", "random"):
            r.kind = "nondeterministic"  # torch printed whatever memory held
    seconds = time.perf_counter() - start
    kinds = collections.Counter(r.kind for r in results)
    ran = len(results) - kinds["skipped"] - kinds["nondeterministic"]
    print(f"{len(results)} examples in {seconds:.0f} s: {ran} run, {kinds['agree']} agree")
    for kind, count in kinds.most_common():
        if kind not in ("agree", "skipped"):
            print(f"  {kind:18} {count}")
    skipped = collections.Counter(r.detail for r in results if r.kind == "skipped")
    print(f"skipped (torch cannot run the first statement): {kinds['skipped']}")
    for reason, count in skipped.most_common():
        print(f"  {count:4}  {reason}")
    missing = collections.Counter(
        r.detail.split(": ", 2)[-1] for r in results if r.kind == "missing name"
    )
    if missing:
        print("missing names:", ", ".join(f"{n} ({c})" for n, c in missing.most_common()))
    stale = sorted(r.id for r in results if r.kind == "agree" and r.id in KNOWN)
    if stale:
        print("listed as known but agree now:", ", ".join(stale))
    with open(args.out, "w") as out:
        for r in results:
            if r.kind != "agree":
                out.write(json.dumps(vars(r)) + "\n")
                if args.verbose and r.kind != "skipped":
                    print(f"{r.id}: {r.kind}: {r.detail}")
    print(f"differences written to {args.out}")


if __name__ == "__main__":
    main()

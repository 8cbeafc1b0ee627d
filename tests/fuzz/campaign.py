"""A fuzzing campaign: many graphs, a classified summary, one reproducer per class and op.

    PYTHONPATH=src:tests python -m fuzz [--graphs N] [--seed S] [--out DIR]
    PYTHONPATH=src:tests python -m fuzz --replay DIR/<file>.json

``FUZZ_GRAPHS`` and ``FUZZ_SEED`` set the defaults. Graph ``i`` of seed ``s`` is
``graphs.program_for(s, i)``, so a reproducer names both and holds the program itself.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import pathlib
import sys
import time

import numtorch

from .compare import differential, first_difference, localize, shrink
from .execute import execute


def run_campaign(torch, seed: int, count: int, out: pathlib.Path | None, start: int = 0):
    """Run graphs ``start..start+count`` of campaign ``seed``; return the failures."""
    from .graphs import program_for

    failures = []
    for index in range(start, start + count):
        program = program_for(seed, index)
        found = differential(numtorch, torch, program)
        if found is None:
            continue
        found = localize(numtorch, torch, program, found)
        failures.append((index, program, found))
        if out is not None:
            _write_reproducer(out, seed, index, program, found)
            with open(out / "failures.txt", "a") as log:
                log.write(f"{index}\t{found.kind}\t{found.op}@{found.label}\t{found.detail}\n")
    return failures


def summary(failures, count) -> str:
    by_kind = collections.Counter(f.kind for _, _, f in failures)
    by_label = collections.defaultdict(collections.Counter)
    for _, _, f in failures:
        by_label[f.kind][f.op if f.op == f.label else f"{f.op}@{f.label}"] += 1
    lines = [f"{count} graphs, {len(failures)} differ ({100 * len(failures) / max(count, 1):.2f}%)"]
    for kind, n in by_kind.most_common():
        ops = ", ".join(f"{label} {k}" for label, k in by_label[kind].most_common(12))
        lines.append(f"  {kind:16} {n:6}   {ops}")
    return "\n".join(lines)


def _write_reproducer(out, seed, index, program, found):
    name = f"{found.kind.replace(' ', '_')}-{found.op}-{found.label}.json".replace("/", "_")
    path = out / name
    if path.exists():
        return
    out.mkdir(parents=True, exist_ok=True)
    import torch

    small = shrink(numtorch, torch, program, found)
    record = {"seed": seed, "index": index, "mismatch": vars(found), "program": small}
    path.write_text(json.dumps(record | {"original": program}, indent=1))


def replay(torch, path):
    data = json.loads(pathlib.Path(path).read_text())
    program = data["program"]
    for step in program["steps"]:
        print(json.dumps(step))
    ours, theirs = execute(numtorch, program), execute(torch, program)
    for a, b in zip(ours, theirs):
        print(f"--- {a.label}")
        for name, record in (("numtorch", a), ("torch", b)):
            if record.error:
                print(f"  {name}: raised {record.error_detail}")
                continue
            for t in record.tensors:
                if t is None:
                    print(f"  {name}: None")
                    continue
                print(
                    f"  {name}: {t['shape']} {t['dtype']} rg={t['requires_grad']} "
                    f"{t['grad_fn']} {t['values'].reshape(-1)[:6]}"
                )
    print("first difference:", first_difference(ours, theirs))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__.split("\n")[0])
    parser.add_argument("--graphs", type=int, default=int(os.environ.get("FUZZ_GRAPHS", 20000)))
    parser.add_argument("--seed", type=int, default=int(os.environ.get("FUZZ_SEED", 0)))
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--out", default=os.environ.get("FUZZ_OUT", "fuzz-out"))
    parser.add_argument("--replay")
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    if args.replay:
        replay(torch, args.replay)
        return 0
    began = time.perf_counter()
    failures = []
    out = pathlib.Path(args.out)
    (out / "failures.txt").unlink(missing_ok=True)
    chunk = 500
    for start in range(args.start, args.start + args.graphs, chunk):
        n = min(chunk, args.start + args.graphs - start)
        failures += run_campaign(torch, args.seed, n, out, start)
        done = start + n - args.start
        print(f"... {done} graphs, {len(failures)} differ, {time.perf_counter() - began:.0f} s")
    print(summary(failures, args.graphs))
    print(f"seed {args.seed}; reproducers in {out}/ (replay: python -m fuzz --replay FILE)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

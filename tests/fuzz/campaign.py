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
import subprocess
import sys
import time

import numtorch

from .compare import Mismatch, differential, first_difference, localize, shrink
from .execute import execute
from .known import is_known


def run_campaign(torch, seed: int, count: int, out: pathlib.Path | None, start: int = 0):
    """Run graphs ``start..start+count`` of campaign ``seed``; return the failures. With
    ``out``, each failure is also appended to ``out/failures.jsonl`` and each finished graph
    to ``out/progress`` (so a parent can resume after a crash)."""
    from .graphs import program_for

    failures = []
    for index in range(start, start + count):
        program = program_for(seed, index)
        found = differential(numtorch, torch, program)
        if found is not None:
            found = localize(numtorch, torch, program, found)
            failures.append((index, program, found))
            if out is not None:
                _write_reproducer(out, seed, index, program, found)
                _append(out / "failures.jsonl", {"index": index, **vars(found)})
        if out is not None:
            _write_progress(out, index)
    return failures


def _write_progress(out, index):
    # written aside and renamed: the supervisor polls this file and must never read it half
    # written (an empty file)
    partial = out / "progress.partial"
    partial.write_text(str(index))
    os.replace(partial, out / "progress")


def _append(path, record):
    with open(path, "a") as log:
        log.write(json.dumps(record) + "\n")


HANG_SECONDS = 120  # one graph takes well under a second: this one is stuck


def _supervise(args, out) -> list:
    """Run the campaign in worker processes: torch itself can crash on some inputs
    (segmentation faults in nn kernels given mismatched shapes), and a graph can hang; such
    a graph is recorded (an oracle crash, a hang) and the campaign goes on after it."""
    began, position, end = time.perf_counter(), args.start, args.start + args.graphs
    while position < end:
        (out / "progress").unlink(missing_ok=True)
        command = [sys.executable, "-m", "fuzz", "--worker", "--seed", str(args.seed)]
        command += ["--start", str(position), "--graphs", str(end - position), "--out", str(out)]
        worker = subprocess.Popen(command)
        progress = out / "progress"
        last, stalled, hung = position - 1, time.perf_counter(), False
        while worker.poll() is None:
            time.sleep(1)
            now = int(progress.read_text()) if progress.exists() else position - 1
            if now != last:
                last, stalled = now, time.perf_counter()
            elif time.perf_counter() - stalled > HANG_SECONDS:
                worker.kill()
                worker.wait()
                hung = True
        last = int(progress.read_text()) if progress.exists() else position - 1
        if hung or worker.returncode != 0:  # the next graph hung, crashed torch or the runner
            kind = "hang" if hung else "oracle crash" if worker.returncode < 0 else "runner crash"
            record = {"index": last + 1, "kind": kind, "label": kind, "op": kind, "detail": ""}
            _append(out / "failures.jsonl", record)
            last += 1
        position = last + 1
        print(f"... {position - args.start} graphs, {time.perf_counter() - began:.0f} s")
    records = [json.loads(line) for line in (out / "failures.jsonl").read_text().splitlines()]
    return [(r["index"], None, Mismatch(r["kind"], r["label"], 0, r["detail"], r["op"]))
            for r in records]  # fmt: skip


def summary(failures, count) -> str:
    by_kind = collections.Counter(f.kind for _, _, f in failures)
    by_label = collections.defaultdict(collections.Counter)
    for _, _, f in failures:
        by_label[f.kind][f.op if f.op == f.label else f"{f.op}@{f.label}"] += 1
    known = collections.Counter(f.kind for _, _, f in failures if is_known(f))
    differ = sum(f.kind != "oracle crash" for _, _, f in failures)  # torch's own failure
    lines = [f"{count} graphs, {differ} differ ({100 * differ / max(count, 1):.2f}%)"]
    lines.append(f"  {'class':16} {'graphs':>6} {'%':>6} {'known':>6}   ops (count)")
    for kind, n in by_kind.most_common():
        ops = ", ".join(f"{label} {k}" for label, k in by_label[kind].most_common(12))
        share = 100 * n / max(count, 1)
        lines.append(f"  {kind:16} {n:6} {share:6.2f} {known[kind]:6}   {ops}")
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


def _seed(text: str) -> int:
    return int.from_bytes(os.urandom(4), "little") if text == "new" else int(text)


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
    parser.add_argument(
        "--seed",
        type=_seed,
        default=_seed(os.environ.get("FUZZ_SEED", "0")),
        help="an integer, or 'new': a seed drawn from the OS, never used before (printed)",
    )
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--out", default=os.environ.get("FUZZ_OUT", "fuzz-out"))
    parser.add_argument("--replay")
    parser.add_argument(
        "--witness",
        nargs=2,
        type=int,
        metavar=("SEED", "INDEX"),
        help="print graph INDEX of campaign SEED as JSON (a known.py entry's witness)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.witness:
        from .graphs import program_for  # (Hypothesis loads with it)

        print(json.dumps(program_for(*args.witness), sort_keys=True))
        return 0
    import torch

    torch.set_num_threads(1)
    if args.replay:
        replay(torch, args.replay)
        return 0
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.worker:
        run_campaign(torch, args.seed, args.graphs, out, args.start)
        return 0
    (out / "failures.jsonl").unlink(missing_ok=True)
    (out / "failures.jsonl").touch()
    print(f"seed {args.seed}, graphs {args.start}..{args.start + args.graphs - 1}", flush=True)
    failures = _supervise(args, out)
    print(summary(failures, args.graphs))
    print(f"seed {args.seed}; reproducers in {out}/ (replay: python -m fuzz --replay FILE)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

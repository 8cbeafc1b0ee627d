"""Start-up cost: ``python -c "import numtorch"`` against ``python -c "import numpy"``.

Each is a fresh interpreter; the two alternate so that load on the machine hits both alike.
Bytecode caching is on (PYTHONDONTWRITEBYTECODE is dropped) and one untimed run of each comes
first, as for an installed package: pip writes NumPy's .pyc files at install, and without them
compiling numtorch's ~120 modules would be most of what is measured.
Prints the best and the median of N runs (default 10), wall and CPU time, and numtorch's
cost over NumPy's.
Usage: ``python bench/import_time.py [runs]``.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def run_once(statement: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one interpreter; CPU time (user + system of the child) is less
    disturbed than wall time when other jobs share the cores."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", statement], check=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    wall: dict[str, list[float]] = {"numpy": [], "numtorch": []}
    cpu: dict[str, list[float]] = {"numpy": [], "numtorch": []}
    for name in wall:
        run_once(f"import {name}")
    for _ in range(runs):
        for name in wall:
            w, c = run_once(f"import {name}")
            wall[name].append(w)
            cpu[name].append(c)
    for label, times in (("wall", wall), ("CPU", cpu)):
        for name, values in times.items():
            print(
                f"{label:<4} import {name:<9} best {min(values):.3f} s   "
                f"median {statistics.median(values):.3f} s"
            )
        extra = min(times["numtorch"]) - min(times["numpy"])
        extra_median = statistics.median(times["numtorch"]) - statistics.median(times["numpy"])
        print(
            f"{label:<4} numtorch over numpy: best {extra:+.3f} s   median {extra_median:+.3f} s"
            f"   ({runs} runs each)"
        )


if __name__ == "__main__":
    main()

"""Start-up cost: ``python -c "import numtorch"`` against ``python -c "import numpy"``.

Each is a fresh interpreter; the two alternate so that load on the machine hits both alike.
Bytecode caching is on (PYTHONDONTWRITEBYTECODE is dropped) and one untimed run of each comes
first, as for an installed package: pip writes NumPy's .pyc files at install, and without them
compiling numtorch's ~120 modules would be most of what is measured.
Prints the best and the median of N runs (default 10) and numtorch's cost over NumPy's.
Usage: ``python bench/import_time.py [runs]``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def run_once(statement: str) -> float:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", statement], check=True, env=env)
    return time.perf_counter() - start


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    times: dict[str, list[float]] = {"numpy": [], "numtorch": []}
    for name in times:
        run_once(f"import {name}")
    for _ in range(runs):
        for name in times:
            times[name].append(run_once(f"import {name}"))
    for name, values in times.items():
        print(
            f"import {name:<9} best {min(values):.3f} s   median {statistics.median(values):.3f} s"
        )
    print(
        f"numtorch over numpy: best {min(times['numtorch']) - min(times['numpy']):+.3f} s   "
        f"median {statistics.median(times['numtorch']) - statistics.median(times['numpy']):+.3f} s"
        f"   ({runs} runs each)"
    )


if __name__ == "__main__":
    main()

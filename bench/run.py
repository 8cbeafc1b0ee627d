"""Run every benchmark in this folder in turn (each prints its own numbers and, when torch
is installed, its ratios against torch).

Run: python bench/run.py [name ...]   e.g. python bench/run.py overhead nn_steps
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).parent


def main(names: list[str]) -> int:
    scripts = sorted(p for p in HERE.glob("*.py") if not p.name.startswith("_"))
    scripts = [p for p in scripts if p.name != "run.py" and (not names or p.stem in names)]
    failed = []
    for script in scripts:
        print(f"\n=== {script.stem} ===", flush=True)
        if subprocess.run([sys.executable, str(script)], cwd=HERE).returncode:
            failed.append(script.stem)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

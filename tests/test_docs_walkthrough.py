"""The walkthrough in docs/adding-an-op.md runs as written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"


def python_blocks(path: Path) -> str:
    return "\n".join(re.findall(r"```python\n(.*?)```", path.read_text(), re.S))


def test_adding_an_op_walkthrough_runs():
    code = python_blocks(DOCS / "adding-an-op.md")
    assert "@defop" in code and "OpInfo" in code
    # A fresh interpreter: the walkthrough registers an op, which must not leak into the
    # registry the other tests iterate.
    done = subprocess.run(
        [sys.executable, "-c", code + "\nprint('walkthrough ok')"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "walkthrough ok" in done.stdout

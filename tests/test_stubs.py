"""The generated type stubs: up to date with the op registry, and enough for a type checker to
give real types to a user's script (tests/typing/user_script.py)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from numtorch import _stubgen

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "typing" / "user_script.py"


def test_stubs_match_the_registry():
    assert _stubgen.main(["--check"]) == 0, "stubs are stale: run `make stubs`"


def test_registry_methods_and_functions_are_in_the_stubs():
    tensor_stub = (_stubgen.PACKAGE / "_core" / "tensor.pyi").read_text()
    init_stub = (_stubgen.PACKAGE / "__init__.pyi").read_text()
    assert "    def exp(self) -> Tensor: ..." in tensor_stub
    assert "    def __add__(self, other) -> Tensor: ..." in tensor_stub
    assert "def exp(input) -> Tensor: ..." in init_stub
    assert "def sum(input, dim=..., keepdim=..., *, dtype=...) -> Tensor: ..." in init_stub


def mypy(path: Path, cache: Path) -> subprocess.CompletedProcess:
    pytest.importorskip("mypy")
    env = dict(os.environ, MYPYPATH=str(ROOT / "src"))
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--cache-dir", str(cache)]
        # 3.11: the user script imports typing.reveal_type (checked, never run)
        + ["--python-version", "3.11", str(path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=path.parent,
    )


@pytest.mark.slow
def test_type_checker_accepts_user_code_and_reveals_real_types(tmp_path):
    result = mypy(SCRIPT, tmp_path / "cache")
    assert result.returncode == 0, result.stdout + result.stderr
    revealed = re.findall(r'Revealed type is "([^"]+)"', result.stdout)
    assert revealed == ["numtorch._core.tensor.Tensor"] * 6 + [
        "numtorch._core.tensor.Tensor | None",
        "numtorch._core.tensor.Size",
    ]


@pytest.mark.slow
def test_type_checker_rejects_misuse(tmp_path):
    # real types make mistakes visible: an unknown method, too many arguments
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import numtorch as torch\nx = torch.randn(3)\nx.no_such_method()\ntorch.exp(x, x, x)\n"
    )
    result = mypy(bad, tmp_path / "cache")
    assert result.returncode == 1
    assert '"Tensor" has no attribute "no_such_method"' in result.stdout
    assert 'Too many arguments for "exp"' in result.stdout

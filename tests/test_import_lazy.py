"""A bare ``import numtorch`` loads the core and the op registry only (Note [Lazy submodules]
in numtorch/__init__.py); the lazy parts appear on first use and change nothing registered."""

import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")

# modules a bare import must not load: the layers, optimizers, transforms, multi-process
# training, the profiler, checkpoints and data loading
HEAVY = [
    "numtorch.nn.modules",
    "numtorch.nn.parallel",
    "numtorch.optim",
    "numtorch.func",
    "numtorch.distributed",
    "numtorch.profiler",
    "numtorch.serialization",
    "numtorch.testing",
    "numtorch.utils.data",
    "numtorch.utils.checkpoint",
]


def run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": SRC, "PATH": ""},
    )
    return result.stdout


def test_bare_import_leaves_heavy_modules_unloaded():
    out = run(f"import sys, numtorch; print([m for m in {HEAVY!r} if m in sys.modules])")
    assert out.strip() == "[]"


def test_lazy_names_resolve_to_the_real_objects():
    out = run(
        "import numtorch as torch\n"
        "from numtorch import nn\n"
        "import numtorch.optim, numtorch.func, numtorch.serialization\n"
        "print(torch.nn is nn, nn.Linear is nn.modules.Linear,\n"
        "      nn.Parameter is nn.parameter.Parameter, torch.optim is numtorch.optim,\n"
        "      torch.vmap is numtorch.func.vmap, torch.save is numtorch.serialization.save,\n"
        "      torch.load is numtorch.serialization.load, torch.linalg.svd is not None,\n"
        "      'Linear' in dir(nn), 'optim' in dir(torch), 'Linear' in nn.__all__)\n"
    )
    assert out.split() == ["True"] * 11


def test_unknown_names_still_raise_attribute_error():
    out = run(
        "import numtorch as torch\n"
        "for owner, name in ((torch, 'no_such_thing'), (torch.nn, 'NoSuchLayer')):\n"
        "    try:\n"
        "        getattr(owner, name)\n"
        "    except AttributeError as e:\n"
        "        print(type(e).__name__)\n"
    )
    assert out.split() == ["AttributeError", "AttributeError"]


def test_loading_the_lazy_parts_registers_nothing_new():
    # ops and Tensor methods must all exist after a bare import: nothing may depend on
    # which lazy module happened to load first
    out = run(
        "import numtorch as torch\n"
        "from numtorch.ops import FUNCTIONS\n"
        "before = (set(FUNCTIONS), set(dir(torch.Tensor)))\n"
        f"import importlib\nfor m in {HEAVY!r}: importlib.import_module(m)\n"
        "import numtorch.models\n"
        "after = (set(FUNCTIONS), set(dir(torch.Tensor)))\n"
        "print(sorted(after[0] - before[0]), sorted(after[1] - before[1]))\n"
    )
    assert out.strip() == "[] []"

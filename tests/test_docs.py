"""The documentation site (docs/, mkdocs.yml): its examples run, its op catalogue is current,
and it builds with no warnings."""

import doctest
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from numtorch.testing import catalogue

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if p.name != "ops.md")
GUIDES = sorted((DOCS / "guides").glob("*.md"))
# the guides describe torch's behaviour, except those marked as about numtorch's own
TORCH_GUIDES = [p for p in GUIDES if "<!-- numtorch only" not in p.read_text()]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_examples_run(page):
    result = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.failed == 0, f"{result.failed} failing example(s) in {page.name}"


def as_torch_code(text: str) -> str:
    """A page's examples with torch in numtorch's place."""
    text = text.replace("import numtorch as torch", "import torch")
    return text.replace("from numtorch", "from torch").replace("numtorch.", "torch.")


@pytest.mark.parity
@pytest.mark.parametrize("page", TORCH_GUIDES, ids=[p.name for p in TORCH_GUIDES])
def test_guide_examples_give_torch_output(page):
    # run by real torch, a guide's examples print what they print under numtorch
    pytest.importorskip("torch")
    text = as_torch_code(page.read_text())
    test = doctest.DocTestParser().get_doctest(text, {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS, verbose=False)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example(s) of {page.name} differ under torch"


def test_every_guide_has_examples():
    assert len(GUIDES) >= 8
    for page in GUIDES:
        assert doctest.DocTestParser().get_examples(page.read_text()), page.name


def load_generator():
    spec = importlib.util.spec_from_file_location("generated", DOCS / "_generated.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_parts_of_differences_page():
    generated = load_generator()
    page = generated.fill((DOCS / "differences.md").read_text())
    assert "<!-- generated:" not in page
    assert "| `torch.bfloat16` | 2 | floating point | `bfloat16` |" in page
    for cases in generated.known_differences().values():
        for _, op in cases:
            assert f"`{op}` (" in page


def test_getting_started_has_examples():
    result = doctest.testfile(str(DOCS / "getting-started.md"), module_relative=False)
    assert result.attempted >= 20


def test_op_catalogue_is_current():
    assert (DOCS / "ops.md").read_text() == catalogue.markdown(), (
        "docs/ops.md is stale: run `make docs`"
    )


def test_catalogue_rows_come_from_the_registry():
    rows = {r[0]: r for r in catalogue.rows()}
    assert rows["`exp`"][1] == "`ExpBackward0`"
    assert "gradcheck" in rows["`exp`"][3]


@pytest.mark.slow
def test_site_builds_without_warnings(tmp_path):
    pytest.importorskip("mkdocstrings")
    if shutil.which("mkdocs", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("mkdocs is not installed")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": str(Path(sys.executable).parent)},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (
        "Base class for all neural network modules"
        in (tmp_path / "site" / "api" / "index.html").read_text()
    )

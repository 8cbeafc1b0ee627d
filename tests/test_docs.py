"""The documentation site (docs/, mkdocs.yml): its examples run, its op catalogue is current,
and it builds with no warnings."""

import doctest
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from numtorch.testing import catalogue

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.glob("*.md") if p.name != "ops.md")


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_examples_run(page):
    result = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert result.failed == 0, f"{result.failed} failing example(s) in {page.name}"


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

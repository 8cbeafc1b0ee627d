"""The layers of docs/architecture.md hold: the contracts in pyproject.toml
([tool.importlinter]), checked by import-linter on the source (nothing is imported)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept(monkeypatch):
    cli = pytest.importorskip("importlinter.cli")
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(ROOT / "src"))
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
    )
    assert cli.lint_imports(config_filename=str(ROOT / "pyproject.toml")) == cli.EXIT_STATUS_SUCCESS

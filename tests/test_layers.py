"""The layers of docs/architecture.md hold: the contracts in pyproject.toml
([tool.importlinter]), checked by import-linter on the source (nothing is imported)."""

from __future__ import annotations

import ast
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


CORE = ROOT / "src" / "numtorch" / "_core"


def _core_modules():
    for path in sorted(CORE.glob("*.py")):
        yield path.name, ast.parse(path.read_text())


def test_core_imports_only_at_module_level():
    nested = []
    for name, tree in _core_modules():
        top = set(map(id, tree.body))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in top:
                nested.append(f"{name}:{node.lineno}")
    assert nested == [], f"function-level imports in numtorch/_core: {nested}"


def test_core_sets_no_globals_in_other_modules():
    # ``graph.Tensor = Tensor``-style wiring hides a dependency from the import graph
    injected = []
    for name, tree in _core_modules():
        modules = set()
        for node in tree.body:
            if (
                isinstance(node, ast.ImportFrom)
                and node.module is None
                or isinstance(node, ast.Import)
            ):
                modules.update(a.asname or a.name for a in node.names)
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            for t in targets:
                if isinstance(t, ast.Attribute) and getattr(t.value, "id", None) in modules:
                    injected.append(f"{name}:{node.lineno}")
    assert injected == [], f"module attributes set from numtorch/_core: {injected}"

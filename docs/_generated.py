"""MkDocs hook (mkdocs.yml ``hooks:``): writes the generated parts of the pages at build
time, so they follow the code without a file to regenerate.

A page marks each part with ``<!-- generated: NAME -->``; NAME picks a function below.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from numtorch._core import dtypes as _dtypes

ROOT = Path(__file__).resolve().parents[1]


def dtypes() -> str:
    """numtorch's dtypes with their storage."""
    lines = ["| dtype | bytes | kind | stored as NumPy's |", "|---|---|---|---|"]
    for dtype in _dtypes.ALL_DTYPES:
        kind = (
            "complex"
            if dtype.is_complex
            else "floating point"
            if dtype.is_floating_point
            else "bool"
            if dtype.name == "bool"
            else "signed integer"
            if dtype.is_signed
            else "unsigned integer"
        )
        lines.append(f"| `{dtype}` | {dtype.itemsize} | {kind} | `{dtype.np.name}` |")
    return "\n".join(lines)


def known_differences() -> dict[str, list[tuple[str, str]]]:
    """The fuzzer's known differences: reason -> [(class, op)]."""
    spec = importlib.util.spec_from_file_location("known", ROOT / "tests" / "fuzz" / "known.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    grouped: dict[str, list[tuple[str, str]]] = {}
    for (kind, op), reason in module.KNOWN.items():
        grouped.setdefault(reason, []).append((kind, op))
    return grouped


def fuzz_known() -> str:
    grouped = known_differences()
    if not grouped:
        return "None: every difference the fuzzer has found is fixed."
    lines = []
    for reason, cases in sorted(grouped.items(), key=lambda item: -len(item[1])):
        ops = ", ".join(f"`{op}` ({kind})" for kind, op in sorted(cases, key=lambda c: c[1]))
        lines.append(f"- {ops}: {reason}.")
    return "\n".join(lines)


PARTS = {"dtypes": dtypes, "fuzz-known": fuzz_known}


def fill(markdown: str) -> str:
    for name, make in PARTS.items():
        markdown = markdown.replace(f"<!-- generated: {name} -->", make())
    return markdown


def on_page_markdown(markdown: str, **kwargs) -> str:
    return fill(markdown)

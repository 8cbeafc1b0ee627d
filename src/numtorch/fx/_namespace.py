"""Unique Python names for a graph's nodes and its generated code's globals, as torch picks them
(``add``, ``add_1``; ``sum_1`` and ``getattr_1`` since a name never shadows a builtin)."""

from __future__ import annotations

import builtins
import keyword
import math
import re

import numtorch

_illegal_char = re.compile("[^0-9a-zA-Z_]+")
_name_with_suffix = re.compile(r"^([a-zA-Z_][0-9a-zA-Z_]*?)(?:_(\d+))?$")
_snake_case_sub = re.compile(r"(?<=[a-z])([A-Z])")

# the globals every generated forward has: names a node may take only if it is that object
CUSTOM_BUILTINS: dict[str, object] = {
    "inf": math.inf,
    "nan": math.nan,
    "NoneType": type(None),
    "torch": numtorch,
    "device": numtorch.device,
}
_illegal_names: dict[str, object] = {k: object() for k in keyword.kwlist}
_illegal_names.update(builtins.__dict__)
_illegal_names.update(CUSTOM_BUILTINS)


def snake_case(s: str) -> str:
    """``pascalCase`` -> ``pascal_case``, ``ALL_CAPS`` -> ``all_caps``."""
    return _snake_case_sub.sub(r"_\1", s).lower()


class Namespace:
    """Gives each object one name, unique in the namespace, shadowing no other builtin."""

    def __init__(self) -> None:
        self._obj_to_name: dict[object, str] = {}
        self._used_names: set[str] = set()
        self._base_count: dict[str, int] = {}

    def create_name(self, candidate: str, obj: object | None) -> str:
        if obj is not None and obj in self._obj_to_name:
            return self._obj_to_name[obj]
        match = _name_with_suffix.match(candidate)
        if match is None:
            candidate = _illegal_char.sub("_", candidate) or "_unnamed"
            if candidate[0].isdigit():
                candidate = f"_{candidate}"
            match = _name_with_suffix.match(candidate)
        base, num = match.group(1, 2)
        if num is None or candidate in self._used_names:
            num = self._base_count.get(base, 0)
            if _illegal_names.get(candidate, obj) is not obj:
                num += 1
                candidate = f"{base}_{num}"
        else:
            num = int(num)
        while candidate in self._used_names:
            num += 1
            candidate = f"{base}_{num}"
        self._used_names.add(candidate)
        self._base_count[base] = num
        if obj is not None:
            self._obj_to_name[obj] = candidate
        return candidate

    def associate_name_with_obj(self, name: str, obj: object) -> None:
        existing = self._obj_to_name.setdefault(obj, name)
        if existing is not name:
            raise AssertionError("obj is already associated")

"""How numtorch's public objects are named in torch: ``numtorch.relu`` prints as ``torch.relu``.

FX prints a graph's targets and generates code by qualified name. numtorch's functions live
in private modules (``numtorch._core.op``), so their names come from where they are
published instead: the first of torch's namespaces below that holds the object, except for
``torch.nn.functional``'s functions, named as torch's tracer records them
(``torch._C._nn.gelu``: _functional_calls.py).
"""

from __future__ import annotations

import builtins
import importlib
import types

from ._functional_calls import FUNCTIONAL_CALLS

# (numtorch module, torch's name for it), searched in order
_NAMESPACES = (
    ("numtorch", "torch"),
    ("numtorch.nn.functional", "torch.nn.functional"),
    ("numtorch.linalg", "torch.linalg"),
    ("numtorch.special", "torch.special"),
    ("numtorch.fft", "torch.fft"),
    ("numtorch.nn", "torch.nn"),
)

_names: dict[int, tuple[object, str]] = {}


def _index() -> dict[int, tuple[object, str]]:
    if not _names:
        functional = importlib.import_module("numtorch.nn.functional")
        for name, entry in FUNCTIONAL_CALLS.items():
            recorded = entry if isinstance(entry, str) else entry[0]
            fn = getattr(functional, name, None)
            if fn is not None and not recorded.startswith("."):
                # torch.nn.functional's C functions print as torch._C._nn.gelu, torch.conv2d
                _names[id(fn)] = (fn, recorded)
        for module_name, torch_name in _NAMESPACES:
            module = importlib.import_module(module_name)
            for name, value in vars(module).items():
                if name.startswith("__") or not callable(value):
                    continue
                if name.startswith("_") and name != "_assert":
                    continue
                _names.setdefault(id(value), (value, f"{torch_name}.{name}"))
    return _names


def torch_name(obj: object) -> str | None:
    """torch's qualified name of a numtorch function or class, or None."""
    entry = _index().get(id(obj))
    return entry[1] if entry is not None and entry[0] is obj else None


def qualified_name(func) -> str:
    """The name FX prints for a call target: ``getattr``, ``torch.relu``, ``__main__.f``."""
    name = getattr(func, "__name__", None)
    if name is not None and getattr(builtins, name, None) is func:
        return name
    known = torch_name(func)
    if known is not None:
        return known
    if name == "<lambda>":
        raise RuntimeError("Unable to represent lambda")
    module = getattr(func, "__module__", None)
    if module is None:
        raise RuntimeError(f"cannot find module for {func}")
    if module.startswith("numtorch"):
        module = "torch" + module[len("numtorch") :]
    return f"{module}.{name}"


def type_repr(obj) -> str:
    """A type annotation as FX prints it (``torch.Tensor``, ``int``)."""
    if isinstance(obj, type):
        known = torch_name(obj)
        if known is not None:
            return known
        if obj.__module__ == "builtins":
            return obj.__qualname__
        return f"{obj.__module__}.{obj.__qualname__}"
    if obj is ...:
        return "..."
    if isinstance(obj, types.FunctionType):
        return obj.__name__
    return repr(obj)


def is_from_torch(obj) -> bool:
    """Whether generated code names ``obj`` by its torch path rather than a global of its own."""
    if torch_name(obj) is not None:
        return True
    module = getattr(obj, "__module__", None) or ""
    return module == "numtorch.fx" or module.startswith("numtorch.fx.")

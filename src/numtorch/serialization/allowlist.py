"""torch's allowlist API for checkpoint loading: what a pickle may name beyond plain data.

``add_safe_globals``/``safe_globals`` (a context manager)/``get_safe_globals``/
``clear_safe_globals`` behave as torch's: entries are classes or functions, or
``(obj, "module.Name")`` pairs naming them as the file does. numtorch's own ``nn`` module
classes (and torch's of the same name) are allowed without asking. How an allowed class
is rebuilt is in Note [What a torch checkpoint may run] (unpickler.py). Callables that turn
a pickle into arbitrary code are refused outright, even though torch would take them.
"""

from __future__ import annotations

import argparse

_DANGEROUS_MODULES = {"os", "posix", "nt", "subprocess", "pty", "runpy", "importlib", "shutil"}
_DANGEROUS_MODULES |= {"socket", "sys", "ctypes", "code", "codeop", "multiprocessing"}
_DANGEROUS_BUILTINS = {"eval", "exec", "compile", "__import__", "open", "getattr", "setattr"}
_DANGEROUS_BUILTINS |= {"delattr", "breakpoint", "input", "globals", "vars", "locals"}
_DANGEROUS_QUALIFIED = {"pickle.loads", "pickle.load", "pickle.Unpickler", "_pickle.loads"}
_DANGEROUS_QUALIFIED |= {"_pickle.load", "_pickle.Unpickler", "marshal.loads", "marshal.load"}

_safe_globals: set = set()


def _qualified_name(entry) -> str:
    if isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], str):
        return entry[1]
    module = getattr(entry, "__module__", None) or "<unknown>"
    return f"{module}.{getattr(entry, '__qualname__', repr(entry))}"


def _is_dangerous(name: str) -> bool:
    module, _, attr = name.rpartition(".")
    top = module.split(".")[0]
    return (
        top in _DANGEROUS_MODULES
        or (module == "builtins" and attr in _DANGEROUS_BUILTINS)
        or name in _DANGEROUS_QUALIFIED
    )


def _check(safe_globals) -> None:
    if not isinstance(safe_globals, (list, tuple, set)):
        raise TypeError(f"safe_globals must be a list, got {type(safe_globals).__name__}")
    dangerous = [name for name in map(_qualified_name, safe_globals) if _is_dangerous(name)]
    if dangerous:
        raise ValueError(
            f"refusing to allowlist {', '.join(dangerous)}: it lets a pickle run arbitrary code"
        )


def add_safe_globals(safe_globals: list) -> None:
    """Allow ``load`` to rebuild these classes (from their state) and call these functions.

    Example:
        >>> import numtorch as torch
        >>> torch.serialization.add_safe_globals([eval])
        Traceback (most recent call last):
        ...
        ValueError: refusing to allowlist builtins.eval: it lets a pickle run arbitrary code
    """
    global _safe_globals
    _check(safe_globals)
    _safe_globals = _safe_globals | set(safe_globals)


def get_safe_globals() -> list:
    """The entries given to ``add_safe_globals`` (and active ``safe_globals`` blocks)."""
    return list(_safe_globals)


def clear_safe_globals() -> None:
    global _safe_globals
    _safe_globals = set()


class safe_globals:  # torch's name
    """Allow globals for the ``with`` block only, as ``torch.serialization.safe_globals``."""

    def __init__(self, safe_globals: list) -> None:
        _check(safe_globals)
        self.safe_globals = safe_globals

    def __enter__(self):
        global _safe_globals
        _safe_globals = _safe_globals | set(self.safe_globals)

    def __exit__(self, *_):
        global _safe_globals
        _safe_globals = _safe_globals - set(self.safe_globals)


def user_globals() -> dict[str, object]:
    """The allow-listed objects by the path a pickle names them with."""
    out = {}
    for entry in _safe_globals:
        obj = entry[0] if isinstance(entry, tuple) else entry
        path = _qualified_name(entry)
        out[path] = obj
        if path.startswith("numtorch."):  # a file torch wrote names torch's class
            out[path.removeprefix("num")] = obj
    return out


_NN_CLASSES: dict[str, type] | None = None


# standard-library classes whose instances are nothing but their __dict__: the settings a
# training script saves beside its weights (``torch.save({"args": args, ...})``)
_PLAIN_CLASSES = {"argparse.Namespace": argparse.Namespace}


def builtin_class(path: str) -> type | None:
    """numtorch's nn class a pickle names, by numtorch's path or by torch's, or a argparse's
    Namespace."""
    global _NN_CLASSES
    if path in _PLAIN_CLASSES:
        return _PLAIN_CLASSES[path]
    if _NN_CLASSES is None:
        from .. import nn  # nn imports this package: resolve late

        _NN_CLASSES = {}
        for name in dir(nn):
            cls = getattr(nn, name)
            if isinstance(cls, type) and issubclass(cls, nn.Module):
                _NN_CLASSES[f"{cls.__module__}.{cls.__qualname__}"] = cls
                _NN_CLASSES[f"torch.nn.modules.{_torch_file(cls)}.{cls.__qualname__}"] = cls
    return _NN_CLASSES.get(path)


def _torch_file(cls: type) -> str:
    # numtorch's nn/modules mirrors torch's file names; other homes keep the last part
    return cls.__module__.rpartition(".")[2]

"""torch's unpickler allowlist API, for scripts that call it: numtorch never unpickles.

``add_safe_globals`` records what it is given (so ``get_safe_globals`` answers as in
torch) and warns that it changes nothing; it refuses outright the callables that turn a
pickle into arbitrary code, which torch lets a user allowlist (pytorch/pytorch#189445).
"""

from __future__ import annotations

import warnings

_DANGEROUS_MODULES = {"os", "posix", "nt", "subprocess", "pty", "runpy", "importlib", "shutil"}
_DANGEROUS_MODULES |= {"socket", "sys", "ctypes", "code", "codeop", "multiprocessing"}
_DANGEROUS_BUILTINS = {"eval", "exec", "compile", "__import__", "open", "getattr", "setattr"}
_DANGEROUS_BUILTINS |= {"delattr", "breakpoint", "input", "globals", "vars", "locals"}
_DANGEROUS_QUALIFIED = {"pickle.loads", "pickle.load", "pickle.Unpickler", "_pickle.loads"}
_DANGEROUS_QUALIFIED |= {"_pickle.load", "_pickle.Unpickler", "marshal.loads", "marshal.load"}

_safe_globals: list = []


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


def add_safe_globals(safe_globals: list) -> None:
    """Accepted for torch compatibility; numtorch.load never unpickles, so it has no effect.

    Example:
        >>> import warnings
        >>> import numtorch as torch
        >>> with warnings.catch_warnings(record=True):
        ...     torch.serialization.add_safe_globals([eval])
        Traceback (most recent call last):
        ...
        ValueError: refusing to allowlist builtins.eval: it lets a pickle run arbitrary code
    """
    names = [_qualified_name(entry) for entry in safe_globals]
    dangerous = [name for name in names if _is_dangerous(name)]
    if dangerous:
        raise ValueError(
            f"refusing to allowlist {', '.join(dangerous)}: it lets a pickle run arbitrary code"
        )
    _safe_globals.extend(safe_globals)
    warnings.warn(
        "numtorch.load never unpickles, so add_safe_globals has no effect: it reads "
        "safetensors and .npz checkpoints only",
        UserWarning,
        stacklevel=2,
    )


def get_safe_globals() -> list:
    return list(_safe_globals)


def clear_safe_globals() -> None:
    _safe_globals.clear()

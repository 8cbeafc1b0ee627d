"""An example under torch and under numtorch, and its first difference, classified.

Classes (``Result.kind``): "agree"; "skipped" (torch itself cannot run the example's first
statement); "missing name" (numtorch raises AttributeError/ImportError where torch runs:
``detail`` names what is missing); "numtorch error" (another exception only under numtorch);
"no error" (torch raises, numtorch does not); "exception type"; "value", "shape", "dtype",
"requires_grad", "grad_fn", "type" (a different kind of value), "repr", "printed"; "random"
(a value that differs and that torch itself draws differently under another seed);
"nondeterministic" (torch differs from itself, e.g. uninitialised memory: not compared).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from doc_examples.run import run

_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|nan|-?inf", re.IGNORECASE)
_MISSING = (
    re.compile(r"has no attribute '([^']+)'"),
    re.compile(r"No module named '([^']+)'"),
    re.compile(r"cannot import name '([^']+)'"),
    re.compile(r"name '([^']+)' is not defined"),  # a name of the example's namespace
)


@dataclass
class Result:
    id: str
    kind: str
    detail: str = ""
    statement: int | None = None  # index of the first differing statement
    compared: int = 0  # statements compared


def _first_difference(ours, theirs, where="value"):
    """(class, detail) of the first difference between two summaries, or None."""
    kind, value = theirs
    if ours[0] != kind:
        return "type", f"{where}: {ours[0]} where torch gives {kind}"
    other = ours[1]
    if kind == "tensor":
        for key in ("shape", "dtype", "requires_grad", "grad_fn"):
            if other[key] != value[key]:
                return key, f"{where}: {key} {other[key]} where torch has {value[key]}"
        return _array_difference(other["values"], value["values"], where)
    if kind == "array":
        if other.shape != value.shape or other.dtype != value.dtype:
            return "shape", f"{where}: array {other.shape} {other.dtype}, torch {value.shape}"
        return _array_difference(other, value, where)
    if kind == "number":
        if not np.isclose(other, value, rtol=1e-4, atol=1e-6, equal_nan=True):
            return "value", f"{where}: {other!r} where torch gives {value!r}"
        return None
    if kind == "sequence":
        if len(other) != len(value):
            return "shape", f"{where}: {len(other)} items where torch gives {len(value)}"
        for i, (a, b) in enumerate(zip(other, value)):
            found = _first_difference(a, b, f"{where}[{i}]")
            if found:
                return found
        return None
    if kind == "dict":
        if other.keys() != value.keys():
            return "type", f"{where}: keys {sorted(other)} where torch has {sorted(value)}"
        for key in value:
            found = _first_difference(other[key], value[key], f"{where}[{key!r}]")
            if found:
                return found
        return None
    if kind == "repr":
        return _text_difference(other, value, "repr", where)
    if other != value:
        return (
            "value" if kind in ("exact", "size") else "repr"
        ), f"{where}: {other!r} vs {value!r}"
    return None


def _array_difference(ours, theirs, where):
    if ours is None or theirs is None:
        return None  # a tensor NumPy cannot hold (meta, quantized): shape and dtype only
    if ours.shape != theirs.shape:
        return "shape", f"{where}: values of shape {ours.shape}, torch {theirs.shape}"
    if theirs.dtype.kind in "fc" and _residuals(ours, theirs):
        return None
    if theirs.dtype.kind in "fc":
        # float32 sums of many terms (convolutions) round on the scale of the largest value
        finite = np.abs(theirs[np.isfinite(theirs)])
        scale = max(1.0, float(finite.max())) if finite.size else 1.0
        close = np.allclose(ours, theirs, rtol=1e-4, atol=1e-5 * scale, equal_nan=True)
    else:
        close = np.array_equal(ours, theirs)
    if not close:
        return "value", f"{where}: values differ: {_brief(ours)} where torch has {_brief(theirs)}"
    return None


def _residuals(ours, theirs):
    """Both all rounding error (``torch.dist(A @ inv(A), I)``): their sizes are not compared."""
    bound = 1e4 * np.finfo(theirs.dtype).eps
    return bool(np.all(np.abs(theirs) < bound) and np.all(np.abs(ours) < bound))


def _brief(array):
    return np.array2string(np.asarray(array).ravel()[:6], precision=4, threshold=6)


def _text_difference(ours, theirs, kind, where):
    """Texts compared with their numbers to a tolerance (floats print rounded)."""
    if _NUMBER.sub("#", ours) != _NUMBER.sub("#", theirs):
        return kind, f"{where}: {ours[:200]!r} where torch gives {theirs[:200]!r}"
    a = [float(x) for x in _NUMBER.findall(ours)]
    b = [float(x) for x in _NUMBER.findall(theirs)]
    if not np.allclose(a, b, rtol=1e-3, atol=1e-4, equal_nan=True):
        return kind, f"{where}: {ours[:200]!r} where torch gives {theirs[:200]!r}"
    return None


def _outcome_difference(ours, theirs, where):
    if theirs.kind == "raised":
        if ours.kind != "raised":
            return "no error", f"{where}: torch raises {theirs.value[0]}, numtorch does not"
        if ours.value[0] != theirs.value[0]:
            return (
                "exception type",
                f"{where}: {ours.value[0]} where torch raises {theirs.value[0]}",
            )
        return None
    if ours.kind == "raised":
        name, message = ours.value
        if name in ("AttributeError", "ImportError", "ModuleNotFoundError", "NameError"):
            for pattern in _MISSING:
                found = pattern.search(message)
                if found:
                    return "missing name", f"{where}: {name}: {found.group(1)}"
        return "numtorch error", f"{where}: {name}: {message}"
    if theirs.kind == "value":
        if ours.kind != "value":
            return "type", f"{where}: None where torch gives a value"
        found = _first_difference(ours.value, theirs.value, where)
        if found:
            return found
    elif ours.kind == "value":
        return "type", f"{where}: a value where torch gives None"
    if ours.printed != theirs.printed:
        return _text_difference(ours.printed, theirs.printed, "printed", f"{where} printed")
    return None


def _differences(ours, theirs, example):
    for index, (a, b) in enumerate(zip(ours.outcomes, theirs.outcomes)):
        found = _outcome_difference(a, b, f"line {example.statements[index].line}")
        if found:
            return index, found
    return None


def compare(example, torch, numtorch):
    """The first difference between torch's and numtorch's runs of ``example``."""
    theirs = run(torch, example)
    if theirs.stopped is not None and theirs.stopped[0] == 0:
        return Result(example.id, "skipped", f"torch raises {theirs.stopped[1]}")
    if all(outcome.kind == "skipped" for outcome in theirs.outcomes):
        return Result(example.id, "skipped", "every statement is marked +SKIP")
    upto = len(theirs.outcomes) - (theirs.stopped is not None)
    if upto == 0:
        return Result(example.id, "skipped", f"torch raises {theirs.stopped[1]}")
    theirs.outcomes = theirs.outcomes[:upto]
    ours = run(numtorch, example, upto=upto)
    found = _differences(ours, theirs, example)
    if (
        found is not None
        and theirs.stopped is not None
        and found[0] == upto - 1
        and ours.stopped is not None
        and ours.stopped[1] == theirs.stopped[1]
    ):
        # numtorch refuses one statement earlier what torch refuses (CUDA set up lazily)
        found = None
    if found is None:
        return Result(example.id, "agree", compared=upto)
    index, (kind, detail) = found
    if kind in ("value", "printed", "repr"):
        # torch against itself: the same seed (uninitialised memory), then another seed
        # (only a difference of torch's at or before numtorch's explains numtorch's)
        again = _differences(run(torch, example, upto=upto), theirs, example)
        if again is not None and again[0] <= index:
            return Result(example.id, "nondeterministic", detail, index, upto)
        reseeded = _differences(run(torch, example, seed=1, upto=upto), theirs, example)
        if reseeded is not None and reseeded[0] <= index:
            return Result(example.id, "random", detail, index, upto)
    return Result(example.id, kind, detail, index, upto)

"""Every op of the sample table under every dtype, against torch: an op must raise where
torch's kernel has no loop for the dtype (Note [Kernel dtypes]) with torch's exception type,
and otherwise give torch's result dtypes, shapes and values.

Each op's first sample has its float arrays cast to each of bool, the integer types, the
halves, float32/64 and complex64/128 (index arguments stay as they are), and runs once
without and, for floating and complex dtypes, once with ``requires_grad``. Known
differences are listed in ``dtype_support_known.py`` by cause; the list may only shrink:
an entry that starts agreeing fails the test until it is removed.
"""

from __future__ import annotations

import warnings
import zlib

import numpy as np
import pytest
from dtype_support_known import KNOWN

import numtorch
from numtorch.testing.opinfo import OP_DB

torch = pytest.importorskip("torch")

GRAD_DTYPES = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")
DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", *GRAD_DTYPES)
# (rtol, atol) by result dtype; integers and bools compare exactly (wrapping included)
TOLERANCES = {
    "float16": (2e-2, 2e-2),
    "bfloat16": (5e-2, 5e-2),
    "float32": (1e-4, 1e-5),
    "complex64": (1e-4, 1e-5),
    "float64": (1e-7, 1e-9),
    "complex128": (1e-7, 1e-9),
}


def _convert(lib, value, dtype, grad):
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        t = lib.tensor(value).to(getattr(lib, dtype))
        return t.requires_grad_(True) if grad else t
    return value


def _flatten(out) -> list:
    if isinstance(out, (tuple, list)):
        return [x for o in out for x in _flatten(o)]
    return [out]


def _outcome(lib, info, sample, dtype, grad):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            args = [_convert(lib, a, dtype, grad) for a in sample.args]
            return _flatten(info.op(lib, *args, **sample.kwargs))
        except Exception as exc:  # the exception's type is the outcome
            return exc


def _values(t) -> np.ndarray:
    t = t.detach()
    if str(t.dtype).endswith("bfloat16"):
        t = t.float()
    return np.asarray(t.numpy())


def difference(ours, theirs) -> str | None:
    """How numtorch's outcome differs from torch's, or None."""
    if isinstance(theirs, Exception) or isinstance(ours, Exception):
        if type(ours).__name__ == type(theirs).__name__:
            return None
        describe = [
            f"raises {type(x).__name__}" if isinstance(x, Exception) else "returns"
            for x in (ours, theirs)
        ]
        if isinstance(ours, NotImplementedError) and "derivative of" in str(ours):
            describe[0] += " (no complex derivative)"
        return f"numtorch {describe[0]}, torch {describe[1]}"
    if len(ours) != len(theirs):
        return f"{len(ours)} outputs, torch {len(theirs)}"
    for a, b in zip(ours, theirs):
        if not isinstance(b, torch.Tensor):
            continue
        if str(a.dtype) != str(b.dtype):
            return f"dtype {a.dtype}, torch {b.dtype}"
        if tuple(a.shape) != tuple(b.shape):
            return f"shape {tuple(a.shape)}, torch {tuple(b.shape)}"
        if b.is_sparse or b.layout != torch.strided:
            continue
        x, y = _values(a), _values(b)
        name = str(b.dtype).removeprefix("torch.")
        if name in TOLERANCES:
            rtol, atol = TOLERANCES[name]
            if not np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True):
                return "values"
        elif not np.array_equal(x, y):
            return "values"
    return None


def sweep(info):
    """{'<dtype>' or '<dtype>,grad': difference} for ``info``'s first sample."""
    samples = info.samples(np.random.default_rng(zlib.crc32(info.name.encode())))
    found = {}
    if not samples:
        return found
    sample = samples[0]
    for dtype in DTYPES:
        for grad in (False, True) if dtype in GRAD_DTYPES else (False,):
            numtorch.manual_seed(0)
            torch.manual_seed(0)
            ours = _outcome(numtorch, info, sample, dtype, grad)
            theirs = _outcome(torch, info, sample, dtype, grad)
            diff = difference(ours, theirs)
            if diff is not None:
                found[dtype + (",grad" if grad else "")] = diff
    return found


def _names() -> list:
    """Each entry's name, numbered where the table holds two entries of one name."""
    seen: dict = {}
    names = []
    for info in OP_DB:
        seen[info.name] = seen.get(info.name, 0) + 1
        names.append(info.name if seen[info.name] == 1 else f"{info.name}#{seen[info.name]}")
    return names


NAMES = _names()


@pytest.mark.parametrize("info, name", zip(OP_DB, NAMES), ids=NAMES)
def test_dtype_support_matches_torch(info, name):
    found = sweep(info)
    known = {key: reason for (entry, key), reason in KNOWN.items() if entry == name}
    new = {k: v for k, v in found.items() if k not in known}
    stale = sorted(k for k in known if k not in found)
    assert not new, f"{info.name}: differs from torch under {new}"
    assert not stale, f"{info.name}: now agrees with torch under {stale}: remove from KNOWN"


def _cause(diff: str) -> str:
    if diff.startswith("numtorch returns, torch raises"):
        return "numtorch runs a dtype torch's kernel refuses"
    if "(no complex derivative)" in diff:
        return "numtorch has no complex derivative for the op yet"
    if diff.startswith("numtorch raises") and diff.endswith("torch returns"):
        return "numtorch refuses a dtype torch runs"
    if diff.startswith("numtorch raises"):
        return "both raise, with different exception types"
    if diff.startswith("dtype"):
        return "the result dtype differs"
    return f"the results differ ({diff.split(' ')[0]})"


if __name__ == "__main__":  # prints dtype_support_known.py's table for the differences now
    by_cause: dict = {}
    for info, name in zip(OP_DB, NAMES):
        for key, diff in sweep(info).items():
            by_cause.setdefault(_cause(diff), []).append(f"{name}[{key}]")
    for cause, entries in sorted(by_cause.items()):
        print(f'    {cause!r}: """')
        line = "       "
        for entry in entries:
            if len(line) + len(entry) > 95:
                print(line)
                line = "       "
            line += " " + entry
        print(line + '\n    """,')

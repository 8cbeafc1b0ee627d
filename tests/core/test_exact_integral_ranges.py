"""arange and linspace with an integral dtype, as torch computes them: arange counts the
values from the bounds as given (int64 from the truncated ones) and steps by the truncated
step, wrapping into the dtype; linspace converts its bounds to the dtype first, as a fill
value; bool and complex aranges have no kernel."""

from __future__ import annotations

import pytest

import numtorch

torch = pytest.importorskip("torch")

_ARANGES = [
    ((-3, 0.5), "int8"),
    ((-3, 0.5), "int64"),
    ((0, 5, 1.5), "int32"),
    ((0, 5, 1.5), "int64"),
    ((5.5, -1, -1.5), "int16"),
    ((5.5, -1, -1.5), "int64"),
    ((0, 5, 0.5), "int32"),
    ((0, 5, 0.5), "int64"),
    ((0, -0.5, 1), "int16"),
    ((-2.5, 2.5), "uint8"),
    ((2**31, 2**31 + 2), "uint8"),
    ((10, 1, -3), "int64"),
    ((5,), "complex64"),
    ((True, 7.5, 0.5), "bool"),
]

_LINSPACES = [
    ((0, 2.5, 7), "int8"),
    ((-5, 5, 7), "uint8"),
    ((-2.7, 3.9, 9), "int16"),
    ((True, 2.5, 5), "int64"),
    ((300, -300, 11), "int8"),
    ((-200, 0, 3), "uint8"),
]


def _outcome(lib, name, args, dtype):
    try:
        return getattr(lib, name)(*args, dtype=getattr(lib, dtype)).tolist()
    except Exception as e:  # the type and message are compared
        return type(e).__name__, str(e)


@pytest.mark.parametrize(("args", "dtype"), _ARANGES)
def test_integral_arange_matches_torch(args, dtype):
    assert _outcome(numtorch, "arange", args, dtype) == _outcome(torch, "arange", args, dtype)


@pytest.mark.parametrize(("args", "dtype"), _LINSPACES)
def test_integral_linspace_matches_torch(args, dtype):
    assert _outcome(numtorch, "linspace", args, dtype) == _outcome(torch, "linspace", args, dtype)

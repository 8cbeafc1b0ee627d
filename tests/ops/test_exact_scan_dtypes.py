"""cumsum and cumprod with an explicit ``dtype=``: the result keeps it (only the default
accumulates small integers in int64), and bool has no CPU kernel, as in torch."""

from __future__ import annotations

import pytest

import numtorch

torch = pytest.importorskip("torch")


def _outcome(lib, name, source, dtype):
    x = lib.tensor([[1, 2, 3], [4, 0, 2]], dtype=getattr(lib, source))
    try:
        result = getattr(lib, name)(x, 1, dtype=None if dtype is None else getattr(lib, dtype))
    except Exception as e:  # the type is compared
        return type(e).__name__
    return str(result.dtype), result.tolist()


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("source", ["int8", "uint8", "bool", "int64", "float32"])
@pytest.mark.parametrize("dtype", [None, "int16", "int32", "uint8", "bool", "float64"])
def test_scan_dtype_matches_torch(name, source, dtype):
    assert _outcome(numtorch, name, source, dtype) == _outcome(torch, name, source, dtype)

"""Shared test helpers: the optional torch oracle and tensor builders for op samples."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch


def torch_or_skip():
    """The installed torch (the parity oracle), or skip the test."""
    return pytest.importorskip("torch")


def to_lib(lib, value, dtype, requires_grad=True):
    """A float NumPy array as a ``lib`` tensor of ``dtype`` (other values unchanged)."""
    if isinstance(value, (np.ndarray, np.floating)) and np.asarray(value).dtype.kind == "f":
        t = lib.tensor(np.asarray(value), dtype=dtype)
        return t.requires_grad_(requires_grad)
    return value


def lib_dtype(lib, name):
    return getattr(lib, name)


@pytest.fixture
def nt():
    return numtorch


# tests/programs/ holds torch programs read by test_programs_parity.py, not modules to import
collect_ignore = ["programs"]

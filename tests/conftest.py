"""Shared test helpers: the optional torch oracle and tensor builders for op samples."""

from __future__ import annotations

import contextlib

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


@pytest.fixture(scope="module")
def one_blas_thread():
    """One BLAS thread (with threadpoolctl, when installed) and one torch thread for
    convolution-heavy tests: their products are small, and on a busy machine a second thread
    waiting for a core makes each several times slower."""
    try:
        import torch
    except ImportError:
        torch = None
    torch_threads = torch.get_num_threads() if torch is not None else None
    if torch is not None:
        torch.set_num_threads(1)
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        limits = contextlib.nullcontext()
    else:
        limits = threadpool_limits(limits=1, user_api="blas")
    with limits:
        yield
    if torch is not None:
        torch.set_num_threads(torch_threads)


# tests/programs/ holds torch programs read by test_programs_parity.py, not modules to import
collect_ignore = ["programs"]

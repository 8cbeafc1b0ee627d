"""Shared test helpers: the optional torch oracle and tensor builders for op samples."""

from __future__ import annotations

import contextlib
import os
import sys

import numpy as np
import pytest

import numtorch
from numtorch._core.observers import dispatch, refresh_slow


def _oracle():
    try:
        import torch
    except ImportError:
        return None
    return torch


def pytest_configure(config):
    # CI must run the parity tests: a missing oracle would skip them and let a regression land
    if os.environ.get("CI", "").lower() in ("1", "true", "yes") and _oracle() is None:
        raise pytest.UsageError(
            "CI is set but the torch oracle cannot be imported: install it with "
            "`pip install torch==2.13.0` (the parity tests would all be skipped)"
        )


def _is_parity(item):
    # a parity test is marked so, or reaches torch through importorskip/torch_or_skip, in
    # its module (module-level `torch`) or in its own body
    if item.get_closest_marker("parity") is not None:
        return True
    module_torch = getattr(getattr(item, "module", None), "torch", None)
    if getattr(module_torch, "__name__", None) == "torch":
        return True
    code = getattr(getattr(item, "function", None), "__code__", None)
    if code is None:
        return False
    names = code.co_names
    return "torch_or_skip" in names or ("importorskip" in names and "torch" in code.co_consts)


_PARITY = {"passed": 0, "failed": 0, "skipped": 0, "no_torch": 0}
_SKIPPED_MODULES = set()  # modules skipped whole for lack of torch (reported more than once)


def pytest_collection_modifyitems(items):
    for item in items:
        if _is_parity(item):
            item.add_marker(pytest.mark.parity)


# pytest.importorskip's reason when the oracle is missing (other skip reasons may name torch:
# "torch has no forward derivative for ...", which is not a missing oracle)
_NO_TORCH = "could not import 'torch'"


def pytest_runtest_logreport(report):
    if "parity" not in report.keywords:
        return
    if report.when == "call" or (report.when == "setup" and not report.passed):
        _PARITY[report.outcome] += 1
        if report.skipped and _NO_TORCH in str(report.longrepr):
            _PARITY["no_torch"] += 1


def pytest_collectreport(report):
    # a module whose first line is `torch = pytest.importorskip("torch")` skips whole
    if report.skipped and report.nodeid.endswith(".py") and _NO_TORCH in str(report.longrepr):
        _SKIPPED_MODULES.add(report.nodeid)


def pytest_terminal_summary(terminalreporter):
    torch = _oracle()
    oracle = "no torch installed" if torch is None else f"torch {torch.__version__}"
    counts = ", ".join(f"{_PARITY[k]} {k}" for k in ("passed", "failed", "skipped"))
    missing = f"{_PARITY['no_torch']} tests and {len(_SKIPPED_MODULES)} modules"
    terminalreporter.write_line(
        f"parity tests against {oracle}: {counts} ({missing} skipped for lack of torch)"
    )


@pytest.fixture(autouse=True)
def _torch_distribution_validation():
    """torch's eager ``torch.cond`` turns off ``torch.distributions`` argument validation for
    the rest of the process (a side effect of its capture machinery). Programs and
    documentation examples run ``torch.cond`` in this process, so whatever test runs after
    one (in any order, on any worker) gets torch's default back."""
    yield
    distributions = sys.modules.get("torch.distributions")
    if distributions is not None and distributions.Distribution._validate_args != __debug__:
        distributions.Distribution.set_default_validate_args(__debug__)


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


@pytest.fixture(autouse=True)
def _fx_leaves_torch_functions_plain(request):
    """Every fx test leaves torch's functions plain (Note [Recording torch functions]). Kept
    here: a second conftest.py would shadow this module, which tests import as ``conftest``."""
    yield
    if "fx" not in request.node.path.parent.name:
        return
    import gc

    from numtorch.fx._patching import _Recording

    gc.collect()
    assert _Recording.holders == 0, "a Proxy outlived its test: torch functions still record"


@pytest.fixture(autouse=True)
def _unchecked_dispatch_afterwards():
    """Using a uint16/32/64 dtype sends every later op down the checked dispatch path for the
    rest of the process (dtypes.note_dtype); each test starts without it, as a fresh
    process does, so tests of the fast path and of dispatch flags see it off."""
    yield
    if dispatch.unsigned:
        dispatch.unsigned = False
        refresh_slow()

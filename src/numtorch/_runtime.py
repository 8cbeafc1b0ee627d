"""Process-wide settings that torch scripts set in their first lines: thread counts,
deterministic algorithms, matmul precision, default device, warnings, ``torch.compile``;
and small top-level helpers (``typename``, ``detach``). numtorch computes with
NumPy on the CPU, so most of these are recorded and reported back rather than acted on;
the thread count is passed to NumPy's BLAS when threadpoolctl is installed."""

from __future__ import annotations

import os
import warnings

from ._core import meta as _meta
from ._core.tensor import Tensor, typename  # noqa: F401  (torch.typename)
from ._creation import check_device, device
from ._creation import device as _device
from .storage import _Storage

_settings = {
    "deterministic": False,
    "deterministic_warn_only": False,
    "matmul_precision": "highest",
    "interop_threads": None,
    "warn_always": False,
}
_DEBUG_MODES = {"default": 0, "warn": 1, "error": 2}


def _check_thread_count(name: str, n) -> int:
    if not isinstance(n, int) or isinstance(n, bool):
        raise RuntimeError(f"{name} expects an int, but got {type(n).__name__}")
    if n < 1:
        raise RuntimeError(f"{name} expects a positive integer")
    return n


def _blas_pools():
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return None
    return [pool for pool in threadpool_info() if pool.get("user_api") == "blas"]


def get_num_threads() -> int:
    """The number of threads NumPy's BLAS uses (the cores available when unknown)."""
    pools = _blas_pools()
    if pools:
        return max(pool["num_threads"] for pool in pools)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def set_num_threads(n: int) -> None:
    """Set NumPy's BLAS threads (needs threadpoolctl; without it a warning says so)."""
    _check_thread_count("set_num_threads", n)
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        warnings.warn(
            "numtorch.set_num_threads needs threadpoolctl to change NumPy's BLAS threads "
            "(pip install threadpoolctl, or set OPENBLAS_NUM_THREADS before starting "
            "Python); the thread count is unchanged",
            stacklevel=2,
        )
        return
    threadpool_limits(n, user_api="blas")


def get_num_interop_threads() -> int:
    interop = _settings["interop_threads"]
    return get_num_threads() if interop is None else interop


def set_num_interop_threads(n: int) -> None:
    """Recorded only: numtorch runs ops one after another on the calling thread."""
    _settings["interop_threads"] = _check_thread_count("set_num_interop_threads", n)


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Recorded only: every numtorch op is already deterministic on the CPU."""
    if not isinstance(mode, bool):
        raise TypeError(
            "use_deterministic_algorithms(): argument 'mode' (position 1) must be bool, "
            f"not {type(mode).__name__}"
        )
    _settings["deterministic"] = mode
    _settings["deterministic_warn_only"] = bool(warn_only)


def are_deterministic_algorithms_enabled() -> bool:
    return _settings["deterministic"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _settings["deterministic_warn_only"]


def set_deterministic_debug_mode(debug_mode) -> None:
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError(
                "invalid value of debug_mode, expected one of `default`, `warn`, `error`, but "
                f"got {debug_mode}"
            )
        debug_mode = _DEBUG_MODES[debug_mode]
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(
            f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}"
        )
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    if not _settings["deterministic"]:
        return 0
    return 1 if _settings["deterministic_warn_only"] else 2


def set_float32_matmul_precision(precision: str) -> None:
    """Recorded only: NumPy's float32 products always run in full float32."""
    if precision not in ("highest", "high", "medium"):
        warnings.warn(  # torch warns and keeps the old setting
            f"{precision} is not one of 'highest', 'high', or 'medium'; the current "
            "set_float32_matmul_precision call has no effect.",
            stacklevel=2,
        )
        return
    _settings["matmul_precision"] = precision


def get_float32_matmul_precision() -> str:
    return _settings["matmul_precision"]


def get_default_device() -> device:
    return _meta.default_devices[-1] or device("cpu")


def set_default_device(device) -> None:
    """The device factories use when given none: the CPU, or ``'meta'`` (shapes and dtypes
    only); other devices raise torch's error for a build without them."""
    if device is not None and not _meta.is_meta_device(device):
        check_device(device)
    _meta.default_devices[0] = None if device is None else _device(device)


def set_warn_always(b: bool) -> None:
    _settings["warn_always"] = bool(b)


def is_warn_always_enabled() -> bool:
    return _settings["warn_always"]


def set_flush_denormal(mode: bool) -> bool:
    """Report success, as torch does on x86; NumPy keeps denormals either way."""
    return True


def is_storage(obj) -> bool:
    return isinstance(obj, _Storage)


def detach(input: Tensor) -> Tensor:
    return input.detach()


def _assert(condition, message) -> None:
    """``assert condition, message`` as a function (torch's traceable assert).

    >>> import numtorch as torch
    >>> torch._assert(torch.tensor(2) > 1, "positive")
    """
    if not condition:
        raise AssertionError(message)

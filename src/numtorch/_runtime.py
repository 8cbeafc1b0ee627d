"""Process-wide settings that torch scripts set in their first lines: thread counts,
deterministic algorithms, matmul precision, and ``torch.compile``. numtorch computes with
NumPy on the CPU, so most of these are recorded and reported back rather than acted on;
the thread count is passed to NumPy's BLAS when threadpoolctl is installed."""

from __future__ import annotations

import os
import warnings

_settings = {
    "deterministic": False,
    "deterministic_warn_only": False,
    "matmul_precision": "highest",
    "interop_threads": None,
}


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


def compile(model=None, **options):
    """numtorch has no compiler: returns ``model`` unchanged (also as a decorator, with or
    without options), so a script written for ``torch.compile`` runs eagerly."""
    if model is None:
        return lambda fn: fn
    return model

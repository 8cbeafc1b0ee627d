"""Process-wide settings torch scripts set at start-up (threads, determinism, matmul
precision, default device, warnings) and small top-level helpers. numtorch runs on one CPU
with deterministic NumPy kernels, so the settings are recorded and reported back, and
change nothing else."""

from __future__ import annotations

import builtins

from ._creation import check_device, device
from ._tensor import Tensor

_settings = {
    "num_threads": 1,
    "num_interop_threads": 1,
    "deterministic": False,
    "deterministic_warn_only": False,
    "matmul_precision": "highest",
    "warn_always": False,
}
_DEBUG_MODES = {"default": 0, "warn": 1, "error": 2}


def get_num_threads() -> int:
    return _settings["num_threads"]


def set_num_threads(int) -> None:
    if not isinstance(int, builtins.int) or int <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _settings["num_threads"] = int


def get_num_interop_threads() -> int:
    return _settings["num_interop_threads"]


def set_num_interop_threads(int) -> None:
    if not isinstance(int, builtins.int) or int <= 0:
        raise RuntimeError("Expected positive number of threads")
    _settings["num_interop_threads"] = int


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    if not isinstance(mode, bool):
        raise TypeError(
            "_set_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not "
            f"{type(mode).__name__}"
        )
    _settings["deterministic"] = mode
    _settings["deterministic_warn_only"] = warn_only


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


def get_float32_matmul_precision() -> str:
    return _settings["matmul_precision"]


def set_float32_matmul_precision(precision: str) -> None:
    import warnings

    if precision not in ("highest", "high", "medium"):
        warnings.warn(
            f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
            "setFloat32MatmulPrecision call has no effect.",
            UserWarning,
            stacklevel=2,
        )
        return
    _settings["matmul_precision"] = precision


def get_default_device() -> device:
    return device("cpu")


def set_default_device(device) -> None:
    if device is not None:
        check_device(device)


def set_warn_always(b: bool) -> None:
    _settings["warn_always"] = bool(b)


def is_warn_always_enabled() -> bool:
    return _settings["warn_always"]


def set_flush_denormal(mode: bool) -> bool:
    """Report success, as torch does on x86; NumPy keeps denormals either way."""
    return True


def typename(obj) -> str:
    """``'torch.FloatTensor'`` for a tensor, else the qualified type name.

    Example:
        >>> import numtorch as torch
        >>> torch.typename(torch.ones(1)), torch.typename(3)
        ('torch.FloatTensor', 'int')
    """
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(type(obj), "__module__", "") or ""
    name = type(obj).__qualname__
    if module in ("", "builtins"):
        return name
    return f"{module.replace('numtorch', 'torch')}.{name}"


def is_inference(input: Tensor) -> bool:
    return input.is_inference()


def is_storage(obj) -> bool:
    return False


def detach(input: Tensor) -> Tensor:
    return input.detach()

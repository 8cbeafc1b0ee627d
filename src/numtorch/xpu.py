"""``torch.xpu`` stand-in: Intel GPUs are never available (numtorch runs on the CPU)."""


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def is_bf16_supported(including_emulation: bool = True) -> bool:
    return False


def manual_seed(seed: int) -> None:
    """No-op (there is no XPU generator)."""


manual_seed_all = manual_seed


def empty_cache() -> None:
    """No-op: there is no XPU memory to release."""


def _not_compiled(*args, **kwargs):
    raise AssertionError("Torch not compiled with XPU enabled (numtorch runs on the CPU only)")


current_device = synchronize = get_device_name = set_device = _not_compiled

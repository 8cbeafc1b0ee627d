"""``torch.mps`` stand-in: Apple's Metal backend is never available."""


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def manual_seed(seed: int) -> None:
    """No-op (there is no MPS generator)."""


def _no_backend(what: str):
    def refuse(*args, **kwargs):
        raise RuntimeError(f"Cannot execute {what}() without MPS backend.")

    refuse.__name__ = what
    return refuse


synchronize = _no_backend("deviceSynchronize")
empty_cache = _no_backend("emptyCache")
current_allocated_memory = _no_backend("getCurrentAllocatedMemory")
driver_allocated_memory = _no_backend("getDriverAllocatedMemory")

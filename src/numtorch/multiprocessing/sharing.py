"""The tensor sharing strategies torch.multiprocessing names (on Linux: file descriptors
by default, or files in /dev/shm); recorded only: shared tensors always travel as files in
/dev/shm here (``reductions``)."""

from __future__ import annotations

_STRATEGIES = {"file_descriptor", "file_system"}
_strategy = "file_descriptor"


def set_sharing_strategy(new_strategy: str) -> None:
    global _strategy
    if new_strategy not in _STRATEGIES:
        # torch checks with an assert, so AssertionError is what callers see
        raise AssertionError(
            f"invalid sharing strategy {new_strategy!r}, expected one of {_STRATEGIES}"
        )
    _strategy = new_strategy


def get_sharing_strategy() -> str:
    return _strategy


def get_all_sharing_strategies() -> set:
    return set(_STRATEGIES)

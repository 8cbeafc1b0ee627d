"""``torch.random``: the default generator's seed and state, and ``fork_rng``."""

from __future__ import annotations

import contextlib

from ._creation import (  # noqa: F401  (Generator and default_generator, as torch.random has)
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)

__all__ = ["fork_rng", "get_rng_state", "initial_seed", "manual_seed", "seed", "set_rng_state"]


@contextlib.contextmanager
def fork_rng(devices=None, enabled: bool = True, _caller="fork_rng", _devices_kw="devices",
             device_type="cuda"):  # fmt: skip
    """Within the block, random draws leave the default generator as it was on entry (only
    the CPU generator exists, so ``devices`` and ``device_type`` have nothing to save).

    Example:
        >>> import numtorch as torch
        >>> _ = torch.manual_seed(0)
        >>> with torch.random.fork_rng():
        ...     _ = torch.rand(3)
        >>> a = torch.rand(1)
        >>> _ = torch.manual_seed(0)
        >>> bool(torch.rand(1) == a)
        True
    """
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)

"""``torch.multiprocessing``: Python's multiprocessing names, plus ``spawn`` and the tensor
sharing strategies, as torch's CPU build has them. Tensors reach other processes by pickling
(their data is copied; nothing is placed in shared memory)."""

import multiprocessing as _multiprocessing
from multiprocessing import *  # noqa: F403

from .reductions import init_reductions
from .sharing import get_all_sharing_strategies, get_sharing_strategy, set_sharing_strategy
from .spawn import (
    ProcessContext,
    ProcessExitedException,
    ProcessRaisedException,
    spawn,
    start_processes,
)

__all__ = [
    *_multiprocessing.__all__,
    "get_all_sharing_strategies",
    "get_sharing_strategy",
    "set_sharing_strategy",
    "ProcessContext",
    "ProcessExitedException",
    "ProcessRaisedException",
    "spawn",
    "start_processes",
]

init_reductions()

"""``torch.multiprocessing``: Python's multiprocessing names, plus ``spawn`` and the tensor
sharing strategies, as torch's CPU build has them. A tensor moved to shared memory
(``share_memory_``, ``Module.share_memory``) reaches other processes as a reference to that
memory, so their writes are seen (``reductions``); any other tensor is pickled by value."""

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

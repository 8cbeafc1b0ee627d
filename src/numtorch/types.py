"""``torch.types``: the type aliases torch's annotations use (``Number``, ``Device``)."""

from __future__ import annotations

import os
from typing import IO

from ._core.device import device as _device
from .storage import TypedStorage, UntypedStorage

__all__ = ["Number", "Device", "FileLike", "Storage"]

Number = int | float | bool
Device = _device | str | int | None
FileLike = str | os.PathLike | IO[bytes]
Storage = TypedStorage | UntypedStorage

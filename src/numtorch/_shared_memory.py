"""Tensor data in shared memory, as torch's ``file_system`` sharing strategy keeps it.

``share_memory_`` copies a tensor's data into a file under ``/dev/shm`` mapped with
``MAP_SHARED``: forked children write to the same pages, and ``torch.multiprocessing``
sends the file's path (not the values) to spawned children, which map it too. So
Hogwild-style training in worker processes updates the parent's parameters. The file is
removed when the tensor that created it is collected (or at exit); mappings stay valid.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import tempfile
import weakref

import numpy as np

_DIRECTORY = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()


def _map(path: str, nbytes: int) -> mmap.mmap:
    fd = os.open(path, os.O_RDWR)
    try:
        return mmap.mmap(fd, nbytes)
    finally:
        os.close(fd)


def _remove(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def mapping_of(array) -> mmap.mmap | None:
    """The shared mapping an array's memory lies in, if any."""
    root = array
    while isinstance(root, np.ndarray) and root.base is not None:
        root = root.base
    return root if isinstance(root, mmap.mmap) else None


def share(tensor) -> None:
    """Move ``tensor``'s data into a new shared file (once; later calls keep it)."""
    if getattr(tensor, "_shared_path", None) and mapping_of(tensor._data) is not None:
        return
    data = tensor._data
    fd, path = tempfile.mkstemp(prefix="numtorch_", dir=_DIRECTORY)
    try:
        os.ftruncate(fd, max(data.nbytes, 1))  # mmap refuses an empty file
    finally:
        os.close(fd)
    shared = np.ndarray(data.shape, data.dtype, buffer=_map(path, max(data.nbytes, 1)))
    shared[...] = data
    tensor._data = shared
    tensor._shared_path = path
    weakref.finalize(tensor, _remove, path)


def attach(path: str, shape: tuple, dtype) -> np.ndarray:
    """The array another process shared at ``path``."""
    nbytes = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
    return np.ndarray(shape, dtype, buffer=_map(path, max(nbytes, 1)))


def shared_path(tensor) -> str | None:
    """The shared file behind ``tensor``'s data (None when its data is private)."""
    path = getattr(tensor, "_shared_path", None)
    return path if path and mapping_of(tensor._data) is not None else None

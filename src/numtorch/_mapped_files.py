"""``torch.from_file``: a tensor over a file of raw values, memory-mapped.

The file's size is checked against ``size`` elements before anything is mapped, so a large
``size`` never allocates: the tensor's memory is the file's pages, read on demand."""

from __future__ import annotations

import os

from ._core import dtypes as _dtypes
from ._core.device import check_device
from ._core.tensor import Tensor
from .backend import xp


def from_file(
    filename, shared=None, size=0, *, dtype=None, layout=None, device=None, pin_memory=False
) -> Tensor:
    """A 1-D tensor of ``size`` elements read from the raw bytes of ``filename``. With
    ``shared=True`` writes to the tensor reach the file (created or grown to fit); otherwise
    they stay in the tensor's own copy-on-write pages.

    Example:
        >>> import numtorch as torch, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "values.bin")
        >>> torch.tensor([1.0, 2.0], dtype=torch.float64).numpy().tofile(path)
        >>> torch.from_file(path, size=2, dtype=torch.float64)
        tensor([1., 2.], dtype=torch.float64)
    """
    check_device(device)
    dtype = _dtypes.get_default_dtype() if dtype is None else _dtypes.to_dtype(dtype)
    size = int(size)
    nbytes = size * dtype.itemsize
    if size < 0:
        raise RuntimeError(
            f"unable to mmap {nbytes} bytes from file <{filename}>: Cannot allocate memory (12)"
        )
    path = os.fspath(filename)
    mode = "read-write" if shared else "read-only"
    if shared and not os.path.exists(path):
        open(path, "wb").close()
    if not os.path.isfile(path):
        raise RuntimeError(
            f"unable to open file <{filename}> in {mode} mode: No such file or directory (2)"
        )
    have = os.path.getsize(path)
    if have < nbytes:
        if not shared:
            raise RuntimeError(
                f"file <{filename}> size <{have}> is smaller than the required mapping size "
                f"<{nbytes}>"
            )
        os.truncate(path, nbytes)  # torch grows a shared file to the mapping
    if size == 0:
        return Tensor._make(xp.empty(0, dtype.np))
    data = xp.memmap(path, dtype=dtype.np, mode="r+" if shared else "c", shape=(size,))
    return Tensor._make(data.view(xp.ndarray))

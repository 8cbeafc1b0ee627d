"""Reading NumPy arrays, scalars and dtypes from torch.save files.

torch.save (and numtorch.save, pickler.py) pickles a NumPy value through its reduction: an array as
``numpy._core.multiarray._reconstruct`` and a BUILD with ``(version, shape, dtype,
fortran, raw bytes)``, a dtype as ``numpy.dtype(code, align, copy)`` and a BUILD with its
byte order, a scalar as ``numpy._core.multiarray.scalar(dtype, raw bytes)`` (``numpy.core``
in files written with NumPy 1). torch.load refuses these names with ``weights_only=True``
unless they are allow-listed, and so does numtorch; with ``weights_only=False`` or when
allowed, numtorch rebuilds them with the functions below, which accept numeric and bool
dtypes only (an object array would hold whatever the pickle builds) and whose arrays hold
no more bytes than the file gives them.
"""

from __future__ import annotations

import re

import numpy as np

from .errors import UnsafeFileError

KINDS = "biufc"  # bool, integers, floating, complex: plain bytes, no Python objects
_CODE = re.compile(r"[<>|=]?[biufc?]\d{0,2}")


class Rebuilds:
    """The functions a pickle's NumPy globals resolve to, for one load."""

    def __init__(self, where: str) -> None:
        self._where = where
        self.ndarray = object()  # what the pickle's ``numpy.ndarray`` names: never called
        self.by_path = {
            "numpy.ndarray": self.ndarray,
            "numpy.dtype": self.dtype,
            "numpy._core.multiarray._reconstruct": self.reconstruct,
            "numpy.core.multiarray._reconstruct": self.reconstruct,
            "numpy._core.multiarray.scalar": self.scalar,
            "numpy.core.multiarray.scalar": self.scalar,
        }

    def _malformed(self, what: str) -> UnsafeFileError:
        return UnsafeFileError(f"{self._where}: malformed NumPy {what}")

    def dtype(self, code, align=False, copy=True):
        if not (isinstance(code, str) and _CODE.fullmatch(code) and isinstance(align, bool)):
            raise self._malformed(f"dtype {str(code)[:40]!r}")
        # a copy, always: the BUILD that follows sets its byte order, which must never reach
        # NumPy's shared dtype objects
        return np.dtype(code, align, True)

    def reconstruct(self, cls, shape, code):
        if cls is not self.ndarray or shape != (0,) or code not in (b"b", "b"):
            raise self._malformed("array")
        # the BUILD that follows hands NumPy its shape, a dtype (only ``dtype`` above makes
        # one: numeric or bool) and its bytes; NumPy checks that their sizes agree, so
        # nothing is allocated beyond the file's bytes
        return np.ndarray((0,), np.uint8)

    def scalar(self, dtype, raw):
        if not (isinstance(dtype, np.dtype) and dtype.kind in KINDS and isinstance(raw, bytes)):
            raise self._malformed("scalar")
        if len(raw) != dtype.itemsize:
            raise self._malformed("scalar")
        return np.frombuffer(raw, dtype=dtype)[0].copy()

"""The one error a hostile or broken checkpoint raises, and the byte budget of a load.

# Note [Loads have a budget]
# Every format is checked against sizes it declares before anything is inflated or
# allocated: a zip member's size from the central directory, an array's shape times its
# item size, a storage's element count. The sum may not exceed ``max_bytes`` (by default
# 64 MiB plus 16 times the file's size, since stored formats hold their data as is and
# only a compressed .npz member can legitimately grow), and every stream is then read
# with that declared size as a hard limit, so a lying header costs no more than the truth.
# The Python objects a file makes (a safetensors header's parsed JSON, a pickle's objects)
# are charged too, by default against at most 40 MiB of the budget, the rest being for
# tensor data: a header or a pickle can multiply its size 30 to 100 times.
"""

from __future__ import annotations

import pickle

DEFAULT_FLOOR = 64 * 1024 * 1024
DEFAULT_RATIO = 16
DEFAULT_OBJECT_BYTES = 40 * 1024 * 1024
MAX_DEPTH = 256  # nesting of containers in a checkpoint's structure


class UnsafeFileError(pickle.UnpicklingError, RuntimeError, ValueError):
    """A checkpoint that is malformed, truncated, or larger than its load may allocate.

    A ``pickle.UnpicklingError`` as torch's ``weights_only`` refusals, a ``RuntimeError``
    as torch's refusals of corrupt archives, and a ``ValueError`` as a malformed file, so
    code written against any of them catches it. The message names the file and the
    problem.
    """


class UnpicklingError(UnsafeFileError):
    """A pickle asked for a global that is not allow-listed; named as torch's error."""


PickleRefusedError = UnpicklingError


class Budget:
    """How many bytes one load may still allocate (Note [Loads have a budget])."""

    def __init__(self, where: str, file_size: int, max_bytes: int | None) -> None:
        self.explicit = max_bytes is not None
        if max_bytes is None:
            max_bytes = DEFAULT_FLOOR + DEFAULT_RATIO * file_size
        elif not isinstance(max_bytes, int) or isinstance(max_bytes, bool) or max_bytes < 0:
            raise TypeError(f"load(): max_bytes must be a non-negative int, got {max_bytes!r}")
        self.where = where
        self.file_size = file_size
        self.limit = max_bytes
        self.left = max_bytes

    def take(self, nbytes: int, what: str) -> None:
        if nbytes > self.left:
            raise UnsafeFileError(
                f"{self.where}: {what} declares {nbytes:,} bytes, more than this load may "
                f"allocate ({self.left:,} of max_bytes={self.limit:,} left, for a file of "
                f"{self.file_size:,} bytes). If you trust the file, pass a larger max_bytes "
                "to load()."
            )
        self.left -= nbytes

    def object_allowance(self) -> int:
        """Bytes of Python objects the file may still make (Note [Loads have a budget])."""
        return self.left if self.explicit else min(self.left, DEFAULT_OBJECT_BYTES)

    def take_objects(self, nbytes: int, what: str) -> None:
        if nbytes > self.object_allowance():
            raise UnsafeFileError(
                f"{self.where}: {what} may make about {nbytes:,} bytes of Python objects, "
                f"more than this load allows ({self.object_allowance():,}). If you trust the "
                "file, pass a larger max_bytes to load()."
            )
        self.left -= nbytes

    def fail(self, problem: str) -> UnsafeFileError:
        return UnsafeFileError(f"{self.where}: {problem}")

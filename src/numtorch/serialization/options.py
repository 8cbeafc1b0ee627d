"""torch.serialization's module-wide settings and constants: the fallback byte order of
files without a byteorder record, whether ``save`` writes CRC-32s, ``load``'s mmap flags."""

from __future__ import annotations

import enum
import mmap as _mmap
import struct
import sys

DEFAULT_PROTOCOL = 2
LONG_SIZE = struct.Struct("=l").size  # standard sizes, as torch defines them
INT_SIZE = struct.Struct("=i").size
SHORT_SIZE = struct.Struct("=h").size
MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
PROTOCOL_VERSION = 1001
STORAGE_KEY_SEPARATOR = ","
MAP_PRIVATE = getattr(_mmap, "MAP_PRIVATE", 2)
MAP_SHARED = getattr(_mmap, "MAP_SHARED", 1)


class SourceChangeWarning(Warning):
    """torch warns with it when a pickled module's source changed; numtorch never reads a
    module's source, so it is only defined for code that filters it."""


class LoadEndianness(enum.Enum):
    NATIVE = 1
    LITTLE = 2
    BIG = 3


_settings = {"endianness": None, "crc32": True, "mmap_flags": MAP_PRIVATE}


def get_default_load_endianness() -> LoadEndianness | None:
    """The byte order assumed for a file without a byteorder record (None: little)."""
    return _settings["endianness"]


def set_default_load_endianness(endianness) -> None:
    if not isinstance(endianness, LoadEndianness) and endianness is not None:
        raise TypeError("Invalid argument type in function set_default_load_endianness")
    _settings["endianness"] = endianness


def fallback_byteorder() -> str:
    """What ``load`` reads a file without a byteorder record as."""
    endianness = _settings["endianness"]
    if endianness is LoadEndianness.BIG:
        return "big"
    return sys.byteorder if endianness is LoadEndianness.NATIVE else "little"


def get_crc32_options() -> bool:
    return _settings["crc32"]


def set_crc32_options(compute_crc32: bool) -> None:
    """torch skips the records' CRC-32s with False, for speed. numtorch's ``save`` always
    writes them (the files are the same to every reader); ``load`` reads torch's files
    written without them."""
    _settings["crc32"] = bool(compute_crc32)


def get_default_mmap_options() -> int | None:
    return _settings["mmap_flags"]


class set_default_mmap_options:
    """Set the flags ``load(mmap=True)`` maps files with, for good or for a ``with`` block
    (``mmap.MAP_PRIVATE`` or ``mmap.MAP_SHARED``). numtorch's ``load`` reads a file's
    records into memory whatever ``mmap`` says, so the flags are only kept."""

    def __init__(self, flags: int) -> None:
        if flags != MAP_PRIVATE and flags != MAP_SHARED:
            raise ValueError(
                "Invalid argument in function set_default_mmap_options, "
                f"expected mmap.MAP_PRIVATE or mmap.MAP_SHARED, but got {flags}"
            )
        self.prev = _settings["mmap_flags"]
        _settings["mmap_flags"] = flags

    def __enter__(self) -> None:
        pass

    def __exit__(self, *_) -> None:
        _settings["mmap_flags"] = self.prev

"""Reading zip archives (torch.save files, .npz) within a byte budget.

The central directory is checked as a whole before any member is inflated: sizes, the
compression ratio of each member, where its data lies. Members are then inflated in chunks
with their declared size as a hard limit (Note [Loads have a budget] in errors.py).
"""

from __future__ import annotations

import zipfile
import zlib

import numpy as np

from .errors import Budget

MAX_MEMBERS = 1 << 16
MAX_RATIO = 1100  # deflate cannot shrink data more than ~1032 times
_CHUNK = 1 << 20
_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}


class Archive:
    """The members of one zip file, validated; ``read`` inflates one of them."""

    def __init__(self, fh, budget: Budget) -> None:
        self.budget = budget
        try:
            self.zip = zipfile.ZipFile(fh)
            infos = self.zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as e:
            raise budget.fail(f"not a readable zip archive ({e})") from None
        if len(infos) > MAX_MEMBERS:
            raise budget.fail(f"the zip archive lists {len(infos):,} members (at most "
                              f"{MAX_MEMBERS:,} are read)")  # fmt: skip
        self.members: dict[str, zipfile.ZipInfo] = {}
        total = 0
        for info in infos:
            self._check(info)
            total += info.file_size
            self.members[info.filename] = info
        if total > budget.limit:  # refused before anything is inflated
            budget.take(total, f"the zip archive ({len(infos)} members)")

    def _check(self, info: zipfile.ZipInfo) -> None:
        name = info.filename
        if name in self.members:
            raise self.budget.fail(f"the zip archive holds member {name!r} twice")
        if info.compress_type not in _METHODS:
            raise self.budget.fail(
                f"zip member {name!r} uses compression method {info.compress_type}; only "
                "stored and deflated members are read"
            )
        if info.flag_bits & 0x1:
            raise self.budget.fail(f"zip member {name!r} is encrypted")
        if info.header_offset + info.compress_size > self.budget.file_size:
            raise self.budget.fail(f"zip member {name!r} lies beyond the end of the file "
                                   "(truncated?)")  # fmt: skip
        stored = info.compress_type == zipfile.ZIP_STORED
        if (stored and info.file_size != info.compress_size) or (
            info.file_size > MAX_RATIO * max(info.compress_size, 1)
        ):
            raise self.budget.fail(
                f"zip member {name!r} declares {info.file_size:,} bytes from "
                f"{info.compress_size:,} {_METHODS[info.compress_type]} bytes, which no "
                "honest archive does"
            )

    def names(self) -> list[str]:
        return list(self.members)

    def size(self, name: str) -> int:
        return self.members[name].file_size

    def read(self, name: str, limit: int | None = None) -> np.ndarray:
        """A member's bytes as a writable uint8 array; at most ``limit`` bytes are read."""
        info = self.members[name]
        want = info.file_size if limit is None else min(limit, info.file_size)
        self.budget.take(want, f"zip member {name!r}")
        out = np.empty(want, dtype=np.uint8)
        view = memoryview(out)
        got, more = 0, b""
        try:
            with self.zip.open(info) as member:
                if info.CRC == 0:  # torch writes 0 when told not to (set_crc32_options)
                    member._expected_crc = None
                while got < want:
                    chunk = member.read(min(_CHUNK, want - got))
                    if not chunk:
                        break
                    view[got : got + len(chunk)] = chunk
                    got += len(chunk)
                if limit is None and got == want:
                    more = member.read(1)  # also makes zipfile check the CRC
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError) as error:
            raise self.budget.fail(f"zip member {name!r} is corrupt ({error})") from None
        if more:
            raise self.budget.fail(f"zip member {name!r} inflates past its declared size")
        if got != want:
            raise self.budget.fail(
                f"zip member {name!r} holds {got:,} bytes but declares {want:,} (truncated?)"
            )
        return out

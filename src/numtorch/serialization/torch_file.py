"""torch.save's file formats: a zip of ``archive/data.pkl`` and one record per storage,
and (read only) the stream of pickles torch wrote before 1.6.

``archive/data.pkl`` is a protocol-2 pickle whose tensors name their storages through
persistent ids ``('storage', torch.FloatStorage, key, location, numel)``; the bytes of
storage ``key`` are the record ``archive/data/<key>``, in the order ``archive/byteorder``
says. Written here (pickler.py) so that ``torch.load`` reads it with its default
``weights_only=True``, and read back through the restricted unpickler (unpickler.py).

The legacy stream is four pickles (a magic number, a protocol version, the writer's byte
order, the object) followed by a pickled list of storage keys and, for each key, an 8-byte
element count and the storage's bytes.
"""

from __future__ import annotations

import gc
import io
import sys
import zipfile

import numpy as np

from .archive import Archive
from .errors import Budget, UnpicklingError, UnsafeFileError
from .options import MAGIC_NUMBER, PROTOCOL_VERSION, fallback_byteorder
from .pickler import Writer
from .skipping import skipping
from .unpickler import MeteredReader, RestrictedUnpickler, globals_refused

_ALIGNMENT = 64  # torch aligns each record's data; a reader that maps the file relies on it
LEGACY_MAGIC = MAGIC_NUMBER
LEGACY_HEAD = b"\x80\x02\x8a\x0al\xfc\x9cF\xf9 j\xa8P\x19."  # the magic number, pickled


def write(obj) -> bytes:
    writer = Writer()
    pickled = writer.dumps(obj)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        _record(archive, "archive/data.pkl", pickled)
        _record(archive, "archive/.format_version", b"1")
        _record(archive, "archive/.storage_alignment", str(_ALIGNMENT).encode())
        _record(archive, "archive/byteorder", sys.byteorder.encode())
        for key, array in writer.storages.items():
            # as bytes: a buffer cannot carry an extension dtype such as bfloat16
            data = np.ascontiguousarray(array).view(np.uint8).data
            _record(archive, f"archive/data/{key}", bytes(data.nbytes) if skipping() else data)
        _record(archive, "archive/version", b"3\n")
    return buffer.getvalue()


def _record(archive: zipfile.ZipFile, name: str, data) -> None:
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    # pad the local header's extra field so that the data starts on an aligned offset
    start = archive.fp.tell() + 30 + len(name.encode())
    pad = -(start + 4) % _ALIGNMENT
    info.extra = b"FB" + pad.to_bytes(2, "little") + b"Z" * pad
    archive.writestr(info, bytes(data) if not isinstance(data, bytes) else data)


def is_torch_archive(names: list[str]) -> bool:
    return any(name.endswith("/data.pkl") and name.count("/") == 1 for name in names)


def _pickle_record(archive: Archive) -> str:
    pickles = [n for n in archive.names() if n.endswith("/data.pkl") and n.count("/") == 1]
    if len(pickles) != 1:
        raise archive.budget.fail(
            f"the archive holds {len(pickles)} data.pkl records, expected one"
        )
    return pickles[0]


def unsafe_globals(archive: Archive, where: str) -> list[str]:
    """What ``get_unsafe_globals_in_checkpoint`` lists for a torch.save archive."""
    return globals_refused(archive.read(_pickle_record(archive)).tobytes(), where)


def read(archive: Archive, where: str, map_location, weights_only: bool):
    budget = archive.budget
    record = _pickle_record(archive)
    prefix = record.removesuffix("data.pkl")
    byteorder = fallback_byteorder()  # a file without the record (torch before 2.1)
    if prefix + "byteorder" in archive.members:
        byteorder = archive.read(prefix + "byteorder", limit=16).tobytes().decode("latin1")
        if byteorder not in ("little", "big"):
            raise budget.fail(f"unknown byteorder {byteorder!r}")
    loaded: dict[str, np.ndarray] = {}

    def storage(key: str, dtype: np.dtype, numel: int, location: str) -> np.ndarray:
        _check_location(location, map_location, where)
        array = loaded.get(key)
        if array is None:
            name = f"{prefix}data/{key}"
            if name not in archive.members:
                raise budget.fail(f"storage {key!r} has no record {name!r}")
            if archive.size(name) != numel * dtype.itemsize:
                raise budget.fail(
                    f"storage {key!r} declares {numel:,} elements of {dtype} "
                    f"({numel * dtype.itemsize:,} bytes) but its record holds "
                    f"{archive.size(name):,} bytes"
                )
            if skipping():  # the layout only: the bytes are never read
                array = np.zeros(numel, dtype)
            else:
                array = archive.read(name).view(dtype)
            if byteorder != sys.byteorder:
                array.byteswap(inplace=True)
            loaded[key] = array
        elif array.dtype != dtype or array.size != numel:
            raise budget.fail(f"storage {key!r} is read as two different types")
        return array

    pickled = archive.read(record)
    reader = MeteredReader(pickled, budget)
    unpickler = RestrictedUnpickler(reader, storage, where, weights_only)
    return unpickle(unpickler, reader, where)


def read_legacy(fh, budget: Budget, where: str, map_location, weights_only: bool):
    budget.take(budget.file_size, "the file")
    reader = MeteredReader(fh.read(), budget)
    arrays: dict[str, np.ndarray] = {}

    def plain():
        return unpickle(RestrictedUnpickler(reader, _no_storage, where, True), reader, where)

    def storage(key: str, dtype: np.dtype, numel: int, location: str) -> np.ndarray:
        _check_location(location, map_location, where)
        array = arrays.get(key)
        if array is None:  # filled once the object is read: its bytes follow the pickles
            nbytes = numel * dtype.itemsize
            if nbytes + sum(a.nbytes for a in arrays.values()) > budget.file_size:
                raise budget.fail(f"storage {key!r} declares {nbytes:,} bytes the file lacks")
            budget.take(nbytes, f"storage {key!r}")
            array = arrays[key] = np.zeros(numel, dtype=dtype)
        elif array.dtype != dtype or array.size != numel:
            raise budget.fail(f"storage {key!r} is read as two different types")
        return array

    magic, protocol, info = plain(), plain(), plain()
    if magic != LEGACY_MAGIC or protocol != PROTOCOL_VERSION or not isinstance(info, dict):
        raise budget.fail("it starts as a pre-1.6 torch.save file but its header is not one")
    little = info.get("little_endian", True)
    obj = unpickle(RestrictedUnpickler(reader, storage, where, weights_only), reader, where)
    keys = plain()
    if not isinstance(keys, list) or sorted(keys) != sorted(arrays):
        raise budget.fail("its list of storages does not match the storages its object uses")
    for key in keys:
        array = arrays[key]
        count = int.from_bytes(reader.read(8), "little" if little else "big")
        if count != array.size or reader.readinto(array.view(np.uint8)) != array.nbytes:
            raise budget.fail(f"storage {key!r} is truncated or of the wrong size")
        if little != (sys.byteorder == "little"):
            array.byteswap(inplace=True)
    return obj


def _no_storage(key, *_):
    raise UnsafeFileError(f"a storage ({key!r}) in a pre-1.6 torch.save file's header")


def unpickle(unpickler: RestrictedUnpickler, reader: MeteredReader, where: str):
    # the cyclic collector would rescan the whole heap each time the pickle's new objects
    # pass its thresholds: quadratic in a big file, and nothing it frees is garbage yet
    collecting = gc.isenabled()
    gc.disable()
    try:
        return unpickler.finish(unpickler.load())
    except Exception as error:
        if reader.failure is not None:  # the unpickler reports it as "Ran out of input"
            raise reader.failure from None
        if isinstance(error, UnsafeFileError):
            raise
        raise _malformed(error, where) from None
    finally:
        if collecting:
            gc.enable()


def _malformed(error: Exception, where: str) -> UnsafeFileError:
    """Anything else a crafted pickle can make go wrong, named; an UnpicklingError by name
    too, as torch's unpickler raises."""
    if isinstance(error, RecursionError):
        return UnsafeFileError(f"{where}: the pickle nests too deeply")
    if isinstance(error, MemoryError):
        return UnsafeFileError(f"{where}: the pickle asks for more memory than there is")
    return UnpicklingError(
        f"{where}: the checkpoint pickle is malformed ({type(error).__name__}: {error})"
    )


def _check_location(location: str, map_location, where: str) -> None:
    if location == "cpu" or map_location is not None:
        return
    raise UnsafeFileError(  # a RuntimeError, as torch's
        f"Attempting to deserialize object on a {location.split(':')[0].upper()} device but "
        "numtorch computes on the CPU only. Please use torch.load with "
        f"map_location=torch.device('cpu') to map your storages to the CPU ({where})."
    )

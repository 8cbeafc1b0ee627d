"""The two file formats a checkpoint may use, checked before any array is read.

safetensors: an 8-byte little-endian header length, a JSON header (name -> dtype, shape,
byte range; ``__metadata__`` -> str values), then raw bytes. Written and read with the
``safetensors`` package's NumPy API when it is installed.

.npz: NumPy's zip of ``.npy`` members, always read with ``allow_pickle=False``; the JSON
tree is stored as a uint8 array member.
"""

from __future__ import annotations

import io
import json
import struct
import zipfile

import numpy as np

MAX_HEADER = 100 * 1024 * 1024  # as the safetensors package: larger headers are refused

# safetensors dtype codes numtorch can hold, and the codes it knows but cannot.
SAFETENSORS_DTYPES = {
    "F16": np.float16,
    "F32": np.float32,
    "F64": np.float64,
    "C64": np.complex64,
    "I8": np.int8,
    "I16": np.int16,
    "I32": np.int32,
    "I64": np.int64,
    "U8": np.uint8,
    "BOOL": np.bool_,
}
KNOWN_UNSUPPORTED = {"BF16", "U16", "U32", "U64", "F8_E4M3", "F8_E5M2", "F8_E8M0", "F4", "F6_E2M3"}
KNOWN_UNSUPPORTED |= {"F6_E3M2", "C128"}


def safetensors_module():
    """``safetensors.numpy``, or None when the optional package is not installed."""
    try:
        import safetensors.numpy
    except ImportError:
        return None
    return safetensors.numpy


def looks_like_safetensors(head: bytes, size: int) -> bool:
    if len(head) < 9:
        return False
    (n,) = struct.unpack("<Q", head[:8])
    return 2 <= n <= min(MAX_HEADER, size - 8) and head[8:9] == b"{"


def parse_safetensors_header(raw: bytes, size: int, where: str) -> tuple[dict, dict]:
    """Validate a safetensors header; returns (tensor entries, metadata)."""
    (n,) = struct.unpack("<Q", raw[:8])
    try:
        header = json.loads(raw[8 : 8 + n])
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{where}: the safetensors header is not valid JSON ({error})") from None
    if not isinstance(header, dict):
        raise ValueError(f"{where}: the safetensors header is not a JSON object")
    metadata = header.pop("__metadata__", None) or {}
    if not isinstance(metadata, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()
    ):
        raise ValueError(f"{where}: safetensors __metadata__ must map strings to strings")
    data_size = size - 8 - n
    for name, entry in header.items():
        _check_entry(name, entry, data_size, where)
    return header, metadata


def _check_entry(name: str, entry, data_size: int, where: str) -> None:
    if not isinstance(entry, dict) or set(entry) != {"dtype", "shape", "data_offsets"}:
        raise ValueError(
            f"{where}: tensor {name!r} needs exactly 'dtype', 'shape' and 'data_offsets'"
        )
    code, shape, offsets = entry["dtype"], entry["shape"], entry["data_offsets"]
    if code not in SAFETENSORS_DTYPES:
        supported = ", ".join(SAFETENSORS_DTYPES)
        if code in KNOWN_UNSUPPORTED:
            raise TypeError(
                f"{where}: tensor {name!r} has dtype {code}, which numtorch cannot hold "
                f"(it reads {supported}). Convert it before saving, e.g. in PyTorch with "
                "tensor.float() or tensor.long()."
            )
        raise TypeError(f"{where}: tensor {name!r} has unknown dtype {code!r} (numtorch reads "
                        f"{supported})")  # fmt: skip
    if not (
        isinstance(shape, list)
        and all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape)
    ):
        raise ValueError(f"{where}: tensor {name!r} has an invalid shape {shape!r}")
    if not (
        isinstance(offsets, list)
        and len(offsets) == 2
        and all(isinstance(o, int) and not isinstance(o, bool) for o in offsets)
        and 0 <= offsets[0] <= offsets[1] <= data_size
    ):
        raise ValueError(
            f"{where}: tensor {name!r} has byte range {offsets!r} outside the file's "
            f"{data_size} data bytes"
        )
    expected = int(np.prod(shape, dtype=np.int64)) * np.dtype(SAFETENSORS_DTYPES[code]).itemsize
    if offsets[1] - offsets[0] != expected:
        raise ValueError(
            f"{where}: tensor {name!r} with shape {shape} and dtype {code} needs {expected} "
            f"bytes but its byte range holds {offsets[1] - offsets[0]}"
        )


def read_safetensors(raw: bytes, header: dict, where: str) -> dict[str, np.ndarray]:
    """The arrays of a validated safetensors file, each writable and matching its header."""
    st = safetensors_module()
    if st is None:
        raise RuntimeError(
            f"{where} is a safetensors file; reading it needs the 'safetensors' package: "
            "pip install safetensors (or numtorch[safetensors])"
        )
    arrays = st.load(raw)
    out = {}
    for name, entry in header.items():
        array = arrays[name]
        expected = np.dtype(SAFETENSORS_DTYPES[entry["dtype"]])
        if array.dtype != expected or list(array.shape) != entry["shape"]:
            raise ValueError(f"{where}: tensor {name!r} does not match its header")
        out[name] = array if array.flags.writeable else array.copy()
    return out


def write_safetensors(arrays: dict, metadata: dict[str, str]) -> bytes:
    return safetensors_module().save(arrays, metadata=metadata)


# -- .npz -------------------------------------------------------------------------------------
STRUCTURE_MEMBER = "__numtorch_structure__"


def write_npz(arrays: dict, structure: str) -> bytes:
    buffer = io.BytesIO()
    members = dict(arrays)
    members[STRUCTURE_MEMBER] = np.frombuffer(structure.encode(), dtype=np.uint8)
    np.savez(buffer, **members)
    return buffer.getvalue()


def read_npz(f, where: str) -> tuple[dict[str, np.ndarray], str]:
    """The arrays and the JSON structure of a numtorch .npz file (never unpickling)."""
    arrays = {}
    try:
        with np.load(f, allow_pickle=False) as npz:
            for name in npz.files:
                arrays[name] = npz[name]
    except ValueError as error:
        if "allow_pickle" in str(error):
            raise ValueError(
                f"{where}: the .npz file holds object arrays, which are pickles; numtorch "
                "refuses to load them (only numeric and bool arrays are read)"
            ) from None
        raise ValueError(f"{where}: not a readable .npz file ({error})") from None
    structure = arrays.pop(STRUCTURE_MEMBER, None)
    if structure is None or structure.dtype != np.uint8 or structure.ndim != 1:
        raise ValueError(
            f"{where}: this .npz file was not written by numtorch.save (it has no "
            f"'{STRUCTURE_MEMBER}' member); read it with numpy.load(path, allow_pickle=False)"
        )
    for name, array in arrays.items():
        if array.dtype.kind not in "fcbiu" or array.dtype.byteorder == ">":
            raise TypeError(f"{where}: array {name!r} has dtype {array.dtype}, which numtorch "
                            "cannot hold")  # fmt: skip
    return arrays, structure.tobytes().decode()


def zip_members(f) -> list[str] | None:
    """The member names of the zip archive in file ``f``, or None when it is not one."""
    try:
        with zipfile.ZipFile(f) as archive:
            return archive.namelist()
    except zipfile.BadZipFile:
        return None
    finally:
        f.seek(0)


def zip_member_head(f, member: str, limit: int) -> bytes:
    """The first ``limit`` bytes of one member, decompressed (nothing is run)."""
    try:
        with zipfile.ZipFile(f) as archive, archive.open(member) as m:
            return m.read(limit)
    finally:
        f.seek(0)

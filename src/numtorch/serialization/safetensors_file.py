"""safetensors, read and written by numtorch itself (the format is a header and raw bytes).

An 8-byte little-endian header length, a JSON header (name -> dtype, shape, byte range;
``__metadata__`` -> str values), then the tensors' bytes, back to back with no gaps or
overlaps. The header is checked in one linear pass before any tensor is made.
"""

from __future__ import annotations

import json
import struct

import ml_dtypes
import numpy as np

from .errors import Budget

MAX_HEADER = 100 * 1024 * 1024  # as the safetensors package: larger headers are refused
JSON_COST = 20  # bytes of parsed objects per header byte: 7 for real headers, up to 36

# safetensors dtype codes numtorch can hold, and the codes it knows but cannot.
DTYPES = {
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
    "BF16": ml_dtypes.bfloat16,
}
CODES = {np.dtype(v): k for k, v in DTYPES.items()}
KNOWN_UNSUPPORTED = {"U16", "U32", "U64", "F8_E4M3", "F8_E5M2", "F8_E8M0", "F4", "F6_E2M3"}
KNOWN_UNSUPPORTED |= {"F6_E3M2", "C128"}
_KEYS = {"dtype", "shape", "data_offsets"}
_NUMPY = {code: np.dtype(t) for code, t in DTYPES.items()}
_ITEMSIZE = {code: t.itemsize for code, t in _NUMPY.items()}


def looks_like_safetensors(head: bytes, size: int) -> bool:
    if len(head) < 9:
        return False
    (n,) = struct.unpack("<Q", head[:8])
    return 2 <= n <= min(MAX_HEADER, size - 8) and head[8:9] == b"{"


def read(fh, budget: Budget) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """The arrays (in header order) and the metadata of a safetensors file."""
    (n,) = struct.unpack("<Q", fh.read(8))
    data_size = budget.file_size - 8 - n
    budget.take_objects(n * JSON_COST, f"the safetensors header ({n:,} bytes)")
    try:
        # a name given twice loses one byte range, which the packing check below catches
        header = json.loads(fh.read(n))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise budget.fail(f"the safetensors header is not valid JSON ({error})") from None
    if not isinstance(header, dict):
        raise budget.fail("the safetensors header is not a JSON object")
    metadata = header.pop("__metadata__", None) or {}
    if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
        raise budget.fail("safetensors __metadata__ must map strings to strings")
    spans = sorted((_check_entry(name, entry, data_size, budget), name) for name, entry in
                   header.items())  # fmt: skip
    end = 0
    for (start, stop), name in spans:
        if start != end:
            problem = "overlaps the tensor before it" if start < end else "leaves a gap before it"
            raise budget.fail(f"tensor {name!r} with byte range [{start}, {stop}] {problem} "
                              "(safetensors data is packed back to back)")  # fmt: skip
        end = stop
    if end != data_size:
        raise budget.fail(f"the tensors cover {end:,} of the file's {data_size:,} data bytes")
    budget.take(data_size, "the safetensors data")
    data = bytearray(data_size)
    if fh.readinto(data) != data_size:
        raise budget.fail("the file ended before its tensors' data (truncated?)")
    arrays = {}
    for name, entry in header.items():
        start, stop = entry["data_offsets"]
        dtype = _NUMPY[entry["dtype"]]
        if start % dtype.itemsize:  # unaligned: a copy gives NumPy aligned memory
            array = np.frombuffer(bytes(data[start:stop]), dtype=dtype).copy()
        else:
            array = np.frombuffer(data, dtype=dtype, count=(stop - start) // dtype.itemsize,
                                  offset=start)  # fmt: skip
        arrays[name] = array.reshape(entry["shape"])
    return arrays, metadata


def _check_entry(name: str, entry, data_size: int, budget: Budget) -> tuple[int, int]:
    # one pass, no allocation beyond the entry: a header may hold a million of them
    if type(entry) is not dict or entry.keys() != _KEYS:
        raise budget.fail(f"tensor {name!r} needs exactly 'dtype', 'shape' and 'data_offsets'")
    code, shape, offsets = entry["dtype"], entry["shape"], entry["data_offsets"]
    itemsize = _ITEMSIZE.get(code) if type(code) is str else None
    if itemsize is None:
        supported = ", ".join(DTYPES)
        if code in KNOWN_UNSUPPORTED:
            raise TypeError(
                f"{budget.where}: tensor {name!r} has dtype {code}, which numtorch cannot hold "
                f"(it reads {supported}). Convert it before saving, e.g. in PyTorch with "
                "tensor.float() or tensor.long()."
            )
        raise budget.fail(f"tensor {name!r} has unknown dtype {str(code)[:20]!r} (numtorch "
                          f"reads {supported})")  # fmt: skip
    if type(shape) is not list or len(shape) > 64:
        raise budget.fail(f"tensor {name!r} has an invalid shape {str(shape)[:80]}")
    count = 1
    for d in shape:
        if type(d) is not int or d < 0:
            raise budget.fail(f"tensor {name!r} has an invalid shape {str(shape)[:80]}")
        count *= d  # Python ints: no overflow
    if (
        type(offsets) is not list
        or len(offsets) != 2
        or type(offsets[0]) is not int
        or type(offsets[1]) is not int
        or not 0 <= offsets[0] <= offsets[1] <= data_size
    ):
        raise budget.fail(f"tensor {name!r} has byte range {str(offsets)[:80]} outside the "
                          f"file's {data_size:,} data bytes")  # fmt: skip
    if offsets[1] - offsets[0] != count * itemsize:
        raise budget.fail(
            f"tensor {name!r} with shape {shape} and dtype {code} needs {count * itemsize:,} "
            f"bytes but its byte range holds {offsets[1] - offsets[0]:,}"
        )
    return offsets[0], offsets[1]


def write(arrays: dict[str, np.ndarray], metadata: dict[str, str]) -> bytes:
    """A safetensors file; data is laid out widest item first, so every tensor is aligned."""
    header: dict = {"__metadata__": metadata} if metadata else {}
    order = sorted(arrays, key=lambda name: -arrays[name].dtype.itemsize)
    spans, offset = {}, 0
    for name in order:
        spans[name] = (offset, offset + arrays[name].nbytes)
        offset += arrays[name].nbytes
    for name, array in arrays.items():
        code = CODES.get(array.dtype.newbyteorder("="))
        if code is None or array.dtype.byteorder == ">":
            raise TypeError(f"numtorch.save: array {name!r} has dtype {array.dtype}, which "
                            "safetensors cannot hold")  # fmt: skip
        header[name] = {"dtype": code, "shape": list(array.shape), "data_offsets": spans[name]}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-(8 + len(text)) % 8)
    parts = [struct.pack("<Q", len(text)), text]
    parts += [np.ascontiguousarray(arrays[name]).tobytes() for name in order]
    return b"".join(parts)

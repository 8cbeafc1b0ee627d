""".npz: NumPy's zip of ``.npy`` members; numtorch stores its JSON structure as a uint8 member.

Read without ``numpy.load``: it allocates whatever shape a member's header declares before
reading the data. Here each member's bytes are inflated within the budget first, and its
header must then describe exactly those bytes; object (pickled) arrays are refused.
"""

from __future__ import annotations

import ast
import io
import math
import struct

import numpy as np

from .archive import Archive

STRUCTURE_MEMBER = "__numtorch_structure__"
_MAGIC = b"\x93NUMPY"
_MAX_HEADER = 10000  # as numpy.load


def write(arrays: dict, structure: str) -> bytes:
    for name, array in arrays.items():
        if array.dtype.kind == "V":  # .npy names bfloat16 as raw bytes: it would not read back
            raise TypeError(
                f"numtorch.save: an .npz file cannot hold the {array.dtype} tensor '{name}'; "
                "save to a .pt or .safetensors file, or convert it (tensor.float()) first"
            )
    buffer = io.BytesIO()
    members = dict(arrays)
    members[STRUCTURE_MEMBER] = np.frombuffer(structure.encode(), dtype=np.uint8)
    np.savez(buffer, **members)
    return buffer.getvalue()


def read(archive: Archive) -> tuple[dict[str, np.ndarray], str]:
    """The arrays and the JSON structure of a numtorch .npz file (never unpickling)."""
    arrays = {}
    archive.budget.take_objects(1024 * len(archive.names()), "the .npz members' arrays")
    for member in archive.names():
        name = member.removesuffix(".npy")
        arrays[name] = _array(archive, member)
    structure = arrays.pop(STRUCTURE_MEMBER, None)
    if structure is None or structure.dtype != np.uint8 or structure.ndim != 1:
        raise archive.budget.fail(
            f"this .npz file was not written by numtorch.save (it has no '{STRUCTURE_MEMBER}' "
            "member); read it with numpy.load(path, allow_pickle=False)"
        )
    try:
        return arrays, structure.tobytes().decode()
    except UnicodeDecodeError:
        raise archive.budget.fail("the checkpoint structure is not UTF-8 text") from None


def _array(archive: Archive, member: str) -> np.ndarray:
    fail = archive.budget.fail
    raw = archive.read(member)
    if raw[:6].tobytes() != _MAGIC or len(raw) < 10:
        raise fail(f"member {member!r} is not a .npy array")
    major = int(raw[6])
    width = 2 if major == 1 else 4
    if major not in (1, 2, 3) or len(raw) < 8 + width:
        raise fail(f"member {member!r} has an unknown .npy version {major}")
    (length,) = struct.unpack("<H" if width == 2 else "<I", raw[8 : 8 + width].tobytes())
    start = 8 + width + length
    if length > _MAX_HEADER or start > len(raw):
        raise fail(f"member {member!r} has a malformed .npy header")
    try:
        header = ast.literal_eval(raw[8 + width : start].tobytes().decode("latin-1"))
        dtype = np.dtype(header["descr"])
        shape, fortran = header["shape"], header["fortran_order"]
    except (ValueError, SyntaxError, TypeError, KeyError, MemoryError, RecursionError) as e:
        raise fail(f"member {member!r} has a malformed .npy header ({e})") from None
    if dtype.hasobject or dtype.kind not in "fcbiu":
        raise fail(f"member {member!r} holds {dtype} arrays; object arrays are pickles, and "
                   "numtorch reads numeric and bool arrays only")  # fmt: skip
    if dtype.byteorder == ">":
        raise TypeError(f"{archive.budget.where}: array {member!r} has dtype {dtype}, which "
                        "numtorch cannot hold")  # fmt: skip
    if not (
        isinstance(shape, tuple)
        and all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape)
        and isinstance(fortran, bool)
    ):
        raise fail(f"member {member!r} has a malformed .npy header")
    if math.prod(shape) * dtype.itemsize != len(raw) - start:
        raise fail(f"member {member!r} declares shape {shape} of {dtype} but holds "
                   f"{len(raw) - start:,} data bytes")  # fmt: skip
    data = raw[start:]
    if start % dtype.itemsize:
        data = data.copy()
    return data.view(dtype).reshape(shape, order="F" if fortran else "C")

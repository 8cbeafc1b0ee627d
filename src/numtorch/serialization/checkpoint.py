"""``save`` and ``load``: checkpoints as safetensors (or .npz), never pickle.

# Note [Checkpoints never pickle]
# A pickle is a program: loading one runs any function it names (CVE-2025-32434 even got
# past torch's weights_only unpickler). numtorch stores arrays in safetensors, or in .npz
# read with allow_pickle=False, and the nesting of dicts/lists/tuples as JSON, which can
# only describe data. Anything else given to ``load`` is identified from its first bytes
# and refused before any of it is interpreted.
"""

from __future__ import annotations

import io
import json
import os
import tempfile

from .._creation import device
from .._tensor import Tensor
from . import formats
from .refusal import SCAN_LIMIT, UnpicklingError, is_pickle, refuse
from .structure import Flattener, build

METADATA_KEY = "numtorch"  # safetensors metadata entry holding the JSON structure
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


def _use_safetensors() -> bool:
    return formats.safetensors_module() is not None


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True):
    """Save tensors, NumPy arrays, numbers, strings, bools and None, nested in dicts,
    lists and tuples (a model's or optimizer's ``state_dict()``), to a path or binary file.

    The file is safetensors when the ``safetensors`` package is installed, else ``.npz``;
    the nesting goes in its metadata as JSON. A flat dict of tensors keeps its keys as the
    safetensors names, so ``safetensors.torch.load_file`` reads it into PyTorch. Nothing is
    pickled (the pickle arguments are accepted for compatibility and ignored); the same
    tensor object stored twice is loaded as one object.

    Example:
        >>> import io
        >>> import numtorch as torch
        >>> buffer = io.BytesIO()
        >>> torch.save({"weight": torch.ones(2), "step": 3, "betas": (0.9, 0.99)}, buffer)
        >>> _ = buffer.seek(0)
        >>> torch.load(buffer)
        {'weight': tensor([1., 1.]), 'step': 3, 'betas': (0.9, 0.99)}
    """
    if _use_safetensors():
        flattener = Flattener()
        tree = json.dumps(flattener.tree(obj), allow_nan=False, separators=(",", ":"))
        data = formats.write_safetensors(flattener.arrays, {"format": "pt", METADATA_KEY: tree})
    else:
        flattener = Flattener(name_tensors=lambda path, index: f"t{index}")
        tree = json.dumps(flattener.tree(obj), allow_nan=False, separators=(",", ":"))
        data = formats.write_npz(flattener.arrays, tree)
    if hasattr(f, "write"):
        f.write(data)
        return
    if not isinstance(f, (str, bytes, os.PathLike)):
        raise AttributeError(
            "expected 'f' to be string, path, or a file-like object with a 'write' attribute"
        )
    _write_atomically(os.fspath(f), data)


def _write_atomically(path: str, data: bytes) -> None:
    # A crash mid-write leaves the previous checkpoint, never half of a new one.
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise RuntimeError(f"Parent directory {folder} does not exist.")
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".numtorch-save-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None, **_):
    """Load what ``save`` stored (or a safetensors file from anywhere), from a path or a
    seekable binary file.

    Pickles are refused with ``PickleRefusedError`` (a ``pickle.UnpicklingError``) that
    names the globals the file would load: that covers ``torch.save`` files and anything
    written with ``pickle``. Nothing in such a file is run, whatever ``weights_only`` says.
    Headers are validated (dtypes, shapes, byte ranges) before any array is read. A
    safetensors file without numtorch's metadata (e.g. from ``safetensors.torch.save_file``)
    loads as a dict of tensors. ``map_location`` may name the CPU only.

    Example:
        >>> import io
        >>> import pickle
        >>> import numtorch as torch
        >>> try:
        ...     torch.load(io.BytesIO(pickle.dumps({"a": 1})))
        ... except pickle.UnpicklingError as error:
        ...     print(str(error)[:61])
        numtorch.load refuses the given file object: it is a Python p
    """
    if isinstance(map_location, (str, device)) and device(map_location).type != "cpu":
        raise RuntimeError(
            f"numtorch computes on the CPU only: cannot load onto {map_location!r}; use "
            "map_location='cpu' (or leave it out)"
        )
    if hasattr(f, "read"):
        return _load_from(f, "the given file object", weights_only)
    path = os.fspath(f)
    with open(path, "rb") as fh:
        return _load_from(fh, repr(path), weights_only)


def _load_from(fh, where: str, weights_only: bool):
    if not fh.seekable() or fh.tell():  # work on the rest of the stream as a whole file
        fh = io.BytesIO(fh.read())
    head = fh.read(16)
    fh.seek(0, os.SEEK_END)
    size = fh.tell()
    fh.seek(0)
    if head[:4] in _ZIP_MAGIC:
        return _load_zip(fh, where, weights_only)
    if formats.looks_like_safetensors(head, size):
        raw = fh.read()
        header, metadata = formats.parse_safetensors_header(raw, size, where)
        arrays = formats.read_safetensors(raw, header, where)
        if METADATA_KEY not in metadata:
            return {name: Tensor._make(arrays[name]) for name in header}
        return _build(metadata[METADATA_KEY], arrays, where)
    data = fh.read(SCAN_LIMIT)
    if not data:  # what unpickling an empty file raises in torch
        raise EOFError(f"numtorch.load: {where} is empty")
    if is_pickle(head, data):
        raise refuse(where, "a Python pickle (from pickle.dump, or an old torch.save)", data,
                     weights_only)  # fmt: skip
    # torch's unpickler fails on such bytes: the same error type
    raise UnpicklingError(
        f"numtorch.load: {where} is not a checkpoint numtorch can read: expected a safetensors "
        f"or .npz file (written by numtorch.save), but it starts with {head[:8]!r}"
    )


def _load_zip(fh, where: str, weights_only: bool):
    members = formats.zip_members(fh)
    if members and all(name.endswith(".npy") for name in members):
        arrays, structure = formats.read_npz(fh, where)
        return _build(structure, arrays, where)
    pickles = [name for name in members or () if name.endswith(".pkl")]
    if pickles:
        main = next((name for name in pickles if name.endswith("data.pkl")), pickles[0])
        data = formats.zip_member_head(fh, main, SCAN_LIMIT)
        raise refuse(where, "a PyTorch checkpoint written by torch.save (a zip archive whose "
                     f"{main.rsplit('/', 1)[-1]} is a pickle)", data, weights_only)  # fmt: skip
    raise ValueError(
        f"numtorch.load: {where} is a zip archive but not a numtorch .npz checkpoint (it holds "
        f"{', '.join((members or [])[:5]) or 'nothing readable'})"
    )


def _build(structure: str, arrays: dict, where: str):
    try:
        tree = json.loads(structure)
    except json.JSONDecodeError as error:
        raise ValueError(f"{where}: the checkpoint structure is not valid JSON ({error})") from None
    return build(tree, arrays, where)

"""``save`` and ``load``: torch.save's zip format, safetensors or .npz, chosen by file name.

# Note [Checkpoints never run code]
# A pickle is a program: loading one runs any function it names. numtorch writes torch's
# format (whose pickle names only tensors, plain data and module classes) so torch.load
# reads it, and reads torch's format back through an allow-list unpickler that rebuilds
# data without calling anything the file chooses (Note [What a torch checkpoint may run]).
# safetensors and .npz hold arrays only, with the nesting as JSON. Every load is bounded by
# a byte budget checked before anything is inflated (Note [Loads have a budget]).
"""

from __future__ import annotations

import io
import json
import os
import tempfile

import numpy as np

from .._core.tensor import Tensor
from .._creation import device
from . import npz_file, safetensors_file, torch_file
from .archive import Archive
from .errors import Budget, UnpicklingError
from .refusal import SCAN_LIMIT, is_pickle, refuse
from .skipping import skipping
from .structure import Flattener, build

METADATA_KEY = "numtorch"  # safetensors metadata entry holding the JSON structure
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_SUFFIXES = {".safetensors": "safetensors", ".npz": "npz"}


def file_format(f) -> str:
    """The format ``save`` writes to ``f``: by its name, else torch's (as torch.save)."""
    name = f if isinstance(f, (str, bytes, os.PathLike)) else getattr(f, "name", "")
    name = os.fsdecode(name) if isinstance(name, (str, bytes, os.PathLike)) else ""
    return _SUFFIXES.get(os.path.splitext(name)[1].lower(), "torch")


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):  # fmt: skip
    """Save tensors, numbers, strings, bools, None, dtypes and ``nn.Module`` objects, nested
    in dicts, lists and tuples (a model's or optimizer's ``state_dict()``), to a path or
    binary file.

    The format follows the file name: ``.safetensors`` and ``.npz`` files hold arrays (with
    the nesting as JSON metadata; a flat dict of tensors keeps its keys as safetensors
    names, for ``safetensors.torch.load_file``); every other name, and file objects, get
    torch.save's zip format, which ``torch.load`` reads with its default
    ``weights_only=True``. A whole module is stored under its class's module path, as torch
    does, for ``load(f, weights_only=False)``, and so are NumPy arrays (numeric and bool
    dtypes), as torch pickles them. The pickle arguments are accepted for
    compatibility and ignored.

    Example:
        >>> import io
        >>> import numtorch as torch
        >>> buffer = io.BytesIO()
        >>> torch.save({"weight": torch.ones(2), "step": 3, "betas": (0.9, 0.99)}, buffer)
        >>> _ = buffer.seek(0)
        >>> torch.load(buffer)
        {'weight': tensor([1., 1.]), 'step': 3, 'betas': (0.9, 0.99)}
    """
    if skipping() and not _use_new_zipfile_serialization:
        raise RuntimeError("Cannot use skip_data=True with _use_new_zipfile_serialization=False")
    data = encode(obj, file_format(f))
    if hasattr(f, "write"):
        f.write(data)
        return
    if not isinstance(f, (str, bytes, os.PathLike)):
        raise AttributeError(
            "expected 'f' to be string, path, or a file-like object with a 'write' attribute"
        )
    _write_atomically(os.fspath(f), data)


def encode(obj, fmt: str) -> bytes:
    if fmt == "torch":
        return torch_file.write(obj)
    if fmt == "safetensors":
        flattener = Flattener()
        tree = json.dumps(flattener.tree(obj), allow_nan=False, separators=(",", ":"))
        return safetensors_file.write(
            _skipped(flattener.arrays), {"format": "pt", METADATA_KEY: tree}
        )
    flattener = Flattener(name_tensors=lambda path, index: f"t{index}")
    tree = json.dumps(flattener.tree(obj), allow_nan=False, separators=(",", ":"))
    return npz_file.write(_skipped(flattener.arrays), tree)


def _skipped(arrays: dict) -> dict:
    """Zeros in place of the arrays inside ``skip_data`` (the layout is written, not bytes)."""
    return {k: np.zeros_like(a) for k, a in arrays.items()} if skipping() else arrays


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


def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None,
         max_bytes: int | None = None, **pickle_load_args):  # fmt: skip
    """Load a checkpoint from a path or binary file: torch.save's zip format (written by
    torch or numtorch) or its format before torch 1.6, safetensors, or numtorch's .npz.

    torch's format is read through an allow-list unpickler, as torch's ``weights_only=True``
    does: tensors, storages, plain containers and values, and classes allowed with
    ``torch.serialization.add_safe_globals``; with ``weights_only=False`` (where torch runs
    any code the file names), numtorch's ``nn`` modules too, for whole-model checkpoints.
    Any other global is refused by name, and nothing the file names is run. Bare pickles
    are refused.

    Every size a file declares is checked before anything is inflated or allocated: a load
    may allocate at most ``max_bytes`` (by default 64 MiB plus 16 times the file's size, of
    which Python objects, such as a pickle's or a header's, may take 40 MiB); pass a larger
    value for a file you trust. A broken or hostile file raises ``UnsafeFileError`` (a
    ``pickle.UnpicklingError``, ``RuntimeError`` and ``ValueError``) naming the file and
    the problem. ``map_location`` may name the CPU only.

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
    return _with_file(f, lambda *file: _load_from(*file, weights_only, map_location, max_bytes))


def _with_file(f, read):
    """``read(fh, where, head, size)`` on ``f``, a path or a binary file object, taken as a
    whole file from its current position: its first 16 bytes and its size."""
    if hasattr(f, "read"):
        return _whole(f, "the given file object", read)
    path = os.fspath(f)
    with open(path, "rb") as fh:
        return _whole(fh, repr(path), read)


def _whole(fh, where: str, read):
    if not fh.seekable() or fh.tell():  # work on the rest of the stream as a whole file
        fh = io.BytesIO(fh.read())
    head = fh.read(16)
    size = fh.seek(0, os.SEEK_END)
    fh.seek(0)
    return read(fh, where, head, size)


def get_unsafe_globals_in_checkpoint(f) -> list[str]:
    """The globals (``"module.Name"``) a torch.save file names that ``load`` refuses with
    ``weights_only=True``: what to pass to ``add_safe_globals`` if the file is trusted. The
    file's pickle is read as opcodes and never run.

    Example:
        >>> import io
        >>> import numtorch as torch
        >>> buffer = io.BytesIO()
        >>> torch.save(torch.nn.Linear(2, 2), buffer)
        >>> torch.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(buffer.getvalue()))
        ['numtorch.nn.modules.linear.Linear']
    """
    return _with_file(f, _unsafe_globals)


def _unsafe_globals(fh, where: str, head: bytes, size: int) -> list[str]:
    archive = Archive(fh, Budget(where, size, None)) if head[:4] in _ZIP_MAGIC else None
    if archive is None or not torch_file.is_torch_archive(archive.names()):
        raise ValueError("Expected input to be a checkpoint returned by torch.save")
    return torch_file.unsafe_globals(archive, where)


def _load_from(fh, where: str, head: bytes, size: int, weights_only, map_location, max_bytes):
    budget = Budget(where, size, max_bytes)
    if head[:4] in _ZIP_MAGIC:
        archive = Archive(fh, budget)
        names = archive.names()
        if torch_file.is_torch_archive(names):
            return torch_file.read(archive, where, map_location, weights_only is not False)
        if names and all(name.endswith(".npy") for name in names):
            arrays, structure = npz_file.read(archive)
            return _build(structure, arrays, budget)
        raise budget.fail(
            "it is a zip archive but not a checkpoint (no data.pkl record, not a numtorch "
            f".npz); it holds {', '.join(names[:5]) or 'nothing'}"
        )
    if safetensors_file.looks_like_safetensors(head, size):
        arrays, metadata = safetensors_file.read(fh, budget)
        if METADATA_KEY not in metadata:
            return {name: Tensor._make(array) for name, array in arrays.items()}
        return _build(metadata[METADATA_KEY], arrays, budget)
    if head.startswith(torch_file.LEGACY_HEAD):
        return torch_file.read_legacy(fh, budget, where, map_location, weights_only is not False)
    data = fh.read(SCAN_LIMIT)
    if not data:  # what unpickling an empty file raises in torch
        raise EOFError(f"numtorch.load: {where} is empty")
    if is_pickle(head, data):
        raise refuse(where, "a Python pickle (from pickle.dump), not a torch.save file", data,
                     weights_only)  # fmt: skip
    raise UnpicklingError(  # what torch's unpickler raises on such bytes
        f"{where}: it is not a checkpoint numtorch can read: expected torch.save's zip "
        f"format, safetensors or .npz, but it starts with {head[:8]!r}"
    )


def _build(structure: str, arrays: dict, budget: Budget):
    try:
        tree = json.loads(structure)
    except (ValueError, RecursionError) as error:
        raise budget.fail(f"the checkpoint structure is not valid JSON ({error})") from None
    return build(tree, arrays, budget.where)

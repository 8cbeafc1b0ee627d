"""Split a checkpoint object into flat named arrays plus a JSON tree that describes the nesting.

The tree is plain JSON, so reading it back can only ever build dicts, lists, tuples,
tensors and plain values (Note [Checkpoints never run code] in checkpoint.py). Node forms:

    {"tensor": name}                 a tensor (+ "requires_grad", "complex", "ndarray" flags)
    {"dict": [[key, node], ...]}     also "odict" for an OrderedDict; keys are JSON scalars,
                                     or lists for tuple keys
    {"list": [node, ...]}            also "tuple", "size" (torch.Size)
    {"value": x}                     str, int, bool, None or a finite float
    {"dtype": name}                  a numtorch dtype, by its name (``float32``)
    {"float": "nan" | "inf" | "-inf"}
"""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np

from .._core.dtypes import ALL_DTYPES, BFLOAT16_NP, dtype
from .._core.tensor import Size, Tensor
from .errors import MAX_DEPTH, UnsafeFileError

FORMAT = "numtorch-checkpoint"
VERSION = 1
_KEY_TYPES = (str, int, float, bool, type(None))
_SEQUENCES = {list: "list", tuple: "tuple", Size: "size"}
_DTYPES = {str(d).removeprefix("torch."): d for d in ALL_DTYPES}


class Flattener:
    """Walks an object once; ``arrays`` maps storage names to contiguous arrays."""

    def __init__(self, name_tensors=lambda path, index: path or "tensor") -> None:
        self.arrays: dict[str, np.ndarray] = {}
        self._names: dict[int, str] = {}  # id(tensor) -> name: one stored copy per object
        self._keep: list = []  # keeps ids valid while walking
        self._name_tensors = name_tensors

    def tree(self, obj) -> dict:
        return {"format": FORMAT, "version": VERSION, "root": self._node(obj, "")}

    def _node(self, obj, path: str) -> dict:
        if isinstance(obj, (Tensor, np.ndarray)):
            return self._tensor(obj, path)
        if obj is None or isinstance(obj, (str, bool, int)):
            return {"value": obj}
        if isinstance(obj, float):
            return {"value": obj} if math.isfinite(obj) else {"float": repr(obj)}
        if isinstance(obj, (np.bool_, np.number)) and np.ndim(obj) == 0:
            return self._node(obj.item(), path)
        if isinstance(obj, dtype):
            return {"dtype": str(obj).removeprefix("torch.")}
        if isinstance(obj, dict):
            items = []
            for key, value in obj.items():
                items.append([_encode_key(key, path), self._node(value, _join(path, key))])
            node = {"odict" if isinstance(obj, OrderedDict) else "dict": items}
            metadata = getattr(obj, "_metadata", None)
            if isinstance(metadata, dict):  # a state_dict's module versions, kept as torch does
                node["metadata"] = [[k, _plain(v)] for k, v in metadata.items()]
            return node
        kind = _SEQUENCES.get(type(obj))
        if kind is not None:
            return {kind: [self._node(v, _join(path, i)) for i, v in enumerate(obj)]}
        raise TypeError(
            f"numtorch.save: cannot store an object of type {type(obj).__module__}."
            f"{type(obj).__qualname__} at '{path or '<root>'}'. safetensors and .npz files "
            "hold tensors, NumPy arrays, numbers, strings, bools, None, and "
            "dicts/lists/tuples of them. Save a state_dict() instead of a module or "
            "optimizer, or a whole module to a .pt file."
        )

    def _tensor(self, obj, path: str) -> dict:
        is_tensor = isinstance(obj, Tensor)
        data = obj._data if is_tensor else obj
        if (
            data.dtype.kind not in "fcbiu" and data.dtype != BFLOAT16_NP
        ) or data.dtype.byteorder == ">":
            raise TypeError(
                f"numtorch.save: array at '{path or '<root>'}' has dtype {data.dtype}, which a "
                "checkpoint cannot hold"
            )
        name = self._names.get(id(obj))
        if name is None:
            name = self._unique(self._name_tensors(path, len(self.arrays)))
            self._names[id(obj)] = name
            self._keep.append(obj)
            data = np.require(data, requirements="C")  # ascontiguousarray would make 0-d 1-d
            if data.dtype.kind == "c":  # stored as (..., 2) real pairs: any reader takes that
                data = data.reshape(-1).view(data.real.dtype).reshape(*data.shape, 2)
            self.arrays[name] = data
        node: dict = {"tensor": name}
        if (obj._data if is_tensor else obj).dtype.kind == "c":
            node["complex"] = True
        if not is_tensor:
            node["ndarray"] = True
        elif obj.requires_grad:
            node["requires_grad"] = True
        if is_tensor and _is_parameter(obj):
            node["parameter"] = True
        return node

    def _unique(self, name: str) -> str:
        candidate, n = name, 1
        while candidate in self.arrays:
            candidate, n = f"{name}#{n}", n + 1
        return candidate


def _plain(entry):
    """One ``_metadata`` entry (``{"version": 2}``) as JSON-safe scalars."""
    if not isinstance(entry, dict):
        return {}
    return {
        str(k): v for k, v in entry.items() if v is None or isinstance(v, (str, int, float, bool))
    }


def _encode_key(key, path: str):
    """A dict key as JSON: scalars as they are, tuples (of keys) as lists."""
    if isinstance(key, tuple):
        return [_encode_key(k, path) for k in key]
    if not isinstance(key, _KEY_TYPES) or (isinstance(key, float) and not math.isfinite(key)):
        raise TypeError(
            f"numtorch.save: dict key {key!r} at '{path or '<root>'}' is a "
            f"{type(key).__name__}; keys must be str, int, finite float, bool, None or "
            "tuples of them"
        )
    return key


def _decode_key(key, where: str):
    if isinstance(key, list):
        return tuple(_decode_key(k, where) for k in key)
    if not isinstance(key, _KEY_TYPES):
        raise UnsafeFileError(f"{where}: malformed dict key {key!r}")
    return key


def _is_parameter(obj) -> bool:
    from ..nn.parameter import Parameter  # nn imports this package: resolve late

    return isinstance(obj, Parameter)


def _join(path: str, key) -> str:
    return f"{path}.{key}" if path else str(key)


def build(tree: dict, arrays: dict[str, np.ndarray], where: str):
    """Rebuild the object a tree describes, with tensors made from ``arrays``."""
    if not isinstance(tree, dict) or tree.get("format") != FORMAT:
        raise UnsafeFileError(f"{where}: the structure metadata is not a numtorch checkpoint tree")
    if tree.get("version") != VERSION:
        raise ValueError(
            f"{where}: checkpoint structure version {tree.get('version')!r} is not supported "
            f"(this numtorch reads version {VERSION})"
        )
    if "root" not in tree:
        raise UnsafeFileError(f"{where}: the checkpoint tree has no root")
    made: dict[str, object] = {}
    return _build(tree["root"], arrays, made, where, 0)


def _build(node, arrays, made, where, depth):
    if depth > MAX_DEPTH:
        raise UnsafeFileError(f"{where}: the checkpoint nests deeper than {MAX_DEPTH} levels")
    if not isinstance(node, dict) or len(node) == 0:
        raise UnsafeFileError(f"{where}: malformed structure node {str(node)[:80]}")
    if "tensor" in node:
        return _build_tensor(node, arrays, made, where)
    if "value" in node:
        value = node["value"]
        if value is not None and not isinstance(value, (str, int, float, bool)):
            raise UnsafeFileError(f"{where}: malformed value {value!r}")
        return value
    if "float" in node:
        if node["float"] not in ("nan", "inf", "-inf"):
            raise UnsafeFileError(f"{where}: malformed float {node['float']!r}")
        return float(node["float"])
    if "dtype" in node:
        if node["dtype"] not in _DTYPES:
            raise UnsafeFileError(f"{where}: unknown dtype {node['dtype']!r}")
        return _DTYPES[node["dtype"]]
    for kind, container in (("dict", dict), ("odict", OrderedDict)):
        if kind in node:
            out = container()
            for item in node[kind]:
                if not (isinstance(item, list) and len(item) == 2):
                    raise UnsafeFileError(f"{where}: malformed dict item {str(item)[:80]}")
                key, value = item
                out[_decode_key(key, where)] = _build(value, arrays, made, where, depth + 1)
            if "metadata" in node:
                out._metadata = _build_metadata(node["metadata"], where)
            return out
    for kind, sequence in (("list", list), ("tuple", tuple), ("size", Size)):
        if kind in node:
            if not isinstance(node[kind], list):
                raise UnsafeFileError(f"{where}: malformed {kind} {node[kind]!r}")
            return sequence([_build(v, arrays, made, where, depth + 1) for v in node[kind]])
    raise UnsafeFileError(f"{where}: unknown structure node {sorted(node)}")


def _build_metadata(items, where):
    metadata = OrderedDict()
    for item in items if isinstance(items, list) else [None]:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
            raise UnsafeFileError(f"{where}: malformed state_dict metadata {str(item)[:80]}")
        key, entry = item
        if not isinstance(entry, dict) or not all(
            v is None or isinstance(v, (str, int, float, bool)) for v in entry.values()
        ):
            raise UnsafeFileError(f"{where}: malformed state_dict metadata {entry!r}")
        metadata[key] = dict(entry)
    return metadata


def _build_tensor(node, arrays, made, where):
    name = node["tensor"]
    if not isinstance(name, str) or name not in arrays:
        raise UnsafeFileError(
            f"{where}: the structure names a tensor {name!r} the file does not hold"
        )
    data = arrays[name]
    if node.get("complex"):
        if data.dtype.kind not in "fV" or data.ndim == 0 or data.shape[-1] != 2:
            raise UnsafeFileError(f"{where}: tensor {name!r} is marked complex but is not (..., 2)")
        data = np.require(data, requirements="C").view(np.result_type(data.dtype, np.complex64))
        data = data.reshape(data.shape[:-1])
    if node.get("ndarray"):
        return data
    key = (name, bool(node.get("requires_grad")), bool(node.get("parameter")))
    if key not in made:  # a tensor stored once and named twice comes back as one object
        tensor = Tensor._make(data)
        if key[2]:  # a Parameter comes back as one, as from torch.load
            from ..nn.parameter import Parameter

            tensor = Parameter(tensor, requires_grad=key[1])
        elif key[1]:
            tensor.requires_grad_(True)
        made[key] = tensor
    return made[key]

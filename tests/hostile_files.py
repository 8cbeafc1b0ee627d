"""Crafted checkpoint files, each built here in memory: zip bombs, lying headers, pickles
that try to run code. ``python tests/hostile_files.py`` prints what numtorch.load does with
each (outcome, CPU seconds, peak traced memory); test_serialization_safety.py asserts it.
"""

from __future__ import annotations

import io
import json
import pickle
import struct
import sys
import time
import tracemalloc
import zipfile
import zlib

import numpy as np

MARKER = "numtorch-hostile-marker"  # a payload that runs would set this attribute on `sys`
MiB = 1 << 20


# -- building blocks ------------------------------------------------------------------------
def op_global(module: str, name: str) -> bytes:
    return f"c{module}\n{name}\n".encode()


def op(value) -> bytes:
    """A plain value as protocol-2 opcodes (pickle's own, without PROTO and STOP)."""
    return pickle.dumps(value, protocol=2)[2:-1]


def tensor_pickle(size=(2,), stride=(1,), offset=0, numel=2, storage="FloatStorage", key="0"):
    return (
        op_global("torch._utils", "_rebuild_tensor_v2")
        + b"(("
        + op("storage")
        + op_global("torch", storage)
        + op(key)
        + op("cpu")
        + op(numel)
        + b"tQ"
        + op(offset)
        + op(tuple(size))
        + op(tuple(stride))
        + b"\x89"
        + op_global("collections", "OrderedDict")
        + b")RtR"
    )


def torch_zip(body: bytes, records=None, compress=zipfile.ZIP_STORED, stop=b".") -> bytes:
    """A torch.save archive whose data.pkl is ``body`` (opcodes after PROTO 2)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compress) as archive:
        archive.writestr("archive/data.pkl", b"\x80\x02" + body + stop)
        archive.writestr("archive/byteorder", "little")
        for key, data in (records or {}).items():
            archive.writestr(f"archive/data/{key}", data)
        archive.writestr("archive/version", "3\n")
    return buffer.getvalue()


def legacy(body: bytes, storages: dict[str, bytes], counts=None) -> bytes:
    """A torch.save file as torch wrote it before 1.6 (storage sizes in float32 elements)."""
    info = {"protocol_version": 1001, "little_endian": True, "type_sizes": {"int": 4}}
    parts = [pickle.dumps(0x1950A86A20F9469CFC6C, 2), pickle.dumps(1001, 2)]
    parts += [pickle.dumps(info, 2), b"\x80\x02" + body + b".", pickle.dumps(list(storages), 2)]
    for key, data in storages.items():
        count = (counts or {}).get(key, len(data) // 4)
        parts += [count.to_bytes(8, "little"), data]
    return b"".join(parts)


def set_marker_pickle() -> bytes:
    """REDUCE(setattr, (sys, MARKER, True)): harmless, but code all the same."""
    return (
        op_global("builtins", "setattr")
        + b"("
        + op_global("builtins", "__import__")
        + op("sys")
        + b"\x85R"
        + op(MARKER)
        + b"\x88tR"
    )


def deflate_bomb(nbytes: int) -> bytes:
    """A raw deflate stream of ``nbytes`` zeros, built without holding them."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = bytes(MiB)
    parts = [compressor.compress(chunk) for _ in range(nbytes // MiB)]
    return b"".join(parts) + compressor.flush()


def raw_zip(*members: tuple[str, bytes, int]) -> bytes:
    """A zip of deflated members, each (name, deflate stream, declared size), written by
    hand so that the directory can declare any size."""
    body, directory = b"", b""
    for name, deflated, declared in members:
        name_bytes, offset = name.encode(), len(body)
        body += struct.pack("<4s5H3I2H", b"PK\x03\x04", 20, 0, 8, 0, 0, 0, len(deflated),
                            declared, len(name_bytes), 0) + name_bytes + deflated  # fmt: skip
        directory += struct.pack("<4s6H3I5H2I", b"PK\x01\x02", 20, 20, 0, 8, 0, 0, 0,
                                 len(deflated), declared, len(name_bytes), 0, 0, 0, 0, 0,
                                 offset) + name_bytes  # fmt: skip
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, len(members), len(members),
                      len(directory), len(body), 0)  # fmt: skip
    return body + directory + end


def deflated(data: bytes) -> bytes:
    return zlib.compress(data)[2:-4]


def npy_header(descr: str, shape) -> bytes:
    text = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {tuple(shape)!r}, }}"
    text += " " * (-(10 + len(text) + 1) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text.encode()


def npz(members: dict[str, bytes], compress=zipfile.ZIP_STORED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compress) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def structure(tree) -> bytes:
    text = json.dumps({"format": "numtorch-checkpoint", "version": 1, **tree})
    return np.frombuffer(text.encode(), dtype=np.uint8).tobytes()


def safetensors(header, data: bytes = b"") -> bytes:
    text = header if isinstance(header, bytes) else json.dumps(header).encode()
    return struct.pack("<Q", len(text)) + text + data


def f32(name, start, stop, shape):
    return {name: {"dtype": "F32", "shape": shape, "data_offsets": [start, stop]}}


def _valid_torch_file() -> bytes:
    body = b"}(" + op("w") + tensor_pickle() + b"u"
    return torch_zip(b"}" + body[1:], {"0": np.ones(2, np.float32).tobytes()})


# -- the campaign: name -> (file bytes, what load must do) ----------------------------------
def campaign() -> dict[str, tuple[bytes, str]]:
    deep_list = b"]" * 1_000_000 + b"a" * 999_999
    many_objects = b"]" + b"\x8fa" * 4_000_000  # EMPTY_SET, APPEND: ~110 bytes per byte
    valid = _valid_torch_file()
    npz_structure = {"__numtorch_structure__.npy": npy_header("|u1", (0,))}
    cases = {
        "npz zip bomb (1 GiB of zeros in 1 MB)": (
            raw_zip(("x.npy", deflate_bomb(1 << 30), 1 << 30)),
            "refused",
        ),
        "zip member lying about its size": (
            raw_zip(("archive/data.pkl", deflate_bomb(64 * MiB), 100)),
            "refused",
        ),
        "zip member with an impossible ratio": (
            raw_zip(("x.npy", deflated(b"x"), 10 * MiB)),
            "refused",
        ),
        "npy header declaring 10^12 elements": (
            npz({"x.npy": npy_header("<f8", (10**12,)) + bytes(8), **npz_structure}),
            "refused",
        ),
        "npz object array (pickle inside)": (
            npz({"x.npy": npy_header("|O", (1,)) + pickle.dumps([1]), **npz_structure}),
            "refused",
        ),
        "torch zip, storage record deflate bomb": (
            raw_zip(
                (
                    "archive/data.pkl",
                    deflated(b"\x80\x02" + tensor_pickle(numel=1 << 28) + b"."),
                    len(tensor_pickle(numel=1 << 28)) + 3,
                ),
                ("archive/data/0", deflate_bomb(1 << 30), 1 << 30),
            ),  # fmt: skip
            "refused",
        ),
        "torch zip, storage longer than its record": (
            torch_zip(tensor_pickle(numel=1 << 40), {"0": bytes(8)}),
            "refused",
        ),
        "torch zip, view past the storage's end": (
            torch_zip(tensor_pickle(size=(4, 4), stride=(4, 1)), {"0": bytes(8)}),
            "refused",
        ),
        "torch zip, negative offset": (
            torch_zip(tensor_pickle(offset=-1), {"0": bytes(8)}),
            "refused",
        ),
        "torch zip, 2^62-element shape on a 2-element storage": (
            torch_zip(tensor_pickle(size=(2**31, 2**31), stride=(0, 0)), {"0": bytes(8)}),
            "refused",  # a valid view in torch, past what NumPy can index
        ),
        "torch zip, storage record missing": (torch_zip(tensor_pickle()), "refused"),
        "torch zip, truncated to half": (valid[: len(valid) // 2], "refused"),
        "torch zip, data.pkl truncated": (torch_zip(b"}(" + op("w"), stop=b""), "refused"),
        "torch zip, REDUCE builtins.setattr payload": (torch_zip(set_marker_pickle()), "refused"),
        "torch zip, STACK_GLOBAL os.system": (
            torch_zip(op("os") + op("system") + b"\x93" + op("true") + b"\x85R"),
            "refused",
        ),
        "torch zip, nn.Linear called with 10^6 x 10^6": (
            torch_zip(
                op_global("numtorch.nn.modules.linear", "Linear") + op((10**6, 10**6)) + b"R"
            ),
            "refused",
        ),
        "torch zip, BUILD on the float32 singleton": (
            torch_zip(op_global("torch", "float32") + b"N}" + op("itemsize") + op(99) + b"s\x86b"),
            "refused",
        ),
        "torch zip, bytearray(10^12)": (
            torch_zip(op_global("builtins", "bytearray") + op(10**12) + b"\x85R"),
            "refused",
        ),
        "torch zip, 1,000,000-deep nested lists": (torch_zip(deep_list), "refused"),
        "torch zip, 100,000-deep nested lists": (
            torch_zip(b"]" * 100_000 + b"a" * 99_999),
            "loaded",
        ),
        "torch zip, 4 M empty sets (8 MB pickle)": (torch_zip(many_objects), "refused"),
        "torch zip, 1.1 M views of one storage": (_many_views(1_100_000), "refused"),
        "torch zip, 1,000 views of one storage": (_many_views(1_000), "loaded"),
        "legacy torch file, storage bytes cut short": (
            legacy(tensor_pickle(), {"0": bytes(4)}, {"0": 2}),
            "refused",
        ),
        "legacy torch file, storage larger than the file": (
            legacy(tensor_pickle(numel=1 << 40), {"0": bytes(8)}),
            "refused",
        ),
        "legacy torch file, storage list not matching": (
            legacy(tensor_pickle(), {"1": bytes(8)}),
            "refused",
        ),
        "legacy torch file, setattr(sys) payload": (legacy(set_marker_pickle(), {}), "refused"),
        "safetensors, 19 MB header of 200,000 entries": (_big_safetensors(200_000), "refused"),
        "safetensors, overlapping offsets": (
            safetensors({**f32("a", 0, 8, [2]), **f32("b", 4, 12, [2])}, bytes(12)),
            "refused",
        ),
        "safetensors, gap between tensors": (
            safetensors({**f32("a", 0, 8, [2]), **f32("b", 12, 20, [2])}, bytes(20)),
            "refused",
        ),
        "safetensors, shape product overflow": (
            safetensors(f32("a", 0, 8, [2**62, 2**62, 4]), bytes(8)),
            "refused",
        ),
        "safetensors, offsets past the end": (
            safetensors(f32("a", 0, 8, [2]), bytes(4)),
            "refused",
        ),
        "safetensors, 100,000-deep JSON header": (
            safetensors(b'{"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
            "refused",
        ),
        "safetensors, duplicate tensor names": (
            safetensors(
                b'{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},'
                b'"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}',
                bytes(8),
            ),
            "refused",
        ),  # fmt: skip
        "safetensors, numtorch tree 100,000 deep": (
            safetensors({"__metadata__": {"numtorch": _deep_tree(100_000)}}),
            "refused",
        ),
        "safetensors, numtorch tree 300 deep": (
            safetensors({"__metadata__": {"numtorch": _deep_tree(300)}}),
            "refused",
        ),
        "safetensors, numtorch tree without root": (
            safetensors(
                {"__metadata__": {"numtorch": '{"format":"numtorch-checkpoint","version":1}'}}
            ),
            "refused",
        ),  # fmt: skip
        "plain pickle, os.system payload": (
            b"\x80\x02" + op_global("os", "system") + op("true") + b"\x85R.",
            "refused",
        ),
        "plain pickle, 19 M opcodes (protocol 2)": (
            b"\x80\x02(" + b"N" * 19_000_000 + b"l.",
            "refused",
        ),
        "plain pickle, 19 M opcodes (protocol 0)": (b"(" + b"N" * 19_000_000 + b"l.", "refused"),
        "garbage bytes": (b"\x00\x01garbage" * 100, "refused"),
    }
    return cases


def _many_views(count: int) -> bytes:
    """``count`` tensors on one 2-element storage, each 14 bytes of pickle (memoized parts)."""
    head = (
        op_global("torch._utils", "_rebuild_tensor_v2")
        + b"q\x000("
        + _text("storage")
        + op_global("torch", "FloatStorage")
        + _text("0")
        + _text("cpu")
        + b"K\x02tQq\x010K\x00q\x020K\x02\x85q\x030K\x01\x85q\x040"
        + op_global("collections", "OrderedDict")
        + b"q\x050"
    )
    unit = b"h\x00(h\x01h\x02h\x03h\x04\x89h\x05)RtRa"
    return torch_zip(b"]" + head + unit * count, {"0": bytes(8)})


def _text(value: str) -> bytes:
    data = value.encode()
    return b"X" + struct.pack("<I", len(data)) + data


def _big_safetensors(count: int) -> bytes:
    header = {}
    for i in range(count):
        header.update(f32(f"model.layers.{i:06d}.weight", 4 * i, 4 * i + 4, [1]))
    return safetensors(header, bytes(4 * count))


def _deep_tree(depth: int) -> str:
    return (
        '{"format":"numtorch-checkpoint","version":1,"root":'
        + '{"list":[' * depth
        + ("]}" * depth + "}")
    )


def _load(data: bytes, kwargs):
    import numtorch

    try:
        numtorch.load(io.BytesIO(data), **kwargs)
        return "loaded", None
    except Exception as caught:  # the type is what the caller checks
        return "refused", caught


def attempt(data: bytes, **kwargs):
    """Loads ``data`` twice: timed (CPU seconds), then traced (peak bytes, which tracing
    slows); returns (outcome, error, seconds, peak)."""
    start = time.process_time()
    outcome, error = _load(data, kwargs)
    seconds = time.process_time() - start
    tracemalloc.start()
    _load(data, kwargs)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return outcome, error, seconds, peak


def main() -> None:
    _load(_valid_torch_file(), {})  # imports done before timing
    print(f"| input | size | outcome | CPU s | peak MiB | error |\n|{'---|' * 6}")
    for name, (data, _) in campaign().items():
        outcome, error, seconds, peak = attempt(data)
        message = "" if error is None else f"{type(error).__name__}: {str(error)[:110]}"
        print(f"| {name} | {len(data) / MiB:.2f} MiB | {outcome} | {seconds:.2f} | "
              f"{peak / MiB:.1f} | {message} |")  # fmt: skip
    assert not hasattr(sys, MARKER), "a payload ran"


if __name__ == "__main__":
    main()

"""numtorch.save/load: round trips of nested state, validation, and refusal of pickles."""

import argparse
import io
import json
import math
import pickle
import struct
import zipfile
from collections import OrderedDict

import numpy as np
import pytest

import numtorch as torch
from numtorch.serialization import PickleRefusedError, UnsafeFileError, checkpoint

try:
    import safetensors.numpy  # noqa: F401 - only to check files against the reference reader

    HAS_SAFETENSORS = True
except ImportError:
    HAS_SAFETENSORS = False


@pytest.fixture(params=["torch", "safetensors", "npz"])
def fmt(request, monkeypatch):
    monkeypatch.setattr(checkpoint, "file_format", lambda f: request.param)
    return request.param


def round_trip(obj):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    buffer.seek(0)
    return torch.load(buffer)


def assert_same(loaded, original, path="obj"):
    assert type(loaded) is type(original) or (
        isinstance(original, torch.Tensor) and type(loaded) is torch.Tensor
    ), path
    if isinstance(original, torch.Tensor):
        assert loaded.dtype == original.dtype and loaded.shape == original.shape, path
        np.testing.assert_array_equal(loaded.detach().numpy(), original.detach().numpy(), path)
        assert loaded.requires_grad == original.requires_grad, path
    elif isinstance(original, np.ndarray):
        assert loaded.dtype == original.dtype, path
        np.testing.assert_array_equal(loaded, original, path)
    elif isinstance(original, dict):
        assert list(loaded) == list(original), path
        for key in original:
            assert_same(loaded[key], original[key], f"{path}[{key!r}]")
    elif isinstance(original, (list, tuple)):
        assert len(loaded) == len(original), path
        for i, (a, b) in enumerate(zip(loaded, original)):
            assert_same(a, b, f"{path}[{i}]")
    elif isinstance(original, float) and math.isnan(original):
        assert math.isnan(loaded), path
    else:
        assert loaded == original, path


def nested_state():
    return {
        "model": OrderedDict(
            [
                ("fc.weight", torch.randn(3, 2)),
                ("fc.bias", torch.zeros(3)),
                ("bn.n", torch.tensor(7)),
            ]
        ),
        "optimizer": {
            "state": {0: {"step": torch.tensor(3.0), "exp_avg": torch.ones(3, 2)}},
            "param_groups": [{"lr": 0.1, "betas": (0.9, 0.999), "params": [0, 1], "foreach": None}],
        },
        "epoch": 12,
        "loss": 0.25,
        "best": float("inf"),
        "bad": float("nan"),
        "done": False,
        "name": "run-1 ✓",
        "shape": torch.Size([2, 3]),
        "empty": [[], {}, ()],
        "array": np.arange(6, dtype=np.int32).reshape(2, 3),
        3: "int key",
        2.5: "float key",
        None: "none key",
        True: "bool key",
    }


def test_nested_round_trip(fmt):
    state = nested_state()
    if fmt == "torch":
        # torch.save pickles a NumPy array; the weights_only reader refuses it by name, and
        # weights_only=False rebuilds it (from NumPy's own pickle, running nothing else)
        buffer = io.BytesIO()
        torch.save(state, buffer)
        buffer.seek(0)
        with pytest.raises(pickle.UnpicklingError, match=r"_reconstruct"):
            torch.load(buffer)
        buffer.seek(0)
        assert_same(torch.load(buffer, weights_only=False), state)
        del state["array"]
    assert_same(round_trip(state), state)


@pytest.mark.parametrize(
    "dtype",
    [
        torch.float16,
        torch.float32,
        torch.float64,
        torch.complex64,
        torch.complex128,
        torch.uint8,
        torch.int8,
        torch.int16,
        torch.int32,
        torch.int64,
        torch.bool,
    ],
)
def test_every_dtype_and_shape_round_trips(fmt, dtype):
    data = np.arange(-3, 9).reshape(3, 4)
    if dtype.is_complex:
        data = data + 1j * data[::-1]
    full = torch.tensor(data).to(dtype)
    values = {
        "full": full,
        "scalar": full[1, 2],
        "empty": full[:0],
        "transposed": full.t(),  # not contiguous
    }
    assert_same(round_trip(values), {k: v.contiguous() for k, v in values.items()})


def test_shared_tensor_and_requires_grad(fmt):
    w = torch.ones(2, requires_grad=True)
    b = torch.zeros(2)
    out = round_trip({"a": w, "b": b, "again": [w, b]})
    assert out["again"][0] is out["a"] and out["again"][1] is out["b"]
    assert out["a"].requires_grad and out["a"].is_leaf and not out["b"].requires_grad
    out["b"].add_(1)  # loaded tensors own writable memory
    assert out["b"].tolist() == [1.0, 1.0]


def test_save_to_path_and_resume_optimizer(fmt, tmp_path):
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    opt = torch.optim.Adam([w], lr=0.1, amsgrad=True)

    def train(params, optimizer, steps):
        for _ in range(steps):
            optimizer.zero_grad()
            (params[0] ** 4).sum().backward()
            optimizer.step()

    train([w], opt, 3)
    path = tmp_path / "ckpt.pt"
    torch.save({"w": w.detach(), "opt": opt.state_dict()}, path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt.pt"]  # no temporary left
    train([w], opt, 3)

    saved = torch.load(str(path))
    w2 = saved["w"].requires_grad_()
    opt2 = torch.optim.Adam([w2], lr=0.1, amsgrad=True)
    opt2.load_state_dict(saved["opt"])
    train([w2], opt2, 3)
    assert w2.tolist() == w.tolist()


@pytest.mark.skipif(not HAS_SAFETENSORS, reason="safetensors not installed")
def test_flat_state_dict_keeps_its_names_in_safetensors(tmp_path):
    from safetensors.numpy import load_file

    state = {"fc.weight": torch.randn(2, 3), "fc.bias": torch.zeros(2)}
    torch.save(state, tmp_path / "m.safetensors")
    arrays = load_file(tmp_path / "m.safetensors")
    assert sorted(arrays) == ["fc.bias", "fc.weight"]
    np.testing.assert_array_equal(arrays["fc.weight"], state["fc.weight"].numpy())


def test_unsupported_objects_are_refused_with_their_path(fmt):
    # an object pickle cannot reduce (a generator) is refused by type and path
    with pytest.raises(TypeError, match=r"cannot store an object of type .*generator at 'a.1'"):
        torch.save({"a": [1, (i for i in ())]}, io.BytesIO())
    if fmt == "torch":
        with pytest.raises(TypeError, match=r"type builtins.generator at 'x'"):
            torch.save({"x": {(i for i in ()): 3}}, io.BytesIO())
    else:
        with pytest.raises(TypeError, match=r"dict key <object .*> at 'x' is a object"):
            torch.save({"x": {object(): 3}}, io.BytesIO())


def test_other_objects_save_as_torch_pickles_them():
    # torch.save pickles any object; loading one is refused by its class's name unless
    # allowed, even with weights_only=False (Note [What a torch checkpoint may run])
    buffer = io.BytesIO()
    torch.save({"opt": torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)}, buffer)
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match=r"optim.sgd.SGD"):
        torch.load(buffer, weights_only=False)
    args = argparse.Namespace(lr=0.1, layers=[1, 2], device="cpu")
    buffer = io.BytesIO()
    torch.save({"args": args, "w": torch.ones(2)}, buffer)
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match=r"argparse.Namespace"):
        torch.load(buffer)
    buffer.seek(0)
    assert torch.load(buffer, weights_only=False)["args"] == args


# -- refusing pickles ---------------------------------------------------------------------------
class WritesMarker:
    """Unpickling this runs ``exec``, which writes a marker file."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (exec, (f"open({self.marker!r}, 'w').write('pwned')",))


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
@pytest.mark.parametrize("weights_only", [True, False])
def test_crafted_pickle_is_refused_and_never_run(tmp_path, protocol, weights_only):
    marker = tmp_path / "marker"
    path = tmp_path / "evil.pt"
    path.write_bytes(pickle.dumps({"state": WritesMarker(marker)}, protocol=protocol))
    with pytest.raises(pickle.UnpicklingError) as info:
        torch.load(path, weights_only=weights_only)
    assert isinstance(info.value, PickleRefusedError)
    message = str(info.value)
    assert "is a Python pickle" in message and "builtins.exec" in message
    assert "may be malicious" in message and "safetensors" in message
    assert not marker.exists()


def test_pickle_inside_zip_is_refused(tmp_path):
    marker = tmp_path / "marker"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("archive/data.pkl", pickle.dumps(WritesMarker(marker), protocol=2))
        archive.writestr("archive/version", "3")
    buffer.seek(0)
    with pytest.raises(PickleRefusedError, match=r"Unsupported global: GLOBAL builtins\.exec"):
        torch.load(buffer)
    assert not marker.exists()


def test_npz_with_object_arrays_is_refused(tmp_path):
    marker = tmp_path / "marker"
    path = tmp_path / "evil.npz"
    np.savez(path, x=np.array([WritesMarker(marker)], dtype=object))
    with pytest.raises(UnsafeFileError, match="object arrays are pickles"):
        torch.load(path)
    assert not marker.exists()


def test_foreign_npz_and_garbage_are_refused_clearly(tmp_path):
    np.savez(tmp_path / "plain.npz", x=np.zeros(2))
    with pytest.raises(ValueError, match="not written by numtorch.save"):
        torch.load(tmp_path / "plain.npz")
    (tmp_path / "junk").write_bytes(b"hello world, not a checkpoint")
    # torch's unpickler would fail on these bytes: the same error type
    with pytest.raises(pickle.UnpicklingError, match="zip format, safetensors or .npz"):
        torch.load(tmp_path / "junk")
    (tmp_path / "empty").write_bytes(b"")
    with pytest.raises(EOFError):
        torch.load(tmp_path / "empty")


def test_tuple_keys_dtypes_and_parameters_round_trip():
    buffer = io.BytesIO()
    p = torch.nn.Parameter(torch.ones(2))
    torch.save({(1, ("a", 2)): torch.float64, "p": p, "size": torch.Size([2])}, buffer)
    buffer.seek(0)
    back = torch.load(buffer)
    assert back[(1, ("a", 2))] is torch.float64
    assert type(back["p"]) is torch.nn.Parameter and back["p"].requires_grad
    assert back["size"] == torch.Size([2])


def test_save_checks_its_destination(tmp_path):
    with pytest.raises(AttributeError):
        torch.save({}, 5)
    with pytest.raises(RuntimeError, match="Parent directory"):
        torch.save({}, tmp_path / "missing" / "x.pt")


# -- validating safetensors headers -------------------------------------------------------------
def safetensors_bytes(header: dict, data: bytes) -> bytes:
    text = json.dumps(header).encode()
    return struct.pack("<Q", len(text)) + text + data


@pytest.mark.parametrize(
    ("header", "data", "error", "match"),
    [
        ({"w": {"dtype": "F8_E4M3", "shape": [2], "data_offsets": [0, 2]}}, bytes(2), TypeError,
         "dtype F8_E4M3, which numtorch cannot hold"),
        ({"w": {"dtype": "Q7", "shape": [1], "data_offsets": [0, 1]}}, bytes(1), UnsafeFileError,
         "unknown dtype 'Q7'"),
        ({"w": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}}, bytes(8), ValueError,
         "needs 12 bytes but its byte range holds 8"),
        ({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, bytes(8), ValueError,
         "outside the file's 8 data bytes"),
        ({"w": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}, bytes(4), ValueError,
         "invalid shape"),
        ({"w": {"dtype": "F32", "shape": [1]}}, bytes(4), ValueError,
         "needs exactly 'dtype', 'shape' and 'data_offsets'"),
        ({"__metadata__": {"numtorch": 3}}, b"", ValueError, "must map strings to strings"),
    ],
)  # fmt: skip
def test_bad_safetensors_headers_are_rejected(header, data, error, match):
    with pytest.raises(error, match=match):
        torch.load(io.BytesIO(safetensors_bytes(header, data)))


def test_bad_structure_metadata_is_rejected():
    tensor = {"w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}
    trees = {
        "missing tensor": {"format": "numtorch-checkpoint", "version": 1, "root": {"tensor": "v"}},
        "unknown node": {"format": "numtorch-checkpoint", "version": 1, "root": {"code": "x"}},
        "newer version": {"format": "numtorch-checkpoint", "version": 99, "root": {"value": 1}},
    }
    for expected, tree in trees.items():
        header = {"__metadata__": {"numtorch": json.dumps(tree)}, **tensor}
        with pytest.raises(ValueError, match=expected.split()[-1]):
            torch.load(io.BytesIO(safetensors_bytes(header, bytes(4))))


def test_foreign_safetensors_load_as_a_flat_dict():
    header = {
        "b": {"dtype": "I64", "shape": [2], "data_offsets": [0, 16]},
        "a": {"dtype": "BOOL", "shape": [], "data_offsets": [16, 17]},
    }
    data = np.array([5, -6], dtype=np.int64).tobytes() + b"\x01"
    out = torch.load(io.BytesIO(safetensors_bytes(header, data)))
    assert list(out) == ["b", "a"]
    assert out["b"].tolist() == [5, -6] and out["a"].dtype == torch.bool and out["a"].item()


def test_map_location_is_cpu_only():
    buffer = io.BytesIO()
    torch.save({"x": torch.ones(1)}, buffer)
    buffer.seek(0)
    assert torch.load(buffer, map_location="cpu")["x"].tolist() == [1.0]
    buffer.seek(0)
    with pytest.raises(RuntimeError, match="CPU only"):
        torch.load(buffer, map_location="cuda:0")


def test_load_from_a_stream_position_and_a_pipe_like_reader(fmt):
    buffer = io.BytesIO()
    buffer.write(b"header bytes of another format")
    start = buffer.tell()
    torch.save([torch.arange(3)], buffer)
    buffer.seek(start)
    assert torch.load(buffer)[0].tolist() == [0, 1, 2]

    class Pipe(io.RawIOBase):
        def __init__(self, data):
            self.data = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, b):
            chunk = self.data.read(len(b))
            b[: len(chunk)] = chunk
            return len(chunk)

    buffer.seek(start)
    assert torch.load(io.BufferedReader(Pipe(buffer.read())))[0].tolist() == [0, 1, 2]


def test_allowlisting_code_execution_is_refused():
    import os
    import subprocess

    from numtorch import serialization

    for dangerous in (eval, exec, os.system, pickle.loads, subprocess.Popen, (len, "os.popen")):
        with pytest.raises(ValueError, match="refusing to allowlist .*arbitrary code"):
            serialization.add_safe_globals([dangerous])
    assert serialization.get_safe_globals() == []
    serialization.add_safe_globals([OrderedDict])
    assert serialization.get_safe_globals() == [OrderedDict]
    serialization.clear_safe_globals()
    assert serialization.get_safe_globals() == []


def test_state_dict_metadata_round_trips(fmt):
    model = torch.nn.Sequential(torch.nn.Linear(1, 1), torch.nn.BatchNorm1d(1))
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    buffer.seek(0)
    loaded = torch.load(buffer)
    assert loaded._metadata == model.state_dict()._metadata


def test_bfloat16_round_trips_where_the_format_holds_it(tmp_path):
    w = torch.tensor([1.0, 1 / 3, -3e38]).to(torch.bfloat16)
    for suffix in (".pt", ".safetensors"):
        torch.save({"w": w}, tmp_path / f"m{suffix}")
        loaded = torch.load(tmp_path / f"m{suffix}")["w"]
        assert loaded.dtype is torch.bfloat16
        assert loaded.float().tolist() == w.float().tolist()
    with pytest.raises(TypeError, match=r"\.npz file cannot hold the bfloat16 tensor"):
        torch.save({"w": w}, tmp_path / "m.npz")
    assert not (tmp_path / "m.npz").exists()

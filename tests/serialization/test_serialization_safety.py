"""numtorch.load under hostile files: every crafted file is refused (with UnsafeFileError
naming the file and the problem) or loaded, in bounded time and memory, and no payload runs.
"""

import io
import pickle
import sys
import zipfile

import numpy as np
import pytest
from hostile_files import (
    MARKER,
    MiB,
    attempt,
    campaign,
    op,
    op_global,
    tensor_pickle,
    torch_zip,
)

import numtorch as torch
from numtorch.serialization import UnsafeFileError

CASES = campaign()


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_file_is_refused_or_loaded_within_bounds(name):
    data, expected = CASES[name]
    torch.load(io.BytesIO(torch_zip(b"N")))  # imports done before timing
    outcome, error, seconds, peak = attempt(data)
    assert outcome == expected, error
    if error is not None:
        assert isinstance(error, UnsafeFileError), repr(error)
        assert "the given file object" in str(error)
    assert seconds < 2.0, f"{seconds:.2f} s of CPU"
    # stored formats declare at most the file's size in tensor bytes
    assert peak < 64 * MiB + 2 * len(data), f"{peak / MiB:.1f} MiB"
    assert not hasattr(sys, MARKER)


def test_errors_name_the_file_and_are_torch_compatible_types(tmp_path):
    path = tmp_path / "broken.pt"
    path.write_bytes(torch_zip(tensor_pickle(numel=100), {"0": bytes(8)}))
    with pytest.raises(UnsafeFileError, match=r"broken\.pt'.*storage '0' declares 100 elements"):
        torch.load(path)
    for kind in (pickle.UnpicklingError, RuntimeError, ValueError):
        with pytest.raises(kind):
            torch.load(path)


def test_max_bytes_caps_and_raises_the_budget():
    data = np.arange(1 << 18, dtype=np.float32)  # 1 MiB
    buffer = io.BytesIO()
    torch.save({"w": torch.tensor(data)}, buffer)
    with pytest.raises(UnsafeFileError, match=r"declares 1,048,732 bytes.*pass a larger max_bytes"):
        torch.load(io.BytesIO(buffer.getvalue()), max_bytes=1 << 19)
    loaded = torch.load(io.BytesIO(buffer.getvalue()), max_bytes=2 << 20)
    np.testing.assert_array_equal(loaded["w"].numpy(), data)
    with pytest.raises(TypeError, match="max_bytes must be a non-negative int"):
        torch.load(io.BytesIO(buffer.getvalue()), max_bytes=-1)


def test_compressed_npz_past_the_default_budget_loads_with_max_bytes(tmp_path):
    # 128 MiB of zeros compress ~1000x: refused by default, loaded when the user says so
    buffer = io.BytesIO()
    torch.save({"z": torch.zeros(1 << 25)}, buffer)  # a torch zip, stored: 128 MiB
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as stored:
        path = tmp_path / "zeros.pt"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as packed:
            for info in stored.infolist():
                packed.writestr(info.filename, stored.read(info))
    assert path.stat().st_size < 1 * MiB
    with pytest.raises(UnsafeFileError, match="pass a larger max_bytes"):
        torch.load(path)
    assert torch.load(path, max_bytes=200 * MiB)["z"].shape == (1 << 25,)


def test_big_safetensors_header_loads_in_linear_time_when_allowed():
    from hostile_files import _big_safetensors

    data = _big_safetensors(40_000)
    with pytest.raises(UnsafeFileError, match="safetensors header .* pass a larger max_bytes"):
        torch.load(io.BytesIO(data), max_bytes=1 << 20)
    loaded = torch.load(io.BytesIO(data), max_bytes=1 << 30)
    assert len(loaded) == 40_000 and loaded["model.layers.039999.weight"].shape == (1,)


def test_payload_inside_an_allowlisted_module_is_refused(tmp_path):
    # numtorch's Linear is allowed, but the state it is given names os.system
    body = (
        op_global("numtorch.nn.modules.linear", "Linear")
        + b")\x81}"
        + op("payload")
        + op_global("os", "system")
        + op("true")
        + b"\x85Rsb"
    )
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL os.system"):
        torch.load(io.BytesIO(torch_zip(body)), weights_only=False)


def test_placeholders_cannot_be_called_while_loading():
    # REDUCE on a rebuilt module would run its forward with the file's arguments
    body = op_global("numtorch.nn.modules.activation", "ReLU") + b")\x81" + op((1,)) + b"R"
    with pytest.raises(UnsafeFileError, match="not callable"):
        torch.load(io.BytesIO(torch_zip(body)), weights_only=False)


def test_allowed_classes_are_never_called_with_the_files_arguments():
    body = op_global("numtorch.nn.modules.linear", "Linear") + op((10**6, 10**6)) + b"R"
    with pytest.raises(UnsafeFileError, match="Linear with constructor arguments"):
        torch.load(io.BytesIO(torch_zip(body)), weights_only=False)


def test_dtype_altered_by_a_file_is_restored():
    before = (torch.float32.itemsize, torch.float32.is_floating_point)
    body = op_global("torch", "float32") + b"N}" + op("itemsize") + op(99) + b"s\x86b"
    with pytest.raises(UnsafeFileError, match="alters torch.float32"):
        torch.load(io.BytesIO(torch_zip(body)))
    assert (torch.float32.itemsize, torch.float32.is_floating_point) == before


def test_storage_on_another_device_needs_map_location():
    body = tensor_pickle().replace(op("cpu"), op("cuda:0"))
    data = torch_zip(body, {"0": np.ones(2, np.float32).tobytes()})
    with pytest.raises(RuntimeError, match="CUDA device .* map_location"):
        torch.load(io.BytesIO(data))
    assert torch.load(io.BytesIO(data), map_location="cpu").tolist() == [1.0, 1.0]


def test_big_endian_archives_are_swapped():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("archive/data.pkl", b"\x80\x02" + tensor_pickle() + b".")
        archive.writestr("archive/byteorder", "big")
        archive.writestr("archive/data/0", np.array([1.5, -2.0], ">f4").tobytes())
    assert torch.load(io.BytesIO(buffer.getvalue())).tolist() == [1.5, -2.0]

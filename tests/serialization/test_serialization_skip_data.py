"""torch.serialization.skip_data: a checkpoint's layout saved and loaded without its bytes."""

from __future__ import annotations

import io

import pytest

import numtorch

torch = pytest.importorskip("torch")


def _checkpoint(lib):
    x = lib.arange(6.0).reshape(2, 3)
    return {"a": x, "row": x[1], "ints": x.int(), "step": 3}


def _described(lib, loaded):
    x = loaded["a"]
    return (
        x.tolist(),
        loaded["row"].tolist(),
        loaded["ints"].tolist(),
        str(loaded["ints"].dtype),
        loaded["step"],
        x.add_(1) is x and loaded["row"].tolist(),  # the view still shares the storage
    )


def test_a_save_inside_skip_data_writes_zeros_in_the_same_layout():
    def program(lib):
        buffer = io.BytesIO()
        with lib.serialization.skip_data():
            lib.save(_checkpoint(lib), buffer)
        buffer.seek(0)
        return _described(lib, lib.load(buffer))

    assert program(numtorch) == program(torch)
    assert program(numtorch)[0] == [[0.0] * 3] * 2


@pytest.mark.parametrize("writer", ["torch", "numtorch"])
def test_a_load_inside_skip_data_rebuilds_the_layout_without_the_bytes(writer):
    buffer = io.BytesIO()
    lib = torch if writer == "torch" else numtorch
    lib.save(_checkpoint(lib), buffer)
    with numtorch.serialization.skip_data():
        buffer.seek(0)
        loaded = numtorch.load(buffer)
    assert loaded["a"].shape == (2, 3) and loaded["a"].dtype == numtorch.float32
    assert loaded["ints"].dtype == numtorch.int32 and loaded["step"] == 3
    assert loaded["a"].tolist() == [[0.0] * 3] * 2  # torch leaves them uninitialised
    buffer.seek(0)
    assert numtorch.load(buffer)["a"].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


@pytest.mark.parametrize("lib", [torch, numtorch], ids=["torch", "numtorch"])
def test_skip_data_refuses_the_legacy_format_and_restores_the_state(lib):
    refused = pytest.raises(RuntimeError, match="Cannot use skip_data=True")
    with refused, lib.serialization.skip_data(materialize_fake_tensors=True):
        lib.save(lib.ones(1), io.BytesIO(), _use_new_zipfile_serialization=False)
    buffer = io.BytesIO()
    lib.save(lib.ones(2), buffer)  # outside the context again: the bytes are written
    buffer.seek(0)
    assert lib.load(buffer).tolist() == [1.0, 1.0]


@pytest.mark.parametrize("suffix", [".safetensors", ".npz"])
def test_the_array_formats_are_written_as_zeros_too(tmp_path, suffix):
    path = tmp_path / f"zeros{suffix}"
    with numtorch.serialization.skip_data():
        numtorch.save({"w": numtorch.ones(2, 2), "n": 1}, path)
    loaded = numtorch.load(path)
    assert loaded["w"].tolist() == [[0.0, 0.0], [0.0, 0.0]] and loaded["n"] == 1

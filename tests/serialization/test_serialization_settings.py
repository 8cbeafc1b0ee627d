"""torch.serialization's settings, storage locations and checkpoint inspection, against an
installed torch: the same answers, the same errors."""

import io
import re

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity
ours, theirs = numtorch.serialization, torch.serialization


def saved(lib, obj, **kwargs) -> bytes:
    buffer = io.BytesIO()
    lib.save(obj, buffer, **kwargs)
    return buffer.getvalue()


@pytest.fixture
def restore_settings():
    yield
    for lib in (ours, theirs):
        lib.set_crc32_options(True)
        lib.set_default_load_endianness(None)


def test_constants_match_torch():
    names = "DEFAULT_PROTOCOL LONG_SIZE INT_SIZE SHORT_SIZE MAGIC_NUMBER PROTOCOL_VERSION"
    for name in [*names.split(), "STORAGE_KEY_SEPARATOR", "MAP_PRIVATE", "MAP_SHARED"]:
        assert getattr(ours, name) == getattr(theirs, name), name
    assert [(e.name, e.value) for e in ours.LoadEndianness] == [
        (e.name, e.value) for e in theirs.LoadEndianness
    ]
    assert issubclass(ours.SourceChangeWarning, Warning)


def test_torch_files_written_without_checksums_load(restore_settings):
    theirs.set_crc32_options(False)  # torch then writes a CRC-32 of 0 for every record
    data = saved(torch, {"w": torch.arange(6.0).reshape(2, 3), "n": 3})
    loaded = numtorch.load(io.BytesIO(data))
    assert loaded["n"] == 3 and loaded["w"].tolist() == [[0, 1, 2], [3, 4, 5]]
    ours.set_crc32_options(False)
    assert ours.get_crc32_options() is False
    # numtorch writes the checksums anyway: its file loads in torch either way
    assert torch.load(io.BytesIO(saved(numtorch, numtorch.ones(2)))).tolist() == [1, 1]


def test_a_corrupt_record_is_still_found_where_the_file_has_checksums():
    data = bytearray(saved(torch, torch.arange(64, dtype=torch.uint8)))
    at = bytes(data).index(bytes(range(64)))
    data[at + 5] ^= 0xFF
    with pytest.raises(ours.UnsafeFileError, match="Bad CRC-32"):
        numtorch.load(io.BytesIO(bytes(data)))


def test_fallback_byte_order_of_files_without_the_record(restore_settings):
    x = torch.tensor([1.0, 2.0], dtype=torch.float64)
    data = saved(torch, x, _disable_byteorder_record=True)
    for endianness in (None, "LITTLE", "BIG", "NATIVE"):
        for lib in (ours, theirs):
            lib.set_default_load_endianness(endianness and lib.LoadEndianness[endianness])
        expected = torch.load(io.BytesIO(data)).tolist()
        assert numtorch.load(io.BytesIO(data)).tolist() == expected, endianness
    assert ours.get_default_load_endianness() is ours.LoadEndianness.NATIVE
    with pytest.raises(TypeError):
        ours.set_default_load_endianness("big")


def test_default_mmap_options():
    assert ours.get_default_mmap_options() == theirs.get_default_mmap_options()
    with ours.set_default_mmap_options(ours.MAP_SHARED):
        assert ours.get_default_mmap_options() == ours.MAP_SHARED
    assert ours.get_default_mmap_options() == ours.MAP_PRIVATE
    for lib in (ours, theirs):
        with pytest.raises(ValueError, match="expected mmap.MAP_PRIVATE or mmap.MAP_SHARED"):
            lib.set_default_mmap_options(12345)


@pytest.mark.parametrize("case", ["state_dict", "module", "numpy", "plain"])
def test_unsafe_globals_are_the_ones_torch_lists(case):
    def make(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.ReLU())
        return {
            "state_dict": model.state_dict(),
            "module": model,
            "numpy": {"x": np.ones(3), "y": np.float64(2)},
            "plain": {"a": [1, 2.5, "s"], "b": (lib.float16, lib.Size([2]), {3})},
        }[case]

    data = saved(torch, make(torch))
    expected = sorted(theirs.get_unsafe_globals_in_checkpoint(io.BytesIO(data)))
    assert sorted(ours.get_unsafe_globals_in_checkpoint(io.BytesIO(data))) == expected
    if case != "numpy":  # numtorch's own file names numtorch's classes, the same ones
        mine = ours.get_unsafe_globals_in_checkpoint(io.BytesIO(saved(numtorch, make(numtorch))))
        assert sorted(re.sub("^numtorch[.]", "torch.", name) for name in mine) == expected


def test_allowed_classes_are_not_listed_and_torch_files_load_with_them(tmp_path):
    data = saved(torch, torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU()))
    with ours.safe_globals([numtorch.nn.ReLU]):
        assert sorted(ours.get_unsafe_globals_in_checkpoint(io.BytesIO(data))) == [
            "torch.nn.modules.container.Sequential",
            "torch.nn.modules.linear.Linear",
        ]
    allowed = [numtorch.nn.Sequential, numtorch.nn.Linear, numtorch.nn.ReLU]
    with ours.safe_globals(allowed):
        assert ours.get_unsafe_globals_in_checkpoint(io.BytesIO(data)) == []
        model = numtorch.load(io.BytesIO(data))
    assert isinstance(model[0], numtorch.nn.Linear) and isinstance(model[1], numtorch.nn.ReLU)
    path = tmp_path / "model.pt"
    path.write_bytes(data)
    assert len(ours.get_unsafe_globals_in_checkpoint(str(path))) == 3


def test_inspecting_what_is_not_a_checkpoint_raises_value_error():
    legacy = saved(torch, [1, 2], _use_new_zipfile_serialization=False)
    for data in (b"not a checkpoint", legacy):
        for lib in (ours, theirs):
            with pytest.raises(ValueError, match="Expected input to be a checkpoint"):
                lib.get_unsafe_globals_in_checkpoint(io.BytesIO(data))


def test_storage_locations_as_torch():
    for lib in (numtorch, torch):
        storage = lib.ones(2).untyped_storage()
        s = lib.serialization
        assert s.location_tag(storage) == "cpu" and s.location_tag(lib.ones(2)) == "cpu"
        assert s.default_restore_location(storage, "cpu") is storage
        for location in ("cuda:0", "cuda"):
            with pytest.raises(RuntimeError, match="CUDA device but torch.cuda.is_available"):
                s.default_restore_location(storage, location)
        with pytest.raises(RuntimeError, match=r"UntypedStorage \(tagged with foo\)"):
            s.default_restore_location(storage, "foo")
        with pytest.raises(RuntimeError, match="map_location=torch.device"):
            s.validate_cuda_device("cuda:1")


def test_a_registered_package_is_consulted_first_by_priority():
    registry = ours._package_registry
    before = list(registry)
    try:
        ours.register_package(5, lambda s: "disk", lambda s, location: ("restored", location))
        ours.register_package(50, lambda s: "never", lambda s, location: None)
        storage = numtorch.ones(2).untyped_storage()
        assert ours.location_tag(storage) == "disk"
        assert ours.default_restore_location(storage, "disk:1") == ("restored", "disk:1")
        assert [entry[0] for entry in registry] == sorted(entry[0] for entry in registry)
    finally:
        registry[:] = before

"""NumPy arrays and dtypes in torch.save files: written as torch writes them, read back by
torch and from torch's files, refused with ``weights_only=True`` unless allowed (as torch
refuses them), and never anything but numeric and bool data."""

from __future__ import annotations

import io
import pickle
import zipfile

import numpy as np
import pytest

import numtorch
from numtorch.serialization import UnsafeFileError

torch = pytest.importorskip("torch")

ARRAYS = {
    "f64": np.arange(6.0).reshape(2, 3),
    "fortran": np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)),
    "strided": np.arange(10, dtype=np.int16)[::3],
    "scalar": np.array(2.5),
    "empty": np.zeros((0, 4), dtype=np.int64),
    "bool": np.array([True, False]),
    "complex": np.array([1 + 2j], dtype=np.complex64),
    "big_endian": np.arange(3, dtype=">i4"),
    "uint8": np.arange(3, dtype=np.uint8),
}
NUMPY_GLOBALS = [np.core.multiarray._reconstruct, np.ndarray, np.dtype]


def _saved(lib, obj) -> bytes:
    buffer = io.BytesIO()
    lib.save(obj, buffer)
    return buffer.getvalue()


def _assert_arrays(loaded: dict, original: dict) -> None:
    assert loaded.keys() == original.keys()
    for key, array in original.items():
        expected = pickle.loads(pickle.dumps(array)).dtype  # (pickle keeps no byte order)
        assert type(loaded[key]) is np.ndarray and loaded[key].dtype == expected, key
        np.testing.assert_array_equal(loaded[key], array, key)


@pytest.mark.parametrize("writer", ["numtorch", "torch"])
@pytest.mark.parametrize("reader", ["numtorch", "torch"])
def test_arrays_round_trip_between_both_libraries(writer, reader):
    data = _saved(numtorch if writer == "numtorch" else torch, dict(ARRAYS))
    lib = numtorch if reader == "numtorch" else torch
    _assert_arrays(lib.load(io.BytesIO(data), weights_only=False), ARRAYS)
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL numpy._core.multiarray._recon"):
        lib.load(io.BytesIO(data))


def test_allow_listed_numpy_globals_load_with_weights_only():
    data = _saved(numtorch, {"a": ARRAYS["f64"], "d": np.dtype("float32")})
    with numtorch.serialization.safe_globals(NUMPY_GLOBALS):
        loaded = numtorch.load(io.BytesIO(data))
    assert loaded["d"] == np.dtype("float32")
    _assert_arrays({"a": loaded["a"]}, {"a": ARRAYS["f64"]})
    assert np.dtype("float32").byteorder == "="  # NumPy's shared dtype is untouched


def test_torchs_numpy_scalars_read_back_as_numpy_scalars():
    data = _saved(torch, {"acc": np.float64(0.25), "epoch": np.int64(3)})
    loaded = numtorch.load(io.BytesIO(data), weights_only=False)
    assert type(loaded["acc"]) is np.float64 and loaded["acc"] == 0.25
    assert type(loaded["epoch"]) is np.int64 and loaded["epoch"] == 3


def test_object_arrays_are_saved_but_never_rebuilt():
    # torch.save writes them (their items pickled); loading one would rebuild whatever
    # objects the file names, so numtorch refuses its dtype even with weights_only=False
    data = _saved(numtorch, {"a": np.array([None, 1], dtype=object)})
    with pytest.raises(UnsafeFileError, match="malformed NumPy dtype"):
        numtorch.load(io.BytesIO(data), weights_only=False)


def _file(body: bytes) -> io.BytesIO:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("archive/data.pkl", body)
    return io.BytesIO(buffer.getvalue())


def test_hostile_numpy_pickles_are_refused():
    dtype = b"cnumpy\ndtype\nX\x01\x00\x00\x00O\x89\x88\x87R"  # dtype('O'): an object dtype
    with pytest.raises(UnsafeFileError, match="malformed NumPy dtype"):
        numtorch.load(_file(b"\x80\x02" + dtype + b"."), weights_only=False)
    # an array of another class than ndarray
    reconstruct = b"cnumpy._core.multiarray\n_reconstruct\nccollections\nOrderedDict\n"
    with pytest.raises(UnsafeFileError, match="malformed NumPy array"):
        body = b"\x80\x02" + reconstruct + b"K\x00\x85C\x01b\x87R."
        numtorch.load(_file(body), weights_only=False)
    # a scalar whose bytes do not match its dtype's size
    f8 = b"cnumpy\ndtype\nX\x02\x00\x00\x00f8\x89\x88\x87R"
    scalar = b"cnumpy._core.multiarray\nscalar\n" + f8 + b"C\x03abc\x86R."
    with pytest.raises(UnsafeFileError, match="malformed NumPy scalar"):
        numtorch.load(_file(b"\x80\x02" + scalar), weights_only=False)

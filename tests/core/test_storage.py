"""Tensor.storage() / untyped_storage() against torch: sizes, elements, bytes, shared
memory with the tensor and its views, errors."""

import warnings

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _view(lib):
    return lib.arange(6.0).reshape(2, 3), lib.arange(6.0).reshape(2, 3)[:, 1]


def test_typed_storage_of_a_view_is_the_whole_buffer():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = []
        for lib in (numtorch, torch):
            x = lib.arange(6.0).reshape(2, 3)
            s = x[:, 1].storage()
            results.append(
                (s.size(), len(s), str(s.dtype), s.tolist(), s[2], s[-1], s.nbytes(), repr(s))
            )
            assert isinstance(s, lib.TypedStorage)
            assert str(s.device) == "cpu" and s.element_size() == 4
    assert results[0] == results[1]


def test_untyped_storage_bytes_match_torch():
    results = []
    for lib in (numtorch, torch):
        x = lib.tensor([1.0, -2.5], dtype=lib.float64)
        u = x[1:].untyped_storage()
        assert isinstance(u, lib.UntypedStorage)
        results.append((u.size(), u.nbytes(), u.tolist(), u[15], u.element_size()))
        assert u.data_ptr() == x.untyped_storage().data_ptr()
    assert results[0] == results[1]


def test_writes_through_storage_reach_the_tensor():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for lib in (numtorch, torch):
            x = lib.zeros(2, 3)
            x[:, 1].storage()[4] = 7.0
            x.untyped_storage()[3] = 63  # the high byte of element 0
            np.testing.assert_array_equal(x.numpy()[1], [0.0, 7.0, 0.0])
            assert 0 < x[0, 0].item() < 1


def test_out_of_range_index_is_an_index_error_as_in_torch():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        messages = []
        for lib in (numtorch, torch):
            with pytest.raises(IndexError) as info:
                lib.arange(3).storage()[5]
            messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_typed_storage_warns_it_is_deprecated():
    numtorch._core.warn_once.given.clear()
    with pytest.warns(UserWarning, match="TypedStorage is deprecated"):
        numtorch.ones(2).storage()


def test_is_storage_and_typed_storage_constructors_as_torch():
    # storages are storages (is_storage was always False); TypedStorage(size, dtype=) and
    # TypedStorage(values) build one, as torch's
    oracle = pytest.importorskip("torch")
    seen = []
    for lib in (numtorch, oracle):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = lib.tensor([1, 2, 3])
            sized = lib.TypedStorage(4, dtype=lib.float64)
            listed = lib.TypedStorage([1, 2])
            seen.append(
                (
                    [lib.is_storage(x) for x in (t.untyped_storage(), t.storage(), sized, t, [1])],
                    (sized.size(), str(sized.dtype)),
                    (listed.tolist(), str(listed.dtype)),
                )
            )
    assert seen[0] == seen[1]

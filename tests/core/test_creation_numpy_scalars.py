"""tensor() and as_tensor() of NumPy scalars keep their dtype, and nested sequences mixing
Python numbers, NumPy values and tensors get the promoted dtype torch infers."""

import warnings

import numpy as np
import pytest

import numtorch as torch


@pytest.mark.parametrize(
    ("value", "dtype"),
    [
        (np.int32(3), torch.int32),
        (np.int16(-2), torch.int16),
        (np.uint8(7), torch.uint8),
        (np.float64(1.5), torch.float64),
        (np.float16(0.5), torch.float16),
        (np.bool_(True), torch.bool),
    ],
)
@pytest.mark.parametrize("factory", [torch.tensor, torch.as_tensor])
def test_numpy_scalar_keeps_dtype(factory, value, dtype):
    t = factory(value)
    assert t.dtype == dtype and t.shape == () and t.item() == value.item()


def _sequences(lib):
    """Nested sequences whose dtype torch infers by promoting every element's own type."""
    return [
        [np.ones(2), np.zeros(2)],
        [np.ones(2, dtype=np.float32), np.zeros(2)],
        [np.ones(2, dtype=np.int32), np.ones(2, dtype=np.int16)],
        [np.float64(1.0), np.float32(2.0)],
        [np.float32(1.0), 2],
        [np.int64(1), 2.0],
        [np.uint8(3), 1],
        [[np.float16(1.0)], [3]],
        [np.ones(2, dtype=np.float16), [1, 2]],
        [np.ones(2, dtype=np.int64), np.ones(2)],
        [lib.tensor(1.0, dtype=lib.float64), 2],
        [lib.tensor(1, dtype=lib.int8), lib.tensor(2, dtype=lib.uint8)],
        [[1, 2.5], [True, 3]],
        [1 + 2j, 1.0],
    ]


@pytest.mark.parametrize("index", range(14))
def test_sequence_dtype_matches_torch(index):
    real = pytest.importorskip("torch")
    ours = torch.tensor(_sequences(torch)[index])
    theirs = real.tensor(_sequences(real)[index])
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_asarray_requires_grad_as_torch():
    # unspecified: the tensor keeps requires_grad; False: a detached alias; True: marked
    oracle = pytest.importorskip("torch")
    seen = []
    for lib in (torch, oracle):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = a + 2
        kept, detached = lib.asarray(b), lib.asarray(b, requires_grad=False)
        detached[0] = 7.0  # shares b's memory
        leaf = lib.asarray(lib.tensor([1.0]), requires_grad=True)
        seen.append(
            (kept.requires_grad, detached.requires_grad, detached.grad_fn, b.tolist(), leaf.is_leaf)
        )
    assert seen[0] == seen[1]


def test_typename_of_classes_and_functions_as_torch():
    oracle = pytest.importorskip("torch")
    names = [
        [lib.typename(x) for x in (lib.nn.Parameter, lib.nn.Linear, lib.ones(1), 3, 2.0)]
        for lib in (torch, oracle)
    ]
    assert names[0] == names[1]


def _warnings_of(lib, make):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make(lib)
    # torch appends where in its C++ sources a warning was raised
    return [(w.category, str(w.message).split(" (Triggered internally")[0]) for w in caught]


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.tensor(lib.ones(2)),
        lambda lib: lib.tensor([lib.tensor(1.0), 2.0]),
        lambda lib: lib.tensor(np.ones(2)),
    ],
    ids=["from_tensor", "list_with_0d_tensor", "array"],
)
def test_creation_warnings_match_torch(make):
    reference = pytest.importorskip("torch")
    assert _warnings_of(torch, make) == _warnings_of(reference, make)


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda lib: lib.from_numpy(np.broadcast_to(np.ones(3), (2, 3))), "not writable"),
        (lambda lib: lib.as_tensor(np.broadcast_to(np.ones(3), (2, 3))), "not writable"),
        (lambda lib: lib.tensor([np.ones(2), np.zeros(2)]), "list of numpy.ndarrays"),
    ],
)
def test_advisory_warnings_come_once_per_program(make, says):
    from numtorch._core.warn_once import given

    given.clear()
    first, again = _warnings_of(torch, make), _warnings_of(torch, make)
    assert len(first) == 1 and says in first[0][1] and again == []


@pytest.mark.parametrize("make", ["from_numpy", "tensor", "as_tensor"])
def test_non_native_byte_order_is_refused_as_torch_refuses_it(make):
    real = pytest.importorskip("torch")
    array = np.array([1.0, 2.0], dtype=">f4")
    outcomes = []
    for lib in (torch, real):
        try:
            outcomes.append(getattr(lib, make)(array).tolist())
        except Exception as e:  # the type and message are what get compared
            outcomes.append((type(e).__name__, str(e)))
    assert outcomes[0] == outcomes[1]


_UNPACKS = [
    (np.float32(1.5), "int64"),
    (np.float16(2.0), "int32"),
    (np.float32(1.5), "bool"),
    (np.complex64(1 + 1j), "bool"),
    (np.complex128(1 + 1j), "bool"),
    (np.complex128(1 + 1j), "int64"),
    (np.bool_(True), "uint8"),
    (np.bool_(True), "bool"),
    (np.float64(1.5), "int64"),
    (np.int32(3), "bool"),
    ([np.float32(1.5), 2], "int64"),
    ([[1], [np.float16(2.0)]], "int8"),
    ([np.float32(1.5), 2], "float64"),
]


@pytest.mark.parametrize(("data", "dtype"), _UNPACKS)
def test_numpy_scalars_into_integer_dtypes_as_torch(data, dtype):
    """torch stores a NumPy scalar into an integer (or bool) dtype as a Python number: a float
    or complex subclass converts, a NumPy integer through __index__, and np.float32 is a
    TypeError there (NumPy's cast truncated it)."""
    reference = pytest.importorskip("torch")

    def run(lib):
        try:
            return lib.tensor(data, dtype=getattr(lib, dtype)).tolist()
        except TypeError as error:
            return str(error)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert run(torch) == run(reference)


_KIND_CASES = [
    (np.bool_(True), "int32"),
    (np.float32(1.5), "int64"),
    ([1, 2.5, np.float32(1)], "uint8"),
    ([1, np.True_], "int16"),
    (1j, "int32"),
    ([[1j]], "float32"),
    ((1j,), "bfloat16"),
    (np.complex64(1j), "bool"),
    (np.int64(300), "uint8"),
    (np.float64(1e20), "int32"),
    (np.bool_(True), "float64"),
    (1j, "bool"),
    (np.complex128(1j), "float64"),
    ([np.float32(1.5), 2.5, True], "bool"),
]


@pytest.mark.parametrize(("data", "dtype"), _KIND_CASES)
def test_each_number_converts_to_the_dtype_by_its_python_kind_as_torch(data, dtype):
    # a NumPy float or bool is no index for an integer dtype, a complex no real number
    real = pytest.importorskip("torch")
    try:
        theirs = real.tensor(data, dtype=getattr(real, dtype))
    except Exception as error:  # the oracle decides which
        with pytest.raises(type(error), match=str(error)[:20].replace("(", ".")):
            torch.tensor(data, dtype=getattr(torch, dtype))
        return
    ours = torch.tensor(data, dtype=getattr(torch, dtype))
    assert ours.tolist() == theirs.tolist() and str(ours.dtype) == str(theirs.dtype)

"""randint and random_ refuse a range the dtype cannot hold, as torch does, instead of
drawing and wrapping the values around."""

from __future__ import annotations

import warnings

import pytest

import numtorch

DTYPES = ["uint8", "int8", "int16", "bool", "float16", "float32", "int64"]
RANGES = [(-9, 10), (0, 300), (250, 256), (-300, 5), (0, 70000), (0, 2)]


def _outcome(lib, dtype, low, high):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch warns about float precision
        try:
            lib.randint(low, high, (4,), dtype=getattr(lib, dtype))
        except RuntimeError as error:
            return str(error)
    return "drawn"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("low", "high"), RANGES)
def test_randint_refuses_a_range_outside_the_dtype(dtype, low, high):
    outcome = _outcome(numtorch, dtype, low, high)
    if dtype == "uint8" and low < 0:
        assert outcome == "from is out of bounds for unsigned char"
    torch = pytest.importorskip("torch")
    assert outcome == _outcome(torch, dtype, low, high)


def test_random_refuses_a_range_outside_the_dtype():
    with pytest.raises(RuntimeError, match="to - 1 is out of bounds for signed char"):
        numtorch.zeros(3, dtype=numtorch.int8).random_(0, 200)


@pytest.mark.parametrize(
    "draw",
    [
        lambda lib: lib.randint(0, 5, (2,), dtype=lib.complex64),
        lambda lib: lib.randint_like(lib.zeros(2, dtype=lib.complex64), 5),  # fuzz 8500754
        lambda lib: lib.zeros(2, dtype=lib.complex128).random_(0, 5),
        lambda lib: lib.zeros(2, dtype=lib.complex64).random_(),
    ],
)
def test_integer_draws_refuse_complex_dtypes_as_torch(draw):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        draw(torch)
    with pytest.raises(type(theirs.value)) as ours:
        draw(numtorch)
    assert str(ours.value) == str(theirs.value)

"""Dtypes an op's kernel has no loop for, and the dtype a mixed-dtype result takes: torch's
exception type where NumPy's ufunc has no loop either (its TypeError leaked), and torch's
promotion where numtorch narrowed a result to bfloat16 or cast complex operands to float64."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")


def _outcome(fn):
    try:
        result = fn()
    except Exception as error:  # the type is what is compared
        return type(error)
    return result.dtype


@pytest.mark.parametrize("op", ["fmod", "remainder", "atan2", "copysign", "floor_divide"])
@pytest.mark.parametrize("other", ["complex64", "float32", "int64", "number"])
def test_an_op_without_a_complex_loop_raises_torchs_error(op, other):
    # same-dtype operands take the fast path, mixed ones the general path: both translate
    def call(lib):
        a = lib.ones(3, dtype=lib.complex64)
        b = 2 if other == "number" else lib.ones(3, dtype=getattr(lib, other))
        return _outcome(lambda: getattr(lib, op)(a, b))

    ours, theirs = call(numtorch), call(torch)
    assert ours.__name__ == theirs.__name__  # atan2 takes no number: TypeError in both
    assert ours.__name__ in ("NotImplementedError", "TypeError" if other == "number" else "")


def test_the_translated_error_names_the_kernel_and_the_dtype():
    with pytest.raises(
        NotImplementedError, match="\"fmod_cpu\" not implemented for 'ComplexDouble'"
    ):
        numtorch.fmod(numtorch.ones(2, dtype=numtorch.complex128), 2.0)


@pytest.mark.parametrize("join", ["cat", "stack"])
@pytest.mark.parametrize("dtypes", [("bfloat16", "float16"), ("bfloat16", "float32"),
                                    ("float16", "bfloat16"), ("bfloat16", "bfloat16")])  # fmt: skip
def test_joining_bfloat16_with_another_float_promotes_as_torch(join, dtypes):
    # the bfloat16 path computed in float32 and narrowed the promoted result back
    def call(lib):
        parts = [lib.full((2,), 1.5, dtype=getattr(lib, d)) for d in dtypes]
        return getattr(lib, join)(parts)

    ours, theirs = call(numtorch), call(torch)
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_array_equal(ours.float().numpy(), theirs.float().numpy())


@pytest.mark.parametrize(
    "case",
    [
        lambda lib: lib.float_power(lib.ones(2, dtype=lib.bool), lib.ones(2, dtype=lib.complex64)),
        lambda lib: lib.float_power(lib.tensor([2.0, 3.0]), lib.tensor([1j, 1 + 1j])),
        lambda lib: lib.float_power(lib.tensor([1 + 1j], dtype=lib.complex64), 2),
        lambda lib: lib.float_power(lib.tensor([2.0]), 1j),
    ],
)
def test_float_power_of_a_complex_operand_is_complex128(case):
    # a float64 cast dropped the imaginary part (with NumPy's warning) and answered float64
    ours, theirs = case(numtorch), case(torch)
    assert ours.dtype == numtorch.complex128 and theirs.dtype == torch.complex128
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12)


@pytest.mark.parametrize("dim", [None, 0, 1])
def test_nanmean_sums_in_the_dtype_it_is_given(dim):
    # the dtype keyword was taken and ignored: the mean stayed float32
    def call(lib):
        x = lib.tensor([[1.0, float("nan"), 3.0], [2.0, 5.0, 7.0]], requires_grad=True)
        out = (
            lib.nanmean(x, dim, dtype=lib.float64)
            if dim is not None
            else lib.nanmean(x, dtype=lib.float64)
        )
        return out

    ours, theirs = call(numtorch), call(torch)
    assert ours.dtype == numtorch.float64 and theirs.dtype == torch.float64
    assert type(ours.grad_fn).__name__ == type(theirs.grad_fn).__name__
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy())


@pytest.mark.parametrize(
    "case",
    [
        lambda lib: lib.nanmean(lib.ones(2, dtype=lib.int64)),
        lambda lib: lib.nanmean(lib.ones(2, dtype=lib.bool)),
        lambda lib: lib.nanmean(lib.ones(2, dtype=lib.complex64)),
        lambda lib: lib.nansum(lib.ones(2, dtype=lib.complex128)),
        lambda lib: lib.ones(2).flip(),
        lambda lib: lib.flip(lib.ones(2)),
    ],
)
def test_calls_torch_refuses_are_refused_with_its_error(case):
    ours, theirs = _outcome(lambda: case(numtorch)), _outcome(lambda: case(torch))
    assert isinstance(theirs, type) and ours is not None
    assert ours.__name__ == theirs.__name__


FILLS = {
    "fill_ wraps": lambda lib: lib.ones(3, dtype=lib.uint8).fill_(-3),
    "fill_ past uint8": lambda lib: lib.ones(3, dtype=lib.uint8).fill_(300),
    "fill_ past int8": lambda lib: lib.ones(3, dtype=lib.int8).fill_(200),
    "fill_ past int32": lambda lib: lib.zeros(2, dtype=lib.int32).fill_(2**40),
    "full past uint8": lambda lib: lib.full((2,), 300, dtype=lib.uint8),
    "full wraps": lambda lib: lib.full((2,), -3, dtype=lib.uint8),
    "full past int64": lambda lib: lib.full((2,), 2**70, dtype=lib.int64),
    "clamp min wraps": lambda lib: lib.ones(3, dtype=lib.uint8).clamp(min=-3),
    "clamp max past": lambda lib: lib.ones(3, dtype=lib.uint8).clamp(max=300),
    "clamp both": lambda lib: lib.ones(3, dtype=lib.uint8).clamp(-3, 200),
    "clamp_min wraps": lambda lib: lib.ones(3, dtype=lib.uint8).clamp_min(-3),
    "clamp int8 past": lambda lib: lib.ones(3, dtype=lib.int8).clamp(max=-200),
    "clamp float by a huge int": lambda lib: lib.ones(2).clamp(min=2**70),
    "new_full wraps": lambda lib: lib.ones(3, dtype=lib.uint8).new_full((2,), -1),
    "index_fill wraps": lambda lib: lib.ones(3, dtype=lib.uint8).index_fill(0, lib.tensor([0]), -2),
}


@pytest.mark.parametrize("case", FILLS.values(), ids=FILLS.keys())
def test_an_integer_fill_value_or_bound_converts_as_torch(case):
    # NumPy's OverflowError leaked; torch wraps what fits the signed or unsigned range
    def outcome(lib):
        try:
            return case(lib).tolist()
        except (RuntimeError, OverflowError) as error:
            return type(error).__name__, str(error)

    assert outcome(numtorch) == outcome(torch)


CONVERSIONS = [
    ([300], "uint8"),
    ([-1], "uint8"),
    ([-255], "uint8"),
    ([-256], "uint8"),
    (200, "int8"),
    ([70000], "int16"),
    ([2**40], "int32"),
    ([-1.0], "uint8"),
    ([255.0], "uint8"),
    ([255.9], "uint8"),
    ([float("inf")], "int64"),
    ([float("nan")], "int32"),
    ([1e19], "int64"),
    ([1.7, -1.7], "int64"),
    ([[1, 2], [3, 400]], "uint8"),
]


@pytest.mark.parametrize("data, dtype", CONVERSIONS, ids=str)
def test_python_numbers_convert_into_an_integer_dtype_checked_as_torch(data, dtype):
    # NumPy's cast wrapped silently: torch.tensor([300], dtype=torch.uint8) gave 44
    def outcome(lib):
        try:
            return lib.tensor(data, dtype=getattr(lib, dtype)).tolist()
        except RuntimeError as error:
            return str(error)

    assert outcome(numtorch) == outcome(torch)

"""Which refusal comes first, as in torch: a pointwise op's operands must broadcast before
its kernel refuses their dtype, and an in-place op's output checks (its shape, the cast of
the result type to its dtype) come before the kernel's dtypes (Note [Kernel dtypes]);
shifts have no bool kernel."""

from __future__ import annotations

import pytest

import numtorch

torch = pytest.importorskip("torch")

_CASES = {
    "nextafter_shapes": lambda lib: lib.nextafter(
        lib.ones(2, 2, dtype=lib.int16), lib.ones(3, dtype=lib.int16)
    ),
    "compare_complex_shapes": lambda lib: lib.ones(3, 4, dtype=lib.complex64) > lib.ones(13),
    "floor_divide_bool_shapes": lambda lib: (
        lib.ones(3, dtype=lib.bool) // lib.ones(4, dtype=lib.bool)
    ),
    "hypot_long_shapes": lambda lib: lib.hypot(
        lib.ones(2, 3, dtype=lib.long), lib.ones(2, dtype=lib.long)
    ),
    "logaddexp_mixed_int_shapes": lambda lib: lib.logaddexp(
        lib.ones(2, 3, dtype=lib.long), lib.ones(2, dtype=lib.int32)
    ),
    "lerp_long_shapes": lambda lib: lib.lerp(
        lib.zeros(2, 2, dtype=lib.long), lib.zeros(3, dtype=lib.long), 0.25
    ),
    "lerp_long_output_shape": lambda lib: lib.zeros(1, dtype=lib.long).lerp_(
        lib.zeros(3, dtype=lib.long), 0.25
    ),
    "lcm_half_shapes": lambda lib: lib.lcm(lib.ones(0, 3, dtype=lib.float16), lib.ones(2)),
    "mm_bool": lambda lib: lib.mm(lib.ones(2, 3, dtype=lib.bool), lib.ones(3, 4, dtype=lib.bool)),
    "lshift_bool": lambda lib: lib.ones(3, dtype=lib.bool) << lib.ones(3, dtype=lib.bool),
    "rshift_bool": lambda lib: lib.ones(3, dtype=lib.bool) >> lib.ones(3, dtype=lib.bool),
    "lshift_bool_number": lambda lib: lib.ones(3, dtype=lib.bool) << 1,
    "ior_float_number": lambda lib: lib.ones(3, dtype=lib.int32).__ior__(-2.0),
    "ilshift_complex": lambda lib: lib.ones(3, dtype=lib.int8).__ilshift__(2 + 0.5j),
    "bitwise_and_float_tensor": lambda lib: lib.ones(3, dtype=lib.int32).bitwise_and_(
        lib.tensor([1.5])
    ),
    "clamp_complex_bound": lambda lib: lib.ones(2, dtype=lib.bool).clamp_(
        None, lib.ones(2, dtype=lib.complex128)
    ),
    "clamp_min_output_shape": lambda lib: lib.ones(1, dtype=lib.complex64).clamp_min_(lib.ones(0)),
    "remainder_complex_shapes": lambda lib: lib.ones(2, 2, dtype=lib.complex64).remainder_(
        lib.ones(4)
    ),
    "ior_output_shape": lambda lib: lib.ones((), dtype=lib.float32).__ior__(
        lib.ones(4, dtype=lib.int32)
    ),
    "bitwise_or_float_self": lambda lib: lib.ones(3).bitwise_or_(1),
    "elu_integer": lambda lib: lib.ones(3, dtype=lib.int64).elu_(),
}


def _outcome(lib, case):
    try:
        result = _CASES[case](lib)
    except Exception as e:  # the type and message are compared
        return type(e).__name__, str(e)
    return str(result.dtype), result.tolist()


@pytest.mark.parametrize("case", sorted(_CASES))
def test_refusal_order_matches_torch(case):
    assert _outcome(numtorch, case) == _outcome(torch, case)


_MORE = {
    # an integer input clamped with a float bound is clamped as float: an int bound of -2
    # is -2 (not wrapped into uint8)
    "clamp_uint8_float_and_int_bounds": lambda lib: lib.zeros(2, dtype=lib.uint8).clamp(-0.5, -2),
    # a bool product with an empty result or no terms is zeros: no kernel is chosen
    "mm_bool_no_terms": lambda lib: lib.mm(
        lib.ones(3, 0, dtype=lib.bool), lib.ones(0, 3, dtype=lib.bool)
    ),
    "bmm_bool_empty": lambda lib: lib.bmm(
        lib.ones(0, 1, 2, dtype=lib.bool), lib.ones(0, 2, 1, dtype=lib.bool)
    ),
    "mv_bool_no_terms": lambda lib: lib.mv(
        lib.ones(2, 0, dtype=lib.bool), lib.ones(0, dtype=lib.bool)
    ),
    "isclose_dtypes": lambda lib: lib.isclose(lib.ones(2), lib.ones(2, dtype=lib.float64)),
    "isclose_shapes": lambda lib: lib.isclose(lib.ones(2), lib.ones(3)),
    "fmod_empty_by_zero": lambda lib: lib.fmod(lib.ones(0, dtype=lib.int64), lib.tensor(0)),
    "floor_divide_empty_by_zero": lambda lib: lib.ones(0, dtype=lib.int32) // 0,
    "remainder_by_zero": lambda lib: lib.remainder(lib.ones(2, dtype=lib.int64), lib.tensor(0)),
    "clamp_bool_by_bools": lambda lib: lib.clamp(lib.ones(2, dtype=lib.bool), True, False),
    "clamp_min_bool_by_bool": lambda lib: lib.clamp_min(lib.ones(2, dtype=lib.bool), True),
    "clamp_bool_max_by_bool": lambda lib: lib.ones(2, dtype=lib.bool).clamp_(max=True),
    "clamp_bool_by_int": lambda lib: lib.clamp(lib.ones(2, dtype=lib.bool), 2),
    "clip_complex_before_shapes": lambda lib: lib.clip(
        lib.ones(0, dtype=lib.complex64), lib.ones(2, dtype=lib.complex64), None
    ),
    "remainder_complex_shapes": lambda lib: lib.ones(2, 3, dtype=lib.complex128) % lib.ones(3, 0),
    "nanmean_complex_dtype": lambda lib: lib.nanmean(lib.ones(2), dtype=lib.complex128),
    "clamp_complex_without_bounds": lambda lib: lib.clamp(lib.ones(2, dtype=lib.complex64)),
    "where_half_overflowing_number": lambda lib: lib.where(
        lib.tensor([True, False]), lib.ones(2, dtype=lib.float16), 1e10
    ),
}
_CASES.update(_MORE)


@pytest.mark.parametrize("case", sorted(_MORE))
def test_more_refusals_match_torch(case):
    assert _outcome(numtorch, case) == _outcome(torch, case)

"""Corners a random-program fuzzer found where ops take arguments of another kind than usual:
a 0-dim tensor bound beside a number, numbers where torch takes tensors only, a ``dtype=`` the
result cannot carry a gradient in, an empty dim list. Each outcome (values, dtype, node, or the
error type) is compared with torch where it is installed; the expected kinds are checked
without it."""

from __future__ import annotations

import numpy as np
import pytest

import numtorch

X = np.array([[1.5, -1.0, 0.25], [2.0, float("nan"), -3.0]])


def _outcome(fn):
    try:
        out = fn()
    except Exception as error:  # the error type is the outcome
        return (type(error).__name__,)
    node = None if out.grad_fn is None else type(out.grad_fn).__name__
    edges = 0 if out.grad_fn is None else len(out.grad_fn.next_functions)
    dtype = str(out.dtype).replace("numtorch", "torch")
    return dtype, node, edges, np.nan_to_num(out.detach().numpy(), nan=7.0).tolist()


def _programs(lib):
    x = lib.tensor(X, requires_grad=True)
    ints = lib.tensor([[1, -1, 3], [0, 2, -2]])
    bools = lib.tensor([True, False, True])
    return {
        # clamp: a 0-dim tensor beside a number is the number overload (ClampBackward1)
        "clamp_tensor_number": lambda: x.clamp(lib.tensor(0.0), 0.5),
        "clamp_number_tensor": lambda: lib.clip(x, min=-1, max=lib.tensor(0.5, dtype=lib.float64)),
        # torch.tensor takes its dtype by keyword only
        "tensor_positional_dtype": lambda: lib.tensor(0.5, lib.float64),
        "clamp_int_uint8_float": lambda: ints.clamp(lib.tensor(0, dtype=lib.uint8), 0.5),
        "clamp_int_uint8_int": lambda: ints.clamp(lib.tensor(0, dtype=lib.uint8), 2),
        "clamp_row_number": lambda: x.clamp(lib.ones(3), 1),
        "clamp_grad_tensor_number": lambda: x.clamp(lib.tensor(0.0, requires_grad=True), 0.5),
        "clamp_inplace_tensor_number": lambda: (x * 1).clamp_(lib.tensor(0.0), 0.5),
        # bools clamp by one tensor bound (clamp_min/clamp_max kernels), not by two
        "clamp_bool_min": lambda: bools.clamp(lib.tensor([True, True, False]), None),
        "clamp_bool_max": lambda: bools.clamp(None, lib.tensor([False, True, False])),
        "clamp_bool_both": lambda: bools.clamp(bools, bools),
        # logical ops and isclose take tensors only
        "logical_and_number": lambda: lib.logical_and(x, 2),
        "logical_or_bool": lambda: x.logical_or(False),
        "logical_xor_float": lambda: lib.logical_xor(ints, 0.5),
        "logical_xor_tensor": lambda: lib.logical_xor(ints, x),
        "isclose_number": lambda: lib.isclose(x, 1.5),
        # a dtype= result that cannot carry a gradient is refused while recording
        "sum_int": lambda: x.sum(dtype=lib.int64),
        "sum_dim_bool": lambda: x.sum(0, dtype=lib.bool),
        "nansum_int": lambda: x.nansum(dtype=lib.int32),
        "prod_int": lambda: x.prod(1, dtype=lib.int64),
        "cumsum_int": lambda: x.cumsum(0, dtype=lib.int32),
        "cumprod_int": lambda: x.cumprod(1, dtype=lib.int64),
        "sum_int_detached": lambda: x.detach().sum(dtype=lib.int64),
        "sum_float64": lambda: x.sum(1, dtype=lib.float64),
        # nansum skips NaN before converting to an integer dtype
        "nansum_int_detached": lambda: x.detach().nansum(1, dtype=lib.int32),
        # all and any reduce nothing for an empty dim list
        "all_empty_dims": lambda: lib.all(x.detach(), dim=()),
        "any_empty_dims_uint8": lambda: lib.any(ints.to(lib.uint8), dim=[], keepdim=True),
        "sum_empty_dims": lambda: lib.sum(x.detach(), dim=[]),
        # logsumexp reduces every dim for an empty list, into an output that only a kept
        # shape fits
        "logsumexp_empty_dims": lambda: lib.logsumexp(x, dim=()),
        "logsumexp_empty_dims_kept": lambda: lib.logsumexp(x, dim=[], keepdim=True),
        "logsumexp_empty_dims_empty": lambda: lib.logsumexp(lib.ones(2, 0), dim=()),
        # stack checks its dim before the shapes; bmm its first operand's dtype first
        "stack_dim_before_shapes": lambda: lib.stack([lib.ones(2), lib.ones(3)], dim=3),
        "bmm_bool_float": lambda: lib.matmul(lib.ones(3, 3, 1) > 0, lib.ones(3, 1, 3)),
        "bmm_float_bool": lambda: lib.matmul(lib.ones(3, 3, 1), lib.ones(3, 1, 3) > 0),
        # shapes and dims are checked before the kernel's dtype
        "or_shapes_before_dtype": lambda: lib.ones(3, 3, 4) | lib.ones(3, 3),
        "logcumsumexp_dim_before_dtype": lambda: lib.logcumsumexp(ints, 5),
        # a number is refused before the kernel's dtype, by ops that take tensors only
        "hypot_int_number": lambda: lib.hypot(ints, 3),
        "logaddexp_complex_number": lambda: lib.logaddexp(x, 2 + 1j),
        # a 0-dim tensor exponent is a tensor power to torch, not sqrt: (-0) ** 0.5 is +0
        "pow_zero_dim_exponent_signs": lambda: lib.pow(
            lib.tensor([-0.0, float("-inf"), 4.0]), lib.tensor(0.5)
        ).signbit(),
        "pow_zero_dim_exponent": lambda: lib.pow(
            lib.tensor([-0.0, float("-inf"), 4.0]), lib.tensor([0.5])
        ),
        # a dtype= that is no float is named as the optional dtype
        "mean_int_dtype": lambda: lib.mean(x, dtype=lib.int64),
        "nanmean_int_dtype": lambda: lib.nanmean(x.detach(), dtype=lib.int64),
        # softmax casts to its dtype= first: an empty result, or the integer kernel's refusal
        "softmax_empty_int_dtype": lambda: lib.softmax(lib.ones(2, 0), 0, dtype=lib.int64),
        "softmax_int_dtype_dim0": lambda: lib.softmax(lib.ones(2, 1), 0, dtype=lib.int64),
        # a comparison takes a number as other only; a bitwise op as either operand, not
        # both; a shift's number first is its Scalar_Tensor overload
        "eq_number_first": lambda: lib.eq(1, ints),
        "ge_number_first": lambda: lib.ge(1.5, x),
        "eq_two_numbers": lambda: lib.eq(1, 2),
        "bitwise_and_number_first": lambda: lib.bitwise_and(3, ints),
        "bitwise_or_two_numbers": lambda: lib.bitwise_or(True, 1j),
        "bitwise_xor_bool_first": lambda: lib.bitwise_xor(True, bools),
        "left_shift_number_first": lambda: lib.bitwise_left_shift(2, ints.abs()),
        "right_shift_bool_first": lambda: lib.bitwise_right_shift(True, ints.to(lib.uint8)),
        "right_shift_two_numbers": lambda: lib.bitwise_right_shift(8, 1),
        # the *_as methods take a tensor to copy a dtype or shape from, not a number
        "type_as_bool": lambda: x.type_as(True),
        "view_as_number": lambda: x.view_as(1.5),
        "reshape_as_number": lambda: ints.reshape_as(2),
        "expand_as_number": lambda: bools.expand_as(0),
        # the unpromoted tensor-only ops take no number for their input
        "isnan_bool": lambda: lib.isnan(True),
        "isfinite_int": lambda: lib.isfinite(2),
        "signbit_float": lambda: lib.signbit(1.0),
        "bitwise_not_int": lambda: lib.bitwise_not(1),
        "logical_not_int": lambda: lib.logical_not(1),
        "argmax_float": lambda: lib.argmax(3.0, 0),
        # isposinf and isneginf refuse complex tensors
        "isposinf_complex": lambda: lib.isposinf(x.detach() * 1j),
        "isneginf_complex": lambda: (x.detach() * 1j).isneginf(),
    }


EXPECTED = {
    "clamp_tensor_number": "ClampBackward1",
    "clamp_number_tensor": "ClampBackward1",
    "clamp_inplace_tensor_number": "ClampBackward1",
    "clamp_row_number": "TypeError",
    "tensor_positional_dtype": "TypeError",
    "clamp_grad_tensor_number": "TypeError",
    "clamp_bool_both": "NotImplementedError",
    "logical_and_number": "TypeError",
    "logical_or_bool": "TypeError",
    "logical_xor_float": "TypeError",
    "isclose_number": "TypeError",
    "logsumexp_empty_dims": "RuntimeError",
    "stack_dim_before_shapes": "IndexError",
    "bmm_bool_float": "NotImplementedError",
    "bmm_float_bool": "RuntimeError",
    "or_shapes_before_dtype": "RuntimeError",
    "logcumsumexp_dim_before_dtype": "IndexError",
    "hypot_int_number": "TypeError",
    "logaddexp_complex_number": "TypeError",
    "mean_int_dtype": "RuntimeError",
    "nanmean_int_dtype": "RuntimeError",
    "softmax_int_dtype_dim0": "NotImplementedError",
    "eq_number_first": "TypeError",
    "ge_number_first": "TypeError",
    "eq_two_numbers": "TypeError",
    "bitwise_or_two_numbers": "TypeError",
    "right_shift_two_numbers": "TypeError",
    "type_as_bool": "TypeError",
    "view_as_number": "TypeError",
    "reshape_as_number": "TypeError",
    "expand_as_number": "TypeError",
    "isnan_bool": "TypeError",
    "isfinite_int": "TypeError",
    "signbit_float": "TypeError",
    "bitwise_not_int": "TypeError",
    "logical_not_int": "TypeError",
    "argmax_float": "TypeError",
    "isposinf_complex": "RuntimeError",
    "isneginf_complex": "RuntimeError",
    "sum_int": "RuntimeError",
    "sum_dim_bool": "RuntimeError",
    "nansum_int": "RuntimeError",
    "prod_int": "RuntimeError",
    "cumsum_int": "RuntimeError",
    "cumprod_int": "RuntimeError",
}


@pytest.mark.parametrize("name", sorted(_programs(numtorch)))
def test_arguments_of_another_kind(name):
    ours = _outcome(_programs(numtorch)[name])
    if name in EXPECTED:
        assert EXPECTED[name] in ours[:2]
    torch = pytest.importorskip("torch")
    assert ours == _outcome(_programs(torch)[name])


def _inplace_refusal(lib, name, dtype, other_dtype):
    target = lib.ones(3, dtype=getattr(lib, dtype))
    other = lib.ones(2, 3, dtype=getattr(lib, other_dtype))
    try:
        getattr(target, name)(other)
    except Exception as error:
        return type(error).__name__, str(error)
    return None


@pytest.mark.parametrize(
    "name, dtype, other_dtype",
    [
        ("atan2_", "float32", "complex64"),
        ("hypot_", "float32", "complex64"),
        ("fmod_", "float32", "complex64"),
        ("lt_", "float32", "complex64"),
        ("bitwise_and_", "int64", "float32"),
        ("bitwise_and_", "bool", "float32"),
    ],
)
def test_a_pointwise_in_place_op_refuses_the_shape_before_the_kernel_refuses_the_dtype(
    name, dtype, other_dtype
):
    # torch's iterator broadcasts the operands before its kernel dispatches on the dtype
    ours = _inplace_refusal(numtorch, name, dtype, other_dtype)
    assert ours == (
        "RuntimeError",
        "output with shape [3] doesn't match the broadcast shape [2, 3]",
    )
    torch = pytest.importorskip("torch")
    assert ours == _inplace_refusal(torch, name, dtype, other_dtype)


@pytest.mark.parametrize("name", ["clamp_", "clip_"])
def test_an_in_place_op_s_own_dtype_check_comes_before_the_shapes(name):
    # fuzz seed 8500790: clamp refuses a complex tensor before its iterator sees the shapes
    torch = pytest.importorskip("torch")
    out = []
    for lib in (numtorch, torch):
        target = lib.tensor([1 + 1j, 2j])
        with pytest.raises(Exception) as error:
            getattr(target, name)(lib.ones(4))
        out.append((type(error.value).__name__, str(error.value)))
    assert out[0] == out[1]

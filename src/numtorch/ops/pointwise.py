"""Elementwise arithmetic with torch's type promotion (add, sub, mul, div, remainder, neg), where,
addcmul, addcdiv and lerp, and ``_unary``, which defines the one-input math ops."""

from __future__ import annotations

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.dispatch import broadcast_shape, check_scalar_fits, fill_scalar
from .._core.kernel_dtypes import COMPLEX, FLOATS, NUMBERS, kernel
from .._core.op import defop, export, not_implemented, overloaded
from .._core.tensor import Tensor, typename
from .._core.warn_once import warn_once
from .._creation import zeros_like
from ..autograd.forward_grad import align, batched, not_implemented_jvp
from ..backend import xp
from ..backend.fused import add_scaled, fma


def _zeros(grad):
    return zeros_like(grad)


# -- arithmetic ------------------------------------------------------------------------------


def _no_bool_subtraction(args):
    bools = [
        a is True or a is False or (isinstance(a, Tensor) and a._data.dtype == xp.bool_)
        for a in args[:2]
    ]
    if all(bools):
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead."
        )
    if any(bools):  # a Python bool counts as a bool tensor here, as in torch
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )


# Note [Complex alpha]
# torch's add and sub compute input +- alpha * other with alpha a complex number even when it
# is 1: a complex product, so an infinite or NaN part of a complex ``other`` makes its other
# part NaN (inf * 0): (0.5j) + (inf + 0j) is inf + nanj, where (inf + 0j) + 0.5j is
# inf + 0.5j. NumPy's complex product is the same textbook formula.
def _add_op(input, other):
    out = input + other
    if out.dtype.kind == "c":  # Note [Complex alpha]
        return (input + other * (1 + 0j)).astype(out.dtype, copy=False)
    return out


def _subtract(input, other):
    out = input - other
    if out.dtype.kind == "c":  # Note [Complex alpha]
        return (input - other * (1 + 0j)).astype(out.dtype, copy=False)
    return out


# add and sub each have a plain primitive (grad-only formulas: the cheapest backward) and
# one with alpha; both carry torch's single node name.
_add = defop(
    batch=batch_rules.pointwise,
    name="add",
    schema_args=3,  # add.Tensor(self, other, *, alpha)
    promote="same",
    scalars=("input", "other"),
    input=lambda grad: grad,
    other=lambda grad: grad,
    jvp="elementwise",
)(_add_op)

_sub = defop(
    batch=batch_rules.pointwise,
    name="sub",
    schema_args=3,  # sub.Tensor(self, other, *, alpha)
    check=_no_bool_subtraction,
    promote="same",
    scalars=("input", "other"),
    input=lambda grad: grad,
    other=lambda grad: -grad,
    jvp="elementwise",
)(_subtract)


@defop(
    batch=batch_rules.pointwise,
    name="add_alpha",
    aten="add",
    node="AddBackward0",
    promote="same",
    scalars=("input", "other"),
    input=lambda grad: grad,
    other=lambda grad, alpha: grad * _conj(alpha),
    jvp="elementwise",
)
def _add_alpha(input, other, alpha):
    fused = add_scaled(input, other, alpha)  # Note [Fused alpha] in backend/fused.py
    if fused is not None:
        return fused
    out = input + other * alpha
    dtype = xp.result_type(input, other)  # alpha never promotes (bool + bool * 2 is bool)
    return out if out.dtype == dtype else out.astype(dtype)


@defop(
    batch=batch_rules.pointwise,
    name="sub_alpha",
    aten="sub",
    node="SubBackward0",
    check=_no_bool_subtraction,
    promote="same",
    scalars=("input", "other"),
    input=lambda grad: grad,
    other=lambda grad, alpha: grad * -_conj(alpha),
    jvp="elementwise",
)
def _sub_alpha(input, other, alpha):
    fused = add_scaled(input, other, -alpha)  # Note [Fused alpha] in backend/fused.py
    return input - other * alpha if fused is None else fused


@defop(
    batch=batch_rules.pointwise,
    name="rsub",
    check=_no_bool_subtraction,
    node="RsubBackward1",
    promote="same",
    scalars=("other",),
    input=lambda grad, alpha: -grad if alpha == 1 else grad * -_conj(alpha),
    jvp="elementwise",
)
def _rsub(input, other, alpha=1):
    if alpha == 1:
        return _subtract(other, input)  # Note [Complex alpha]
    return other - input * alpha


# torch.rsub given a tensor ``other``: the Tensor overload, whose ``other`` is differentiable
@defop(
    batch=batch_rules.pointwise,
    name="rsub_tensor",
    aten="rsub",
    check=_no_bool_subtraction,
    node="RsubBackward0",
    promote="same",
    input=lambda grad, alpha: -grad if alpha == 1 else grad * -_conj(alpha),
    other=lambda grad: grad,
    jvp="elementwise",
)
def _rsub_tensor(input, other, alpha=1):
    return _rsub.spec.forward(input, other, alpha)


@export(inplace=True)
def add(input, other, *, alpha=1) -> Tensor:
    """``input + alpha * other`` with broadcasting and type promotion."""
    if alpha.__class__ is int and alpha == 1:
        return _add(input, other)
    _check_alpha(input, other, alpha, "add")
    return _add_alpha(input, other, alpha)


def _check_alpha(input, other, alpha, name):
    # a Number (a 0-d tensor converts to one), refused by torch's parser before anything else
    if not isinstance(alpha, (int, float, complex, xp.generic, Tensor)):
        raise TypeError(f"{name}(): argument 'alpha' must be Number, not {typename(alpha)}")
    dtype = _dtypes.result_type(input, other)
    if isinstance(alpha, bool) and dtype is not _dtypes.bool_:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )
    if isinstance(alpha, complex) and not dtype.is_complex:
        raise RuntimeError(
            "For non-complex input tensors, argument alpha must not be a complex number."
        )


@export(inplace=True)
def sub(input, other, *, alpha=1) -> Tensor:
    """``input - alpha * other``."""
    if alpha.__class__ is int and alpha == 1:
        return _sub(input, other)
    _check_alpha(input, other, alpha, "sub")
    return _sub_alpha(input, other, alpha)


subtract = export(sub, name="subtract", inplace=True)


@export(method=False)
def rsub(input, other, *, alpha=1) -> Tensor:
    if alpha.__class__ is not int or alpha != 1:
        _check_alpha(input, other, alpha, "rsub")
    if isinstance(other, Tensor):
        return _rsub_tensor(input, other, alpha)
    return _rsub(input, other, alpha)


def _conj(x):
    # a holomorphic op's gradient takes the conjugate derivative (Note [Complex autograd])
    if x.__class__ is Tensor:
        return x.conj() if x._data.dtype.kind == "c" else x
    return x.conjugate() if isinstance(x, complex) else x  # NumPy's complex scalars too


# formulas run on arrays only when every array is real (Note [Formulas on arrays])
_conj.array_form = lambda x: x


mul = defop(
    name="mul",
    promote="same",
    opmath_scalar=True,  # Note [Half-precision scalars]
    scalars=("input", "other"),
    params=("input", "other"),
    input=lambda grad, other: grad * _conj(other),
    other=lambda grad, input: grad * _conj(input),
    jvp="elementwise",
)(xp.multiply)
mul.__doc__ = "Elementwise product with broadcasting."
export(mul, inplace=True)

multiply = export(mul, name="multiply", inplace=True)


def _div_other(grad, input, other):
    # d/dy (x / y) = -x / y**2, written as torch does to keep rounding identical
    return -grad * _conj((input / other) / other)


@batched
def _div_jvp(input_t, other_t, input, other, result):
    # torch's forward formula (self_t - other_t * result) / other, a missing tangent being
    # a zero that drops out of the difference (not the sum of the two gradients' terms)
    input_t = align(input_t, input, result.ndim)
    if other_t is None:
        return input_t / other
    other_t = align(other_t, other, result.ndim)
    change = -(other_t * result) if input_t is None else input_t - other_t * result
    return change / other


_true_divide = defop(
    name="div",
    promote="float",
    opmath_scalar=True,  # Note [Half-precision scalars]
    scalars=("input", "other"),
    params=("input", "other"),
    input=lambda grad, other: grad / _conj(other),
    other=_div_other,
    jvp=_div_jvp,
)(xp.true_divide)


# torch's C++ composites divide by a Scalar (``at::div(t, 2.0)``), recorded as DivBackward1;
# Python's ``t / 2.0`` wraps the number into a tensor and records DivBackward0.
@defop(
    batch=batch_rules.pointwise,
    name="div_scalar",
    node="DivBackward1",
    promote="float",
    opmath_scalar=True,  # Note [Half-precision scalars]
    input=lambda grad, other: _div_scalar(grad, _conj(other)),
    jvp="elementwise",
)
def _div_scalar(input, other):
    return xp.true_divide(input, other)


# a Scalar's derivative is again a Scalar multiplication (MulBackward1 in torch's graphs)
@defop(
    batch=batch_rules.pointwise,
    name="mul_scalar",
    node="MulBackward1",
    input=lambda grad, other: _mul_scalar(grad, _conj(other)),
    jvp="elementwise",
)
def _mul_scalar(input, other):
    return input * xp.asarray(other, dtype=input.dtype)


@defop(
    batch=batch_rules.pointwise,
    name="add_scalar",
    node="AddBackward1",
    input=lambda grad: grad,
    jvp="elementwise",
)
def _add_scalar(input, other):
    return input + xp.asarray(other, dtype=input.dtype)


def _no_bool_kernel(kernel, input, other) -> None:
    # torch's integer division and modulus kernels have no bool loop
    if xp.result_type(input, other) == xp.bool_:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")


def _no_integer_zero_division(input, other) -> None:
    # NumPy gives 0 with a warning; torch raises for integer division and modulus by zero
    # (an empty result divides nothing: no error)
    integral = xp.result_type(input, other).kind in "iub"
    if integral and xp.size(input) and xp.size(other) and not xp.all(other):
        raise RuntimeError("ZeroDivisionError")


@defop(
    batch=batch_rules.pointwise,
    name="div_rounding",
    aten="div",
    node="DivBackward2",
    promote="same",
    scalars=("input", "other"),
    input=_zeros,
    other=_zeros,
    jvp="elementwise",
)
def _div_rounding(input, other, rounding_mode):
    if rounding_mode in ("floor", "trunc"):
        _no_bool_kernel(f"div_{rounding_mode}_cpu", input, other)
    _no_integer_zero_division(input, other)
    if rounding_mode == "floor":
        return xp.floor_divide(input, other)
    if rounding_mode == "trunc":
        quotient = xp.true_divide(input, other)
        return xp.trunc(quotient).astype(xp.result_type(input, other), copy=False)
    raise ValueError(
        f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
        f"'{rounding_mode}'"
    )


# torch's div.Tensor_mode with rounding_mode=None given explicitly: true division, DivBackward2
_div_mode_none = defop(
    name="div_mode_none",
    node="DivBackward2",
    promote="float",
    scalars=("input", "other"),
    params=("input", "other"),
    input=lambda grad, other: grad / _conj(other),
    other=_div_other,
    jvp="elementwise",
)(xp.true_divide)

_NOT_GIVEN = object()


@export(inplace=True)
def div(input, other, *, rounding_mode=_NOT_GIVEN) -> Tensor:
    """True division (integers give floats); ``rounding_mode`` 'trunc' or 'floor'."""
    if rounding_mode is _NOT_GIVEN:
        return _true_divide(input, other)
    if rounding_mode is None:
        return _div_mode_none(input, other)
    return _div_rounding(input, other, rounding_mode)


divide = export(div, name="divide", inplace=True)
true_divide = export(_true_divide, name="true_divide", inplace=True)


# torch records floor_divide (and ``//``) with a NotImplemented node: backward raises
@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    node="NotImplemented",
    promote="same",
    scalars=("input", "other"),
    input=not_implemented("floor_divide"),
    other=not_implemented("floor_divide"),
    jvp=not_implemented_jvp("floor_divide"),
)
def floor_divide(input, other):
    if xp.result_type(input, other) == xp.bool_:
        raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
    _no_integer_zero_division(input, other)
    return xp.floor_divide(input, other)


@overloaded(
    "other",
    "RemainderBackward0",
    "RemainderBackward1",
    batch=batch_rules.pointwise,
    name="remainder",
    promote="same",
    scalars=("input", "other"),
    input=lambda grad: grad,
    # torch's formula: the rounded quotient's own derivative is 0, even where input / other
    # is not finite (a floored true division would differentiate to NaN there)
    other=lambda grad, input, other: -grad * _div_rounding(input, other, "floor"),
    jvp="elementwise",
)
def _remainder(input, other):
    """Python-style modulus: the result has the sign of ``other``."""
    _no_bool_kernel("remainder_cpu", input, other)
    _no_integer_zero_division(input, other)
    if xp.result_type(input, other).kind not in "fV":
        return xp.remainder(input, other)
    # torch's formula: fmod, moved into other's sign; keeps fmod's signed zeros
    mod = xp.fmod(input, other)
    return xp.where((mod != 0) & ((other < 0) != (mod < 0)), mod + other, mod)


# remainder(Scalar, Tensor) has no derivative in torch: its graph records NotImplemented
@defop(
    batch=batch_rules.pointwise,
    name="remainder_scalar_self",
    node="NotImplemented",
    promote="same",
    scalars=("input", "other"),
    input=not_implemented("remainder"),
    other=not_implemented("remainder"),
    jvp="elementwise",
)
def _remainder_scalar_self(input, other):
    return _remainder.spec.forward(input, other)


@export(inplace=True)
def remainder(input, other) -> Tensor:
    """Python-style modulus (``input`` may be a number: ``2 % t``)."""
    if not isinstance(input, Tensor) and isinstance(other, Tensor):
        # the number becomes a 0-dim tensor of the promoted dtype (torch's wrapped number)
        dtype = _dtypes.result_type(input, other)
        if not dtype.is_floating_point:  # ints convert to half unchecked (inf, then NaN)
            check_scalar_fits(input, dtype)
        input = Tensor._make(xp.asarray(input, dtype=dtype.np))
        return _remainder_scalar_self(input, other)
    return _remainder(input, other)


@export(inplace=True)
@overloaded(
    "other",
    "FmodBackward0",
    "FmodBackward1",
    batch=batch_rules.pointwise,
    promote="same",
    scalars=("other",),
    input=lambda grad: grad,
    other=lambda grad, input, other: -grad * _div_rounding(input, other, "trunc"),
    jvp="elementwise",
)
def fmod(input, other):
    _no_bool_kernel("fmod_cpu", input, other)
    _no_integer_zero_division(input, other)
    return xp.fmod(input, other)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    input=lambda grad: -grad,
    jvp="elementwise",
)
def neg(input):
    if input.dtype == xp.bool_:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
            "to invert a mask, use the `~` or `logical_not()` operator instead."
        )
    if input.dtype.kind == "c" and input.size:
        return _complex_neg(input)
    return -input


def _complex_neg(input):
    # torch's complex vector kernel negates as 0 - x, which makes a zero part +0 (its scalar
    # loop, for what is left after the last whole step, flips the sign). neg has no AVX512
    # kernel: AVX2's takes two 32-byte vectors a step (Note [SIMD lanes and NaN])
    # imported here: ops.nn's package imports this module on its way in
    from .nn.simd_lanes import SIMD_BYTES, vector_lanes

    lanes = vector_lanes(input, vectors=64 // SIMD_BYTES)
    if not lanes.any():
        return -input
    return xp.where(lanes, 0 - input, -input)


negative = export(neg, name="negative", inplace=True)


# -- unary math ------------------------------------------------------------------------------
def _unary(name, ufunc, formula, node=None, wide=False):
    # the NumPy ufunc is the forward itself: one call less per op (``wide``: Note [float32
    # math through float64])
    op = defop(
        batch=batch_rules.pointwise,
        name=name,
        node=node,
        promote="float",
        params=("input",),
        input=formula,
        jvp="elementwise",
    )(_through_float64(ufunc) if wide else ufunc)
    return export(op, inplace=True)


# Note [float32 math through float64]
# torch's float32 exp, log, tanh and their kin give the correctly rounded result for nearly
# every value; NumPy's float32 loops trade that for speed (exp's was torch's in about 60% of
# values, tanh's 65%, cosh's 60%, log's 80%). The function taken in float64 and rounded
# once gives torch's bits in 92-100% of values. Tensors of more than 65536 values keep the
# float32 loop: the float64 one takes 2-4x as long, milliseconds a call on a large
# activation. The two casts cost about 0.7 us a call on a small tensor, which the
# exponentials and logarithms (losses, probabilities, activations: the numbers programs
# print) are worth; sin, cos, tan and their inverses (NumPy's within 10-30% of torch's
# bits) keep NumPy's loop, as they dominate the per-op overhead benchmark's chain.
_WIDE_MOST = 1 << 16


def _through_float64(ufunc):
    def forward(input):
        if input.dtype == xp.float32 and input.size <= _WIDE_MOST:
            return ufunc(input, dtype=xp.float64).astype(xp.float32)
        return ufunc(input)

    forward.__name__ = forward.__qualname__ = ufunc.__name__
    return forward


def _check_where(args):
    input, other = args[1], args[2]
    if isinstance(input, Tensor) != isinstance(other, Tensor):
        number = other if isinstance(input, Tensor) else input
        check_scalar_fits(number, _dtypes.result_type(input, other), lenient=True)


# published by indexed.py, whose ``where`` also takes the one-argument form
@defop(
    batch=batch_rules.pointwise,
    promote="same",
    check=_check_where,
    scalars=("input", "other"),
    input=lambda grad, condition: where(condition, grad, 0.0),
    other=lambda grad, condition: where(condition, 0.0, grad),
    jvp="elementwise",
)
def where(condition, input, other):
    """Pick ``input`` where ``condition`` holds, else ``other`` (both may be numbers)."""
    if condition.dtype != xp.bool_:
        if condition.dtype != xp.uint8:
            raise RuntimeError(
                "where expected condition to be a boolean tensor, but got a tensor with dtype "
                f"{_dtypes.from_numpy_dtype(condition.dtype).scalar_name}"
            )
        warn_once(
            "where received a uint8 condition tensor. This behavior is deprecated and will be "
            "removed in a future version of PyTorch. Use a boolean condition instead.",
            stacklevel=4,
        )
        condition = condition.astype(xp.bool_)
    return xp.where(condition, input, other)


# addcmul's kernel has no bool loop; its number ``value`` is a parameter of the kernel, not
# an operand (Note [Kernel numbers] in _core/dispatch.py)
_ADDCMUL = kernel("addcmul_cpu_out", NUMBERS)


def _check_addcmul(args):
    tensors = [t for t in args[:3] if isinstance(t, Tensor)]
    if tensors and all(t._data.dtype.kind == "b" for t in tensors):
        _ADDCMUL.check_tensor(tensors[0])


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="same",
    check=_check_addcmul,
    input=lambda grad: grad,
    tensor1=lambda grad, tensor2, value: grad * _conj(tensor2) * _conj(value),
    tensor2=lambda grad, tensor1, value: grad * _conj(tensor1) * _conj(value),
    jvp="elementwise",
)
def addcmul(input, tensor1, tensor2, value=1):
    if input.dtype.kind in "iu":  # torch converts the number to the kernel's integer type
        value = fill_scalar(value.item() if value.__class__ is xp.ndarray else value, input.dtype)
    scaled = value * tensor1
    if scaled.__class__ is xp.ndarray and scaled.dtype.kind == "f" and scaled.dtype.itemsize >= 4:
        shape = xp.broadcast_shapes(input.shape, scaled.shape, xp.shape(tensor2))
        if tensor2.__class__ is xp.ndarray and tensor2.dtype == scaled.dtype == input.dtype:
            return fma(  # Note [Fused alpha] in backend/fused.py
                xp.broadcast_to(scaled, shape),
                xp.broadcast_to(tensor2, shape),
                xp.broadcast_to(input, shape),
            )
    return input + scaled * tensor2


def _check_addcdiv(args):
    tensor1, tensor2 = args[1], args[2]
    if all(isinstance(t, Tensor) and t._data.dtype.kind in "biu" for t in (tensor1, tensor2)):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release "
            "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
            "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))."
            "to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
            "float inputs. The future addcdiv behavior is just the latter implementation: "
            "(input + value * tensor1 / tensor2), for all dtypes."
        )


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="float",
    check=_check_addcdiv,
    input=lambda grad: grad,
    tensor1=lambda grad, tensor2, value: grad * _conj(value) / _conj(tensor2),
    tensor2=lambda grad, tensor1, tensor2, value: (
        -grad * _conj(value) * _conj(tensor1) / _conj(tensor2 * tensor2)
    ),
    jvp="elementwise",
)
def addcdiv(input, tensor1, tensor2, value=1):
    return input + value * tensor1 / tensor2


# lerp's kernel runs on the input's dtype (a number weight does not promote it)
_LERP = kernel("lerp_kernel_scalar", FLOATS | COMPLEX)


def _check_lerp(args):
    input, end = args[0], args[1]
    if isinstance(end, Tensor) and end._data.dtype != input._data.dtype:
        raise RuntimeError(
            f"expected dtype {input.dtype.c_name} for `end` but got dtype {end.dtype.c_name}"
        )
    weight = args[2]
    # a 0-d weight takes part in type promotion; a dimensioned one must match, as in torch
    if isinstance(weight, Tensor) and weight.ndim and weight._data.dtype != input._data.dtype:
        raise RuntimeError(
            f"expected dtype {input.dtype.c_name} for `weight` but got dtype {weight.dtype.c_name}"
        )
    if isinstance(input, Tensor):  # after the dtype and shape checks: torch's kernel runs last
        operands = (input, end, weight)
        broadcast_shape(*(t._data.shape for t in operands if isinstance(t, Tensor)))
        _LERP.check_tensor(input)


@batched
def _lerp_jvp(input_t, end_t, weight_t, input, end, weight, result):
    # torch's forward formula is lerp itself on the tangents (a missing one a zero), so its
    # two-sided form decides the signs of zero, plus weight_t * (end - input)
    n = result.ndim
    input_t, end_t = align(input_t, input, n), align(end_t, end, n)
    out = None
    if input_t is not None or end_t is not None:
        start = input_t if input_t is not None else zeros_like(end_t)
        out = lerp(start, end_t if end_t is not None else zeros_like(start), weight)
    if weight_t is not None:
        term = align(weight_t, weight, n) * (end - input)
        out = term if out is None else out + term
    return out


@export(inplace=True)
@overloaded(
    "weight",
    "LerpBackward0",
    "LerpBackward1",
    batch=batch_rules.pointwise,
    promote="same",
    check=_check_lerp,
    scalars=("weight",),
    input=lambda grad, weight: grad * _conj(1 - weight),
    end=lambda grad, weight: grad * _conj(weight),
    weight=lambda grad, input, end: grad * _conj(end - input),
    jvp=_lerp_jvp,
)
def lerp(input, end, weight):
    # torch's two-sided form: from input for |weight| < 0.5, from end otherwise (exact at
    # both ends, and its own inf/NaN pattern: lerp(1, inf, 1) is end - inf * 0 = NaN)
    difference = end - input
    small = xp.abs(weight) < 0.5
    return xp.where(small, input + weight * difference, end - difference * (1 - weight))

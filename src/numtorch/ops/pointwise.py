"""Elementwise ops: arithmetic with torch's type promotion, math functions, comparisons."""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.dispatch import check_scalar_fits
from .._core.meta import refuse_meta
from .._core.op import defop, export, not_implemented, overloaded
from .._core.tensor import Tensor
from .._creation import zeros_like
from ..backend import xp


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


def _subtract(input, other):
    return input - other


# add and sub each have a plain primitive (grad-only formulas: the cheapest backward) and
# one with alpha; both carry torch's single node name.
_add = defop(
    name="add",
    schema_args=3,  # add.Tensor(self, other, *, alpha)
    promote="same",
    scalars=("input", "other"),
    params=("input", "other"),
    input=lambda grad: grad,
    other=lambda grad: grad,
    jvp="elementwise",
)(xp.add)

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
    other=lambda grad, alpha: grad * alpha,
    jvp="elementwise",
)
def _add_alpha(input, other, alpha):
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
    other=lambda grad, alpha: grad * -alpha,
    jvp="elementwise",
)
def _sub_alpha(input, other, alpha):
    return input - other * alpha


@defop(
    batch=batch_rules.pointwise,
    name="rsub",
    check=_no_bool_subtraction,
    node="RsubBackward1",
    promote="same",
    scalars=("other",),
    input=lambda grad, alpha: -grad if alpha == 1 else grad * -alpha,
    jvp="elementwise",
)
def _rsub(input, other, alpha=1):
    return other - input if alpha == 1 else other - input * alpha


@export(inplace=True)
def add(input, other, *, alpha=1) -> Tensor:
    """``input + alpha * other`` with broadcasting and type promotion."""
    if alpha.__class__ is int and alpha == 1:
        return _add(input, other)
    _check_alpha(input, other, alpha)
    return _add_alpha(input, other, alpha)


def _check_alpha(input, other, alpha):
    dtype = _dtypes.result_type(input, other)
    if isinstance(alpha, bool) and dtype is not _dtypes.bool_:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if isinstance(alpha, float) and not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )


@export(inplace=True)
def sub(input, other, *, alpha=1) -> Tensor:
    """``input - alpha * other``."""
    if alpha.__class__ is int and alpha == 1:
        return _sub(input, other)
    _check_alpha(input, other, alpha)
    return _sub_alpha(input, other, alpha)


subtract = export(sub, name="subtract", inplace=True)


@export(method=False)
def rsub(input, other, *, alpha=1) -> Tensor:
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


_true_divide = defop(
    name="div",
    promote="float",
    scalars=("input", "other"),
    params=("input", "other"),
    input=lambda grad, other: grad / _conj(other),
    other=_div_other,
    jvp="elementwise",
)(xp.true_divide)


# torch's C++ composites divide by a Scalar (``at::div(t, 2.0)``), recorded as DivBackward1;
# Python's ``t / 2.0`` wraps the number into a tensor and records DivBackward0.
@defop(
    batch=batch_rules.pointwise,
    name="div_scalar",
    node="DivBackward1",
    promote="float",
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
    if xp.result_type(input, other).kind in "iub" and not xp.all(other):
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
    input=lambda grad, other: grad / other,
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
    jvp="elementwise",
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
    return -input


negative = export(neg, name="negative", inplace=True)


# -- powers ----------------------------------------------------------------------------------
def _pow_input(grad, input, exponent):
    # d/dx x**y = y * x**(y-1); torch returns exact zeros for y == 0
    if not isinstance(exponent, Tensor):
        # exponent * x**(y-1) is a Scalar multiplication in torch's formula (MulBackward1)
        if exponent == 0:
            return grad * 0
        return grad * _conj(_mul_scalar(input ** (exponent - 1), exponent))
    return where(exponent == 0, 0.0, grad * _conj(exponent * input ** (exponent - 1)))


def _pow_exponent(grad, input, exponent, result):
    # d/dy x**y = x**y * log(x), taken as 0 where x == 0 and y >= 0 (as torch): at x == 0
    # and y < 0 it is inf * -inf = -inf, and NaN for a NaN y
    base = input if isinstance(input, Tensor) else Tensor._make(xp.asarray(input))
    if not isinstance(input, Tensor):
        if input == 0:
            return grad * where(exponent >= 0, 0.0, result * float("-inf"))
        if input < 0:
            return grad * (result * float("nan"))
        return grad * _mul_scalar(result, math.log(input))  # a positive number base
    return grad * where((base == 0) & (exponent >= 0), 0.0, result * base.log())


def _check_int_pow(args):
    input, exponent = args[0], args[1]
    if isinstance(exponent, Tensor) or not isinstance(input, Tensor):
        return
    if input._data.dtype.kind in "iub" and exponent.__class__ is int and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    check_scalar_fits(exponent, _dtypes.result_type(input, exponent))


def _power(input, exponent):
    """``input ** exponent`` for a tensor exponent, with torch's integer rules: no bool
    kernel, and a negative integer exponent gives 0 (1 for base 1, +-1 for base -1)."""
    dtype = xp.result_type(input, exponent)
    if dtype == xp.bool_:
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    if dtype.kind not in "iu" or exponent.dtype.kind not in "iu" or not (exponent < 0).any():
        return xp.power(input, exponent)
    negative = exponent < 0
    out = xp.power(input, xp.where(negative, 0, exponent).astype(exponent.dtype))
    odd = (exponent & 1) != 0
    special = xp.where(input == 1, 1, xp.where(input == -1, xp.where(odd, -1, 1), 0))
    return xp.where(negative, special, out).astype(dtype)


@defop(
    batch=batch_rules.pointwise,
    name="pow",
    promote="same",
    check=_check_int_pow,
    scalars=("exponent",),
    input=_pow_input,
    jvp="elementwise",
)
def _pow_scalar(input, exponent):
    return xp.power(input, exponent)


@defop(
    batch=batch_rules.pointwise,
    name="pow_tensor",
    aten="pow",
    node="PowBackward1",
    promote="same",
    input=_pow_input,
    exponent=lambda grad, input, exponent, result: _pow_exponent(grad, input, exponent, result),
    jvp="elementwise",
)
def _pow_tensor(input, exponent):
    return _power(input, exponent)


@defop(
    batch=batch_rules.pointwise,
    name="pow_self_scalar",
    aten="pow",
    node="PowBackward2",
    promote="same",
    scalars=("input",),
    exponent=lambda grad, input, exponent, result: _pow_exponent(grad, input, exponent, result),
    jvp="elementwise",
)
def _pow_self_scalar(input, exponent):
    return _power(input, exponent)


@export(inplace=True)
def pow(input, exponent) -> Tensor:
    """``input ** exponent``; either side may be a number."""
    if isinstance(exponent, Tensor):
        if isinstance(input, Tensor):
            return _pow_tensor(input, exponent)
        return _pow_self_scalar(input, exponent)
    return _pow_scalar(input, exponent)


@export(inplace=True)
def square(input) -> Tensor:
    return _pow_scalar(input, 2)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="float",
    input=lambda grad, result: -grad * _conj(result * result),
    jvp="elementwise",
)
def reciprocal(input):
    return xp.reciprocal(input)


# -- unary math ------------------------------------------------------------------------------
def _unary(name, ufunc, formula, node=None):
    # the NumPy ufunc is the forward itself: one call less per op
    op = defop(
        batch=batch_rules.pointwise,
        name=name,
        node=node,
        promote="float",
        params=("input",),
        input=formula,
        jvp="elementwise",
    )(ufunc)
    return export(op, inplace=True)


exp = _unary("exp", xp.exp, lambda grad, result: grad * _conj(result))
exp2 = _unary("exp2", xp.exp2, lambda grad, result: grad * result * math.log(2.0))
expm1 = _unary("expm1", xp.expm1, lambda grad, result: grad * (result + 1))
log = _unary("log", xp.log, lambda grad, input: grad / _conj(input))
log2 = _unary("log2", xp.log2, lambda grad, input: grad / (input * math.log(2.0)))
log10 = _unary("log10", xp.log10, lambda grad, input: grad / (input * math.log(10.0)))
log1p = _unary(
    "log1p",
    xp.log1p,
    lambda grad, input: grad / (input + 1),
    node="Log1PBackward0",
)
sqrt = _unary("sqrt", xp.sqrt, lambda grad, result: grad / _conj(_mul_scalar(result, 2)))


def _rsqrt(input):
    # For real floats reciprocal gives 1 / x's correctly rounded quotient without converting
    # a Python number: half the cost on small arrays (asin and acos gradients call it too).
    root = xp.sqrt(input)
    return xp.reciprocal(root) if root.dtype.kind == "f" else 1 / root


rsqrt = _unary("rsqrt", _rsqrt, lambda grad, result: -0.5 * grad * result**3)
# in formulas on arrays (asin's and acos's gradients) its argument is a real float
rsqrt.array_form = lambda input: xp.reciprocal(xp.sqrt(input))
sin = _unary("sin", xp.sin, lambda grad, input: grad * cos(input))
cos = _unary("cos", xp.cos, lambda grad, input: grad * -sin(input))
# 1.0 rather than 1 in these formulas: on arrays, NumPy takes a float number faster than an int
tan = _unary("tan", xp.tan, lambda grad, result: grad * (1.0 + result * result))
asin = _unary("asin", xp.arcsin, lambda grad, input: grad * rsqrt(1.0 - input * input))
acos = _unary("acos", xp.arccos, lambda grad, input: -grad * rsqrt(1.0 - input * input))
atan = _unary("atan", xp.arctan, lambda grad, input: grad / (1.0 + input * input))
sinh = _unary("sinh", xp.sinh, lambda grad, input: grad * input.cosh())
cosh = _unary("cosh", xp.cosh, lambda grad, input: grad * input.sinh())


# tanh, sigmoid and relu get fused backward ops (one op instead of three), as in torch.
@defop(
    batch=batch_rules.pointwise,
    name="tanh_backward",
    node="TanhBackwardBackward0",
    grad_output=lambda grad, output: tanh_backward(grad, output),
    output=lambda grad, grad_output, output: -2 * output * grad * grad_output,
    jvp="elementwise",
)
def tanh_backward(grad_output, output):
    if output.dtype == xp.float32:
        # torch's kernel computes 1 - y*y as one fused multiply-add (one rounding); in float64
        # the product is exact, so one cast back rounds as the fused op does
        return grad_output * (1 - output.astype(xp.float64) ** 2).astype(xp.float32)
    if output.dtype in (xp.float16, _dtypes.BFLOAT16_NP):  # torch computes these in float32
        wide = grad_output.astype(xp.float32) * (1 - output.astype(xp.float32) ** 2)
        return wide.astype(output.dtype)
    if output.dtype == xp.float64:  # x87 extended precision comes closest to the fused op
        return grad_output * (1 - output.astype(xp.longdouble) ** 2).astype(xp.float64)
    return grad_output * (1 - output * output)


@defop(
    batch=batch_rules.pointwise,
    name="sigmoid_backward",
    node="SigmoidBackwardBackward0",
    grad_output=lambda grad, output: sigmoid_backward(grad, output),
    output=lambda grad, grad_output, output: grad * grad_output * (1 - 2 * output),
    jvp="elementwise",
)
def sigmoid_backward(grad_output, output):
    return grad_output * (1 - output) * output  # torch's order of the two roundings


@defop(
    batch=batch_rules.pointwise,
    name="threshold_backward",
    node="ThresholdBackwardBackward0",
    grad_output=lambda grad, self, threshold: threshold_backward(grad, self, threshold),
    self=lambda grad: zeros_like(grad),
    jvp="elementwise",
)
def threshold_backward(grad_output, self, threshold):
    # torch's rule: 0 where self <= threshold, else grad_output, so a NaN in self passes
    # the gradient on. np.where on a random mask is ~10x slower than a branch-free form.
    zeroed = xp.less_equal(self, threshold)
    bits = _SAME_SIZE_BITS.get(grad_output.dtype.itemsize)
    fast = grad_output.dtype.kind == "f" and bits is not None
    # NumPy answers 0-d comparisons with scalars, which take no out=
    if not (fast and isinstance(zeroed, xp.ndarray) and zeroed.shape == grad_output.shape):
        return xp.where(zeroed, 0, grad_output).astype(grad_output.dtype, copy=False)
    # All-ones where the gradient passes (0 - 1 wraps around to -1, which widening to the
    # gradient's width sign-extends), zero where it is zeroed: an AND keeps inf and NaN
    # gradients exact and writes +0 elsewhere, with no fix-up pass. The subtraction runs on
    # bytes and the widening is a plain cast, together ~30% faster than a mixed-type subtract.
    flags = zeroed.view(xp.uint8)
    xp.subtract(flags, xp.uint8(1), out=flags)
    keep = flags.view(xp.int8).astype(bits)
    xp.bitwise_and(grad_output.view(bits), keep, out=keep)
    return keep.view(grad_output.dtype)


_SAME_SIZE_BITS = {2: xp.int16, 4: xp.int32, 8: xp.int64}


tanh = _unary("tanh", xp.tanh, lambda grad, result: tanh_backward(grad, result))


def _sigmoid_forward(input):
    # exp(-x) overflows harmlessly to inf for very negative x, giving 0
    return 1 / (1 + xp.exp(-input))


sigmoid = _unary("sigmoid", _sigmoid_forward, lambda grad, result: sigmoid_backward(grad, result))

arcsin = export(asin, name="arcsin", inplace=True)
arccos = export(acos, name="arccos", inplace=True)
arctan = export(atan, name="arctan", inplace=True)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    input=lambda grad, result: threshold_backward(grad, result, 0),
    jvp="elementwise",
)
def relu(input):
    """max(input, 0)."""
    if input.dtype == xp.bool_:
        raise RuntimeError("Boolean inputs not supported for relu")
    return xp.maximum(input, 0)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    input=lambda grad, input: grad * input.sgn(),
    jvp="elementwise",
)  # torch's abs backward records sgn
def abs(input):
    _no_bool(input, "abs_cpu")
    return xp.abs(input)


absolute = export(abs, name="absolute", inplace=True)


def _no_bool(input, kernel):
    if input.dtype == xp.bool_:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")


def _zero_grad_unary(name, ufunc):
    kernel = f"{name}_vml_cpu"

    def forward(input):
        _no_bool(input, kernel)  # torch's rounding kernels have no bool loop
        if input.dtype.kind in "iu":  # integers are already rounded (NumPy < 2.1 made floats)
            return input.copy()
        return ufunc(input)

    op = defop(
        batch=batch_rules.pointwise,
        name=name,
        input=_zeros,
        jvp="elementwise",
    )(forward)
    return export(op, inplace=True)


def _sign(input):
    if input.dtype == xp.bool_:
        return input.copy()
    out = xp.sign(input)
    # torch's sign(nan) is 0
    return xp.nan_to_num(out) if out.dtype.kind == "f" else out


sign = export(
    defop(
        batch=batch_rules.pointwise,
        name="sign",
        input=_zeros,
        jvp="elementwise",
    )(_sign),
    inplace=True,
)
floor = _zero_grad_unary("floor", xp.floor)
ceil = _zero_grad_unary("ceil", xp.ceil)
trunc = _zero_grad_unary("trunc", xp.trunc)
fix = export(trunc, name="fix", inplace=True)


def _no_integer_round(input, kernel):
    if input.dtype.kind not in "fcV":
        from .._core import dtypes as _dtypes

        name = _dtypes.from_numpy_dtype(input.dtype).scalar_name
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")


@defop(
    batch=batch_rules.pointwise,
    name="round",
    input=_zeros,
    jvp="elementwise",
)
def _round(input):
    if input.dtype == xp.bool_:  # integers are already round
        _no_integer_round(input, "round_vml_cpu")
    return xp.round(input)


@defop(
    batch=batch_rules.pointwise,
    name="round_decimals",
    node="RoundBackward1",
    input=_zeros,
    jvp="elementwise",
)
def _round_decimals(input, decimals):
    _no_integer_round(input, "round_vml_cpu" if decimals == 0 else "round_cpu")
    return xp.round(input, decimals)


@export(inplace=True)
def round(input, *, decimals=None) -> Tensor:
    """Round to the nearest integer (halves to even), or to ``decimals`` decimal places
    (negative: to tens, hundreds, ...), as ``rint(x * 10**decimals) / 10**decimals``.

    Example:
        >>> import numtorch as torch
        >>> torch.round(torch.tensor([0.5, 1.5, 2.675]), decimals=None)
        tensor([0., 2., 3.])
        >>> torch.round(torch.tensor([1234.5678]), decimals=-2)
        tensor([1200.])
    """
    if decimals is None:
        return _round(input)
    return _round_decimals(input, int(decimals))


def _frac_check(args):
    _no_integer_round(args[0]._data, "frac_cpu")


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="float",
    check=_frac_check,
    input=lambda grad: grad,
    jvp="elementwise",
)
def frac(input):
    return input - xp.trunc(input)


def _clamp_grad(grad, input, min, max):
    inside = True
    if min is not None:
        inside = input >= min
    if max is not None:
        inside = (input <= max) & inside if min is not None else input <= max
    return where(inside, grad, 0.0)


def _clamp_bound(grad, input, bound, other_bound, lower):
    # The bound receives the gradient where it was the active limit, by torch's rule for
    # ties: where min >= max, max is the limit (min < max is required for min; max < min
    # alone is enough for max), so input < min == max gives no bound a gradient
    active = input < bound if lower else input > bound
    if other_bound is not None:
        active = active & (bound < other_bound) if lower else active | (bound < other_bound)
    return where(active, grad, 0.0)


def _clamp_check(min, max):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")


def _with_scalars(out, input, *bounds):
    # torch's promotion: an int tensor clamped by a float bound becomes the default float dtype
    d = _dtypes.from_numpy_dtype(input.dtype)
    for b in bounds:
        if b is not None:
            d = _dtypes._combine(d, _dtypes.scalar_dtype(b))
    return out.astype(d.np, copy=False)


@defop(
    batch=batch_rules.pointwise,
    name="clamp_scalar",
    aten="clamp",
    node="ClampBackward1",
    input=_clamp_grad,
    jvp="elementwise",
)
def _clamp_scalar(input, min, max):
    _clamp_check(min, max)
    out = input
    if min is not None:
        out = xp.maximum(out, min)
    if max is not None:
        out = xp.minimum(out, max)
    return _with_scalars(out, input, min, max)


@defop(
    batch=batch_rules.pointwise,
    name="clamp_tensor",
    aten="clamp",
    node="ClampBackward0",
    promote="same",
    input=_clamp_grad,
    min=lambda grad, input, min, max: _clamp_bound(grad, input, min, max, True),
    max=lambda grad, input, min, max: _clamp_bound(grad, input, max, min, False),
    jvp="elementwise",
)
def _clamp_tensor(input, min, max):
    out = input
    if min is not None:
        out = xp.maximum(out, min)
    if max is not None:
        out = xp.minimum(out, max)
    return out


@export(inplace=True)
def clamp(input, min=None, max=None) -> Tensor:
    """Limit values to ``[min, max]`` (either bound may be omitted)."""
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return _clamp_tensor(input, min, max)
    return _clamp_scalar(input, min, max)


clip = export(clamp, name="clip", inplace=True)


# clamp_min/clamp_max with a number record their own nodes, as in torch
@defop(
    batch=batch_rules.pointwise,
    name="clamp_min_scalar",
    node="ClampMinBackward0",
    input=lambda grad, input, min: where(input >= min, grad, 0.0),
    jvp="elementwise",
)
def _clamp_min_scalar(input, min):
    return _with_scalars(xp.maximum(input, min), input, min)


@defop(
    batch=batch_rules.pointwise,
    name="clamp_max_scalar",
    node="ClampMaxBackward0",
    input=lambda grad, input, max: where(input <= max, grad, 0.0),
    jvp="elementwise",
)
def _clamp_max_scalar(input, max):
    return _with_scalars(xp.minimum(input, max), input, max)


# ... and with a tensor bound, their Tensor overloads' nodes (ClampMinBackward1)
@defop(
    batch=batch_rules.pointwise,
    name="clamp_min_tensor",
    node="ClampMinBackward1",
    aten="clamp_min",
    promote="same",
    input=lambda grad, input, min: where(input >= min, grad, 0.0),
    min=lambda grad, input, min: where(input < min, grad, 0.0),
    jvp="elementwise",
)
def _clamp_min_tensor(input, min):
    return xp.maximum(input, min)


@defop(
    batch=batch_rules.pointwise,
    name="clamp_max_tensor",
    node="ClampMaxBackward1",
    aten="clamp_max",
    promote="same",
    input=lambda grad, input, max: where(input <= max, grad, 0.0),
    max=lambda grad, input, max: where(input > max, grad, 0.0),
    jvp="elementwise",
)
def _clamp_max_tensor(input, max):
    return xp.minimum(input, max)


@export(inplace=True)
def clamp_min(input, min) -> Tensor:
    if isinstance(min, Tensor):
        return _clamp_min_tensor(input, min)
    return _clamp_min_scalar(input, min)


@export(inplace=True)
def clamp_max(input, max) -> Tensor:
    if isinstance(max, Tensor):
        return _clamp_max_tensor(input, max)
    return _clamp_max_scalar(input, max)


def _max_min_grad(grad, input, other, lost):
    # Ties share the gradient equally, and only the strictly losing side gets 0, as in
    # torch's formula: where a NaN meets anything, both sides keep the whole gradient.
    share = where(input == other, grad / 2, grad)
    return share.masked_fill(lost, 0.0)


@export
@defop(
    batch=batch_rules.pointwise,
    promote="same",
    input=lambda grad, input, other: _max_min_grad(grad, input, other, input < other),
    other=lambda grad, input, other: _max_min_grad(grad, input, other, input > other),
    jvp="elementwise",
)
def maximum(input, other):
    return xp.maximum(input, other)


@export
@defop(
    batch=batch_rules.pointwise,
    promote="same",
    input=lambda grad, input, other: _max_min_grad(grad, input, other, input > other),
    other=lambda grad, input, other: _max_min_grad(grad, input, other, input < other),
    jvp="elementwise",
)
def minimum(input, other):
    return xp.minimum(input, other)


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
        raise RuntimeError(
            f"where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{condition.dtype}"
        )
    return xp.where(condition, input, other)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="same",
    scalars=("value",),
    input=lambda grad: grad,
    tensor1=lambda grad, tensor2, value: grad * tensor2 * value,
    tensor2=lambda grad, tensor1, value: grad * tensor1 * value,
    jvp="elementwise",
)
def addcmul(input, tensor1, tensor2, value=1):
    return input + value * tensor1 * tensor2


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="float",
    input=lambda grad: grad,
    tensor1=lambda grad, tensor2, value: grad * value / tensor2,
    tensor2=lambda grad, tensor1, tensor2, value: -grad * value * tensor1 / (tensor2 * tensor2),
    jvp="elementwise",
)
def addcdiv(input, tensor1, tensor2, value=1):
    return input + value * tensor1 / tensor2


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


@export(inplace=True)
@overloaded(
    "weight",
    "LerpBackward0",
    "LerpBackward1",
    batch=batch_rules.pointwise,
    promote="same",
    check=_check_lerp,
    scalars=("weight",),
    input=lambda grad, weight: grad * (1 - weight),
    end=lambda grad, weight: grad * weight,
    weight=lambda grad, input, end: grad * (end - input),
    jvp="elementwise",
)
def lerp(input, end, weight):
    # torch's two-sided form: from input for |weight| < 0.5, from end otherwise (exact at
    # both ends, and its own inf/NaN pattern: lerp(1, inf, 1) is end - inf * 0 = NaN)
    difference = end - input
    small = xp.abs(weight) < 0.5
    return xp.where(small, input + weight * difference, end - difference * (1 - weight))


# -- comparisons and logic (not differentiable) ----------------------------------------------
def _compare(name, ufunc):
    op = defop(
        batch=batch_rules.pointwise,
        name=name,
        promote="compare",
        scalars=("other",),
    )(lambda input, other: ufunc(input, other))
    return export(op, inplace=True)


eq = _compare("eq", xp.equal)
ne = _compare("ne", xp.not_equal)
lt = _compare("lt", xp.less)
le = _compare("le", xp.less_equal)
gt = _compare("gt", xp.greater)
ge = _compare("ge", xp.greater_equal)
greater, greater_equal = export(gt, name="greater"), export(ge, name="greater_equal")
less, less_equal = export(lt, name="less"), export(le, name="less_equal")
not_equal = export(ne, name="not_equal")


def _logical(name, ufunc):
    op = defop(
        batch=batch_rules.pointwise,
        name=name,
        scalars=("other",),
    )(lambda input, other: ufunc(input, other))
    return export(op, inplace=True)


def _integers_only(kernel: str, *arrays) -> None:
    dtype = xp.result_type(*arrays)
    if dtype.kind in "fcV":
        name = _dtypes.from_numpy_dtype(dtype).scalar_name
        raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{name}'")


def _bitwise(name, ufunc, kernel=None):
    def forward(input, other):
        _integers_only(kernel or name, input, other)
        return ufunc(input, other)

    op = defop(
        batch=batch_rules.pointwise,
        name=name,
        promote="same",
        scalars=("other",),
    )(forward)
    return export(op, inplace=True)


logical_and = _logical("logical_and", xp.logical_and)
logical_or = _logical("logical_or", xp.logical_or)
logical_xor = _logical("logical_xor", xp.logical_xor)
bitwise_and = _bitwise("bitwise_and", xp.bitwise_and)
bitwise_or = _bitwise("bitwise_or", xp.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", xp.bitwise_xor)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
)
def logical_not(input):
    return xp.logical_not(input)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
)
def bitwise_not(input):
    _integers_only("bitwise_not", input)
    return xp.invert(input)


@export
@defop(
    batch=batch_rules.pointwise,
)
def isnan(input):
    return xp.isnan(input)


@export
@defop(
    batch=batch_rules.pointwise,
)
def isinf(input):
    return xp.isinf(input)


@export
@defop(
    batch=batch_rules.pointwise,
)
def isfinite(input):
    return xp.isfinite(input)


@export
@defop(
    batch=batch_rules.pointwise,
)
def signbit(input):
    return xp.signbit(input)


@export
@defop(
    batch=batch_rules.pointwise,
    name="nan_to_num",
    input=lambda grad, input: grad * input.isfinite(),  # (a NaN gradient stays NaN, as torch)
    jvp="elementwise",
)
def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    return xp.nan_to_num(input, nan=nan, posinf=posinf, neginf=neginf)


@export
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    if input.is_meta or (isinstance(other, Tensor) and other.is_meta):
        raise RuntimeError("Tensor.item() cannot be called on meta tensors")
    return bool(xp.allclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


@export
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> Tensor:
    other = other._data if isinstance(other, Tensor) else other
    return Tensor._make(xp.isclose(input._data, other, rtol=rtol, atol=atol, equal_nan=equal_nan))


@export
def equal(input, other) -> bool:
    """True if both tensors have the same shape and elements."""
    refuse_meta("equal", input, other)
    return input._data.shape == other._data.shape and bool((input._data == other._data).all())

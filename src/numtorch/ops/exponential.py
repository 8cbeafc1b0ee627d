"""Powers, roots, exponentials and logarithms: pow, square, reciprocal, exp, log, sqrt, rsqrt and
their base-2, base-10 and ``1p``/``m1`` forms."""

from __future__ import annotations

import cmath
import math

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.dispatch import check_scalar_fits
from .._core.op import defop, export
from .._core.tensor import Tensor
from .._creation import zeros_like
from ..autograd.forward_grad import align, batched
from ..backend import layout, xp
from .nn.simd_lanes import vector_lanes
from .pointwise import _conj, _mul_scalar, _unary, where

_ndarray = xp.ndarray


# -- powers ----------------------------------------------------------------------------------
def _pow_input(grad, input, exponent):
    # d/dx x**y = y * x**(y-1); torch returns exact zeros for y == 0
    if not isinstance(exponent, Tensor):
        # exponent * x**(y-1) is a Scalar multiplication in torch's formula (MulBackward1)
        if exponent == 0:
            # zeros_like(self), not grad * 0: a NaN or inf gradient must not turn into NaN
            return zeros_like(input)
        return grad * _conj(_mul_scalar(input ** (exponent - 1), exponent))
    return where(exponent == 0, 0.0, grad * _conj(exponent * input ** (exponent - 1)))


def _nonnegative(exponent):
    # y >= 0; a complex y counts where it is a non-negative real number, as in torch
    if exponent._data.dtype.kind == "c":
        return (exponent.imag == 0) & (exponent.real >= 0)
    return exponent >= 0


def _pow_exponent(grad, input, exponent, result):
    # d/dy x**y = x**y * log(x), taken as 0 where x == 0 and y >= 0 (as torch): at x == 0
    # and y < 0 it is inf * -inf = -inf, and NaN for a NaN y
    base = input if isinstance(input, Tensor) else Tensor._make(xp.asarray(input))
    if not isinstance(input, Tensor):
        if input == 0:
            return grad * where(_nonnegative(exponent), 0.0, _conj(result * float("-inf")))
        if exponent._data.dtype.kind == "c" or isinstance(input, complex):
            # a complex power: the complex log of the base
            return grad * _conj(_mul_scalar(result, cmath.log(input)))
        if input < 0:
            return grad * (result * float("nan"))
        return grad * _mul_scalar(result, math.log(input))  # a positive number base
    if base._data.dtype.kind != "c" and result._data.dtype.kind == "c":
        base = base.to(result.dtype)  # the log of a negative real base in the complex plane
    return grad * where((base == 0) & _nonnegative(exponent), 0.0, _conj(result * base.log()))


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
    if dtype.kind == "c":
        if input.__class__ is not _ndarray and input == 1:
            return xp.ones(exponent.shape, dtype)  # torch fills ones for a base of 1
        return _complex_power(xp.asarray(input, dtype), exponent.astype(dtype, copy=False))
    if dtype.kind not in "iu" or exponent.dtype.kind not in "iu" or not (exponent < 0).any():
        out = xp.power(input, exponent)
        if exponent.size == 1 and dtype.kind == "f" and exponent == 0.5:
            # NumPy takes a one-element exponent 0.5 as sqrt (sqrt(-0) is -0, sqrt(-inf)
            # NaN), where torch's tensor kernel takes a power (+0, inf)
            out = xp.where(input == 0, 0.0, xp.where(xp.isneginf(input), xp.inf, out))
            out = out.astype(dtype, copy=False)
        return out
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
    if exponent == -0.5 and input.dtype.kind == "f":
        # torch's kernel takes x ** -0.5 as rsqrt: 1 / sqrt(-0) = -inf and -inf gives NaN,
        # where a general power gives inf and 0 (its gradient at 0.5 takes this power too)
        with xp.errstate(divide="ignore", invalid="ignore"):
            return xp.reciprocal(xp.sqrt(input))
    if input.dtype.kind == "f" and exponent in (3, -2):
        # torch's kernel multiplies for these exponents (its last bit differs from a power),
        # half precision in float32
        x = input.astype(xp.float32) if input.dtype == xp.float16 else input
        square = x * x
        return (square * x if exponent == 3 else xp.reciprocal(square)).astype(input.dtype)
    if input.dtype.kind == "c" and exponent != 0:
        if exponent == 1:
            return input.copy()  # torch copies, keeping -0 (NumPy's power gives +0)
        with xp.errstate(all="ignore"):
            if exponent in _COMPLEX_KERNELS:
                return _COMPLEX_KERNELS[exponent](input)
        return _complex_power(input, xp.asarray(exponent, input.dtype))
    return xp.power(input, exponent)


def _complex_power(input, exponent):
    # Note [Complex powers as torch's kernels take them]: a general complex power is the C
    # library's exp(exponent * log(input)), NumPy's multiplies for integer exponents (its
    # last bits differ) and takes 0 ** 0 as 1 (torch: exp(0 * -inf) = NaN)
    with xp.errstate(all="ignore"):
        return xp.exp(exponent * xp.log(input))


# Note [Complex powers as torch's kernels take them]
# torch's general complex power (a tensor exponent, or a number but those below and 0 and 1,
# which fill ones and copy) is exp(exponent * log(input)), as the C library's cpow.
# torch's pow of a complex tensor by these numbers runs another kernel: sqrt, 1 / sqrt,
# 1 / x, x * x, x * x * x or 1 / (x * x), where a general power (NumPy's) gives other
# infinities, NaNs and zero signs ((inf + 0j) ** 0.5 is inf + nanj there, inf + 0j here).
# Its quotients are its complex division (NumPy's true_divide, not NumPy's reciprocal:
# 1 / 0j is inf + nanj, 1 / (1e300 + 0j) is 0j). Its products are NumPy's where its
# scalar loop runs (which rounds as a fused multiply-add: (-max - max j)^2 is -inf + inf j);
# its vector loop, two vectors a step, takes the textbook ar br - ai bi, which gives NaN
# there.
def _textbook_product(a, b):
    out = xp.empty(a.shape, a.dtype)
    out.real = a.real * b.real - a.imag * b.imag
    out.imag = a.real * b.imag + a.imag * b.real
    return out


def _complex_product_power(input, exponent):
    result = input * input
    if exponent == 3:
        result = result * input
    if not xp.isfinite(result).all():
        lanes = vector_lanes(input, vectors=2)
        if lanes.any():
            vector = _textbook_product(input, input)
            if exponent == 3:
                vector = _textbook_product(vector, input)
            result = xp.where(lanes, vector, result)
    return result


_COMPLEX_KERNELS = {
    0.5: xp.sqrt,
    -0.5: lambda x: 1 / xp.sqrt(x),
    -1: lambda x: 1 / x,
    2: lambda x: _complex_product_power(x, 2),
    3: lambda x: _complex_product_power(x, 3),
    -2: lambda x: 1 / (x * x),
}


@batched
def _pow_tensor_jvp(input_t, exponent_t, input, exponent, result):
    # torch's formula adds both backward terms to the (conjugated) tangents; the base's term
    # is a `where`, so a base without tangent still adds real zeros: -0 becomes +0
    input_t = align(input_t, input, result.ndim)
    exponent_t = align(exponent_t, exponent, result.ndim)
    if input_t is None:
        base_term = 0.0
    else:
        base_term = _conj(_pow_input(_conj(input_t), input, exponent))
    if exponent_t is None:
        return base_term
    return base_term + _conj(_pow_exponent(_conj(exponent_t), input, exponent, result))


@defop(
    batch=batch_rules.pointwise,
    name="pow_tensor",
    aten="pow",
    node="PowBackward1",
    promote="same",
    input=_pow_input,
    exponent=lambda grad, input, exponent, result: _pow_exponent(grad, input, exponent, result),
    jvp=_pow_tensor_jvp,
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
    # torch allocates this overload's result contiguous (it is not its iterator's)
    return layout.row_major(_power(input, exponent))


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
    if input.dtype.kind == "c":  # Note [Complex powers as torch's kernels take them]
        with xp.errstate(all="ignore"):
            return 1 / input
    return xp.reciprocal(input)


exp = _unary("exp", xp.exp, lambda grad, result: grad * _conj(result), wide=True)
exp2 = _unary(
    "exp2",
    xp.exp2,
    lambda grad, result: _mul_scalar(grad * _conj(result), math.log(2.0)),
    wide=True,
)
expm1 = _unary("expm1", xp.expm1, lambda grad, result: grad * _conj(result + 1), wide=True)
log = _unary("log", xp.log, lambda grad, input: grad / _conj(input), wide=True)
log2 = _unary("log2", xp.log2, lambda grad, input: grad / _conj(input * math.log(2.0)), wide=True)


def _log10(x):
    # NumPy's float32 log10 is off by an ulp about half the time, powers of ten included
    # (log10(100) = 2.0000002); torch's is correctly rounded there, as float64 rounded is
    if x.dtype == xp.float32:
        return xp.log10(x.astype(xp.float64)).astype(xp.float32)
    return xp.log10(x)


log10 = _unary("log10", _log10, lambda grad, input: grad / _conj(input * math.log(10.0)))
log1p = _unary(
    "log1p",
    xp.log1p,
    lambda grad, input: grad / _conj(input + 1),
    node="Log1PBackward0",
    wide=True,
)
sqrt = _unary("sqrt", xp.sqrt, lambda grad, result: grad / _conj(_mul_scalar(result, 2)))


def _rsqrt(input):
    # For real floats reciprocal gives 1 / x's correctly rounded quotient without converting
    # a Python number: half the cost on small arrays (asin and acos gradients call it too).
    root = xp.sqrt(input)
    return xp.reciprocal(root) if root.dtype.kind == "f" else 1 / root


def _cube(x):
    return x**3


# torch's pow kernel takes x ** 3 as x * x * x; NumPy's power rounds otherwise
_cube.array_form = lambda x: x * x * x
rsqrt = _unary("rsqrt", _rsqrt, lambda grad, result: -0.5 * grad * _conj(_cube(result)))
# in formulas on arrays (asin's and acos's gradients) its argument is a real float
rsqrt.array_form = lambda input: xp.reciprocal(xp.sqrt(input))

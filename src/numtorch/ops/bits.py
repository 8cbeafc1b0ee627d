"""Integer and floating-point representation ops: gcd, lcm, bit shifts, frexp, ldexp,
nextafter, isposinf/isneginf."""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.kernel_dtypes import REAL, own_message
from .._core.op import defop, export
from .._core.tensor import Tensor
from .._creation import zeros_like
from ..autograd.forward_grad import batched
from ..backend import xp
from .comparison import _integers_only
from .operators import _operand
from .pointwise import _conj
from .return_types import structseq


def _name(dtype) -> str:
    return _dtypes.from_numpy_dtype(xp.dtype(dtype)).scalar_name


def _tensor_other(name: str, other) -> None:
    if not isinstance(other, Tensor):
        raise TypeError(
            f"{name}(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}"
        )


# -- gcd and lcm (integers only) -------------------------------------------------------------
def _integer_pair(kernel: str, input, other):
    for a in (input, other):
        if a.dtype.kind not in "iu":
            raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{_name(a.dtype)}'")


@defop(
    batch=batch_rules.pointwise,
    name="gcd",
    promote="same",
    scalars=("other",),
)
def _gcd(input, other):
    _integer_pair("gcd", input, other)
    return xp.gcd(input, other)


@defop(
    batch=batch_rules.pointwise,
    name="lcm",
    promote="same",
    scalars=("other",),
)
def _lcm(input, other):
    _integer_pair("lcm", input, other)
    return xp.lcm(input, other)


@export(inplace=True)
def gcd(input, other) -> Tensor:
    """Greatest common divisor, elementwise (non-negative; ``gcd(0, 0) == 0``).

    Example:
        >>> import numtorch as torch
        >>> torch.gcd(torch.tensor([12, -18, 7]), torch.tensor([8, 12, 0]))
        tensor([4, 6, 7])
    """
    _tensor_other("gcd", other)
    return _gcd(input, other)


@export(inplace=True)
def lcm(input, other) -> Tensor:
    """Least common multiple, elementwise (non-negative)."""
    _tensor_other("lcm", other)
    return _lcm(input, other)


# -- bit shifts ------------------------------------------------------------------------------
def _shift_left(input, other):
    _integers_only("lshift", input, other, refused="fcVb")  # no bool kernel either
    bits = input.dtype.itemsize * 8
    inside = (other >= 0) & (other < bits)
    # C leaves out-of-range shifts undefined; torch defines them as 0
    with xp.errstate(over="ignore"):
        shifted = xp.left_shift(input, xp.where(inside, other, 0).astype(input.dtype))
    return xp.where(inside, shifted, 0).astype(input.dtype)


def _shift_right(input, other):
    _integers_only("rshift", input, other, refused="fcVb")  # no bool kernel either
    bits = input.dtype.itemsize * 8
    inside = (other >= 0) & (other < bits)
    # out-of-range shifts fill with the sign bit, as an arithmetic shift by bits - 1 does
    amount = xp.where(inside, other, bits - 1).astype(input.dtype)
    return xp.right_shift(input, amount).astype(input.dtype)


_lshift = defop(
    batch=batch_rules.pointwise,
    name="bitwise_left_shift",
    promote="same",
    scalars=("other",),
)(_shift_left)
_rshift = defop(
    batch=batch_rules.pointwise,
    name="bitwise_right_shift",
    promote="same",
    scalars=("other",),
)(_shift_right)


@defop(
    batch=batch_rules.pointwise,
    name="bitwise_left_shift_scalar",
    promote="same",
    scalars=("input", "other"),
)
def _rlshift(input, other):
    return _shift_left(xp.asarray(input, other.dtype), other)


@defop(
    batch=batch_rules.pointwise,
    name="bitwise_right_shift_scalar",
    promote="same",
    scalars=("input", "other"),
)
def _rrshift(input, other):
    return _shift_right(xp.asarray(input, other.dtype), other)


def _number_then_tensor(input, other) -> bool:
    # torch's Scalar_Tensor overload: a number shifted by a tensor (2 << t); two numbers
    # match no overload and fall to the tensor one's TypeError
    return not isinstance(input, Tensor) and _operand(input) and isinstance(other, Tensor)


@export(inplace=True)
def bitwise_left_shift(input, other) -> Tensor:
    """``input << other`` elementwise for integers (0 where the shift is out of range)."""
    if _number_then_tensor(input, other):
        return _rlshift(input, other)
    return _lshift(input, other)


@export(inplace=True)
def bitwise_right_shift(input, other) -> Tensor:
    """``input >> other`` elementwise for integers (an arithmetic shift; the sign bit fills
    an out-of-range shift)."""
    if _number_then_tensor(input, other):
        return _rrshift(input, other)
    return _rshift(input, other)


def _operator(fn, reflected=False):
    def method(self, other):
        if not _operand(other):
            return NotImplemented
        return fn(other, self) if reflected else fn(self, other)

    return method


Tensor.__lshift__ = _operator(bitwise_left_shift)
Tensor.__rshift__ = _operator(bitwise_right_shift)
Tensor.__rlshift__ = _operator(_rlshift, reflected=True)
Tensor.__rrshift__ = _operator(_rrshift, reflected=True)
Tensor.__ilshift__ = _operator(Tensor.bitwise_left_shift_)
Tensor.__irshift__ = _operator(Tensor.bitwise_right_shift_)


# -- floating-point representation -----------------------------------------------------------
frexp_type = structseq("frexp", ("mantissa", "exponent"))


def _only_floats(name: str, array) -> None:
    if array.dtype.kind not in "fV":
        raise RuntimeError(f"torch.{name}() only supports floating-point dtypes")


# d mantissa / dx = 2**-exponent (the exponent is piecewise constant)
@export
@defop(
    batch=batch_rules.pointwise,
    outputs=2,
    returns=frexp_type,
    input=lambda grad, result1: grad / result1.exp2(),
    jvp=batched(lambda input_t, result1: (input_t / result1.exp2(), None)),
)
def frexp(input):
    """Split into mantissa in ``[0.5, 1)`` (by magnitude) and int32 exponent, with
    ``input == mantissa * 2**exponent``.

    Example:
        >>> import numtorch as torch
        >>> torch.frexp(torch.tensor([1.5, 8.0]))
        torch.return_types.frexp(
        mantissa=tensor([0.7500, 0.5000]),
        exponent=tensor([1, 4], dtype=torch.int32))
    """
    _only_floats("frexp", input)
    mantissa, exponent = xp.frexp(input)
    return mantissa, exponent.astype(xp.int32)


def _ldexp_input(grad, other):
    # torch computes 2**other in other's dtype: an integer power below 0 truncates to 0
    if other.dtype.is_floating_point:
        return grad * 2.0**other
    return grad * (2.0**other).masked_fill(other < 0, 0.0)


@defop(
    batch=batch_rules.pointwise,
    name="ldexp",
    promote="float",
    input=_ldexp_input,
    other=lambda grad, result: grad * _conj(result) * math.log(2.0),
    jvp="elementwise",
)
def _ldexp(input, other):
    return input * xp.exp2(other)


@export(inplace=True)
def ldexp(input, other) -> Tensor:
    """``input * 2**other`` (integer inputs give floats)."""
    _tensor_other("ldexp", other)
    return _ldexp(input, other)


# torch treats the step as locally flat: d/dx nextafter(x, y) = 1 where x != y (else 0),
# d/dy = 0; both are kept, as torch keeps them
@defop(
    batch=batch_rules.pointwise,
    name="nextafter",
    promote="same",
    widens_bfloat16=False,  # a step of bfloat16's own spacing
    input=lambda grad, input, other: grad.where(input != other, 0.0),
    other=lambda grad: zeros_like(grad),  # (summed to other's shape: saves nothing, as torch)
    jvp="elementwise",
)
def _nextafter(input, other):
    if input.dtype.kind not in "fV":
        raise NotImplementedError(f"\"nextafter_cpu\" not implemented for '{_name(input.dtype)}'")
    if input.dtype.kind == "V":  # bfloat16: NumPy's nextafter has no loop that steps it
        return _nextafter_bits(input, other)
    return xp.nextafter(input, other)


def _nextafter_bits(input, other):
    """torch's nextafter of 16-bit floats on their bits: a step of one toward ``other`` (away
    from zero unless past it), the smallest subnormal of other's sign from a zero."""
    a, b = (xp.ascontiguousarray(x) for x in xp.broadcast_arrays(input, other))
    ai, bi = a.view(xp.uint16), b.view(xp.uint16)
    sign = xp.uint16(0x8000)
    magnitude_a, magnitude_b = ai & ~sign, bi & ~sign
    toward_zero = (magnitude_a > magnitude_b) | (((ai ^ bi) & sign) != 0)
    step = xp.where(toward_zero, ai - xp.uint16(1), ai + xp.uint16(1))
    from_zero = xp.where(magnitude_b == 0, bi, (bi & sign) | xp.uint16(1))
    bits = xp.where(magnitude_a == 0, from_zero, step)
    bits = xp.where(ai == bi, ai, bits)
    out = bits.astype(xp.uint16).view(a.dtype)
    nan = xp.isnan(a.astype(xp.float32)) | xp.isnan(b.astype(xp.float32))
    return xp.where(nan, (a.astype(xp.float32) + b.astype(xp.float32)).astype(a.dtype), out)


@export(inplace=True)
def nextafter(input, other) -> Tensor:
    """The next representable float after ``input`` towards ``other``."""
    _tensor_other("nextafter", other)
    return _nextafter(input, other)


@export
@defop(
    batch=batch_rules.pointwise,
    dtypes=own_message(REAL, "isposinf does not support complex inputs."),
)
def isposinf(input):
    return xp.isposinf(input) if input.dtype.kind in "fV" else xp.zeros(input.shape, xp.bool_)


@export
@defop(
    batch=batch_rules.pointwise,
    dtypes=own_message(REAL, "isneginf does not support complex inputs."),
)
def isneginf(input):
    return xp.isneginf(input) if input.dtype.kind in "fV" else xp.zeros(input.shape, xp.bool_)

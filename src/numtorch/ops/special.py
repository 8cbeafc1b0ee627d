"""Pointwise functions beyond the core arithmetic: angles (atan2, hypot, deg2rad, rad2deg),
log-space sums (logaddexp, logaddexp2, xlogy, xlog1py, entr, logit), sinc, signs (copysign,
sgn, heaviside) and float_power."""

from __future__ import annotations

import math

from .._core import batch_rules, grad_mode
from .._core import dtypes as _dtypes
from .._core.dispatch import broadcast_shape
from .._core.kernel_dtypes import FLOATS, REAL, kernel, own_message
from .._core.op import defop, export, not_implemented, refusing
from .._core.tensor import Tensor
from .._creation import from_numpy, zeros_like
from ..autograd.forward_grad import align, batched
from ..backend import xp
from ..backend.zeros import efficient_zeros
from .exponential import pow
from .nn.simd_lanes import vector_lanes
from .pointwise import _conj, _mul_scalar, where


def _floats_only(name, params=("input", "other"), complex_too=False):
    """A check raising torch's error when both operands are integers or bools (it runs on
    mixed dtypes; the forward repeats it for same-dtype operands, see call.py), after
    torch's parser refuses a number for either (these ops take tensors only)."""
    op = name.removesuffix("_cpu")

    def check(args):
        for position, (param, value) in enumerate(zip(params, args[:2]), 1):
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"{op}(): argument '{param}' (position {position}) must be Tensor, not "
                    f"{type(value).__name__}"
                )
        try:
            dt = _dtypes.result_type(*[a for a in args[:2]])
        except TypeError:
            return
        if not (dt.is_floating_point or (complex_too and dt.is_complex)):
            # torch's iterator has checked that the shapes broadcast before its kernel runs
            broadcast_shape(args[0]._data.shape, args[1]._data.shape)
            raise NotImplementedError(f"\"{name}\" not implemented for '{dt.scalar_name}'")

    return check


def _require_float(input, name, other=None):
    if input.dtype.kind not in "fcV":
        if other is not None:  # torch's operands broadcast before its kernel is chosen
            broadcast_shape(input.shape, xp.shape(other))
        dt = _dtypes.from_numpy_dtype(input.dtype)
        raise NotImplementedError(f"\"{name}\" not implemented for '{dt.scalar_name}'")


def derivative_not_implemented(name: str):
    """A derivative formula for inputs torch declares non-differentiable in its formulas
    (``not_implemented("zeta")``): backward raises NotImplementedError."""

    @refusing
    def formula(grad):
        raise NotImplementedError(f"the derivative for '{name}' is not implemented.")

    return formula


# -- angles ----------------------------------------------------------------------------------
def _atan2_scale(input, other):
    # 1 / (x^2 + y^2), taken as 0 at the origin: torch's gradient there is 0, and its
    # second order NaN (the masked reciprocal still differentiates to 0 * inf)
    norm = input * input + other * other
    return where(norm == 0, 0.0, norm.reciprocal())


def _atan2_jvp(input_t, other_t, input, other):
    # torch's forward formula divides by the unmasked x^2 + y^2, so the tangent at the
    # origin is NaN (unlike the gradient); a missing tangent drops its term
    if other_t is None:
        change = other * input_t
    elif input_t is None:
        change = -input * other_t
    else:
        change = -input * other_t + other * input_t  # torch's order (signs of NaN)
    return change / (input * input + other * other)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="float",
    input=lambda grad, input, other: grad * other * _atan2_scale(input, other),
    other=lambda grad, input, other: grad * -input * _atan2_scale(input, other),
    jvp=_atan2_jvp,
)
def atan2(input, other):
    """The angle of the point (``other``, ``input``), quadrant-aware, in (-pi, pi].

    Example:
        >>> import numtorch as torch
        >>> torch.atan2(torch.tensor([1.0]), torch.tensor([-1.0]))
        tensor([2.3562])
    """
    return xp.arctan2(input, other)


arctan2 = export(atan2, name="arctan2", inplace=True)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="same",
    check=_floats_only("hypot_cpu"),
    input=lambda grad, input, result: grad * input / result,
    other=lambda grad, other, result: grad * other / result,
    jvp="elementwise",
)
def hypot(input, other):
    """``sqrt(input**2 + other**2)`` without intermediate overflow.

    Example:
        >>> import numtorch as torch
        >>> torch.hypot(torch.tensor([3.0]), torch.tensor([4.0]))
        tensor([5.])
    """
    _require_float(input, "hypot_cpu", other)
    return xp.hypot(input, other)


_DEG_TO_RAD = math.pi / 180
_RAD_TO_DEG = 180 / math.pi


def _times(input, constant):
    # torch multiplies by the constant as mul's scalar operand: float16 reads it unrounded,
    # in float32 (Note [Half-precision scalars] in _core/dispatch.py)
    if input.dtype == xp.float16:
        return (input.astype(xp.float32) * xp.float32(constant)).astype(xp.float16)
    return input * constant


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    node="Deg2RadBackward0",
    dtypes=own_message(REAL, "deg2rad is not supported for complex tensors."),
    promote="float",
    input=lambda grad: _mul_scalar(grad, _DEG_TO_RAD),  # MulBackward1, as torch's
    jvp="elementwise",
)
def deg2rad(input):
    """Degrees to radians.

    Example:
        >>> import numtorch as torch
        >>> torch.deg2rad(torch.tensor([180.0]))
        tensor([3.1416])
    """
    return _times(input, _DEG_TO_RAD)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    node="Rad2DegBackward0",
    dtypes=own_message(REAL, "rad2deg is not supported for complex tensors."),
    promote="float",
    input=lambda grad: _mul_scalar(grad, _RAD_TO_DEG),
    jvp="elementwise",
)
def rad2deg(input):
    """Radians to degrees."""
    return _times(input, _RAD_TO_DEG)


# -- log-space sums --------------------------------------------------------------------------
def _complex_log1p(z):
    """torch's CPU log1p of a complex array: ``log(u) * (z / (u - 1))`` with ``u = 1 + z``,
    which cancels the rounding of ``1 + z`` (z itself where u rounds to 1, log(u) where
    ``u - 1`` is exact)."""
    u = z + 1
    shifted = u - 1
    with xp.errstate(all="ignore"):
        log_u = xp.log(u)
        out = log_u * (z / xp.where(u == 1, 1, shifted))
    out = xp.where(shifted == z, log_u, out)
    return xp.where(u == 1, z, out)


def complex_log_add_exp(x, y):
    """torch's ``log(exp(x) + exp(y))`` of complex arrays (its logaddexp and logcumsumexp
    kernels): the operand of smaller real part goes in the exponent (``log1p(exp(min -
    max)) + max``; a tie takes y as min), a NaN part anywhere gives NaN + NaN j, -inf
    against -inf the min itself and +inf against +inf ``log(exp(min) + exp(max))``."""
    x, y = xp.broadcast_arrays(x, y)
    x_first = x.real < y.real
    low = xp.where(x_first, x, y)
    high = xp.where(x_first, y, x)
    nan = xp.isnan(x.real) | xp.isnan(x.imag) | xp.isnan(y.real) | xp.isnan(y.imag)
    infinite = ~xp.isfinite(low.real) & (low.real == high.real)
    with xp.errstate(all="ignore"):
        out = _complex_log1p(xp.exp(low - high)) + high
        if infinite.any():
            both = xp.log(xp.exp(low) + xp.exp(high))
            out = xp.where(infinite, xp.where(low.real < 0, low, both), out)
    return xp.where(nan, xp.array(complex(math.nan, math.nan), out.dtype), out)


@export
@defop(
    batch=batch_rules.pointwise,
    promote="same",
    check=_floats_only("logaddexp_cpu", complex_too=True),
    input=lambda grad, input, other: grad / _conj(1 + (other - input).exp()),
    other=lambda grad, input, other: grad / _conj(1 + (input - other).exp()),
    jvp="elementwise",
)
def logaddexp(input, other):
    """``log(exp(input) + exp(other))``, computed stably.

    Example:
        >>> import numtorch as torch
        >>> torch.logaddexp(torch.tensor([0.0]), torch.tensor([0.0]))
        tensor([0.6931])
    """
    _require_float(input, "logaddexp_cpu", other)
    if input.dtype.kind == "c":
        return complex_log_add_exp(input, other)
    return xp.logaddexp(input, other)


@export
@defop(
    batch=batch_rules.pointwise,
    promote="same",
    check=_floats_only("logaddexp2_cpu"),
    input=lambda grad, input, other: grad / (1 + 2 ** (other - input)),
    other=lambda grad, input, other: grad / (1 + 2 ** (input - other)),
    jvp="elementwise",
)
def logaddexp2(input, other):
    """``log2(2**input + 2**other)``, computed stably."""
    _require_float(input, "logaddexp2_cpu", other)
    return xp.logaddexp2(input, other)


def _xlogy_forward(input, other):
    # the operand arrays already have the result dtype; a number must not widen it
    dtype = xp.result_type(*[a for a in (input, other) if isinstance(a, xp.ndarray)])
    input, other = xp.asarray(input), xp.asarray(other)
    # 0 * log(y) is 0 unless y is NaN (torch's convention, also for y == 0)
    out = xp.where((input == 0) & ~xp.isnan(other), 0, input * xp.log(other))
    return out.astype(dtype, copy=False)


def _xlogy_input(grad, input, other):
    # d/dx x log y = log y, but 0 where x == 0 and y <= 0 (as torch)
    return xlogy(grad, other).masked_fill((input == 0) & (other <= 0), 0.0)


def _xlogy_scalar_input(grad, input, other):
    out = xlogy(grad, other)
    # torch's number-exponent formula masks x == 0 unless other > 0: a NaN other too
    if not other > 0:
        return out.masked_fill(input == 0, 0.0)
    return out


@defop(
    batch=batch_rules.pointwise,
    name="xlogy",
    dtypes=kernel("xlogy_cpu", FLOATS),
    promote="float",
    input=_xlogy_input,
    other=lambda grad, input, other: grad * input / other,
    jvp="elementwise",
)
def _xlogy(input, other):
    return _xlogy_forward(input, other)


@defop(
    batch=batch_rules.pointwise,
    name="xlogy_self_scalar",
    dtypes=kernel("xlogy_cpu", FLOATS),
    node="XlogyBackward1",
    promote="float",
    scalars=("input",),
    other=lambda grad, input, other: grad * input / other,
    jvp="elementwise",
)
def _xlogy_self_scalar(input, other):
    return _xlogy_forward(input, other)


@defop(
    batch=batch_rules.pointwise,
    name="xlogy_other_scalar",
    dtypes=kernel("xlogy_cpu", FLOATS),
    node="XlogyBackward2",
    promote="float",
    scalars=("other",),
    input=_xlogy_scalar_input,
    jvp="elementwise",
)
def _xlogy_other_scalar(input, other):
    return _xlogy_forward(input, other)


@export(inplace=True)
def xlogy(input, other) -> Tensor:
    """``input * log(other)``, taken as 0 where ``input`` is 0 (unless ``other`` is NaN).
    Either argument may be a number.

    Example:
        >>> import numtorch as torch
        >>> torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 1.0]))
        tensor([0., 0.])
    """
    if not isinstance(other, Tensor):
        return _xlogy_other_scalar(input, other)
    if not isinstance(input, Tensor):
        return _xlogy_self_scalar(input, other)
    return _xlogy(input, other)


# -- xlog1py (torch.special): as xlogy, with log1p ------------------------------------------
def _xlog1py_forward(input, other):
    dtype = xp.result_type(*[a for a in (input, other) if isinstance(a, xp.ndarray)])
    input, other = xp.asarray(input), xp.asarray(other)
    out = xp.where((input == 0) & ~xp.isnan(other), 0, input * xp.log1p(other))
    return out.astype(dtype, copy=False)


def _xlog1py_input(grad, input, other):
    # d/dx x log1p(y) = log1p(y), but 0 where x == 0 and y <= -1 (as torch)
    return xlog1py(grad, other).masked_fill((input == 0) & (other <= -1), 0.0)


def _xlog1py_scalar_input(grad, input, other):
    out = xlog1py(grad, other)
    return out.masked_fill(input == 0, 0.0) if not other > -1 else out  # NaN masks too


def _xlog1py_other(grad, input, other):
    return grad * input / (other + 1)


@defop(
    batch=batch_rules.pointwise,
    name="xlog1py",
    dtypes=kernel("xlog1py_cpu", FLOATS),
    node="SpecialXlog1PyBackward0",
    promote="float",
    input=_xlog1py_input,
    other=_xlog1py_other,
    jvp="elementwise",
)
def _xlog1py(input, other):
    return _xlog1py_forward(input, other)


@defop(
    batch=batch_rules.pointwise,
    name="xlog1py_self_scalar",
    dtypes=kernel("xlog1py_cpu", FLOATS),
    node="SpecialXlog1PyBackward1",
    promote="float",
    scalars=("input",),
    other=_xlog1py_other,
    jvp="elementwise",
)
def _xlog1py_self_scalar(input, other):
    return _xlog1py_forward(input, other)


@defop(
    batch=batch_rules.pointwise,
    name="xlog1py_other_scalar",
    dtypes=kernel("xlog1py_cpu", FLOATS),
    node="SpecialXlog1PyBackward2",
    promote="float",
    scalars=("other",),
    input=_xlog1py_scalar_input,
    jvp="elementwise",
)
def _xlog1py_other_scalar(input, other):
    return _xlog1py_forward(input, other)


def xlog1py(input, other) -> Tensor:
    """``input * log1p(other)``, taken as 0 where ``input`` is 0 (unless ``other`` is NaN).
    Either argument may be a number.

    Example:
        >>> import numtorch as torch
        >>> torch.special.xlog1py(torch.tensor([0.0, 2.0]), torch.tensor([-1.0, 1.0]))
        tensor([0.0000, 1.3863])
    """
    if not isinstance(other, Tensor):
        if not isinstance(input, Tensor):
            raise TypeError(
                "special_xlog1py() received an invalid combination of arguments - got "
                f"({type(input).__name__}, {type(other).__name__})"
            )
        return _xlog1py_other_scalar(input, other)
    if not isinstance(input, Tensor):
        return _xlog1py_self_scalar(input, other)
    return _xlog1py(input, other)


# -- entr ------------------------------------------------------------------------------------
@defop(
    batch=batch_rules.pointwise,
    name="entr",
    dtypes=kernel("entr_cpu", FLOATS),
    node="SpecialEntrBackward0",
    promote="float",
    input=lambda grad, input: grad * -(1 + input.log()),
    jvp="elementwise",
)
def entr(input):
    """Elementwise entropy ``-x log(x)``: 0 at 0, ``-inf`` for negative ``x``.

    Example:
        >>> import numtorch as torch
        >>> torch.special.entr(torch.tensor([0.0, 0.5, -1.0]))
        tensor([0.0000, 0.3466,   -inf])
    """
    with xp.errstate(divide="ignore", invalid="ignore"):
        out = xp.where(input > 0, -input * xp.log(xp.where(input > 0, input, 1)), 0.0)
    out = xp.where(input < 0, -xp.inf, out)
    return xp.where(xp.isnan(input), input, out).astype(input.dtype, copy=False)


def _logit_backward(grad, input, eps):
    derivative = grad / (input * (1 - input))
    if eps is None:
        outside = (input < 0) | (input > 1)
        if not grad_mode.is_grad_enabled():
            # torch's kernel gives grad * inf at exactly 0 or 1, whatever the zero's sign
            # (its differentiable formula, under create_graph, divides: -0 gives -inf)
            edge = (input == 0) | (input == 1)
            derivative = where(edge, grad * float("inf"), derivative)
        return where(outside, float("nan"), derivative)
    # torch keeps the derivative only where eps <= x <= 1 - eps: its differentiable backward
    # (create_graph) and its kernel's vectors (two a step) put a NaN input outside that
    # range, with a zero gradient; the kernel's scalar tail gives it the NaN derivative
    # (Note [SIMD lanes and NaN])
    inside = (input >= eps) & (input <= 1 - eps)
    if not grad_mode.is_grad_enabled() and input.dtype.is_floating_point:
        data = input._data
        if xp.isnan(data).any():
            tail_nan = xp.asarray(xp.isnan(data) & ~vector_lanes(data, vectors=2))
            inside = inside | from_numpy(tail_nan)
    return where(inside, derivative, 0.0)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="float",
    input=_logit_backward,
    dtypes=kernel("logit_cpu", FLOATS),
    jvp="elementwise",
)
def logit(input, eps=None):
    """``log(p / (1 - p))``; with ``eps``, ``p`` is first clamped to ``[eps, 1 - eps]``.

    Example:
        >>> import numtorch as torch
        >>> torch.logit(torch.tensor([0.5, 0.0]), eps=0.1)
        tensor([ 0.0000, -2.1972])
    """
    if eps is not None:
        input = xp.clip(input, eps, 1 - eps)
    return xp.log(input / (1 - input))


# -- sinc ------------------------------------------------------------------------------------
def _sinc_backward(grad, input):
    # d/dx sin(pi x)/(pi x) = (pi x cos(pi x) - sin(pi x)) / (pi x^2), masked to 0 where
    # pi x^2 == 0: torch's formula, so the masked 0/0 still differentiates to NaN at 0 (and
    # pi x^2 underflowing to 0 masks tiny inputs too)
    scaled = input * math.pi
    squared_scaled = input * input * math.pi
    derivative = grad * _conj((scaled * scaled.cos() - scaled.sin()) / squared_scaled)
    return where(squared_scaled == 0.0, 0.0, derivative)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    promote="float",
    input=_sinc_backward,
    jvp="elementwise",
)
def sinc(input):
    """The normalized sinc: ``sin(pi x) / (pi x)``, 1 at 0.

    Example:
        >>> import numtorch as torch
        >>> torch.sinc(torch.tensor([0.0, 0.5]))
        tensor([1.0000, 0.6366])
    """
    dtype = input.dtype
    if dtype == xp.float16:  # torch computes half in float: sin(pi * 1) must round to 0
        input = input.astype(xp.float32)
    scaled = input * math.pi
    out = xp.where(input == 0, 1, xp.sin(scaled) / xp.where(input == 0, 1, scaled))
    return out.astype(dtype, copy=False)


# -- signs -----------------------------------------------------------------------------------
def _copysign_input(grad, input, result):
    # result / input is +-1 (the sign flip), masked to 0 where input == 0: torch's formula,
    # whose second order is NaN at input == 0 (the masked division still differentiates)
    return grad * where(input == 0, 0.0, result / input)


@batched
def _copysign_jvp(input_t, other_t, input, result):
    # torch's forward formula has the input's term alone: other's (zero) term is not added,
    # which would turn a -0 tangent into +0, and a tangent of other alone gives none
    if input_t is None:
        return None
    return _copysign_input(align(input_t, input, result.ndim), input, result)


@defop(
    batch=batch_rules.pointwise,
    name="copysign",
    promote="float",
    input=_copysign_input,
    other=lambda grad: zeros_like(grad),
    jvp=_copysign_jvp,
)
def _copysign(input, other):
    return xp.copysign(input, other)


@defop(
    batch=batch_rules.pointwise,
    name="copysign_scalar",
    node="CopysignBackward1",
    promote="float",
    scalars=("other",),
    input=_copysign_input,
    jvp="elementwise",
)
def _copysign_scalar(input, other):
    return xp.copysign(input, other)


@export(inplace=True)
def copysign(input, other) -> Tensor:
    """``|input|`` with the sign of ``other`` (a tensor or number; -0.0 counts as negative).

    Example:
        >>> import numtorch as torch
        >>> torch.copysign(torch.tensor([1.0, -2.0]), -0.0)
        tensor([-1., -2.])
    """
    if isinstance(other, Tensor):
        return _copysign(input, other)
    return _copysign_scalar(input, other)


def _sgn_grad(grad, input, result):
    if input._data.dtype.kind != "c":
        # torch's efficient zero tensor: products with it stay zeros (Note [Efficient zeros])
        return grad._make(efficient_zeros(grad._data.shape, grad._data.dtype))
    # s = z/|z| moves only across the circle: (g - s^2 conj(g)) / (2|z|), 0 at z = 0; torch's
    # operations in its order, so that an infinite |z| gives its NaN and so does the second
    # derivative at z = 0 (the masked division by 0 still takes part in it)
    r = input.abs()
    return ((grad - (result * result) * grad.conj()) / (2.0 * r)).masked_fill(r == 0, 0.0)


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    node="SgnBackward0",
    input=_sgn_grad,
    jvp="elementwise",
)
def sgn(input):
    """The sign of each element (for real tensors, the same as ``sign``)."""
    if input.dtype == xp.bool_:
        return input.copy()
    if input.dtype.kind == "c":
        # torch's z / |z| as a complex division, 0 at z = 0: an infinite part gives NaN + NaNj
        # where NumPy's sign gives a unit number. torch's vector loop (two vectors a step)
        # divides each part instead: NaN + 0j there, and -0 parts stay -0
        magnitude = xp.abs(input)
        out = input / magnitude
        lanes = vector_lanes(input, vectors=2)
        if lanes.any():
            parts = xp.empty_like(out)
            parts.real, parts.imag = input.real / magnitude, input.imag / magnitude
            out = xp.where(lanes, parts, out)
        return xp.where(input == 0, xp.zeros((), input.dtype), out)
    out = xp.sign(input)
    # torch's sgn(nan) is 0 (and so the gradient of abs at NaN)
    return xp.nan_to_num(out) if out.dtype.kind == "f" else out


def _check_heaviside(args):
    input, values = args[:2]
    if isinstance(values, Tensor) and input._data.dtype != values._data.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")


@export(inplace=True)
@defop(
    batch=batch_rules.pointwise,
    node="NotImplemented",
    check=_check_heaviside,
    dtypes=own_message(REAL, "heaviside is not yet implemented for complex tensors."),
    input=not_implemented("heaviside"),
    values=not_implemented("heaviside"),
    jvp="elementwise",
)
def heaviside(input, values):
    """The step function: 0 where ``input < 0``, ``values`` where ``input == 0``, 1 where
    ``input > 0``. Not differentiable (torch records it, but backward raises).

    Example:
        >>> import numtorch as torch
        >>> torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor([0.5]))
        tensor([0.0000, 0.5000, 1.0000])
    """
    return xp.where(input == 0, values, input > 0).astype(input.dtype, copy=False)


# -- float_power (composite) -----------------------------------------------------------------
def _to_double(value, complex_=False):
    if isinstance(value, Tensor):
        return value.to(_dtypes.complex128 if complex_ else _dtypes.float64)
    return complex(value) if complex_ else value


@export
def float_power(input, exponent) -> Tensor:
    """``input ** exponent`` computed in float64, or complex128 when either is complex.

    Example:
        >>> import numtorch as torch
        >>> torch.float_power(torch.tensor([2, 3]), 2)
        tensor([4., 9.], dtype=torch.float64)
    """
    if not isinstance(exponent, Tensor) and not isinstance(exponent, complex):
        exponent = float(exponent)
    # torch computes in the double-precision type of the operands' kind: a complex operand
    # makes both complex128 (a float64 cast would drop its imaginary part)
    complex_ = any(
        isinstance(v, complex) or (isinstance(v, Tensor) and v.is_complex())
        for v in (input, exponent)
    )
    return pow(_to_double(input, complex_), _to_double(exponent, complex_))


def _float_power_(self, exponent) -> Tensor:
    if self._data.dtype != xp.float64:
        raise RuntimeError(
            f"the base given to float_power_ has dtype {self.dtype.scalar_name} but the "
            "operation's result requires dtype Double"
        )
    return self.pow_(_to_double(exponent))


Tensor.float_power_ = _float_power_

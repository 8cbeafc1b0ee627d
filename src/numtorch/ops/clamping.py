"""clamp and clip with number or tensor bounds, clamp_min/clamp_max, and the elementwise maximum and
minimum."""

from __future__ import annotations

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.dispatch import fill_scalar
from .._core.kernel_dtypes import REAL, KernelDtypes, kernel, own_message
from .._core.op import defop, export
from .._core.tensor import Tensor
from ..backend import xp
from .nn.simd_lanes import vector_extreme
from .pointwise import where


def _combine(first, second, method, *operands):
    # torch combines the two conditions in place into the first (logical_and_/logical_or_),
    # which refuses to grow: a first condition smaller than their broadcast (a 0-d input
    # against 0-d max, where min is a vector) fails the backward as torch's does. Batched
    # tensors (vmap) take the out-of-place form, as torch's tensor subclasses do.
    if any(getattr(t, "_batched", False) for t in operands):
        return getattr(first, method.rstrip("_"))(second)
    return getattr(first, method)(second)


def _clamp_grad(grad, input, min, max):
    inside = True
    if min is not None:
        inside = input >= min
    if max is not None:
        inside = (
            _combine(inside, input <= max, "logical_and_", input, min, max)
            if min is not None
            else input <= max
        )
    return where(inside, grad, 0.0)


def _clamp_bound(grad, input, bound, other_bound, lower):
    # The bound receives the gradient where it was the active limit, by torch's rule for
    # ties: where min >= max, max is the limit (min < max is required for min; max < min
    # alone is enough for max), so input < min == max gives no bound a gradient
    # (torch combines the masks in place: the first must hold the broadcast of both, or
    # the backward raises torch's in-place error)
    active = input < bound if lower else input > bound
    if other_bound is not None:
        method = "logical_and_" if lower else "logical_or_"
        active = _combine(active, bound < other_bound, method, input, bound, other_bound)
    return where(active, grad, 0.0)


# clamp refuses complex tensors before its kernel runs; the kernel of the tensor-bound form
# has no bool loop either
_CLAMP = own_message(REAL, "clamp is not supported for complex types", NotImplementedError)


class _ClampTensorDtypes(KernelDtypes):
    def error(self, np_dtype):
        return (_CLAMP if np_dtype.kind == "c" else kernel("clamp_cpu", ())).error(np_dtype)

    def in_kernel(self, np_dtype) -> bool:
        return np_dtype.kind != "c"


# (bool runs where one bound is given: torch's clamp_min and clamp_max kernels have a loop)
_CLAMP_TENSOR = _ClampTensorDtypes(REAL)
_CLAMP_BOTH_BOOL = kernel("clamp_cpu", ())


def _clamp_check(min, max):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if min.__class__ not in _PLAIN_BOUNDS or max.__class__ not in _PLAIN_BOUNDS:
        for name, bound in (("min", min), ("max", max)):  # a Number, a tensor or None
            if bound is not None and not isinstance(bound, _BOUND_TYPES):
                raise TypeError(
                    f"clamp(): argument '{name}' must be Number or Tensor, not "
                    f"{type(bound).__name__}"
                )


_PLAIN_BOUNDS = frozenset((type(None), int, float, Tensor))
_BOUND_TYPES = (int, float, complex, xp.generic, Tensor)


def _with_scalars(out, input, *bounds):
    # torch's promotion: an int tensor clamped by a float bound becomes the default float dtype
    d = _dtypes.from_numpy_dtype(input.dtype)
    for b in bounds:
        if isinstance(b, xp.generic):  # a NumPy bound counts as a Python number
            b = _dtypes.parsed_number(b)
        if b is not None:
            d = _dtypes._combine(d, _dtypes.scalar_dtype(b))
    return out.astype(d.np, copy=False)


def _no_bool_scalar_kernel(input, min, max) -> None:
    # the number kernels have no bool loop: a bool tensor clamped by bools (which keep its
    # dtype) is refused, by the kernel of the bounds given; an int or float bound promotes
    if input.dtype == xp.bool_ and all(b is None or b.__class__ is bool for b in (min, max)):
        which = (
            "clamp"
            if min is not None and max is not None
            else "clamp_min"
            if max is None
            else "clamp_max"
        )
        raise NotImplementedError(f"\"{which}_scalar_cpu\" not implemented for 'Bool'")


def _bound(value, np_dtype):
    # an int bound converts into an integer input's type as a fill value does; a float one
    # is compared as it is, the input promoted (_with_scalars)
    return fill_scalar(value, np_dtype) if value.__class__ is int else value


def _keep_zero_sign(out, input):
    # torch replaces x only where it lies strictly outside a bound, so a zero input keeps
    # its sign against a zero bound of the other sign; NumPy's maximum/minimum may take
    # the bound's
    if xp.asarray(input).dtype.kind != "f":
        return out
    return xp.where((input == 0) & (out == 0), input, out)


@defop(
    batch=batch_rules.pointwise,
    name="clamp_scalar",
    dtypes=_CLAMP,
    aten="clamp",
    node="ClampBackward1",
    input=_clamp_grad,
    jvp="elementwise",
)
def _clamp_scalar(input, min, max):
    _clamp_check(min, max)
    _no_bool_scalar_kernel(input, min, max)
    # torch clamps in the result dtype: an integer input with a float bound becomes float
    # first, so an int bound is compared as the number it is (not wrapped into uint8)
    input = _with_scalars(input, input, min, max)
    out = input
    if min is not None:
        out = _keep_zero_sign(xp.maximum(out, _bound(min, input.dtype)), out)
    if max is not None:
        out = _keep_zero_sign(xp.minimum(out, _bound(max, input.dtype)), out)
    return out


@defop(
    batch=batch_rules.pointwise,
    name="clamp_tensor",
    dtypes=_CLAMP_TENSOR,
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
        out = _keep_zero_sign(xp.maximum(out, min), out)
    if max is not None:
        out = _keep_zero_sign(xp.minimum(out, max), out)
    return out


@export(inplace=True)
def clamp(input, min=None, max=None) -> Tensor:
    """Limit values to ``[min, max]`` (either bound may be omitted)."""
    _clamp_check(min, max)  # before the dtype's refusal, as torch
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        if min is None or max is None or (isinstance(min, Tensor) and isinstance(max, Tensor)):
            if (
                min is not None
                and max is not None
                and _dtypes.result_type(input, min, max) is _dtypes.bool_
            ):
                raise _CLAMP_BOTH_BOOL.error(xp.dtype(xp.bool_))
            return _clamp_tensor(input, min, max)
        # a tensor bound beside a number: torch's number overload takes a 0-dim tensor as
        # its number (ClampBackward1; the tensor's gradient is not followed)
        min, max = _as_number(min, input), _as_number(max, input)
    return _clamp_scalar(input, min, max)


def _as_number(bound, input):
    if not isinstance(bound, Tensor):
        return bound
    if bound.ndim or bound.requires_grad:  # what torch's parser takes for a number
        raise TypeError(
            "clamp() received an invalid combination of arguments: a tensor bound beside a "
            f"number must have no dims and not require grad (got shape {list(bound.shape)}, "
            f"requires_grad={bound.requires_grad}); give both bounds as tensors"
        )
    return bound.item()


clip = export(clamp, name="clip", inplace=True)


# clamp_min/clamp_max with a number record their own nodes, as in torch
@defop(
    batch=batch_rules.pointwise,
    name="clamp_min_scalar",
    dtypes=_CLAMP,
    node="ClampMinBackward0",
    input=lambda grad, input, min: where(input >= min, grad, 0.0),
    jvp="elementwise",
)
def _clamp_min_scalar(input, min):
    _no_bool_scalar_kernel(input, min, None)
    low = _bound(min, input.dtype)
    return _with_scalars(_keep_zero_sign(xp.maximum(input, low), input), input, min)


@defop(
    batch=batch_rules.pointwise,
    name="clamp_max_scalar",
    dtypes=_CLAMP,
    node="ClampMaxBackward0",
    input=lambda grad, input, max: where(input <= max, grad, 0.0),
    jvp="elementwise",
)
def _clamp_max_scalar(input, max):
    _no_bool_scalar_kernel(input, None, max)
    high = _bound(max, input.dtype)
    return _with_scalars(_keep_zero_sign(xp.minimum(input, high), input), input, max)


# ... and with a tensor bound, their Tensor overloads' nodes (ClampMinBackward1)
@defop(
    batch=batch_rules.pointwise,
    name="clamp_min_tensor",
    dtypes=kernel("maximum_cpu", REAL),
    node="ClampMinBackward1",
    aten="clamp_min",
    promote="same",
    input=lambda grad, input, min: where(input >= min, grad, 0.0),
    min=lambda grad, input, min: where(input < min, grad, 0.0),
    jvp="elementwise",
)
def _clamp_min_tensor(input, min):
    return _keep_zero_sign(xp.maximum(input, min), input)


@defop(
    batch=batch_rules.pointwise,
    name="clamp_max_tensor",
    dtypes=kernel("minimum_cpu", REAL),
    node="ClampMaxBackward1",
    aten="clamp_max",
    promote="same",
    input=lambda grad, input, max: where(input <= max, grad, 0.0),
    max=lambda grad, input, max: where(input > max, grad, 0.0),
    jvp="elementwise",
)
def _clamp_max_tensor(input, max):
    return _keep_zero_sign(xp.minimum(input, max), input)


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


def selection_jvp(input_weight):
    """The forward derivative of an op that picks one operand per element, as torch writes it:
    ``other_t + w * (input_t - other_t)`` with ``w = input_weight(input, other, result)``. A
    missing tangent is a zero that drops out of that sum (not a zero that is multiplied),
    which decides the signs of zero and keeps NaN weights from reaching the other side."""

    def jvp(input_t, other_t, input, other, result):
        w = input_weight(input, other, result)
        if other_t is None:
            return w * input_t
        if input_t is None:
            return other_t + w * -other_t
        return other_t + w * (input_t - other_t)

    return jvp


def _max_min_weight(wins):
    # ties weigh both sides by one half; a NaN on either side gives input weight 0
    return lambda input, other, result: (
        wins(input, other).to(result.dtype).masked_fill(input == other, 0.5)
    )


def _max_min_grad(grad, input, other, lost):
    # Ties share the gradient equally, and only the strictly losing side gets 0, as in
    # torch's formula: where a NaN meets anything, both sides keep the whole gradient.
    share = where(input == other, grad / 2, grad)
    return share.masked_fill(lost, 0.0)


@export
@defop(
    batch=batch_rules.pointwise,
    promote="same",
    dtypes=own_message(REAL, "maximum not implemented for complex tensors."),
    input=lambda grad, input, other: _max_min_grad(grad, input, other, input < other),
    other=lambda grad, input, other: _max_min_grad(grad, input, other, input > other),
    jvp=selection_jvp(_max_min_weight(lambda input, other: input > other)),
)
def maximum(input, other):
    return vector_extreme(xp.maximum, input, other)


@export
@defop(
    batch=batch_rules.pointwise,
    promote="same",
    dtypes=own_message(REAL, "minimum not implemented for complex tensors."),
    input=lambda grad, input, other: _max_min_grad(grad, input, other, input > other),
    other=lambda grad, input, other: _max_min_grad(grad, input, other, input < other),
    jvp=selection_jvp(_max_min_weight(lambda input, other: input < other)),
)
def minimum(input, other):
    return vector_extreme(xp.minimum, input, other)

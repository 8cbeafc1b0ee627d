"""Comparisons, logical and bitwise ops, and the value tests (isnan, isinf, isfinite, signbit,
isclose, allclose, equal, nan_to_num): none differentiable but nan_to_num."""

from __future__ import annotations

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.dispatch import broadcast_shape
from .._core.kernel_dtypes import REAL, kernel
from .._core.meta import refuse_meta
from .._core.op import defop, export
from .._core.tensor import Tensor
from ..backend import xp


# -- comparisons and logic (not differentiable) ----------------------------------------------
def _compare(name, ufunc, ordered=False):
    op = defop(
        batch=batch_rules.pointwise,
        name=name,
        promote="compare",
        scalars=("other",),
        # complex numbers have no order: torch's lt/le/gt/ge kernels have no complex loop
        dtypes=kernel(f"{name}_cpu", REAL) if ordered else None,
    )(lambda input, other: ufunc(input, other))
    return export(op, inplace=True)


eq = _compare("eq", xp.equal)
ne = _compare("ne", xp.not_equal)
lt = _compare("lt", xp.less, ordered=True)
le = _compare("le", xp.less_equal, ordered=True)
gt = _compare("gt", xp.greater, ordered=True)
ge = _compare("ge", xp.greater_equal, ordered=True)
greater, greater_equal = export(gt, name="greater"), export(ge, name="greater_equal")
less, less_equal = export(lt, name="less"), export(le, name="less_equal")
not_equal = export(ne, name="not_equal")


def _logical(name, ufunc):
    def forward(input, other):
        # torch's logical ops take tensors only (a tensor's data is always an array here)
        for position, (param, value) in enumerate((("input", input), ("other", other)), 1):
            if value.__class__ is not xp.ndarray:
                raise TypeError(
                    f"{name}(): argument '{param}' (position {position}) must be Tensor, not "
                    f"{type(value).__name__}"
                )
        return ufunc(input, other)

    op = defop(batch=batch_rules.pointwise, name=name)(forward)
    return export(op, inplace=True)


def _integers_only(kernel: str, *arrays, refused: str = "fcV") -> None:
    dtype = xp.result_type(*arrays)
    if dtype.kind in refused:
        name = _dtypes.from_numpy_dtype(dtype).scalar_name
        raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{name}'")


def _one_tensor(name):
    """torch's bitwise ops take a number for one operand, never for both (no Scalar_Scalar
    overload: bitwise_or(True, 1j) is no valid combination)."""

    def check(args) -> None:
        if not (isinstance(args[0], Tensor) or isinstance(args[1], Tensor)):
            kinds = ", ".join(type(a).__name__ for a in args[:2])
            raise TypeError(
                f"{name}() received an invalid combination of arguments - got ({kinds}), but "
                "expected one of (Tensor input, Tensor other), (Tensor input, Number other) "
                "or (Number self, Tensor other)"
            )

    return check


def _bitwise(name, ufunc, kernel=None):
    def forward(input, other):
        broadcast_shape(xp.shape(input), xp.shape(other))  # torch checks shapes first
        _integers_only(kernel or name, input, other)
        return ufunc(input, other)

    op = defop(
        batch=batch_rules.pointwise,
        name=name,
        promote="same",
        scalars=("input", "other"),  # torch's Scalar_Tensor overload: 2 & t
        check=_one_tensor(name),
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
    widens_bfloat16=False,  # (its bounds are bfloat16's: below)
)
def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """NaN and infinities replaced by ``nan`` and by ``posinf``/``neginf`` (by default the
    dtype's largest and lowest finite values)."""
    if input.dtype == _dtypes.bfloat16.np:
        # computed in float32 (Note [bfloat16]) with bfloat16's default bounds: float32's
        # would round to infinities
        largest = float(_dtypes.finfo(_dtypes.bfloat16).max)
        posinf = largest if posinf is None else posinf
        neginf = -largest if neginf is None else neginf
        wide = xp.nan_to_num(input.astype(xp.float32), nan=nan, posinf=posinf, neginf=neginf)
        return wide.astype(input.dtype)
    return xp.nan_to_num(input, nan=nan, posinf=posinf, neginf=neginf)


@export
def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    if input.is_meta or (isinstance(other, Tensor) and other.is_meta):
        raise RuntimeError("Tensor.item() cannot be called on meta tensors")
    return bool(xp.allclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


@export
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> Tensor:
    for position, (name, value) in enumerate((("input", input), ("other", other)), 1):
        if not isinstance(value, Tensor):
            raise TypeError(
                f"isclose(): argument '{name}' (position {position}) must be Tensor, not "
                f"{type(value).__name__}"
            )
    if input.dtype is not other.dtype:  # torch compares like dtypes only, before the shapes
        raise RuntimeError(f"{input.dtype.scalar_name} did not match {other.dtype.scalar_name}")
    other = other._data
    broadcast_shape(input._data.shape, other.shape)  # torch's error, not NumPy's
    # (NumPy gives a scalar for 0-d operands: a tensor's data is always an array)
    close = xp.isclose(input._data, other, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return Tensor._make(xp.asarray(close))


@export
def equal(input, other) -> bool:
    """True if both tensors have the same shape and elements."""
    refuse_meta("equal", input, other)
    return input._data.shape == other._data.shape and bool((input._data == other._data).all())

"""Rounding, sign and absolute value: floor, ceil, trunc, round, frac, sign, abs (their gradients
are zero or a sign)."""

from __future__ import annotations

from .._core import batch_rules
from .._core.kernel_dtypes import BOOL, REAL, kernel, own_message
from .._core.op import defop, export
from .._core.tensor import Tensor
from ..backend import xp
from .pointwise import _zeros


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


_SIGN = own_message(
    REAL,
    "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
    "torch.sgn instead.",
    NotImplementedError,
)
sign = export(
    defop(
        batch=batch_rules.pointwise,
        name="sign",
        dtypes=_SIGN,
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
    dtypes=kernel("round_vml_cpu", REAL - BOOL),
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
    dtypes=kernel("round_cpu", REAL),
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

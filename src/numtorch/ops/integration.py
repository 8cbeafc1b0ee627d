"""The trapezoidal rule: ``trapezoid`` (``trapz``) and ``cumulative_trapezoid``.

Composed as torch composes them, so results carry torch's grad_fns: a spacing ``dx`` scales
by a Scalar (``MulBackward1``), sample points ``x`` end in a division by 2
(``DivBackward1``)."""

from __future__ import annotations

from .._dtypes import get_default_dtype
from .._tensor import Tensor, _wrap_dim
from .normal import _mul_scalar
from .pointwise import _div_scalar
from .registry import export


def _ends(y, dim):
    # the pairs of neighbouring samples along dim
    n = y.shape[dim]
    return y.narrow(dim, 1, n - 1), y.narrow(dim, 0, n - 1)


def _spacing(x, y, dim):
    if x.ndim == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        shape = [1] * y.ndim
        shape[dim] = -1
        return x.diff().view(shape)
    return x.diff(dim=dim)


def _check_x(x, name):
    if x is not None and not isinstance(x, Tensor):
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got (Tensor, "
            f"{type(x).__name__}): pass the spacing as dx="
        )


@export
def trapezoid(y, x=None, *, dx=None, dim=-1) -> Tensor:
    """Integral of ``y`` along ``dim`` by the trapezoidal rule, with sample points ``x`` or a
    constant spacing ``dx`` (1 by default)."""
    _check_x(x, "trapezoid")
    dim = _wrap_dim(dim, y.ndim)
    if y.shape[dim] == 0:
        return y.sum(dim) * 0.0
    if x is not None:
        right, left = _ends(y, dim)
        return _div_scalar((_spacing(x, y, dim) * (right + left)).sum(dim), 2.0)
    inner = y.sum(dim) - (y.select(dim, 0) + y.select(dim, -1)) * 0.5
    return _mul_scalar(inner, 1.0 if dx is None else dx)


trapz = export(trapezoid, name="trapz")


@export
def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1) -> Tensor:
    """Running integrals of ``y`` along ``dim`` by the trapezoidal rule."""
    _check_x(x, "cumulative_trapezoid")
    dim = _wrap_dim(dim, y.ndim)
    if y.shape[dim] == 0:
        return y.narrow(dim, 0, 0) * 1.0
    right, left = _ends(y, dim)
    if x is not None:
        return _div_scalar((_spacing(x, y, dim) * (right + left)).cumsum(dim), 2.0)
    half = (1.0 if dx is None else dx) / 2.0
    pairs = right + left
    if not pairs.is_floating_point():  # a float Scalar promotes integers
        pairs = pairs.to(get_default_dtype())
    return _mul_scalar(pairs, half).cumsum(dim)

"""Python operators on Tensor (``+``, ``*``, ``@``, ``==``, ``+=``, ...), mapped to ops.

Reflected forms follow torch: ``2 - x`` is ``rsub`` (RsubBackward1), ``2 / x`` is
``x.reciprocal() * 2`` (MulBackward0) and ``2 ** x`` is ``pow`` with a scalar base.
"""

from __future__ import annotations

from .._core.runners import generated, operator_method
from .._core.tensor import Tensor
from ..backend import xp
from . import comparison, exponential, rounding
from . import pointwise as P

_NUMBER = (int, float, bool, complex, xp.generic)


def _operand(other) -> bool:
    return isinstance(other, (Tensor,) + _NUMBER)


def _binary(fn, *extra):
    on_tensor = getattr(fn, "on_tensor", None)
    if on_tensor is not None:
        # an op with a number overload and a tensor one (``t % 2`` records RemainderBackward0,
        # ``t % u`` RemainderBackward1): a method for each, picked by the operand
        on_number, on_tensor = _binary(fn.on_number, *extra), _binary(on_tensor, *extra)

        def overloads(self, other):
            return (on_tensor if isinstance(other, Tensor) else on_number)(self, other)

        return overloads
    spec = getattr(fn, "spec", None)
    if spec is None:

        def method(self, other):
            return fn(self, other) if _operand(other) else NotImplemented

        return method
    # operators are the hottest calls: the op's runner runs in the operator's own frame
    method = operator_method(spec, extra, _operand)
    if method is not None:
        return method
    run = generated(spec)

    def fast(self, other):
        try:
            return run((self, other) + extra)
        except TypeError:
            if _operand(other):
                raise
            return NotImplemented

    return fast


def _reflected(fn):
    def method(self, other):
        return fn(other, self) if _operand(other) else NotImplemented

    return method


def _inplace(name):
    def method(self, other):
        if not _operand(other):
            return NotImplemented
        return getattr(self, name)(other)

    return method


def _rtruediv(self, other):
    if other.__class__ is xp.ndarray:  # torch's reciprocal(self) * other: NumPy multiplies
        return exponential.reciprocal(self) * other
    return P.mul(exponential.reciprocal(self), other) if _operand(other) else NotImplemented


_pow_scalar = _binary(exponential._pow_scalar)


def _pow(self, exponent):
    if isinstance(exponent, Tensor):
        return exponential.pow(self, exponent)
    return _pow_scalar(self, exponent)


def _invert(self):
    if self._data.dtype.kind in "fcV":
        raise TypeError(
            "~ (operator.invert) is only implemented on integer and Boolean-type tensors"
        )
    return (
        comparison.logical_not(self)
        if self._data.dtype == xp.bool_
        else comparison.bitwise_not(self)
    )


def _pos(self):
    if self._data.dtype == xp.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return self


def _compare(fn):
    def method(self, other):
        if other is None or not _operand(other):
            return NotImplemented
        return fn(self, other)

    return method


def _equal(self, other):
    # torch's == alone reads a NumPy array as a tensor; the other operators leave arrays to
    # NumPy (see Note [NumPy interop])
    if other.__class__ is xp.ndarray:
        other = Tensor._make(other)
    elif other is None or not _operand(other):
        return NotImplemented
    return comparison.eq(self, other)


_OPERATORS = {
    "__add__": _binary(P._add),
    "__radd__": _binary(P._add),
    "__sub__": _binary(P._sub),
    "__rsub__": _binary(P._rsub, 1),
    "__mul__": _binary(P.mul),
    "__rmul__": _binary(P.mul),
    "__truediv__": _binary(P._true_divide),
    "__rtruediv__": _rtruediv,
    "__floordiv__": _binary(P.floor_divide),
    "__rfloordiv__": _reflected(P.floor_divide),
    "__mod__": _binary(P._remainder),
    "__rmod__": _reflected(P.remainder),
    "__pow__": _pow,
    "__rpow__": _reflected(exponential.pow),
    "__and__": _binary(comparison.bitwise_and),
    "__rand__": _reflected(comparison.bitwise_and),
    "__or__": _binary(comparison.bitwise_or),
    "__ror__": _reflected(comparison.bitwise_or),
    "__xor__": _binary(comparison.bitwise_xor),
    "__rxor__": _reflected(comparison.bitwise_xor),
    "__eq__": _equal,
    "__ne__": _compare(comparison.ne),
    "__lt__": _compare(comparison.lt),
    "__le__": _compare(comparison.le),
    "__gt__": _compare(comparison.gt),
    "__ge__": _compare(comparison.ge),
    "__iadd__": _inplace("add_"),
    "__isub__": _inplace("sub_"),
    "__imul__": _inplace("mul_"),
    "__itruediv__": _inplace("div_"),
    "__ifloordiv__": _inplace("floor_divide_"),
    "__imod__": _inplace("remainder_"),
    "__ipow__": _inplace("pow_"),
    "__iand__": _inplace("bitwise_and_"),
    "__ior__": _inplace("bitwise_or_"),
    "__ixor__": _inplace("bitwise_xor_"),
    "__neg__": P.neg,
    "__abs__": rounding.abs,
    "__invert__": _invert,
    "__pos__": _pos,
}

for _name, _method in _OPERATORS.items():
    if not hasattr(_method, "spec"):  # made here, not a public op shared with torch.*
        # tracebacks, help() and the profiler show torch's names, not the generator's
        _method.__name__, _method.__qualname__ = _name, f"Tensor.{_name}"
    setattr(Tensor, _name, _method)
Tensor.__hash__ = lambda self: id(self)

"""Trigonometric functions and their inverses (with the ``arc*`` aliases), sinh and cosh."""

from __future__ import annotations

from .._core.op import export
from ..backend import xp
from .exponential import rsqrt
from .pointwise import _conj, _unary

# conjugate derivatives for complex inputs (Note [Complex autograd]); _conj is free on reals
sin = _unary("sin", xp.sin, lambda grad, input: grad * _conj(cos(input)))
cos = _unary("cos", xp.cos, lambda grad, input: grad * -_conj(sin(input)))
# 1.0 rather than 1 in these formulas: on arrays, NumPy takes a float number faster than an int
tan = _unary("tan", xp.tan, lambda grad, result: grad * _conj(1.0 + result * result))
asin = _unary("asin", xp.arcsin, lambda grad, input: grad * _conj(rsqrt(1.0 - input * input)))
acos = _unary("acos", xp.arccos, lambda grad, input: -grad * _conj(rsqrt(1.0 - input * input)))
atan = _unary("atan", xp.arctan, lambda grad, input: grad / _conj(1.0 + input * input))
sinh = _unary("sinh", xp.sinh, lambda grad, input: grad * _conj(input.cosh()), wide=True)
cosh = _unary("cosh", xp.cosh, lambda grad, input: grad * _conj(input.sinh()), wide=True)


arcsin = export(asin, name="arcsin", inplace=True)
arccos = export(acos, name="arccos", inplace=True)
arctan = export(atan, name="arctan", inplace=True)

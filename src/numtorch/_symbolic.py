"""torch's symbolic-size helpers (``sym_int``, ``sym_max``...) and classes (``SymInt``...).

Symbolic sizes exist only while torch traces a program; numtorch runs eagerly, so sizes are
always plain Python numbers, nothing is a ``SymInt``, and each helper has the eager meaning
torch gives it for numbers (``sym_max`` promotes to float when either argument is a float).
"""

from __future__ import annotations

import builtins
import math
import numbers

__all__ = [
    "SymBool",
    "SymFloat",
    "SymInt",
    "sym_float",
    "sym_int",
    "sym_ite",
    "sym_max",
    "sym_min",
    "sym_not",
    "sym_sqrt",
    "sym_sum",
]


class SymInt:
    """A traced integer (a size); eager programs never make one."""


class SymFloat:
    """A traced float; eager programs never make one."""


class SymBool:
    """A traced boolean; eager programs never make one."""


def sym_int(a):
    """``int(a)``, truncating toward zero."""
    return builtins.int(a)


def sym_float(a):
    return builtins.float(a)


def sym_not(a):
    return not a


def sym_sqrt(a):
    return math.sqrt(a)


def sym_sum(args):
    return builtins.sum(args)


def sym_ite(b, t, f):
    """``t if b else f`` (an if-then-else that a tracer could keep symbolic)."""
    return t if b else f


def _extremum(pick, a, b):
    for value in (a, b):
        if not isinstance(value, numbers.Real):
            raise AssertionError(f"expected int or float, got {type(value)}")
    if isinstance(a, numbers.Integral) and isinstance(b, numbers.Integral):
        return pick(a, b)
    return builtins.float(pick(a, b))


def sym_max(a, b):
    """``max(a, b)``, a float when either is a float (``sym_max(1, 2.0) == 2.0``)."""
    return _extremum(builtins.max, a, b)


def sym_min(a, b):
    """``min(a, b)``, a float when either is a float."""
    return _extremum(builtins.min, a, b)

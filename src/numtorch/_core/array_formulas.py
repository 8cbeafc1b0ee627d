"""Derivative formulas run on arrays when backward records no graph.

Note [Formulas on arrays]
A formula is written once, in numtorch ops, so that ``create_graph=True`` can differentiate
it again. Without ``create_graph`` nothing records, and running the formula's ops as numtorch
calls only adds overhead (half of backward's cost per op for small tensors). So a formula
whose text is plain arithmetic on its arguments plus calls of one-input elementwise ops by
their function name (``grad * cos(input)``, ``-0.5 * grad * result**3``) is also bound, once,
to a copy whose global names point to those ops' array forwards. The engine runs that copy
on the arrays when grad mode is off, no observer is active and every array argument is
floating point (where NumPy's type promotion is torch's); otherwise the Tensor formula runs.
A formula reading attributes or methods (``input.cos()``), indexing, or naming anything but
such ops and ``math`` keeps the Tensor path: nothing changes for it. Ops named through a
closure (formulas written inside a function that defines several ops) are rebound the same
way, in fresh cells.

Arguments that are not arrays reach the array form as they are when they are plain
immutable values (numbers, strings, None, and tuples or lists of them: shapes, dims,
strides). Arrays must be floating point, where NumPy's promotion is torch's, except for a
formula that is one call of an op on its arguments (``select_backward(grad, input_shape,
dim, index)``, nll_loss's ``backward(grad, input, target, ...)``): its arguments meet no
arithmetic in the formula and reach the op's forward exactly as the op's own dispatch hands
them over (the op promotes nothing), so integer and boolean arrays (class targets, indices)
are taken too (``CALLS_ONE_OP``).
"""

from __future__ import annotations

import dis
import math
import types

# Instructions a formula on arrays may not contain: attribute and method access (Tensor
# methods do not exist on arrays), indexing (torch's indexing rules differ from NumPy's),
# closures it would make (their cells are not rebound) and imports.
_REFUSED = {
    "LOAD_ATTR",
    "LOAD_METHOD",
    "STORE_ATTR",
    "BINARY_SUBSCR",
    "STORE_SUBSCR",
    "LOAD_CLOSURE",
    "IMPORT_NAME",
    "CALL_FUNCTION_EX",
}


def array_forward(fn):
    """The array function standing for op ``fn`` in a formula on arrays, or None: ops of
    one input whose forward takes an array and nothing else (cos, rsqrt, sigmoid, t, ...), ops
    of several inputs that promote nothing (threshold_backward, tanh_backward: NumPy's
    promotion of float arrays is then torch's), or a helper that names its array form in
    ``array_form``."""
    form = getattr(fn, "array_form", None)
    if form is not None:
        return form
    spec = getattr(fn, "spec", None)
    # a view op's forward gives the same view of a gradient array as of its tensor (the
    # engine adds gradients out of place, so a gradient shared by two buffers stays as is)
    if spec is None or spec.outputs != 1 or spec.lists or spec.check is not None:
        return None
    if spec.promote not in ((None, "float") if spec.nparams == 1 else (None,)):
        return None
    return spec.forward


# The instructions of a formula that is one call of an op on its arguments (Python 3.11 to
# 3.13 spell a call with these).
_ONE_CALL = {"RESUME", "LOAD_GLOBAL", "LOAD_DEREF", "LOAD_FAST", "LOAD_CONST", "PUSH_NULL"}
_ONE_CALL |= {"PRECALL", "CALL", "KW_NAMES", "RETURN_VALUE", "COPY_FREE_VARS"}

# A formula's array form marked with this attribute takes integer and boolean arrays too.
CALLS_ONE_OP = "calls_one_op"


def _is_op(fn) -> bool:
    """Whether ``fn`` is an op whose array forward is its own (not a helper's array form)."""
    return getattr(fn, "array_form", None) is None and getattr(fn, "spec", None) is not None


def _array_value(value):
    """What a name a formula loads stands for on arrays, or None."""
    return math if value is math else array_forward(value)


def on_arrays(formula):
    """``formula`` bound to array forwards (Note [Formulas on arrays]), or None."""
    code = getattr(formula, "__code__", None)
    if code is None or code.co_cellvars:
        return None
    names = {}
    cells = dict(zip(code.co_freevars, formula.__closure__ or ()))
    rebound = {}  # the closure's cells, holding array forwards
    previous = None
    calls = 0
    only_calls = True
    loaded = []  # the objects the formula names
    for instruction in dis.get_instructions(code):
        op = instruction.opname
        only_calls = only_calls and op in _ONE_CALL
        if op in ("LOAD_ATTR", "LOAD_METHOD") and previous in (
            ("LOAD_GLOBAL", "math"),
            ("LOAD_DEREF", "math"),
        ):
            pass  # math.log(2.0) and friends are the same on both paths
        elif op in _REFUSED or op.startswith("STORE_GLOBAL") or op.startswith("DELETE"):
            return None
        elif op == "LOAD_GLOBAL":
            name = instruction.argval
            loaded.append(formula.__globals__.get(name))
            value = _array_value(loaded[-1])
            if value is None:
                return None
            names[name] = value
        elif op == "LOAD_DEREF":
            try:
                loaded.append(cells[instruction.argval].cell_contents)
            except (KeyError, ValueError):  # not a free variable, or an empty cell
                return None
            value = _array_value(loaded[-1])
            if value is None:
                return None
            rebound[instruction.argval] = types.CellType(value)
        calls += op == "CALL"
        previous = (op, instruction.argval)
    names["__builtins__"] = formula.__globals__.get("__builtins__", __builtins__)
    # NumPy's floating-point warnings are filtered by this module name (backend/__init__.py)
    names["__name__"] = formula.__globals__.get("__name__", __name__)
    if set(rebound) != set(code.co_freevars):
        return None
    closure = tuple(rebound[name] for name in code.co_freevars) or None
    form = types.FunctionType(code, names, code.co_name, formula.__defaults__, closure)
    if only_calls and calls == 1 and len(loaded) == 1 and _is_op(loaded[0]):
        setattr(form, CALLS_ONE_OP, True)
    return form

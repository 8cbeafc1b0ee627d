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
such ops and ``math`` keeps the Tensor path: nothing changes for it.
"""

from __future__ import annotations

import dis
import math
import types

# Instructions a formula on arrays may not contain: attribute and method access (Tensor
# methods do not exist on arrays), indexing (torch's indexing rules differ from NumPy's),
# closures (their cells are not rebound) and imports.
_REFUSED = {
    "LOAD_ATTR",
    "LOAD_METHOD",
    "STORE_ATTR",
    "BINARY_SUBSCR",
    "STORE_SUBSCR",
    "LOAD_DEREF",
    "LOAD_CLOSURE",
    "IMPORT_NAME",
    "CALL_FUNCTION_EX",
}


def array_forward(fn):
    """The array function standing for op ``fn`` in a formula on arrays, or None: ops of
    one input whose forward takes an array and nothing else (cos, rsqrt, sigmoid, ...), ops
    of several inputs that promote nothing (threshold_backward, tanh_backward: NumPy's
    promotion of float arrays is then torch's), or a helper that names its array form in
    ``array_form``."""
    form = getattr(fn, "array_form", None)
    if form is not None:
        return form
    spec = getattr(fn, "spec", None)
    if spec is None or spec.outputs != 1 or spec.view or spec.lists or spec.check is not None:
        return None
    if spec.promote not in ((None, "float") if spec.nparams == 1 else (None,)):
        return None
    return spec.forward


def on_arrays(formula):
    """``formula`` bound to array forwards (Note [Formulas on arrays]), or None."""
    code = getattr(formula, "__code__", None)
    if code is None or code.co_freevars or code.co_cellvars:
        return None
    names = {}
    previous = None
    for instruction in dis.get_instructions(code):
        op = instruction.opname
        if op in ("LOAD_ATTR", "LOAD_METHOD") and previous == ("LOAD_GLOBAL", "math"):
            pass  # math.log(2.0) and friends are the same on both paths
        elif op in _REFUSED or op.startswith("STORE_GLOBAL") or op.startswith("DELETE"):
            return None
        elif op == "LOAD_GLOBAL":
            name = instruction.argval
            value = formula.__globals__.get(name)
            if value is math:
                names[name] = math
            else:
                forward = array_forward(value)
                if forward is None:
                    return None
                names[name] = forward
        previous = (op, instruction.argval)
    names["__builtins__"] = formula.__globals__.get("__builtins__", __builtins__)
    # NumPy's floating-point warnings are filtered by this module name (backend/__init__.py)
    names["__name__"] = formula.__globals__.get("__name__", __name__)
    return types.FunctionType(code, names, code.co_name, formula.__defaults__)

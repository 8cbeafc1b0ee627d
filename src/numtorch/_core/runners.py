"""The unary and binary runners, generated per op at registration (dispatch.py holds the
general path and the general recorder).

Note [Generated runners]
Pointwise ops of one or two operands are most of the calls a program makes, and for small
tensors their cost is Python's: frames, attribute reads, ``setattr`` with a computed name.
So each such op gets a runner written for it from one template: the forward call, the
result tensor, the node and its edges, and the saving of exactly the values its formulas
name (per combination of inputs that require grad, slots named as constants) in one
function. What the template does is what ``run_general`` and ``record`` do for these ops;
anything the fast form does not cover (type promotion, bfloat16, tensors beyond the
operands, non-tensor operands, observers) goes to them.
"""

from __future__ import annotations

import linecache
import os
from types import FunctionType

from ..backend import layout, xp
from . import dtypes as _dtypes
from . import grad_mode
from .anomaly_mode import record_forward_trace
from .dispatch import (
    _BF16,
    _FLOAT_KINDS,
    _INT_RANGES,
    _NUMBERS,
    _edge_of,
    _save,
    allocation_error,
    broadcast_error,
    broadcast_first,
    check_complex_autograd,
    kernel_dtype_error,
    kernel_refusal,
    observed,
    run_general,
)
from .graph import ONE_INPUT, next_sequence_nr
from .input_meta import (
    METAS,
    NO_META,
    PAIRS,
    SINGLE_METAS,
    input_meta,
    input_metas,
    single_input_meta,
)
from .observers import dispatch
from .saved import HOOKS_IN_USE, SavedTensor, save_input
from .tensor import Tensor

_UNARY = """
def run(args):
    if dispatch.slow:
        return observed(spec, args)
    input = args[0]
    if not isinstance(input, Tensor):
        return run_general(spec, args)
    if check is not None:
        check(args)
    if len(args) > 1:
        for extra in args[1:]:
            if isinstance(extra, _TENSOR_OR_NUMPY):  # the general path parses NumPy scalars
                return run_general(spec, args)
    data = input._data
    kind = data.dtype.kind
    if kind == "V":  # bfloat16: the general path computes it in float32
        return run_general(spec, args)
    if to_float and kind not in "fc":
        data = data.astype(_dtypes.get_default_dtype().np)
DTYPE_CHECK
    try:
        out = forward(data, *args[1:]) if len(args) > 1 else forward(data)
    except MemoryError as error:
        raise allocation_error(error) from None
    except TypeError as error:
        raise kernel_dtype_error(spec, None, (data,), error) from None
LAYOUT_OF_ONE
RESULT
    if DIFFERENTIABLE and input._requires_grad and _grad_enabled():
        out_kind = out.dtype.kind
        if out_kind in _FLOAT_KINDS:
            if out_kind == "c" or kind == "c":
                check_complex_autograd(spec)
RECORD
            return result
    result._requires_grad = False
    return result
"""

# Falls back to the general path whenever torch's promotion would differ from NumPy's
# (mixed dtypes, float numbers with integer tensors, ints outside the tensor's range).
_BINARY = """
def run(args):
    if dispatch.slow:
        return observed(spec, args)
    if check is not None:
        check(args)
    a = args[0]
    b = args[1]
    ta = isinstance(a, Tensor)
    tb = isinstance(b, Tensor)
    if ta and tb:
        ad = a._data
        bd = b._data
        if ad.dtype is not bd.dtype or (ad.dtype.kind != "f" and (to_float or ad.dtype is _BF16)):
            return run_general(spec, args)
    elif ta and number_second and b.__class__ in _NUMBERS:
        ad = a._data
        bd = b
        kind = ad.dtype.kind
        if kind != "f" and (to_float or b.__class__ is float or kind not in "iu"):
            return run_general(spec, args)
        if b.__class__ is int and kind != "f":
            low, high = _INT_RANGES[ad.dtype]
            if not low <= b <= high:
                return run_general(spec, args)
    elif tb and number_first and a.__class__ in _NUMBERS:
        ad = a
        bd = b._data
        kind = bd.dtype.kind
        if kind != "f" and (to_float or a.__class__ is float or kind not in "iu"):
            return run_general(spec, args)
        if a.__class__ is int and kind != "f":
            low, high = _INT_RANGES[bd.dtype]
            if not low <= a <= high:
                return run_general(spec, args)
    else:
        return run_general(spec, args)
OPMATH_SCALAR
DTYPE_CHECK
    if len(args) > 2:
        for extra in args[2:]:
            if isinstance(extra, _TENSOR_OR_NUMPY):  # tensors beyond the operands, NumPy scalars
                return run_general(spec, args)
    try:
        out = forward(ad, bd, *args[2:]) if len(args) > 2 else forward(ad, bd)
    except ValueError as error:
        if "broadcast" not in str(error):
            raise
        raise broadcast_error(spec, args, error) from None
    except MemoryError as error:
        raise allocation_error(error) from None
    except TypeError as error:
        broadcast_first(spec, args)
        raise kernel_dtype_error(spec, None, (ad, bd), error) from None
    except NotImplementedError:
        broadcast_first(spec, args)
        raise
LAYOUT_OF_TWO
RESULT
    if DIFFERENTIABLE and _grad_enabled() and (
        (ta and a._requires_grad) or (tb and b._requires_grad)
    ):
        out_kind = out.dtype.kind
        if out_kind in _FLOAT_KINDS:
            if out_kind == "c":
                check_complex_autograd(spec)
RECORD
            return result
    result._requires_grad = False
    return result
"""

# Note [Kernel dtypes]: only the runners of ops that declare their dtypes test them
_DTYPE_CHECKS = {
    "input": """
    if data.dtype not in kernel_supported:
        raise spec.dtypes.error(data.dtype)
""",
    "a": """
    if (ad.dtype if ta else bd.dtype) not in kernel_supported:
        raise kernel_refusal(spec, args, ad.dtype if ta else bd.dtype)
""",
}

# Note [Half-precision scalars] (dispatch.py): float16 with a number takes the general path
# (bfloat16 always does)
_OPMATH_SCALAR = """
    if ta and not tb and ad.dtype is _F16:
        return run_general(spec, args)
"""

# Note [Elementwise result layout] (backend/layout.py): one flag read per operand decides
_LAYOUT_OF_ONE = """
    if not input._data.flags.c_contiguous:  # (data may be a cast copy)
        out = iterator_result(out, (input._data,))
"""

_LAYOUT_OF_TWO = """
    if (ta and not ad.flags.c_contiguous) or (tb and not bd.flags.c_contiguous):
        a_operand = ad if ta or A_WRAPPED else None
        b_operand = bd if tb or B_WRAPPED else None
        out = iterator_result(out, (a_operand, b_operand))
"""

_RESULT = """
    if out.__class__ is not _ndarray:
        out = xp.asarray(out)
    result = _new(Tensor)
    result._data = out
    result._grad_fn = None
    result._base = None
"""

# The node of an op of one differentiable input (Note [Edges without a tuple] in op_node.py,
# Note [Shared input metadata] in input_meta.py); the unary runner records only when the
# input requires grad.
_NODE_OF_ONE = """
node = node_class()
node._sequence_nr = next_sequence_nr()
node._saved = None
node._edges = None
EDGE_OF_X
node._edge0 = edge
node._edge1 = ONE_INPUT
data = X._data
meta = SINGLE_METAS.get(data.shape)  # Note [Shared input metadata]: the dtype checked
if meta is None or meta[0][1] is not data.dtype:
    meta = single_input_meta(data)
node._input_meta = meta
result._grad_fn = node
result._requires_grad = True
"""

# The edge to input X's history as the node's slots keep it (see _short_edge), a leaf's
# AccumulateGrad and output 0 of a node without a call.
_EDGE_OF = """
fn = X._grad_fn
if fn is None:
    edge = X._accumulator
    if edge is not None:
        edge = edge()
    if edge is None:
        edge = _short_edge(X)
elif X._base is None and X._output_nr == 0:
    edge = fn
else:
    edge = _short_edge(X)
"""

# An input of an op of two differentiable inputs: its edge and metadata, and its bit of the
# mask that picks what to save.
_EDGE = """
if TX and (X._requires_grad or X._grad_fn is not None):
EDGE_OF_X_INDENTED
    node._edgeK = edge
    data = X._data
    metaK = METAS.get(data.shape)
    if metaK is None or metaK[1] is not data.dtype:
        metaK = input_meta(data)
    mask |= BIT
else:
    node._edgeK = metaK = None
"""


def _edge_source(operand: str, k: str) -> str:
    edge_of = _indent(_EDGE_OF.strip("\n"), 4).rstrip("\n")
    source = _EDGE.replace("EDGE_OF_X_INDENTED", edge_of).replace("TX", "t" + operand)
    return source.replace("X", operand).replace("K", k)


def _indent(source: str, spaces: int) -> str:
    pad = " " * spaces
    return "".join(pad + line + "\n" if line else "\n" for line in source.split("\n"))


def _save_source(spec, plan, names: dict) -> str | None:
    """Statements filling the node's slots following ``plan`` (what ``_save`` does), with
    each operand under the name ``names`` gives its position; None where only ``_save`` can
    (lists, values of other arguments)."""
    lines = []
    frees = False
    for kind, _, i, slot in plan:
        x = names.get(i)
        if kind == "result" and i == 0:
            lines.append(f"node.{slot} = SavedTensor(result, True)")
            frees = True
        elif kind == "input" and x is not None and i not in spec.lists:
            # Note [Saved inputs kept bare]: save_input's common case, inlined
            lines.append(
                f"node.{slot} = {x} if {x}.__class__ is Tensor and {x}._vc is None and not "
                f"HOOKS_IN_USE[0] else save_input({x}) if isinstance({x}, Tensor) else {x}"
            )
            frees = True
        elif kind == "shape" and x is not None and i not in spec.lists:
            lines.append(f"node.{slot} = {x}._data.shape")
        elif kind == "dtype" and x is not None:
            lines.append(f"node.{slot} = {x}.dtype")
        else:
            return None
    if frees:
        lines.append(f"node._saved = {_constant(names, plan)}")
    return "\n".join(lines)


def _constant(names: dict, value) -> str:
    """The name under which ``value`` is passed to the generated code."""
    constants = names.setdefault("constants", {})
    key = f"plan{len(constants)}"
    constants[key] = value
    return key


def _saving(spec, mask: int, names: dict) -> str:
    """What the runner does to save values when the inputs in ``mask`` require grad."""
    try:
        plan = spec.save_plan(mask)
    except TypeError:  # a formula naming what no argument gives: raise at the call, as before
        return "_save(node, spec, spec.save_plan(mask), args, (result,))"
    if not plan:
        return "pass"
    source = _save_source(spec, plan, names)
    if source is None:
        return f"_save(node, spec, {_constant(names, plan)}, args, (result,))"
    return source


def _record_source(spec, operands: tuple) -> tuple[str, dict]:
    """The recording block of a runner whose operands are named ``operands`` (``input``, or
    ``a`` and ``b``), and the constants it names."""
    names: dict = {i: name for i, name in enumerate(operands)}
    if len(operands) == 1:  # unary: its one differentiable input requires grad
        body = _NODE_OF_ONE.replace("EDGE_OF_X", _EDGE_OF.strip("\n")).replace(
            "X", "input"
        ) + _saving(spec, 1, names)
    else:
        body = "node = node_class()\nnode._sequence_nr = next_sequence_nr()\n"
        body += "node._saved = None\nnode._edges = None\nmask = 0\n"
        first = spec.diff[0]
        x0 = operands[first]
        body += _edge_source(x0, "0")
        body = body.replace("BIT", "1")
        if len(spec.diff) == 2:
            x1 = operands[spec.diff[1]]
            edge = _edge_source(x1, "1")
            body += edge.replace("BIT", "2")
            body += "node._input_meta = PAIRS.get((meta0, meta1)) or input_metas(meta0, meta1)\n"
            cases = ((3, "if"), (1, "elif"), (2, "else"))
        else:
            body += "node._edge1 = ONE_INPUT\n"
            body += "node._input_meta = NO_META if meta0 is None else single_input_meta(data)\n"
            cases = ((1, "if"), (0, "else"))
        body += "result._grad_fn = node\nresult._requires_grad = True\n"
        for mask, keyword in cases:
            test = "" if keyword == "else" else f" mask == {mask}"
            body += f"{keyword}{test}:\n" + _indent(_saving(spec, mask, names), 4)
    body += "\nif dispatch.anomaly:\n    record_forward_trace(node)"
    return body, names.get("constants", {})


def _runner_source(spec, template: str, operands: tuple) -> tuple[str, dict]:
    """The source of ``spec``'s runner (``def run(args):``) and the constants it names."""
    differentiable = bool(spec.diff)
    record, constants = _record_source(spec, operands) if differentiable else ("pass", {})
    source = template.replace("RESULT", _RESULT.strip("\n"))
    check = _DTYPE_CHECKS[operands[0]].strip("\n") if spec.dtypes is not None else ""
    source = source.replace("DTYPE_CHECK\n", check + "\n" if check else "")
    opmath = _OPMATH_SCALAR.strip("\n") + "\n" if spec.opmath_scalar else ""
    source = source.replace("OPMATH_SCALAR\n", opmath)
    layout = spec.iterator_layout
    source = source.replace("LAYOUT_OF_ONE", _LAYOUT_OF_ONE.strip("\n") if layout else "")
    source = source.replace("LAYOUT_OF_TWO", _LAYOUT_OF_TWO.strip("\n") if layout else "")
    source = source.replace("A_WRAPPED", str(0 in spec.layout_numbers))
    source = source.replace("B_WRAPPED", str(1 in spec.layout_numbers))
    source = source.replace("RECORD", _indent(record, 12).rstrip("\n"))
    # The op's facts as constants: the compiler drops the branches they rule out.
    for name, value in (
        ("DIFFERENTIABLE", differentiable),
        ("check is not None", spec.check is not None),
        ("to_float", spec.promote == "float"),
        ("number_first", 0 in spec.scalars),
        ("number_second", 1 in spec.scalars),
    ):
        source = source.replace(name, str(value))
    return source, constants


def _compile(spec, source: str, names: dict, namespace: dict, kind: str = "runner") -> dict:
    """Run ``source`` in ``namespace``, filled with what generated code names."""
    namespace.update(
        {
            # the module NumPy's floating-point warnings are filtered by (backend/__init__.py)
            "__name__": __name__,
            **_GLOBALS,
            **names,
            "spec": spec,
            "nparams": spec.nparams,
            "forward": spec.forward,
            "check": spec.check,
            "kernel_supported": None if spec.dtypes is None else spec.dtypes.supported,
            "node_class": spec.node_class,
        }
    )
    # inside the package's directory, so that the profiler's and anomaly mode's stacks leave
    # it out with numtorch's other frames; tracebacks and debuggers show the generated lines
    filename = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"<{kind} of {spec.name}>")
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)
    return namespace


def _generate(spec, template: str, operands: tuple):
    source, constants = _runner_source(spec, template, operands)
    # The public function's body as well (Note [Public functions]): its binding of keywords
    # and defaults, then the runner's statements, where the count of arguments is known.
    call = source.replace("def run(args):", _CALL_HEADER.strip("\n"), 1)
    source += _known_count(call, len(operands), spec.nparams)
    function = getattr(spec, "function", None)
    if function is None or function.__code__ is not _call.__code__:
        function = None
    # the public function's globals when it takes the runner's body, so it finds its names
    namespace = _compile(spec, source, constants, {} if function is None else function.__globals__)
    if function is not None:
        function.__code__ = namespace["call"].__code__
    return namespace["run"]


def operator_method(spec, extra: tuple, is_operand):
    """``Tensor.__mul__`` and friends for an op with a generated runner (None otherwise):
    the runner's body in the method itself (Note [Public functions]), ``NotImplemented``
    where a TypeError comes from an operand that ``is_operand`` refuses."""
    lazy = getattr(spec.run, "template", None)
    if lazy is None or lazy[0] is not _BINARY:
        return None
    source, constants = _runner_source(spec, *lazy)
    body = source[source.index("def run(args):") + len("def run(args):") :]
    body = _known_count(body, 2, 2 + len(extra))
    source = _OPERATOR.replace("BODY", _indent(body.strip("\n"), 4).rstrip("\n"))
    names = {**constants, "operator_extra": extra, "is_operand": is_operand}
    return _compile(spec, source, names, {}, "operator")["operator"]


def _known_count(source: str, operands: int, count: int) -> str:
    """``source`` where ``args`` holds ``count`` values: the compiler drops dead tests."""
    return source.replace(f"len(args) > {operands}", str(count > operands))


_OPERATOR = """
def operator(self, other):
    args = (self, other) + operator_extra
    try:
BODY
    except TypeError:
        if is_operand(other):
            raise
        return NotImplemented
"""
_CALL_HEADER = """
def call(*args, **kwargs):
    if kwargs or len(args) != nparams:
        args = spec.bind(args, kwargs)
"""


# Note [Public functions]
# ``numtorch.sin`` (also ``Tensor.sin``) binds its arguments and calls ``spec.run``: for the
# small tensors of a chain of ops, that Python frame is about a tenth of an op's cost. So
# when an op's runner is generated, the public function takes the runner's body as its own
# code (``__code__`` is replaced: the function object, its name, doc and ``spec`` stay),
# and calls run the op in one frame. Until then, and for ops that take ``run_general``, it
# is ``_call``. Its globals are a dict of its own, which the generated code then fills.
# Binary operators (``Tensor.__mul__``) are generated with the runner's body too.
def _call(*args, **kwargs):
    if kwargs or len(args) != nparams:  # noqa: F821 (a name of the function's own globals)
        args = spec.bind(args, kwargs)  # noqa: F821
    return spec.run(args)  # noqa: F821


def public_function(spec, name: str):
    """``numtorch.<name>`` for ``spec`` (Note [Public functions])."""
    namespace = {"__name__": __name__, "spec": spec, "nparams": spec.nparams}
    function = FunctionType(_call.__code__, namespace, name)
    function.__qualname__ = name
    if getattr(spec.run, "template", None) is not None:  # generated: takes its body later
        spec.function = function
    return function


def _short_edge(a):
    """The edge to ``a``'s history as OpNode's slots keep it (Note [Edges without a tuple])."""
    fn = a._grad_fn
    if fn is None:
        acc = a._accumulator  # a leaf's AccumulateGrad, while something refers to it
        if acc is not None and a._requires_grad:
            acc = acc()
            if acc is not None:
                return acc
    elif a._base is None:
        nr = a._output_nr
        return fn if nr == 0 else (fn, nr)
    edge = _edge_of(a)
    return edge[0] if edge[1] == 0 else edge


_GLOBALS = {
    "xp": xp,
    "iterator_result": layout.iterator_result,
    "_dtypes": _dtypes,
    "_grad_enabled": grad_mode.is_grad_enabled,
    "_ndarray": xp.ndarray,
    "_new": object.__new__,
    "_BF16": _BF16,
    "_F16": xp.dtype(xp.float16),
    "_NUMBERS": _NUMBERS,
    "_INT_RANGES": _INT_RANGES,
    "Tensor": Tensor,
    "_TENSOR_OR_NUMPY": (Tensor, xp.generic),
    "dispatch": dispatch,
    "observed": observed,
    "run_general": run_general,
    "kernel_refusal": kernel_refusal,
    "broadcast_first": broadcast_first,
    "allocation_error": allocation_error,
    "broadcast_error": broadcast_error,
    "kernel_dtype_error": kernel_dtype_error,
    "check_complex_autograd": check_complex_autograd,
    "next_sequence_nr": next_sequence_nr,
    "ONE_INPUT": ONE_INPUT,
    "METAS": METAS,
    "input_meta": input_meta,
    "input_metas": input_metas,
    "PAIRS": PAIRS,
    "single_input_meta": single_input_meta,
    "SINGLE_METAS": SINGLE_METAS,
    "NO_META": NO_META,
    "_FLOAT_KINDS": _FLOAT_KINDS,
    "_short_edge": _short_edge,
    "SavedTensor": SavedTensor,
    "save_input": save_input,
    "HOOKS_IN_USE": HOOKS_IN_USE,
    "_save": _save,
    "record_forward_trace": record_forward_trace,
}


def build_runner(spec):
    """The runner for ``spec``: generated for ops of one or two operands (Note [Generated
    runners]), the general path otherwise."""
    simple = spec.outputs == 1 and not spec.lists and not spec.view and len(spec.diff) <= 2
    if simple and spec.operands == (0,) and spec.promote in (None, "float"):
        template, operands = _UNARY, ("input",)
    elif simple and spec.operands == (0, 1):
        template, operands = _BINARY, ("a", "b")
    else:
        return lambda args: run_general(spec, args)

    # Compiling a runner takes about a millisecond: done for every op at import, that would
    # be most of ``import numtorch``. The runner is compiled on the op's first call instead,
    # and replaces this one as ``spec.run`` (callers read ``spec.run``, or ``generated()``).
    def first_call(args):
        spec.run = _generate(spec, template, operands)
        return spec.run(args)

    first_call.template = template, operands
    return first_call


def generated(spec):
    """``spec``'s runner, compiled now if it has not run yet: for callers that keep it."""
    lazy = getattr(spec.run, "template", None)
    if lazy is not None:
        spec.run = _generate(spec, *lazy)
    return spec.run

"""OpNode's formulas run on gradient arrays (Note [Formulas on arrays] in array_formulas.py,
Note [Gradients as arrays] in engine.py): each formula's array form, the node slots its
arguments come from, and the checks that send it back to tensors."""

from __future__ import annotations

from operator import attrgetter

from ..backend import xp
from .array_formulas import CALLS_ONE_OP, on_arrays
from .graph import FREED, ONE_INPUT, freed_error
from .node_calls import tensor_of
from .saved import unpack_saved_data
from .tensor import Tensor

_MISSING = object()
_ndarray = xp.ndarray
# values a formula on arrays may take as they are (Note [Formulas on arrays])
_PLAIN = (int, float, bool, str, type(None))
_SEQUENCES = (tuple, list)  # of plain values: shapes, dims, strides
_FLOAT = "f"
_REAL = "fiub"  # a formula that is one call of an op takes these arrays


def _plain(value) -> bool:
    """Whether ``value`` reaches a formula on arrays as it is."""
    cls = value.__class__
    if cls in _PLAIN:
        return True
    return cls in _SEQUENCES and all(item.__class__ in _PLAIN for item in value)


def array_steps(spec) -> tuple:
    """Per formula of ``spec``: the formula, its argument names, whether it takes the
    gradient alone, its array form, the slot of each argument (None for the gradient) and
    the kinds of arrays the array form takes. A formula naming something no slot holds
    (``grads``) has no array form."""
    steps = []
    for formula, argnames, grad_only in spec.compiled:
        slots = tuple(None if n == "grad" else spec.slots.get(n, _MISSING) for n in argnames)
        array_form = None if _MISSING in slots else on_arrays(formula)
        kinds = _REAL if getattr(array_form, CALLS_ONE_OP, False) else _FLOAT
        steps.append((formula, argnames, grad_only, array_form, slots, kinds))
    return tuple(steps)


def array_arguments(node, slots, grad, kinds=_FLOAT):
    """A formula's arguments as arrays, or None when one of them is an array of a kind not
    in ``kinds`` or not a plain value. ``slots`` names the slot of each argument, None for
    the gradient array ``grad`` (see array_steps)."""
    values = []
    for slot in slots:
        if slot is None:
            values.append(grad)
            continue
        value = getattr(node, slot, _MISSING)  # unset: the value was not saved
        cls = value.__class__
        if cls in _PLAIN:  # a number, a string, None: nothing to unpack or check
            values.append(value)
            continue
        if cls is Tensor and value._vc is None:
            value = value._data  # a bare saved input never modified in place
        elif value is _MISSING:
            return None
        else:
            value = unpack_saved_data(value, node)
        if value.__class__ is _ndarray:
            if value.dtype.kind not in kinds:
                return None
        elif not _plain(value):
            return None
        values.append(value)
    return values


def _passes_grad_on(formula) -> bool:
    """Whether ``formula`` is ``lambda grad: grad`` (add's, sub's input): its runner then
    returns the gradient without calling it."""
    code = getattr(formula, "__code__", None)
    return code is not None and code.co_code == _IDENTITY.co_code and code.co_argcount == 1


def _identity(grad):
    return grad


_IDENTITY = _identity.__code__


def _grad_itself(node, grad):
    return grad


def _array_runner(formula, argnames, grad_only, form, slots, kinds):
    """``run(node, grad)``: the formula's array form with its arguments read from the
    node's slots, or the formula on tensors where an argument is an array of a kind not in
    ``kinds`` or not a plain value, or where it has no array form."""

    def on_tensors(node, grad):
        return formula(*node._arguments(argnames, (tensor_of(grad),)))

    if form is None:
        return on_tensors
    if grad_only and _passes_grad_on(formula):
        return _grad_itself
    if grad_only:
        return lambda node, grad: form(grad)
    if len(slots) == 2 and slots[0] is None:
        read = attrgetter(slots[1])

        def run_with_one(node, grad):  # grad * cos(input) and friends: unrolled
            value = read(node)
            if value.__class__ is Tensor and value._vc is None:
                value = value._data  # a bare saved input never modified in place
            else:
                value = unpack_saved_data(value, node)
            if value.__class__ is _ndarray:
                if value.dtype.kind not in kinds:
                    return on_tensors(node, grad)
            elif value.__class__ not in _PLAIN and not _plain(value):
                return on_tensors(node, grad)
            return form(grad, value)

        return run_with_one

    def run(node, grad):
        values = array_arguments(node, slots, grad, kinds)
        return on_tensors(node, grad) if values is None else form(*values)

    return run


def array_apply(spec, plain: bool):
    """``apply(node, grad, release)``, ``OpNode._apply_array`` for the nodes of ``spec``: a
    gradient array in, one gradient (array, tensor or None) per input out; with ``release``
    it may free the saved values itself (the node is then FREED). ``plain``: the node runs
    its formulas the usual way (no lists, no ``_apply`` of its own); otherwise, and for
    complex gradients, the formulas run on tensors. A node of one input whose formula takes
    the gradient and one saved value runs in one function (the commonest case)."""
    steps = array_steps(spec) if plain else ()
    runners = tuple(_array_runner(*step) for step in steps)
    # add's and sub's input (lambda grad: grad): the gradient passed on without a call
    passes = tuple(run is _grad_itself for run in runners) + (False, False)
    pass0, pass1 = passes[:2]

    def general(node, grad, release=False):  # the engine frees the saved values
        if node._saved is FREED:
            raise freed_error(node)
        if spec.unused_results:
            node._check_unused_results()
        if not runners or grad.dtype.kind != "f":  # complex: formulas take conjugates
            return node._apply([tensor_of(grad)])
        try:  # (free unless raised)
            edges = node._edges
            if edges is None:  # Note [Edges without a tuple]: None is no edge
                edge0 = node._edge0
                if node._edge1 is ONE_INPUT:
                    return [None if edge0 is None else runners[0](node, grad)]
                edge1 = node._edge1
                return [
                    None if edge0 is None else grad if pass0 else runners[0](node, grad),
                    None if edge1 is None else grad if pass1 else runners[1](node, grad),
                ]
            return [None if e[0] is None else run(node, grad) for run, e in zip(runners, edges)]
        except NotImplementedError:
            node._refuse_stale_saved()  # torch checks every saved value first
            raise

    if len(steps) != 1:
        return general
    formula, argnames, grad_only, form, slots, kinds = steps[0]
    # the node's one slot is read and cleared by its name (op.py names slots _v0, _v1, ...):
    # no attrgetter or setattr call
    if form is None or len(slots) != 2 or slots[0] is not None or spec.slot_names != ("_v0",):
        return general

    def apply_one(node, grad, release=False):  # grad * cos(input) and friends: unrolled
        if (
            node._saved is FREED
            or spec.unused_results
            or grad.dtype.kind != "f"
            or node._edges is not None
            or node._edge0 is None
        ):
            return general(node, grad)
        value = node._v0
        if value.__class__ is Tensor and value._vc is None:
            value = value._data  # a bare saved input never modified in place
        else:
            value = unpack_saved_data(value, node)
        if value.__class__ is _ndarray:
            if value.dtype.kind not in kinds:
                return general(node, grad)
        elif value.__class__ not in _PLAIN and not _plain(value):
            return general(node, grad)
        out = [form(grad, value)]
        if release and node._saved:  # OpNode._release, for the one slot
            node._saved = FREED
            node._v0 = None
        return out

    return apply_one

"""Forward-mode AD: tangents carried on tensors, pushed through every op while a level is on.

Note [Forward grads]
A tensor's tangent at a dual level lives in ``tensor._fw_grads`` (level -> tangent Tensor;
the class default is None, so tensors that never meet forward AD pay nothing). While any
level is active, one observer (``_dispatch``) sees every op call: when a differentiable
input carries a tangent, the op runs as usual and then its forward derivative, the ``jvp``
fact of its entry (``OpSpec.jvp``), makes the output's tangent:

- ``"elementwise"``: the backward formulas applied to the tangents (torch's
  auto_element_wise; conjugated around for complex values);
- ``"linear"``: the op itself applied to the tangents (torch's auto_linear);
- a function: named like a backward formula, with ``<input>_t`` for tangents (None where an
  input has none), the forward's arguments and ``result``;
- None: derived by transposing the backward formulas (the vector-Jacobian product is linear
  in the cotangent, and its derivative with respect to the cotangent, in the direction of
  the tangents, is the Jacobian-vector product). An op whose backward is not differentiable
  raises torch's NotImplementedError naming it.

The formulas are numtorch ops, so they record a graph (forward-over-reverse, reverse-over-
forward) and, for nested levels, carry the outer levels' tangents: while level ``L``'s
tangent is computed only levels below ``L`` are visible (``_state.limit``). With no level
active nothing is observed and the op call path is unchanged.
"""

from __future__ import annotations

import threading
import weakref
from inspect import signature

from .._core import grad_mode
from .._core import tensor as _tensor
from .._core.observers import add_observer, dispatch, refresh_slow, remove_observer
from .._core.saved import SavedTensor
from ..backend import xp

_NUMBERS = (int, float, bool, complex)


class _State(threading.local):
    def __init__(self):
        self.levels: list = []  # active levels, innermost last
        self.limit = 1 << 30  # levels >= limit are not seen by ops (see the Note)
        self.next_level = 0
        self.batch: dict = {}  # level -> batch size of its tangents (jacfwd), when batched
        self.tape = None  # a forward_tape.Tape recording one level's op calls (linearize)


_state = _State()


def active_levels() -> list:
    return _state.levels


def enter_level(batch: int | None = None) -> int:
    """Start a new (possibly nested) level; the public API refuses nesting as torch does.
    ``batch``: its tangents carry a leading dimension of that size (one tangent per row)."""
    level = _state.next_level
    _state.next_level += 1
    if not _state.levels:
        add_observer(OBSERVER)
    _state.levels.append(level)
    if batch is not None:
        _state.batch[level] = batch
    return level


def exit_level(level: int) -> None:
    if not _state.levels or _state.levels[-1] != level:
        raise RuntimeError(
            "Trying to exit a forward AD level that was not the last one that was created. "
            "This is not supported."
        )
    _state.levels.pop()
    _state.batch.pop(level, None)
    if not _state.levels:
        remove_observer(OBSERVER)
        _state.next_level = 0
    _forget_level(level)


_dual_tensors: dict = {}  # level -> weak list of tensors given tangents, cleared on exit


def _forget_level(level: int) -> None:
    for ref in _dual_tensors.pop(level, ()):
        t = ref()
        if t is not None and t._fw_grads:
            t._fw_grads.pop(level, None)
            if not t._fw_grads:
                t._fw_grads = None


def batch_size(level: int) -> int | None:
    """The leading batch dimension of ``level``'s tangents (None: not batched)."""
    return _state.batch.get(level)


def is_visible(level: int) -> bool:
    return level < _state.limit


def get_tangent(t, level: int):
    grads = t._fw_grads if isinstance(t, _tensor.Tensor) else None
    return None if grads is None else grads.get(level)


def set_tangent(t, level: int, tangent) -> None:
    break_tape(level)
    _store(t, level, tangent)


def break_tape(level: int) -> None:
    """A tangent set or written outside an op's rule (Note [Forward tapes]): a tape recording
    ``level`` cannot replay it."""
    tape = _state.tape
    if tape is not None and tape.level == level:
        tape.broken = True


def _store(t, level: int, tangent) -> None:
    grads = t._fw_grads
    if grads is None:
        t._fw_grads = {}
        grads = t._fw_grads  # a batched tensor answers with a view of its physical tangents
    if level not in grads:
        _dual_tensors.setdefault(level, []).append(weakref.ref(t))
    if tangent is None:
        grads.pop(level, None)
    else:
        grads[level] = tangent


class hidden_levels:
    """Ops inside see only levels below ``limit`` (0: none); also the dispatch flag they need."""

    def __init__(self, limit: int):
        self.limit = limit

    def __enter__(self):
        self.saved = _state.limit
        _state.limit = self.limit
        self.slow = dispatch.slow
        refresh_slow()

    def __exit__(self, *exc):
        _state.limit = self.saved
        dispatch.slow = self.slow


def _levels_in(spec, args) -> list:
    """The visible levels at which some differentiable input of the call has a tangent."""
    found = []
    limit = _state.limit
    for i in spec.diff:
        a = args[i]
        if isinstance(a, _tensor.Tensor):
            grads = a._fw_grads
            if grads:
                found.extend(lv for lv in grads if lv < limit and lv not in found)
        elif i in spec.lists and a is not None:
            for t in a:
                grads = t._fw_grads if isinstance(t, _tensor.Tensor) else None
                if grads:
                    found.extend(lv for lv in grads if lv < limit and lv not in found)
    found.sort()
    return found


class _ForwardObserver:
    """The dispatch observer that pushes tangents through ops (Note [Forward grads])."""

    def wrap(self, spec, args, run):
        if not spec.diff:
            return run
        levels = _levels_in(spec, args)
        if not levels:
            return run
        refusal = spec.jvp if getattr(spec.jvp, "refuses", False) else None

        def run_dual():
            if refusal is not None:  # torch refuses before its kernel checks the arguments
                refusal()
            out = run()
            results = out if isinstance(out, (tuple, list)) else (out,)
            for level in levels:
                batch = _state.batch.get(level)
                with hidden_levels(level):
                    if batch is None or batch_safe(spec, args, results):
                        tangents = push(spec, args, results, _reader(spec, level, batch, results))
                    else:
                        tangents = _push_each(spec, args, results, level, batch)
                    for r, t in zip(results, tangents):
                        if (
                            t is not None
                            and isinstance(r, _tensor.Tensor)
                            and r._data.dtype.kind in "fcV"
                        ):
                            t = _conform(t, r, batch)
                            if not spec.view and _aliases_input(t, spec, args, level):
                                t = t.clone()  # only a view's tangent may share input memory
                            _store(r, level, t)
                tape = _state.tape
                if tape is not None and tape.level == level:
                    tape.records.append((spec, args, results))
            for r in results:
                if isinstance(r, _tensor.Tensor) and r._fw_grads and r._grad_fn is not None:
                    _link_saved_result(r)
            return out

        return run_dual


OBSERVER = _ForwardObserver()


def _link_saved_result(result) -> None:
    """A node that saved ``result`` unpacks it with its tangents (their dict is shared)."""
    items = getattr(result._grad_fn, "_saved_items", None)  # registry nodes only
    for _, value in items() if items is not None else ():
        if type(value) is SavedTensor and value.tensor is None and value.data is result._data:
            value.fw_grads = result._fw_grads


def batch_safe(spec, args, results) -> bool:
    """Whether the op's forward derivative takes tangents with a leading batch dimension
    (complex elementwise ops take the transposition, which does not)."""
    rule = spec.jvp
    if rule == "elementwise":
        return not _any_complex(spec, args, results)
    return getattr(rule, "batched", False)


def _reader(spec, level, batch, results):
    """``tangent_of(tensor)`` at ``level``; batched tangents of elementwise ops get size-1
    dimensions after the batch one, so they broadcast against the other operands."""
    if batch is None or spec.jvp != "elementwise":
        return lambda a: get_tangent(a, level)
    ndim = max((r._data.ndim for r in results if isinstance(r, _tensor.Tensor)), default=0)

    def tangent_of(a):
        t = get_tangent(a, level)
        if t is None or not isinstance(a, _tensor.Tensor) or a._data.ndim >= ndim:
            return t
        return t.reshape((batch,) + (1,) * (ndim - a._data.ndim) + a._data.shape)

    return tangent_of


def _push_each(spec, args, results, level, batch) -> list:
    """Batched tangents through a rule that takes one tangent: one sample at a time."""
    from ..ops.concatenation import stack

    per_sample = []
    for b in range(batch):

        def tangent_of(a, b=b):
            t = get_tangent(a, level)
            return None if t is None else t[b]

        per_sample.append(push(spec, args, results, tangent_of))
    out = []
    for k, r in enumerate(results):
        column = [sample[k] for sample in per_sample]
        if any(t is None for t in column) or not isinstance(r, _tensor.Tensor):
            out.append(None)
        else:
            out.append(stack([_conform(t, r, None) for t in column]))
    return out


def _aliases_input(tangent, spec, args, level) -> bool:
    data = _physical_data(tangent)
    for i in spec.diff:
        for a in args[i] if i in spec.lists and isinstance(args[i], (list, tuple)) else [args[i]]:
            t = get_tangent(a, level)
            if t is not None and xp.may_share_memory(_physical_data(t), data):
                return True
    return False


def _physical_data(t):
    """The array holding ``t``'s values: a tangent batched under ``vmap`` (a jvp inside
    vmap) has no readable array of its own, its physical tensor does."""
    while getattr(t, "_batched", False):
        t = t._value
    return t._data


def _conform(tangent, result, batch):
    """The tangent in the result's shape and dtype (broadcast inputs, promoted dtypes)."""
    shape = result._data.shape if batch is None else (batch, *result._data.shape)
    if tangent._data.shape != shape:
        tangent = tangent.expand(shape)
    if tangent._data.dtype != result._data.dtype:
        tangent = tangent.to(result.dtype)
    return tangent


def unsupported(name: str) -> NotImplementedError:
    return NotImplementedError(
        f"Trying to use forward AD with {name} that does not support it because it has not "
        "been implemented yet."
    )


def no_forward_derivative(name: str):
    """The forward derivative of an op that torch gives none (its forward AD raises)."""

    def jvp():
        raise unsupported(name)

    jvp.refuses = True
    return jvp


def not_implemented_jvp(name: str):
    """The forward derivative of an op whose backward torch declares not implemented (its node
    is ``NotImplemented``): forward AD refuses it naming ``aten::<name>``, in torch's shorter
    wording for these."""

    def jvp():
        raise NotImplementedError(
            f"Trying to use forward AD with aten::{name} that does not support it."
        )

    jvp.refuses = True
    return jvp


def push(spec, args, results, tangent_of) -> list:
    """The output tangents of one op call (Note [Forward grads]); ``tangent_of(input)``."""
    rule = spec.jvp
    if rule == "elementwise" and not _any_complex(spec, args, results):
        return [_elementwise(spec, args, results, tangent_of)]
    if rule == "linear":
        return _linear(spec, args, tangent_of)
    if callable(rule):
        out = rule(*_named(spec, rule, args, results, tangent_of))
        return list(out) if isinstance(out, (tuple, list)) else [out]
    return _transposed(spec, args, tangent_of)


def _any_complex(spec, args, results) -> bool:
    if results[0]._data.dtype.kind == "c":
        return True
    return any(
        isinstance(args[i], _tensor.Tensor) and args[i]._data.dtype.kind == "c" for i in spec.diff
    )


def _value(spec, name, args, results):
    if name.startswith("result") and (name == "result" or name[6:].isdigit()):
        return results[int(name[6:] or 0)]
    i = spec.index.get(name)
    if i is not None:
        return args[i]
    if name.endswith("_shape"):
        a = args[spec.index[name[:-6]]]
        return tuple(t._data.shape for t in a) if isinstance(a, (list, tuple)) else a._data.shape
    if name.endswith("_dtype"):
        return args[spec.index[name[:-6]]].dtype
    raise TypeError(f"{spec.name}: a forward derivative uses unknown name '{name}'")


def _named(spec, rule, args, results, tangent_of) -> list:
    names = getattr(rule, "_jvp_names", None)
    if names is None:
        names = rule._jvp_names = tuple(signature(rule).parameters)
    values = []
    for n in names:
        if n.endswith("_t") and n[:-2] in spec.index:
            a = args[spec.index[n[:-2]]]
            values.append(
                [tangent_of(t) for t in a] if isinstance(a, (list, tuple)) else tangent_of(a)
            )
        else:
            values.append(_value(spec, n, args, results))
    return values


def _elementwise(spec, args, results, tangent_of):
    total = None
    for pos, formula, names in spec.formulas:
        tangent = tangent_of(args[pos])
        if tangent is None:
            continue
        name = getattr(formula, "not_implemented", None)
        if name is not None:  # a derivative torch declares not implemented has no tangent
            not_implemented_jvp(name)()  # raises
        values = [tangent if n == "grad" else _value(spec, n, args, results) for n in names]
        term = formula(*values)
        total = term if total is None else total + term
    return total


def _linear(spec, args, tangent_of) -> list:
    from .._creation import zeros_like

    def tangent_or_zeros(x):
        t = tangent_of(x)
        return zeros_like(x) if t is None else t

    new = list(args)
    for i in spec.diff:
        a = args[i]
        if isinstance(a, _tensor.Tensor):
            new[i] = tangent_or_zeros(a)
        elif i in spec.lists and a is not None:
            new[i] = [tangent_or_zeros(x) for x in a]
        elif isinstance(a, _NUMBERS):
            new[i] = 0
    out = spec.run(new)
    return list(out) if isinstance(out, (tuple, list)) else [out]


def keep_tangents(new, old):
    """``new`` (a detached copy of ``old``) with ``old``'s tangents at the visible levels."""
    grads = old._fw_grads
    if grads:
        visible = {lv: t for lv, t in grads.items() if lv < _state.limit}
        if visible:
            new._fw_grads = visible
    return new


def _differentiable_input(x):
    """``x`` as an input of the transposition: a new alias when it has history (the graph
    behind it may be the one a running backward walks: a fresh node to stop at keeps the
    walks apart), else a leaf; either keeps the tangents of the levels outside this one."""
    if x._requires_grad and grad_mode.is_grad_enabled():
        return x.view_as(x)
    return keep_tangents(x.detach().requires_grad_(), x)


def _transposed(spec, args, tangent_of) -> list:
    """``J t`` from the op's backward: d/dg <vjp(g), t> at any ``g`` (linear in ``g``)."""
    from .._creation import ones_like, zeros_like
    from .api import grad as autograd_grad

    new = list(args)
    inputs, tangents = [], []
    for i in spec.diff:
        a = args[i]
        is_list = i in spec.lists and isinstance(a, (list, tuple))
        items = a if is_list else [a]
        replaced = []
        for x in items:
            t = tangent_of(x)
            if t is not None and isinstance(x, _tensor.Tensor) and x._data.dtype.kind in "fcV":
                x = _differentiable_input(x)
                inputs.append(x)
                tangents.append(t)
            replaced.append(x)
        new[i] = replaced if is_list else replaced[0]
    outer = grad_mode.is_grad_enabled()
    with grad_mode.enable_grad():
        out = spec.run(new)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        live = [k for k, o in enumerate(outs) if isinstance(o, _tensor.Tensor) and o._requires_grad]
        if not live:
            return [None] * len(outs)
        # any cotangent will do (the vjp is linear in it); ones expose a backward that runs
        # outside the tape, whose vjp then comes back nonzero yet without a graph
        cotangents = [ones_like(outs[k]).requires_grad_() for k in live]
        try:
            vjps = autograd_grad(
                [outs[k] for k in live], inputs, cotangents, create_graph=True, allow_unused=True
            )
        except RuntimeError as error:
            raise unsupported(spec.name) from error
        pairs = []
        for v, t in zip(vjps, tangents):
            if v is None:
                continue
            if v._requires_grad:
                pairs.append((v, t))
            elif xp.any(v._data):
                # a backward computed outside the tape: it cannot be transposed
                raise unsupported(spec.name)
            # else: a vjp that is zero whatever the cotangent (sign, round...): J = 0
        create = outer and (
            any(x._requires_grad for x in args if isinstance(x, _tensor.Tensor))
            or any(t._requires_grad for t in tangents)
        )
        found = ()
        try:
            found = pairs and autograd_grad(
                [v for v, _ in pairs],
                cotangents,
                [t for _, t in pairs],
                create_graph=create,
                allow_unused=True,
            )
        except RuntimeError as error:
            raise unsupported(spec.name) from error
    result = [None] * len(outs)
    if not pairs:
        return [zeros_like(outs[k]) if k in live else None for k in range(len(outs))]
    for k, g in zip(live, found):
        result[k] = g if g is not None else zeros_like(outs[k])
    return result


# -- helpers for forward derivatives written in op entries -----------------------------------
def batched(rule):
    """Mark a forward derivative that also takes tangents with a leading batch dimension."""
    rule.batched = True
    return rule


def add_terms(*terms):
    """The sum of the terms that are not None (None when all are)."""
    total = None
    for term in terms:
        if term is not None:
            total = term if total is None else total + term
    return total


def batch_shift(tangent, primal) -> int:
    """How many leading batch dimensions ``tangent`` has over its ``primal`` (0 or 1)."""
    return tangent.ndim - primal.ndim


def align(tangent, primal, ndim: int):
    """A possibly batched tangent with size-1 dimensions after the batch one, so that it
    broadcasts like its primal against operands of ``ndim`` dimensions."""
    if tangent is None or tangent.ndim == primal.ndim or primal.ndim >= ndim:
        return tangent
    return tangent.reshape((tangent.shape[0],) + (1,) * (ndim - primal.ndim) + tuple(primal.shape))

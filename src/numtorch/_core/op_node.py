"""OpNode: the backward node of a registered op (op.py generates one subclass per op,
``ExpBackward0``): its edges, its saved values in slots, and its formulas run on tensors or,
through ``array_backward.py``, on gradient arrays."""

from __future__ import annotations

from ..backend import xp
from .array_backward import array_apply, array_arguments, array_steps
from .backward_run import task
from .grad_mode import is_grad_enabled
from .graph import FREED, FREED_MESSAGE, ONE_INPUT, Node, freed_error
from .node_calls import tensor_of
from .observers import dispatch
from .saved import SavedTensor, as_saved_tensor, check_saved, unpack_saved
from .tensor import Tensor

# the dtypes torch gives a Python number it wraps into a tensor argument
_WRAPPED_NUMBER_DTYPES = {bool: xp.bool_, int: xp.int64, float: xp.float64, complex: xp.complex128}

_MISSING = object()


class OpNode(Node):
    """Backward node of a registered op; subclasses are generated per op (ExpBackward0)."""

    # The fields every recorded op sets live in slots: no per-node dict to allocate, and the
    # recorder sets all of them (a slot has no class default to fall back on). The values
    # the formulas name live in slots of the generated class (Note [Saved values in slots]).
    __slots__ = ("_edge0", "_edge1", "_edges", "_input_meta", "_sequence_nr", "_saved")
    _spec: object  # the op's OpSpec (op.py), set on each generated class
    _list_len = 0
    _takes_arrays = True

    # Note [Edges without a tuple]
    # A node of one or two inputs keeps its edges in two slots rather than in a tuple, and an
    # edge to output 0 of a node as that node alone (None: no edge): recording a chain op
    # then allocates no tuple for the cyclic garbage collector to trace. ``next_functions``
    # builds the ``(node, output_nr)`` tuples when read, as torch's does. ``_edge1`` is
    # ONE_INPUT on nodes of one input; nodes of more inputs keep the tuple in ``_edges``.
    @property
    def next_functions(self) -> tuple:
        edges = self._edges
        if edges is not None:
            return edges
        edge0 = self._edge0
        if edge0.__class__ is not tuple:
            edge0 = (edge0, 0)
        edge1 = self._edge1
        if edge1 is ONE_INPUT:
            return (edge0,)
        return (edge0, edge1 if edge1.__class__ is tuple else (edge1, 0))

    @next_functions.setter
    def next_functions(self, edges: tuple) -> None:
        self._edges = tuple(edges)

    def _short_edges(self) -> tuple:
        edges = self._edges
        if edges is not None:
            return edges
        edge1 = self._edge1
        return (self._edge0,) if edge1 is ONE_INPUT else (self._edge0, edge1)

    def _apply(self, grad_outputs) -> list:
        spec = self._spec
        if self._saved is FREED:
            raise freed_error(self)
        if spec.unused_results:
            self._check_unused_results()
        if spec.lists:
            return self._apply_lists(grad_outputs)
        steps = spec.on_arrays
        if steps is None:
            steps = spec.on_arrays = array_steps(spec)
        grad = grad_outputs[0]
        arrays = (
            grad is not None
            and not is_grad_enabled()
            and not dispatch.observing
            and grad._data.dtype.kind == "f"  # complex: formulas take conjugates
        )
        edges = self._edges
        if edges is None:  # Note [Edges without a tuple]: None is no edge
            edge1 = self._edge1
            edges = (self._edge0,) if edge1 is ONE_INPUT else (self._edge0, edge1)
        else:
            edges = [e[0] for e in edges]
        # autograd.grad runs only the nodes on a path to its inputs, and, as torch's
        # task_should_compute_output, a formula only for an edge into them: an input whose
        # derivative is not implemented refuses only where its gradient is wanted
        reached = task.reached
        scheduled = reached[1] if reached is not None else None
        out = []
        try:
            for (formula, argnames, grad_only, array_form, slots, kinds), edge in zip(steps, edges):
                if edge is None or (
                    scheduled is not None
                    and (edge[0] if edge.__class__ is tuple else edge) not in scheduled
                ):
                    out.append(None)
                elif grad_only:
                    out.append(formula(grad))
                elif arrays and array_form is not None:
                    values = array_arguments(self, slots, grad._data, kinds)
                    if values is None:
                        out.append(formula(*self._arguments(argnames, grad_outputs)))
                    else:
                        out.append(tensor_of(array_form(*values)))
                else:
                    out.append(formula(*self._arguments(argnames, grad_outputs)))
        except NotImplementedError:
            self._refuse_stale_saved()
            raise
        return out

    def _refuse_stale_saved(self) -> None:
        """torch unpacks, and so version-checks, every saved value before any formula runs:
        a formula that is not implemented raises only where none was changed in place."""
        plan = self._saved
        if plan.__class__ is tuple:
            for _, _, _, slot in plan:
                check_saved(getattr(self, slot), self)

    def _apply_array(self, grad, release: bool = False) -> list:
        """``_apply`` for one gradient held as an array (Note [Gradients as arrays] in
        engine.py), under no_grad without observers: each formula gives an array, or a
        tensor where it runs on tensors (array_backward.py). Built on first use (formulas
        name ops defined after them) and then set on the node's class."""
        spec = self._spec
        plain = not spec.lists and spec.node_class._apply is OpNode._apply
        apply = array_apply(spec, plain)
        if type(self) is spec.node_class:
            spec.node_class._apply_array = apply
        return apply(self, grad, release)

    def _check_unused_results(self) -> None:
        for slot in self._spec.unused_results.get(self._saved, ()):
            check_saved(getattr(self, slot), self)

    def _arguments(self, argnames, grad_outputs) -> list:
        """A formula's arguments: the gradient(s), unpacked saved tensors, saved values."""
        slots = self._spec.slots
        args = []
        for n in argnames:
            if n == "grad":
                args.append(grad_outputs[0])
            elif n == "grads":
                args.append(grad_outputs)
            else:
                args.append(unpack_saved(getattr(self, slots[n]), self))
        return args

    def _values(self, grad_outputs) -> dict:
        """What formulas may name: grad(s), saved tensors (unpacked), other saved values."""
        values = {"grad": grad_outputs[0], "grads": grad_outputs}
        for name, slot in self._spec.slots.items():
            value = getattr(self, slot, _MISSING)
            if value is not _MISSING:
                values[name] = unpack_saved(value, self)
        return values

    def _apply_lists(self, grad_outputs) -> list:
        """Run every needed formula with arguments from ``_values`` (the general path)."""
        values = self._values(grad_outputs)
        spec = self._spec
        edges = self.next_functions
        out = []
        k = 0
        for pos, formula, argnames in spec.formulas:
            width = self._list_len if pos in spec.lists else 1
            if any(e[0] is not None for e in edges[k : k + width]):
                result = formula(*[values[n] for n in argnames])
                if pos in spec.lists:
                    out.extend(result)
                else:
                    out.append(result)
            else:
                out.extend((None,) * width)
            k += width
        return out

    def _release(self) -> None:
        if self._saved:
            self._saved = FREED
            for slot in self._spec.slot_names:
                setattr(self, slot, None)

    def _saved_value(self, key: str):
        if self._saved is FREED:
            raise freed_error(self)
        slot = self._spec.slots.get(key)
        if slot is None:
            return None
        value = unpack_saved(getattr(self, slot, None), self)
        dtype = _WRAPPED_NUMBER_DTYPES.get(value.__class__)
        if dtype is not None and any(k == "input" and n == key for k, n, _, _ in self._saved or ()):
            # torch saves a Python number given for a tensor argument (``x * 2``) as the
            # 0-dim "wrapped number" tensor it converted it to.
            return tensor_of(xp.asarray(value, dtype=dtype))
        return value

    def _raw_saved(self, key: str):
        """torch's ``_raw_saved_<name>``: the saved tensor itself, to give it hooks (a
        saved value that is not a tensor has none)."""
        slot = self._spec.slots[key]
        value = getattr(self, slot, None)
        if not (value is None or isinstance(value, (Tensor, SavedTensor))):
            raise AttributeError(f"{self.name()} saved '{key}' as a {type(value).__name__}")
        return RawSavedTensor(self, slot)

    def _saved_items(self) -> list:
        """(name, value) of the values backward frees, as saved (nothing unpacked)."""
        plan = self._saved
        if not plan or plan is FREED:
            return []
        items = []
        for kind, name, _, slot in plan:
            value = getattr(self, slot)
            if kind in ("input", "result") or value.__class__ is SavedTensor:
                items.append((name, value))
        return items

    def _replace_saved(self, name: str, value) -> None:
        setattr(self, self._spec.slots[name], value)


class RawSavedTensor:
    """A node's saved tensor as ``grad_fn._raw_saved_<name>`` gives it (torch's
    ``torch._C._autograd.SavedTensor``): ``register_hooks(pack, unpack)`` packs that one value
    now and unpacks it when backward reads it."""

    __slots__ = ("node", "slot")

    def __init__(self, node, slot: str):
        self.node, self.slot = node, slot

    def register_hooks(self, pack_hook, unpack_hook) -> None:
        if not (callable(pack_hook) and callable(unpack_hook)):
            raise TypeError(
                "register_hooks(): incompatible function arguments: pack_hook and unpack_hook "
                f"must be callables, got {type(pack_hook).__name__} and "
                f"{type(unpack_hook).__name__}"
            )
        node = self.node
        if node._saved is FREED:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. "
                + FREED_MESSAGE[FREED_MESSAGE.index("Saved intermediate") :]
            )
        saved = as_saved_tensor(getattr(node, self.slot, None))
        if saved is None:  # not saved: the op did not need it for the gradients it computes
            raise RuntimeError(
                "Calling register_hooks on a saved tensor with value None is forbidden"
            )
        saved.register_hooks(pack_hook, unpack_hook, node)
        setattr(node, self.slot, saved)


def _saved_properties(formulas) -> dict:
    """``_saved_<name>`` properties for a node class, as torch exposes saved values (graph
    visualisers read them); torch calls the first input ``self`` where Python says ``input``.
    Properties, not ``__getattr__``: a class with ``__getattr__`` makes every attribute read
    slower, and the engine reads node attributes constantly."""
    names = {n for _, _, argnames in formulas for n in argnames} - {"grad", "grads"}
    props = {}
    for name in names:
        torch_name = name.replace("input_shape", "self_sym_sizes").replace("input", "self")
        torch_name = torch_name.replace("_strides", "_sym_strides")
        props["_saved_" + torch_name] = property(lambda node, key=name: node._saved_value(key))
        props["_raw_saved_" + torch_name] = property(lambda node, key=name: node._raw_saved(key))
    return props


def _release_one(node) -> None:
    if node._saved:
        node._saved = FREED
        node._v0 = None


def _release_two(node) -> None:
    if node._saved:
        node._saved = FREED
        node._v0 = node._v1 = None


def releaser(slot_names: tuple):
    """``_release`` for a node class with these slots: the commonest counts clear their
    slots by name (no ``setattr`` per slot; op.py names slots ``_v0``, ``_v1``, ...)."""
    if slot_names == ("_v0",):
        return _release_one
    if slot_names == ("_v0", "_v1"):
        return _release_two
    return OpNode._release

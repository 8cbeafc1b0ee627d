"""The op registry: one ``@defop`` entry per differentiable primitive.

An entry pairs a forward on arrays with one derivative formula per differentiable input,
like torch's derivatives.yaml::

    @defop(input=lambda grad, result: grad * result)
    def exp(input):
        return xp.exp(input)

A formula may name ``grad`` (``grads`` for several outputs), any forward argument,
``result`` (``result1``, ... for later outputs), ``<arg>_shape`` and ``<arg>_dtype``; the
names it uses decide what is saved for backward (Note [Saved outputs and cycles] in
graph.py).
Formulas are written with numtorch ops, so the engine can differentiate them again when
``create_graph=True``. Formulas never reduce broadcast gradients: the engine does.

Registration parses signatures once and builds the Node class (``ExpBackward0``); the call
path does no introspection.
"""

from __future__ import annotations

import functools
import inspect
from inspect import CO_VARARGS, CO_VARKEYWORDS
from types import FunctionType

from ..backend import xp
from . import batch_rules
from .array_backward import array_arguments, array_runners, array_steps
from .dispatch import FREED, ONE_INPUT, build_runner
from .docs import document
from .grad_mode import is_grad_enabled
from .graph import Node, freed_error
from .inplace import inplace_variant
from .node_calls import tensor_of
from .observers import dispatch
from .saved import SavedTensor, unpack_saved
from .tensor import Tensor

_MISSING = object()

# Note [NumPy argument names]: torch's argument parser takes NumPy's names for two arguments
# of its native functions and methods: ``x.sum(axis=1, keepdims=True)`` is ``x.sum(dim=1,
# keepdim=True)``. Op entries translate them in ``OpSpec.bind`` (only calls with keywords go
# there); other published functions that take ``dim`` or ``keepdim`` get a wrapper that looks
# only when keywords are given.
_NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim"}
_NUMPY_KEYS = frozenset(_NUMPY_NAMES)


def numpy_names(name: str, kwargs: dict) -> dict:
    """``kwargs`` with NumPy's ``axis``/``keepdims`` under torch's names."""
    kwargs = dict(kwargs)
    for numpy_name, torch_name in _NUMPY_NAMES.items():
        if numpy_name in kwargs:
            if torch_name in kwargs:
                raise TypeError(f"{name}() got multiple values for argument '{torch_name}'")
            kwargs[torch_name] = kwargs.pop(numpy_name)
    return kwargs


REGISTRY: dict = {}  # name -> OpSpec, for tests and docs


def _parameters(fn) -> tuple[tuple[str, ...], tuple, bool]:
    """(names, defaults with _MISSING for none, all plain) of ``fn``'s parameters.

    A plain function is read from its code object: inspect.signature costs ~100 us, and
    registration calls this ~1,000 times at import. Anything else (wrapped functions,
    partials, builtins) goes through inspect.signature.
    """
    if type(fn) is FunctionType and not hasattr(fn, "__wrapped__"):
        code = fn.__code__
        if not (
            code.co_posonlyargcount
            or code.co_kwonlyargcount
            or code.co_flags & (CO_VARARGS | CO_VARKEYWORDS)
        ):
            given = fn.__defaults__ or ()
            defaults = (_MISSING,) * (code.co_argcount - len(given)) + given
            return code.co_varnames[: code.co_argcount], defaults, True
    sig = inspect.signature(fn)
    values = sig.parameters.values()
    return (
        tuple(sig.parameters),
        tuple(_MISSING if p.default is inspect.Parameter.empty else p.default for p in values),
        all(p.kind == p.POSITIONAL_OR_KEYWORD for p in values),
    )


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


class OpSpec:
    """Everything registration learns about one primitive."""

    complex_autograd = False  # its formulas hold for complex tensors (Note [Complex autograd])
    registry = REGISTRY  # every entry by name: a batching rule may run a sibling entry
    jvp = None  # forward derivative: "elementwise", "linear", a formula (Note [Forward grads])

    def __init__(
        self,
        forward,
        name,
        node_name,
        formulas,
        promote,
        view,
        lists,
        outputs,
        returns,
        scalars,
        check=None,
        params=None,
        aten=None,
        batch=None,
        schema_args=None,
    ):
        self.forward = forward
        self.name = name
        # Note [Op facts]
        # Everything about an op is kept on its spec, none in side tables elsewhere:
        # - aten: the ATen op torch runs for it (a private overload such as sum_dim names
        #   its public op, "sum"), shown by the profiler as "aten::<aten>";
        # - node_class: torch's node name (<CamelName>Backward<k>, k the overload's index);
        # - public_names / inplace_names: the functions and methods export() published;
        # - batch: how vmap runs the op once on a batch (_core/batch_rules.py; None: once per
        #   sample, Note [The per-op fallback] in func/batching.py); a NumPy ufunc as
        #   forward is elementwise, so it broadcasts by itself;
        # - schema_args: how many arguments torch's schema of the ATen op has, where that
        #   differs from the forward's parameters (add's alpha): the profiler lists that many.
        self.aten = aten or name
        self.profiler_name = "aten::" + self.aten
        self.schema_args = schema_args
        if batch is None and isinstance(forward, xp.ufunc):
            batch = batch_rules.pointwise
        self.batch = batch
        self.public_names: list = []
        self.inplace_names: list = []
        if params is not None:  # a NumPy ufunc as forward: its parameters are named here
            self.params = tuple(params)
            self.defaults = (_MISSING,) * len(self.params)
        else:
            self.params, self.defaults, plain = _parameters(forward)
            if not plain:
                raise TypeError(f"{name}: a forward takes plain parameters (no *, **kwargs)")
        self.nparams = len(self.params)
        self.index = {p: i for i, p in enumerate(self.params)}
        for input_name in formulas:
            if input_name not in self.index:
                raise TypeError(f"{name}: formula for unknown input '{input_name}'")
        self.diff = tuple(self.index[n] for n in formulas)
        self.nondiff = tuple(i for i in range(self.nparams) if i not in self.diff)
        self.scalars = frozenset(self.index[n] for n in scalars)
        # Type promotion runs over the differentiable inputs and the number-accepting ones
        # (for ops without formulas: the first input and the number-accepting ones).
        operands = set(self.diff) | set(self.scalars)
        if not formulas:
            operands.add(0)
        self.operands = tuple(sorted(operands))
        self.lists = frozenset(self.index[n] for n in lists)
        self.formulas = tuple(
            (self.index[input_name], formula, _parameters(formula)[0])
            for input_name, formula in formulas.items()
        )
        # (formula, argnames, needs only grad) per input, for OpNode._apply
        self.compiled = tuple((f, names, names == ("grad",)) for _, f, names in self.formulas)
        # Note [Saved values in slots]
        # A node keeps each value its formulas name in a slot of its own class (``_v0``,
        # ``_v1``, ... in the order the formulas first name them), not in a per-node dict:
        # one object less per recorded op for the cyclic garbage collector to trace. The
        # node's ``_saved`` is the save plan it was recorded with (shared, never traced) while
        # it holds something to free, None when it holds only values kept for good (shapes,
        # dims, numbers), FREED after backward released it.
        saved_names = []
        for _, _, argnames in self.formulas:
            saved_names.extend(n for n in argnames if n not in saved_names)
        saved_names = [n for n in saved_names if n not in ("grad", "grads")]
        self.slots = {n: f"_v{j}" for j, n in enumerate(saved_names)}
        self.slot_names = tuple(self.slots.values())
        self.on_arrays = None  # per formula: its array form and slots (array_steps)
        self.array_steps = None  # per formula: run(node, grad) for OpNode._apply_array
        self.promote = promote
        self.view = view
        self.outputs = outputs
        self.returns = returns
        self.check = check
        self._plans: dict = {}
        # plan -> slots of outputs saved for formulas that will not run: backward still
        # version-checks them, as torch unpacks every saved value before any formula
        self.unused_results: dict = {}
        self.node_class = type(
            node_name,
            (OpNode,),
            {
                "__slots__": self.slot_names,
                "_spec": self,
                "_num_outputs": outputs if outputs != "many" else 1,
                **_saved_properties(self.formulas),
            },
        )
        if not node_name[-1].isdigit():
            # torch's hand-written nodes (CopyBackwards) carry their C++ namespace in name()
            self.node_class.name = lambda node: f"torch::autograd::{type(node).__name__}"
        self.run = build_runner(self)
        if node_name == "NotImplemented":
            self.run = _linking_required_inputs(self.run, self.node_class)

    def bind(self, args: tuple, kwargs: dict) -> list:
        if not _NUMPY_KEYS.isdisjoint(kwargs):
            kwargs = numpy_names(self.name, kwargs)
        n = len(args)
        if n > self.nparams:
            raise TypeError(
                f"{self.name}() takes {self.nparams} positional arguments but {n} were given"
            )
        values = list(args)
        values.extend(self.defaults[n:])
        for key, value in kwargs.items():
            i = self.index.get(key)
            if i is None:
                raise TypeError(f"{self.name}() got an unexpected keyword argument '{key}'")
            if i < n:
                raise TypeError(f"{self.name}() got multiple values for argument '{key}'")
            values[i] = value
        for i in range(n, self.nparams):
            if values[i] is _MISSING:
                raise TypeError(
                    f"{self.name}() missing 1 required positional argument: '{self.params[i]}'"
                )
        return values

    def save_plan(self, mask: int) -> tuple:
        """What to save when the inputs flagged in bit ``mask`` require grad (cached)."""
        plan = self._plans.get(mask)
        if plan is not None:
            return plan
        # torch saves an input only for the formulas that will run, but an output for every
        # formula naming it: modifying ldexp(x, n)'s result in place breaks the backward
        # even when only x requires grad
        names = []
        for k, (_, _, argnames) in enumerate(self.formulas):
            if mask >> k & 1:
                names.extend(n for n in argnames if n not in names)
        used = set(names)
        for _, _, argnames in self.formulas:
            names.extend(n for n in argnames if n not in names and _is_result(n))
        entries = []
        for n in names:
            if n in ("grad", "grads"):
                continue
            if _is_result(n):
                entry = ("result", int(n[6:] or 0))
            elif n.endswith("_shape") and n[:-6] in self.index:
                entry = ("shape", self.index[n[:-6]])
            elif n.endswith("_dtype") and n[:-6] in self.index:
                entry = ("dtype", self.index[n[:-6]])
            elif n in self.index:
                i = self.index[n]
                entry = ("input" if (i in self.diff or i in self.lists) else "arg", i)
            else:
                raise TypeError(f"{self.name}: a formula uses unknown name '{n}'")
            entries.append((entry[0], n, entry[1], self.slots[n]))
        plan = self._plans[mask] = tuple(entries)
        unused = tuple(slot for _, n, _, slot in entries if n not in used)
        if unused:
            self.unused_results[plan] = unused
        return plan


def _is_result(name: str) -> bool:
    return name == "result" or (name.startswith("result") and name[6:].isdigit())


def _linking_required_inputs(run, node_class):
    """torch's NotImplemented node has edges only to the inputs that require grad (its
    formulas all raise, so which formula meets which edge does not matter)."""

    def linked(args):
        out = run(args)
        node = getattr(out[0] if isinstance(out, tuple) else out, "_grad_fn", None)
        if type(node) is node_class:
            kept = [(e, m) for e, m in zip(node.next_functions, node._input_meta) if e[0]]
            node.next_functions = tuple(e for e, _ in kept)
            node._input_meta = tuple(m for _, m in kept)
        return out

    return linked


class OpNode(Node):
    """Backward node of a registered op; subclasses are generated per op (ExpBackward0)."""

    # The fields every recorded op sets live in slots: no per-node dict to allocate, and the
    # recorder sets all of them (a slot has no class default to fall back on). The values
    # the formulas name live in slots of the generated class (Note [Saved values in slots]).
    __slots__ = ("_edge0", "_edge1", "_edges", "_input_meta", "_sequence_nr", "_saved")
    _spec: OpSpec
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
            and not dispatch.slow
            and grad._data.dtype.kind == "f"  # complex: formulas take conjugates
        )
        edges = self._edges
        if edges is None:  # Note [Edges without a tuple]: None is no edge
            edge1 = self._edge1
            edges = (self._edge0,) if edge1 is ONE_INPUT else (self._edge0, edge1)
        else:
            edges = [e[0] for e in edges]
        out = []
        for (formula, argnames, grad_only, array_form, slots), edge in zip(steps, edges):
            if edge is None:
                out.append(None)
            elif grad_only:
                out.append(formula(grad))
            elif arrays and array_form is not None:
                values = array_arguments(self, slots, grad._data)
                if values is None:
                    out.append(formula(*self._arguments(argnames, grad_outputs)))
                else:
                    out.append(tensor_of(array_form(*values)))
            else:
                out.append(formula(*self._arguments(argnames, grad_outputs)))
        return out

    def _apply_array(self, grad) -> list:
        """``_apply`` for one gradient held as an array (Note [Gradients as arrays] in
        engine.py), under no_grad without observers: each formula gives an array, or a
        tensor where it runs on tensors (array_backward.py)."""
        spec = self._spec
        steps = spec.array_steps
        if steps is None:
            plain = not spec.lists and spec.node_class._apply is OpNode._apply
            steps = spec.array_steps = array_runners(spec) if plain else ()
        if self._saved is FREED:
            raise freed_error(self)
        if spec.unused_results:
            self._check_unused_results()
        if not steps or grad.dtype.kind != "f":  # complex: formulas take conjugates
            return self._apply([tensor_of(grad)])
        edges = self._edges
        if edges is None:  # Note [Edges without a tuple]: None is no edge
            edge0 = self._edge0
            if self._edge1 is ONE_INPUT:
                return [None if edge0 is None else steps[0](self, grad)]
            edge1 = self._edge1
            return [
                None if edge0 is None else steps[0](self, grad),
                None if edge1 is None else steps[1](self, grad),
            ]
        return [None if e[0] is None else run(self, grad) for run, e in zip(steps, edges)]

    def _check_unused_results(self) -> None:
        for slot in self._spec.unused_results.get(self._saved, ()):
            unpack_saved(getattr(self, slot), self)

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
        return None if slot is None else unpack_saved(getattr(self, slot, None), self)

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


def _saved_properties(formulas) -> dict:
    """``_saved_<name>`` properties for a node class, as torch exposes saved values (graph
    visualisers read them); torch calls the first input ``self`` where Python says ``input``.
    Properties, not ``__getattr__``: a class with ``__getattr__`` makes every attribute read
    slower, and the engine reads node attributes constantly."""
    names = {n for _, _, argnames in formulas for n in argnames} - {"grad", "grads"}
    props = {}
    for name in names:
        torch_name = name.replace("input_shape", "self_sym_sizes").replace("input", "self")
        props["_saved_" + torch_name] = property(lambda node, key=name: node._saved_value(key))
    return props


def call(spec: OpSpec, args) -> Tensor:
    """Run ``spec`` on bound arguments (``spec.run``)."""
    return spec.run(args)


def defop(
    name: str | None = None,
    *,
    node: str | None = None,
    promote: str | None = None,
    view: bool = False,
    lists=(),
    scalars=(),
    outputs: int = 1,
    returns=None,
    check=None,
    params=None,
    aten: str | None = None,
    batch=None,
    schema_args: int | None = None,
    jvp=None,
    **formulas,
):
    """Register a primitive; returns a decorator over its array-level forward.

    Args:
        name: public name (defaults to the forward's name).
        node: grad_fn class name (defaults to ``<CamelName>Backward0``).
        promote: ``"same"`` (torch type promotion over the operands), ``"float"`` (the
            same, then integers become the default float dtype) or ``"compare"`` (promote
            the operands, keep the forward's bool result).
        view: the output shares memory with the first input.
        lists: parameters holding sequences of tensors (``cat``'s ``tensors``).
        scalars: parameters that accept Python numbers as well as tensors.
        check: optional ``check(args)`` run on the arguments before any promotion, to
            raise torch's errors that depend on the original dtypes.
        params: parameter names, when the forward is a NumPy ufunc (no signature to read).
        aten: the ATen op torch runs for this entry, when it differs from ``name`` (a
            private overload such as ``sum_dim`` names ``"sum"``): the profiler's name.
        batch: the op's batching rule for ``vmap`` (_core/batch_rules.py; Note [Op facts]).
        schema_args: the number of arguments of torch's schema for the op, when it is not
            the forward's (the profiler's ``input_shapes`` has that many entries).
        outputs: number of outputs (``"many"`` when it depends on the arguments, as for
            split); ``returns`` wraps them (e.g. a namedtuple).
        **formulas: one derivative formula per differentiable input.
        jvp: the forward derivative (Note [Forward grads] in autograd/forward_grad.py):
            ``"elementwise"``, ``"linear"`` or a formula naming ``<input>_t`` tangents.
    """

    def register(forward):
        op_name = name or forward.__name__
        spec = OpSpec(
            forward,
            op_name,
            node or _camel(op_name) + "Backward0",
            formulas,
            promote,
            view,
            lists,
            outputs,
            returns,
            scalars,
            check,
            params,
            aten,
            batch,
            schema_args,
        )
        _check_unique(REGISTRY, op_name, forward)
        REGISTRY[op_name] = spec
        if jvp is not None:
            spec.jvp = jvp
        nparams = spec.nparams

        run = spec.run

        def op(*args, **kwargs):
            if kwargs or len(args) != nparams:
                args = spec.bind(args, kwargs)
            return run(args)

        op.__name__ = op.__qualname__ = op_name
        op.__doc__ = forward.__doc__ if params is None else None
        op.spec = spec
        return op

    return register


def overloaded(arg: str, scalar_node: str, tensor_node: str, **options):
    """``defop`` for an op whose ``arg`` is a number in one torch overload and a tensor in
    another: torch names the node after the overload that ran (``fmod(t, 2)`` records
    FmodBackward0, ``fmod(t, t)`` FmodBackward1), so each overload is its own primitive
    (the tensor one registered as ``<name>_tensor``) and a call picks one by ``arg``'s type.
    """

    def register(forward):
        name = options.pop("name", None) or forward.__name__
        on_number = defop(name=name, node=scalar_node, **options)(forward)
        # both overloads are one ATen op (aten::fmod), which the profiler shows
        tensor_options = {"aten": name, **options}
        on_tensor = defop(name=name + "_tensor", node=tensor_node, **tensor_options)(forward)
        position = on_number.spec.index[arg]

        def op(*args, **kwargs):
            value = args[position] if position < len(args) else kwargs.get(arg)
            return (on_tensor if isinstance(value, Tensor) else on_number)(*args, **kwargs)

        op.__name__ = op.__qualname__ = name
        op.__doc__ = forward.__doc__
        op.spec = on_number.spec
        return op

    return register


FUNCTIONS: dict = {}  # public numtorch.<name> functions, filled by export()


def _accepting_numpy_names(f, name: str):
    if getattr(f, "spec", None) is not None:  # OpSpec.bind translates
        return f
    if type(f) is FunctionType and not hasattr(f, "__wrapped__"):  # no inspect.signature
        code = f.__code__
        params = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    else:
        try:
            params = tuple(inspect.signature(f).parameters)
        except (TypeError, ValueError):
            return f
    if not {"dim", "keepdim"}.intersection(params) or not _NUMPY_KEYS.isdisjoint(params):
        return f

    def call(*args, **kwargs):
        if kwargs and not _NUMPY_KEYS.isdisjoint(kwargs):
            kwargs = numpy_names(name, kwargs)
        return f(*args, **kwargs)

    functools.update_wrapper(call, f)
    return call


def not_implemented(name: str):
    """The derivative formula of an op torch records but cannot differentiate (its node is
    ``NotImplemented``): backward raises torch's error naming ``aten::<name>``."""

    def formula(grad):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")

    return formula


def _check_unique(table: dict, name: str, new) -> None:
    """One place per op: a second definition under the same name would silently replace the
    first, depending on import order."""
    old = table.get(name)
    if old is None:
        return
    old = getattr(old, "forward", old)
    raise RuntimeError(
        f"op {name!r} is defined twice: in {old.__module__} and in {new.__module__}; "
        "keep one definition"
    )


def export(
    fn=None,
    *,
    name: str | None = None,
    method: bool = True,
    function: bool = True,
    inplace: bool = False,
):
    """Publish ``fn`` as ``numtorch.<name>`` and ``Tensor.<name>`` (and ``<name>_`` in place)."""

    def register(f):
        public = name or f.__name__
        spec = getattr(f, "spec", None)
        if spec is not None:  # Note [Op facts]
            spec.public_names.append(public)
            if inplace:
                spec.inplace_names.append(public + "_")
        document(f, f"torch.{public}" if function else f"torch.Tensor.{public}", _MISSING)
        published = _accepting_numpy_names(f, public)  # Note [NumPy argument names]
        if function:
            _check_unique(FUNCTIONS, public, f)
            FUNCTIONS[public] = published
        if method:
            setattr(Tensor, public, published)
        if inplace:
            setattr(Tensor, public + "_", inplace_variant(f, public + "_"))
        return f

    return register(fn) if fn is not None else register

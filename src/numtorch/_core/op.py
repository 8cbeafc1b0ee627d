"""The op registry: one ``@defop`` entry per differentiable primitive.

An entry pairs a forward on arrays with one derivative formula per differentiable input,
like torch's derivatives.yaml::

    @defop(input=lambda grad, result: grad * result)
    def exp(input):
        return xp.exp(input)

A formula may name ``grad`` (``grads`` for several outputs), any forward argument,
``result`` (``result1``, ... for later outputs), ``<arg>_shape``, ``<arg>_strides`` (torch's
``sym_strides``: a layout, without keeping the tensor) and ``<arg>_dtype``; the
names it uses decide what is saved for backward (Note [Saved outputs and cycles] in
graph.py).
Formulas are written with numtorch ops, so the engine can differentiate them again when
``create_graph=True``. Formulas never reduce broadcast gradients: the engine does.

Registration parses signatures once and builds the Node class (``ExpBackward0``); the call
path does no introspection.
"""

from __future__ import annotations

import inspect
import math
from inspect import CO_VARARGS, CO_VARKEYWORDS
from types import FunctionType

from ..backend import xp
from . import batch_rules
from .docs import document
from .inplace import inplace_variant
from .op_node import OpNode, _saved_properties, releaser
from .runners import build_runner, generated, public_function
from .tensor import Tensor

_MISSING = object()

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


# Elementwise entries whose result torch does not allocate by its TensorIterator's rule
# (iterator_layout): the clones and copies (``empty_like`` or the memory format asked for,
# layout.copy), the random draws, and those it allocates contiguous (masked_fill clones so;
# log_sigmoid's forward allocates its result and buffer so; alias_copy and pow(number,
# tensor) too)
_OWN_LAYOUT = frozenset(
    ("clone", "clone_contiguous", "clone_channels_last", "bernoulli", "poisson", "binomial",
     "_standard_gamma", "masked_fill", "log_sigmoid", "zero", "pow_self_scalar",
     "index_alias_copy", "_to_copy", "detach_copy")
)  # fmt: skip
# Numbers torch's kernel takes as a parameter, where other ops wrap a number as a 0-d
# operand (``x * 2``): the iterator sees only the tensors (a wrapped operand changes the
# result's strides, Note [Elementwise result layout])
_KERNEL_NUMBERS = {"pow": ("exponent",), "lerp": ("weight",)}


class OpSpec:
    """Everything registration learns about one primitive."""

    iterator_layout = False  # Note [Elementwise result layout] in backend/layout.py
    opmath_scalar = False  # Note [Half-precision scalars] in dispatch.py
    widens_bfloat16 = True  # computes in float32 (Note [bfloat16]); False: on its own bits
    layout_numbers = frozenset()  # the positions of numbers the iterator takes as operands

    complex_autograd = False  # its formulas hold for complex tensors (Note [Complex autograd])
    complex_refusal = None  # torch's name for it, where torch refuses complex autograd
    registry = REGISTRY  # every entry by name: a batching rule may run a sibling entry
    jvp = None  # forward derivative: "elementwise", "linear", a formula (Note [Forward grads])
    differentiable_outputs = None  # leading outputs torch differentiates (None: all floats)
    function = None  # the public function that takes the generated runner's body, if any

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
        dtypes=None,
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
        # the operands a number may not stand for (torch's parser wants a Tensor there:
        # eq(1, t), isnan(1.0)): the promoted ones and an unpromoted op's input; the
        # differentiable ones are checked with their tensors
        self.tensor_operands = tuple(
            i
            for i in self.operands
            if i not in self.diff
            and i not in self.scalars
            and (promote or self.params[i] == "input")
        )
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
        self.promote = promote
        self.view = view
        self.outputs = outputs
        self.returns = returns
        self.check = check
        self.dtypes = dtypes  # Note [Kernel dtypes]: the dtypes torch's kernel runs, or None
        self._plans: dict = {}
        self._guarded_names = None  # Note [Guarded saves]
        self.optional_saves = frozenset()  # (defop's optional_saves=)
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
                "_release": releaser(self.slot_names),
                **_saved_properties(self.formulas),
            },
        )
        if not node_name.removesuffix("_copy")[-1].isdigit():
            # torch's hand-written nodes (CopyBackwards) carry their C++ namespace in name()
            self.node_class.name = lambda node: f"torch::autograd::{type(node).__name__}"
        self.run = build_runner(self)
        if node_name == "NotImplemented":
            self.run = _linking_required_inputs(generated(self), self.node_class)
        if node_name == "NotImplemented" or (
            self.formulas and all(getattr(f, "refuses", False) for _, f, _ in self.formulas)
        ):
            self.node_class._refuses = True  # Note [Nodes that refuse] in engine.py

    def bind(self, args: tuple, kwargs: dict) -> list:
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

    def _guarded(self, name: str) -> bool:
        guarded = self._guarded_names
        if guarded is None:
            guarded = self._guarded_names = _guarded_names(self)
        return name in guarded or name in self.optional_saves

    def save_plan(self, mask: int) -> tuple:
        """What to save when the inputs flagged in bit ``mask`` require grad (cached)."""
        plan = self._plans.get(mask)
        if plan is not None:
            return plan
        # torch saves an output for every formula naming it (modifying ldexp(x, n)'s result
        # in place breaks the backward even when only x requires grad), and an input too,
        # unless it can tell from one input that it is not needed (Note [Guarded saves])
        names = []
        for k, (_, _, argnames) in enumerate(self.formulas):
            if mask >> k & 1:
                names.extend(n for n in argnames if n not in names)
        used = set(names)
        for _, _, argnames in self.formulas:
            names.extend(n for n in argnames if n not in names and not self._guarded(n))
        entries = []
        for n in names:
            if n in ("grad", "grads"):
                continue
            if _is_result(n):
                entry = ("result", int(n[6:] or 0))
            elif n.endswith("_shape") and n[:-6] in self.index:
                entry = ("shape", self.index[n[:-6]])
            elif n.endswith("_strides") and n[:-8] in self.index:
                entry = ("strides", self.index[n[:-8]])
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


# Note [Guarded saves]
# torch's generated autograd code saves every value a formula names when the node is made,
# and guards a saved input by "will its gradient be computed" only where one input decides
# it: the op has two or more differentiable inputs and no list of tensors, is no backward
# op itself, and the value is a tensor argument (not an optional one) named by exactly one
# formula. backward unpacks, and so version-checks, every saved value before any formula.
# Where derivatives.yaml wraps a value in wrap_opt_if (saved only when a formula naming it
# will run, as _trilinear's operands), the entry lists it in defop's optional_saves.
def _guarded_names(spec) -> frozenset:
    if len(spec.formulas) < 2 or spec.lists or "backward" in spec.name:
        return frozenset()
    uses = {}
    for _, _, argnames in spec.formulas:
        for n in argnames:
            uses[n] = uses.get(n, 0) + 1
    return frozenset(
        n
        for n, count in uses.items()
        if count == 1 and n in spec.index and spec.defaults[spec.index[n]] is not None
    )


def _is_result(name: str) -> bool:
    return name == "result" or (name.startswith("result") and name[6:].isdigit())


def _linking_required_inputs(run, node_class):
    """torch's NotImplemented node has edges only to the inputs that require grad (its
    formulas all raise, so which formula meets which edge does not matter), and no sequence
    number (the largest there is): when a backward reaches several nodes that raise, it is
    the one run first."""

    def linked(args):
        out = run(args)
        node = getattr(out[0] if isinstance(out, tuple) else out, "_grad_fn", None)
        if type(node) is node_class:
            kept = [(e, m) for e, m in zip(node.next_functions, node._input_meta) if e[0]]
            node.next_functions = tuple(e for e, _ in kept)
            node._input_meta = tuple(m for _, m in kept)
            # no number from the sequence: the largest, as AccumulateGrad's (graph.py), so
            # a backward that reaches one runs it, and raises there, before any other
            node._sequence_nr = math.inf
        return out

    return linked


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
    differentiable_outputs: int | None = None,
    returns=None,
    check=None,
    params=None,
    aten: str | None = None,
    batch=None,
    schema_args: int | None = None,
    optional_saves=(),
    dtypes=None,
    opmath_scalar: bool = False,
    r_to_c: bool = True,
    widens_bfloat16: bool = True,
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
        differentiable_outputs: how many leading outputs torch differentiates, when its
            later floating outputs are not (the statistics of native_layer_norm): those
            require no grad and are no outputs of the node (its hooks get one gradient).
        optional_saves: inputs saved only when a formula naming them will run (torch's
            wrap_opt_if; Note [Guarded saves]).
        dtypes: the dtypes torch's kernel runs (a ``KernelDtypes``, Note [Kernel dtypes]):
            any other raises torch's error at the op boundary.
        opmath_scalar: a half-precision tensor's second operand given as a number or 0-d
            tensor is read unrounded, in float32 (Note [Half-precision scalars]).
        r_to_c: a complex gradient of a real input is its real part (torch's formulas'
            ``handle_r_to_c``); False where torch's formula has none (the reductions given
            a complex ``dtype=``), whose complex gradient torch's engine refuses.
        widens_bfloat16: bfloat16 operands are computed in float32 and the result rounded
            once (Note [bfloat16]); False where the kernel works on bfloat16's own bits (a
            view, nextafter's step).
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
            dtypes,
        )
        _check_unique(REGISTRY, op_name, forward)
        REGISTRY[op_name] = spec
        if jvp is not None:
            spec.jvp = jvp
        if differentiable_outputs is not None:
            spec.differentiable_outputs = differentiable_outputs
        # Note [Elementwise result layout] in backend/layout.py
        spec.iterator_layout = (
            spec.batch is batch_rules.pointwise
            and outputs == 1
            and not view
            and op_name not in _OWN_LAYOUT
        )
        unwrapped = _KERNEL_NUMBERS.get(op_name, ())
        spec.layout_numbers = frozenset(i for i in spec.scalars if spec.params[i] not in unwrapped)
        spec.optional_saves = frozenset(optional_saves)
        spec.opmath_scalar = opmath_scalar
        spec.node_class.r_to_c = r_to_c
        spec.widens_bfloat16 = widens_bfloat16 and not view
        op = public_function(spec, op_name)  # Note [Public functions] in runners.py
        op.__module__ = __name__
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
        # a number has no edge in torch's graph: the number overload takes no formula for it
        number_options = {key: value for key, value in options.items() if key != arg}
        on_number = defop(name=name, node=scalar_node, **number_options)(forward)
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
        # the operators pick an overload themselves (ops/operators.py)
        op.on_number, op.on_tensor = on_number, on_tensor
        return op

    return register


FUNCTIONS: dict = {}  # public numtorch.<name> functions, filled by export()


def refusing(formula):
    """Marks a derivative formula that raises whatever gradient it gets: a node of such
    formulas only runs even when no gradient reaches it (Note [Nodes that refuse])."""
    formula.refuses = True
    return formula


def not_implemented(name: str):
    """The derivative formula of an op torch records but cannot differentiate (its node is
    ``NotImplemented``): backward raises torch's error naming ``aten::<name>``."""

    @refusing
    def formula(grad):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")

    formula.not_implemented = name  # forward AD refuses it too (forward_grad._elementwise)
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
        if function:
            _check_unique(FUNCTIONS, public, f)
            FUNCTIONS[public] = f
        if method:
            setattr(Tensor, public, f)
        if inplace:
            setattr(Tensor, public + "_", inplace_variant(f, public + "_"))
        return f

    return register(fn) if fn is not None else register

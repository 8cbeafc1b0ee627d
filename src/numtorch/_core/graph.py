"""The graph's building blocks: Node, AccumulateGrad, accumulation into ``.grad`` (saved
values: saved.py; version counters: versions.py).

Note [Saved outputs and cycles]
A node never holds a strong reference to its own outputs: an output's ``grad_fn`` is the
node, so saving the output Tensor would close a cycle that only ``gc`` could collect. A saved
output keeps its array, version counter and output number, and is rebuilt as a Tensor whose
``grad_fn`` is the node on unpack. Saved *inputs* point backwards, so they are kept as Tensors.
Leaves point to their AccumulateGrad through a weakref. Graphs are thus freed by reference
counting alone, the moment the last output is dropped.
"""

from __future__ import annotations

import itertools
import math
import threading
import weakref
from collections import OrderedDict

from ..backend import layout, xp
from ..backend.zeros import EfficientZeros
from . import grad_mode

# Nodes run in decreasing sequence number: later-created nodes first, as in torch.
_sequence = itertools.count()
next_sequence_nr = _sequence.__next__


class _Freed(int):
    """The type of FREED: false like an empty save plan, so ``if node._saved:`` alone asks
    whether a node holds values to free (a C-level truth test, no Python call)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "FREED"


FREED = _Freed()  # marks a node's saved values as released after backward
ONE_INPUT = object()  # an OpNode's absent second edge (Note [Edges without a tuple] in op_node.py)


class RemovableHandle:
    """Returned by ``register_*hook``; ``remove()`` is idempotent."""

    _next_id = itertools.count()

    def __init__(self, hooks_dict):
        self.id = next(RemovableHandle._next_id)
        self._ref = weakref.ref(hooks_dict)

    def remove(self) -> None:
        hooks = self._ref()
        if hooks is not None:
            hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def _add_hook(hooks, fn):
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


class Node:
    """A function of the backward graph (``grad_fn``), like ``torch.autograd.graph.Node``.

    ``next_functions`` holds one ``(node, output_nr)`` edge per differentiable input, with
    ``(None, 0)`` for inputs that do not require grad. Calling a node runs its derivative
    formulas on the given gradients under the current grad mode, without hooks.
    """

    next_functions: tuple = ()
    _sequence_nr = 0
    _pre_hooks = None  # OrderedDict: handle id -> fn(grad_outputs)
    _post_hooks = None  # OrderedDict: handle id -> fn(grad_inputs, grad_outputs)
    _tensor_pre_hooks = None  # {output_nr: OrderedDict} from Tensor.register_hook
    _retains_grad = None  # {output_nr: weakref to the tensor}
    _anomaly_trace = None  # forward stack (anomaly_mode.forward_trace), when anomaly mode is on
    _anomaly_parent = None
    _metadata = None
    _num_outputs = 1
    _is_accumulator = False
    _saved = None  # what the node saved for backward (truthy while there is something to free)
    _hooked = False  # any hook or retain_grad registered: the engine takes the slow path
    # has _apply_array and no hooks: the engine runs it on gradient arrays (Note [Gradients as
    # arrays] in engine.py); registering a hook turns it off
    _takes_arrays = False
    # runs even when no gradient reaches it (Note [Nodes that refuse]): torch's NotImplemented
    _refuses = False

    def name(self) -> str:
        return type(self).__name__

    @property
    def metadata(self) -> dict:
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def _short_edges(self) -> tuple:
        """The edges as the engine reads them: each ``(node, output_nr)``, a node alone for
        its output 0, or None for no edge (Note [Edges without a tuple] in op_node.py)."""
        return self.next_functions

    @property
    def _edges(self) -> tuple:
        """The edges as a tuple (an OpNode of one or two inputs has None here and its edges
        in two slots: Note [Edges without a tuple] in op_node.py)."""
        return self.next_functions

    def _apply(self, grad_outputs: tuple) -> tuple:
        raise NotImplementedError

    def _release(self) -> None:
        """Free saved values (called after backward without retain_graph)."""

    def __call__(self, *grad_outputs):
        if len(grad_outputs) != self._num_outputs:
            raise TypeError(
                f"expected {self._num_outputs} arguments, got {len(grad_outputs)} instead"
            )
        result = self._apply(tuple(_as_tensor_grad(g) for g in grad_outputs))
        return result[0] if len(result) == 1 else tuple(result)

    def register_hook(self, fn):
        """``fn(grad_inputs, grad_outputs)`` runs after the node; may return new grad_inputs."""
        if self._post_hooks is None:
            self._post_hooks = OrderedDict()
        self._hooked, self._takes_arrays = True, False
        return _add_hook(self._post_hooks, fn)

    def register_prehook(self, fn):
        """``fn(grad_outputs)`` runs before the node; may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = OrderedDict()
        self._hooked, self._takes_arrays = True, False
        return _add_hook(self._pre_hooks, fn)

    def _register_tensor_hook(self, output_nr: int, fn):
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        self._hooked, self._takes_arrays = True, False
        return _add_hook(self._tensor_pre_hooks.setdefault(output_nr, OrderedDict()), fn)

    def _register_retains_grad(self, output_nr: int, tensor) -> None:
        if self._retains_grad is None:
            self._retains_grad = {}
        self._hooked, self._takes_arrays = True, False
        self._retains_grad[output_nr] = weakref.ref(tensor)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"


def _as_tensor_grad(g):
    # Tensor sits above this module (its leaves create AccumulateGrad): recognise it by its array
    if g is None or hasattr(type(g), "_make"):
        return g
    raise TypeError(f"expected a Tensor or None as gradient, got {type(g).__name__}")


_accumulate_lock = threading.Lock()


class AccumulateGrad(Node):
    """The node where a leaf's gradient ends: adds it into ``variable.grad``.

    The engine does not call ``_apply``: it collects leaf gradients and commits them once
    the whole backward pass succeeded (see Note [Atomic backward] in engine.py). Calling
    the node directly accumulates at once, as in torch.
    """

    _sequence_nr = math.inf  # run as soon as ready, as in torch
    _is_accumulator = True

    def __init__(self, variable):
        self.variable = variable
        self.next_functions = ()

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def _apply(self, grad_outputs: tuple) -> tuple:
        if grad_outputs[0] is not None:
            accumulate_into_grad(self.variable, grad_outputs[0])
        return ()


def engine_owned(grad):
    """A gradient handed to the engine by user code (a root gradient, a custom backward's
    result, a hook's return), in a tensor object of the engine's own.

    Note [Gradient ownership]
    A leaf's first gradient becomes its ``.grad`` without a copy when nothing else refers to
    its array (``Tensor._owned_copy`` counts references). That count only sees arrays, so
    every tensor object the user may hold is rewrapped on entry: the user's object then
    counts as one more reference to the array, and ``.grad`` gets a copy instead of an alias.
    """
    if grad is None or grad._requires_grad or grad._batched or grad._fw_grads is not None:
        return grad  # batched or tangent-carrying gradients stay as they are
    return grad._make(grad._data)


def accumulate_into_grad(variable, grad) -> None:
    """Add ``grad`` into ``variable.grad`` following torch's AccumulateGrad rules.

    Without grad mode the sum is done in place on the existing ``.grad`` (references to it
    stay valid); under ``create_graph`` the new ``.grad`` is a recorded out-of-place sum.
    A first gradient becomes ``.grad`` without a copy only if nothing else shares its array.
    """
    wanted = variable.__dict__.get("_grad_dtype")  # Note [grad_dtype]
    if wanted is not None and grad.dtype is not wanted and not grad.is_sparse:
        grad = grad.to(wanted)
    with _accumulate_lock:
        old = variable._grad
        if old is None:
            if grad.is_sparse:  # a fresh sparse gradient (nn.Embedding(sparse=True))
                variable._grad = grad
            elif grad._data.__class__ is EfficientZeros:  # torch's .grad is the ZeroTensor
                variable._grad = grad._make(grad._data)
            elif not grad_mode.is_grad_enabled():
                owned = grad._owned_copy()
                if not variable._data.flags.c_contiguous and (
                    owned._data is not grad._data or grad_mode.is_grad_layout_enforced()
                ):
                    owned = _obey_layout(variable, owned)
                variable._grad = owned
            elif grad._requires_grad:  # torch stores a recorded copy (CopyBackwards)
                variable._grad = grad._make(xp.empty_like(grad._data)).copy_(grad)
            else:
                variable._grad = grad
        elif old.is_sparse:  # torch appends the new entries, or densifies
            variable._grad = old._sum_gradient(grad)
        elif grad.is_sparse and not grad_mode.is_grad_enabled():
            old._accumulate_(grad.to_dense())
        elif grad_mode.is_grad_enabled():
            variable._grad = old + grad
        else:
            old._accumulate_(grad)
    hooks = variable._post_accumulate_hooks
    if hooks:
        for hook in tuple(hooks.values()):
            hook(variable)


def _obey_layout(variable, grad):
    """``grad`` in torch's gradient layout contract: the strides of a non-overlapping, dense
    leaf (a permuted or channels-last parameter), row-major otherwise. A gradient taken over
    without a copy keeps its layout when ``enforce_grad_layout_policy(False)`` is active."""
    data = variable._data
    if data.__class__ is not xp.ndarray or grad._data.__class__ is not xp.ndarray:
        return grad
    if not layout.non_overlapping_and_dense(data):
        return grad  # _owned_copy's row-major array
    out = layout.empty_like(data, grad._data.dtype)
    out[...] = grad._data
    return grad._make(out)


FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


def freed_error(node) -> RuntimeError:
    """torch's second-backward error, naming the node whose saved values were freed."""
    return RuntimeError(
        f"{FREED_MESSAGE} (The saved values of {node.name()} were freed by an earlier "
        "backward; a common cause is reusing a tensor computed in a previous iteration.)"
    )

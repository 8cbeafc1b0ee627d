"""The graph's building blocks: Node, AccumulateGrad, SavedTensor, VersionCounter.

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

from ..backend import xp
from . import grad_mode

Tensor = None  # numtorch.Tensor, bound by _tensor.py (importing it here would be a cycle)

# Nodes run in decreasing sequence number: later-created nodes first, as in torch.
_sequence = itertools.count()
next_sequence_nr = _sequence.__next__


class VersionCounter:
    """Shared by a tensor, its views and ``detach()``; bumped by every in-place change."""

    __slots__ = ("version",)
    inference = False  # see numtorch.autograd.inference

    def __init__(self, version: int = 0):
        self.version = version


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

    def name(self) -> str:
        return type(self).__name__

    @property
    def metadata(self) -> dict:
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

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
        self._hooked = True
        return _add_hook(self._post_hooks, fn)

    def register_prehook(self, fn):
        """``fn(grad_outputs)`` runs before the node; may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = OrderedDict()
        self._hooked = True
        return _add_hook(self._pre_hooks, fn)

    def _register_tensor_hook(self, output_nr: int, fn):
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        self._hooked = True
        return _add_hook(self._tensor_pre_hooks.setdefault(output_nr, OrderedDict()), fn)

    def _register_retains_grad(self, output_nr: int, tensor) -> None:
        if self._retains_grad is None:
            self._retains_grad = {}
        self._hooked = True
        self._retains_grad[output_nr] = weakref.ref(tensor)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"


def _as_tensor_grad(g):
    if g is None or isinstance(g, Tensor):
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
    if grad is None or grad._requires_grad:
        return grad
    return Tensor._make(grad._data)


def accumulate_into_grad(variable, grad) -> None:
    """Add ``grad`` into ``variable.grad`` following torch's AccumulateGrad rules.

    Without grad mode the sum is done in place on the existing ``.grad`` (references to it
    stay valid); under ``create_graph`` the new ``.grad`` is a recorded out-of-place sum.
    A first gradient becomes ``.grad`` without a copy only if nothing else shares its array.
    """
    with _accumulate_lock:
        old = variable._grad
        if old is None:
            if not grad_mode.is_grad_enabled():
                variable._grad = grad._owned_copy()
            elif grad._requires_grad:  # torch stores a recorded copy (CopyBackwards)
                from ..ops.indexing import _copy

                variable._grad = _copy(Tensor._make(xp.empty_like(grad._data)), grad)
            else:
                variable._grad = grad
        elif grad_mode.is_grad_enabled():
            variable._grad = old + grad
        else:
            old._accumulate_(grad)
    hooks = variable._post_accumulate_hooks
    if hooks:
        for hook in tuple(hooks.values()):
            hook(variable)


# Saved-tensor hooks: a thread-local stack of (pack, unpack) pairs.
class _HookState(threading.local):
    stack = ()
    disabled = None  # the error message while disable_saved_tensors_hooks is active


_hook_state = _HookState()
_hooks_in_use = [0]  # contexts open in any thread: skip the thread-local lookup when 0
_SAME_OUTPUT = object()  # pack returned the saved output itself (Note [Packed saved tensors])
_PACKED_NONE = object()  # pack returned None (``packed is None`` means no hooks ran)


def _shares_memory(packed, tensor) -> bool:
    items = packed if isinstance(packed, (tuple, list)) else (packed,)
    data = tensor._data
    return any(isinstance(item, Tensor) and xp.may_share_memory(item._data, data) for item in items)


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    See Note [Saved outputs and cycles]. ``unpack`` checks the version and rebuilds saved
    outputs with ``grad_fn`` set to the saving node. Under ``saved_tensors_hooks`` see
    Note [Packed saved tensors].
    """

    __slots__ = (
        "tensor",
        "data",
        "vc",
        "version",
        "output_nr",
        "requires_grad",
        "packed",
        "unpack_hook",
        "meta",
        "edge",
        "check_version",
        "source",
    )

    def __init__(self, tensor, is_output: bool):
        vc = tensor._vc
        if vc is None:
            vc = tensor._vc = VersionCounter()
        elif vc.inference:
            from .inference import SAVE_ERROR

            raise RuntimeError(SAVE_ERROR)
        self.vc = vc
        self.version = vc.version
        self.packed = None
        self.check_version = True
        if _hooks_in_use[0] and _hook_state.stack:
            self._pack(tensor, is_output)
            return
        if is_output:
            self.tensor = None
            self.data = tensor._data
            self.output_nr = tensor._output_nr
            self.requires_grad = tensor._requires_grad
        else:
            self.tensor = tensor

    def unpack(self, node):
        if self.vc.version != self.version and self.check_version:
            raise RuntimeError(self._modified_message(node))
        if self.packed is not None:
            return self._unpack_hooked(node)
        tensor = self.tensor
        if tensor is not None:
            return tensor
        out = Tensor._make(self.data)
        out._vc = self.vc
        if self.requires_grad:
            out._grad_fn = node
            out._output_nr = self.output_nr
            out._requires_grad = True
        return out

    # Note [Packed saved tensors]
    # Under saved_tensors_hooks the saved tensor is replaced by whatever ``pack_hook`` returns
    # (run under no_grad, as in torch); only its metadata and history are kept:
    # - a saved *output* that pack returns unchanged is stored as a plain saved output (data,
    #   version counter) and rebuilt before unpack: keeping the live output would close the
    #   cycle node -> packed -> output -> grad_fn -> node (torch #189025);
    # - a saved *input* keeps its history edge, so the unpacked value connects to the same
    #   graph (double backward works through hooks);
    # - the version check stays on while the packed value shares memory with the saved
    #   tensor (an in-place change would silently corrupt the gradient; torch skips the
    #   check there) and is dropped when pack made a copy (the saved values are intact);
    # - unpack must give back the shape and dtype that were packed.
    def _pack(self, tensor, is_output: bool) -> None:
        pack, self.unpack_hook = _hook_state.stack[-1]
        self.tensor = self.data = None
        self.output_nr = tensor._output_nr
        self.requires_grad = tensor._requires_grad
        self.meta = (tensor._data.shape, tensor._data.dtype)
        self.edge = None if is_output or not tensor._requires_grad else tensor._edge()
        self.source = weakref.ref(tensor)
        with grad_mode.no_grad():
            packed = pack(tensor)
        if packed is tensor and is_output:
            packed = _SAME_OUTPUT
            self.data = tensor._data
        self.check_version = packed is _SAME_OUTPUT or _shares_memory(packed, tensor)
        self.packed = _PACKED_NONE if packed is None else packed

    def _unpack_hooked(self, node):
        packed = self.packed
        if packed is _SAME_OUTPUT:
            packed = Tensor._make(self.data)
            packed._vc = self.vc
            if self.requires_grad:
                packed._grad_fn, packed._output_nr, packed._requires_grad = (
                    node,
                    self.output_nr,
                    True,
                )
        value = self.unpack_hook(None if packed is _PACKED_NONE else packed)
        if not isinstance(value, Tensor):
            raise TypeError(
                "Output of saved tensor unpack_hook expected to be a Tensor but got result of "
                f"type {type(value).__name__}"
            )
        shape, dtype = self.meta
        if value._data.shape != shape or value._data.dtype != dtype:
            raise RuntimeError(
                f"unpack_hook of saved_tensors_hooks returned a {value.type()} of shape "
                f"{list(value._data.shape)} for the tensor saved by {node.name()}: "
                f"{self._describe(node)[:-1]}; it must give back the shape and dtype that "
                "were packed"
            )
        edge = (node, self.output_nr) if self.edge is None and self.requires_grad else self.edge
        if value._requires_grad == self.requires_grad and (
            not self.requires_grad or value._edge() == edge
        ):
            return value
        out = Tensor._make(value._data)
        out._vc = value._get_vc()
        if edge is not None:
            out._requires_grad = True
            if edge[0]._is_accumulator:
                out._accumulator = weakref.ref(edge[0])  # a leaf: its grads reach the original
            else:
                out._grad_fn, out._output_nr = edge
        return out

    def _describe(self, node) -> str:
        """``[torch.FloatTensor [3]], which is output 0 of Exp,`` as in torch's messages."""
        from .._dtypes import from_numpy_dtype

        tensor = self.tensor
        if self.packed is not None:
            (shape, dtype), nr = self.meta, self.output_nr
            owner = node if self.edge is None else self.edge[0]
        elif tensor is None:
            shape, dtype, nr, owner = self.data.shape, self.data.dtype, self.output_nr, node
        else:
            shape, dtype = tensor._data.shape, tensor._data.dtype
            nr, owner = tensor._output_nr, tensor._grad_fn
        desc = f"[torch.{from_numpy_dtype(dtype)._tag} {list(shape)}]"
        if owner is not None and not owner._is_accumulator:
            short = owner.name().rsplit("::", 1)[-1]
            short = short[: short.rfind("Backward")] if "Backward" in short else short
            desc += f", which is output {nr} of {short},"
        return desc

    def _modified_message(self, node) -> str:
        desc = self._describe(node)
        from .._dispatch import dispatch

        if dispatch.anomaly:  # the forward trace is reported with the error: torch's hint
            hint = (
                "Hint: the backtrace further above shows the operation that failed to compute "
                "its gradient. The variable in question was changed in there or anywhere "
                "later. Good luck!"
            )
        else:
            hint = (
                "Hint: enable anomaly detection to find the operation that failed to compute "
                "its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
            )
        return (
            "one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: {desc} is at version {self.vc.version}; expected version "
            f"{self.version} instead. {hint}"
        )


class SavedTensorList(tuple):
    """Tensors saved inside a list (einsum's operands): each one a ``SavedTensor``, so an
    in-place change to any of them after the forward fails backward as for a single input."""

    __slots__ = ()

    @classmethod
    def save(cls, items):
        return cls(SavedTensor(t, False) if isinstance(t, Tensor) else t for t in items)

    def unpack(self, node) -> list:
        return [s.unpack(node) if s.__class__ is SavedTensor else s for s in self]


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


def saved_tensor_default_hooks():
    stack = _hook_state.stack
    return stack[-1] if stack else None


class saved_tensors_hooks:
    """Context manager: pack every tensor saved for backward with ``pack_hook`` and get it
    back with ``unpack_hook`` when backward needs it.

    Example:
        >>> import numtorch as torch
        >>> x = torch.ones(3, requires_grad=True)
        >>> with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t):
        ...     y = (x * x).sum()
        >>> y.backward(); x.grad
        tensor([2., 2., 2.])
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _hook_state.disabled is not None:
            raise RuntimeError(_hook_state.disabled)
        _hook_state.stack = _hook_state.stack + ((self.pack_hook, self.unpack_hook),)
        _hooks_in_use[0] += 1
        return self

    def __exit__(self, *exc):
        _hook_state.stack = _hook_state.stack[:-1]
        _hooks_in_use[0] -= 1


class disable_saved_tensors_hooks:
    """Forbid ``saved_tensors_hooks`` within this context: using them raises
    ``RuntimeError(error_message)``, as does entering this context while hooks are active."""

    def __init__(self, error_message: str = ""):
        self.error_message = error_message

    def __enter__(self):
        if _hook_state.stack:
            raise RuntimeError(self.error_message)
        self.prev = _hook_state.disabled
        _hook_state.disabled = self.error_message

    def __exit__(self, *exc):
        _hook_state.disabled = self.prev


class save_on_cpu(saved_tensors_hooks):
    """Keep saved tensors as host copies (numtorch runs on the CPU, so this copies).

    Example:
        >>> import numtorch as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> with torch.autograd.graph.save_on_cpu():
        ...     y = (x.exp() * x).sum()
        >>> y.backward(); x.grad
        tensor([5.4366, 5.4366])
    """

    def __init__(self, pin_memory: bool = False, device_type: str = "cpu"):
        super().__init__(lambda t: t.detach().clone(), lambda t: t)


def increment_version(tensor) -> None:
    """Mark ``tensor`` (or each tensor of an iterable) as modified in place, for changes made
    behind autograd's back (e.g. through ``tensor.numpy()``): backward then refuses saved
    copies of it, as after any in-place op."""
    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        t._bump_version()


# Reading a graph for people (text and Graphviz): beyond torch, see graph_dump.py.
from .graph_dump import dump, to_dot  # noqa: E402, F401

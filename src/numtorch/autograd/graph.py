"""``torch.autograd.graph``: the graph's nodes, saved-tensor hooks, ``increment_version``,
gradient edges, multi-gradient hooks, and (beyond torch) ``dump``/``to_dot`` to read a
graph. Most of the code lives in ``numtorch._core``."""

import contextlib
import weakref
from typing import Any, NamedTuple

from .._core.backward_run import current_run, will_execute
from .._core.graph import Node, RemovableHandle
from .._core.graph_dump import dump, to_dot  # noqa: F401
from .._core.saved import (  # noqa: F401
    disable_saved_tensors_hooks,
    increment_version,
    save_on_cpu,
    saved_tensors_hooks,
)


class GradientEdge(NamedTuple):
    """Where gradient flows into a tensor: its node and which of the node's outputs.
    ``autograd.grad`` takes edges among its ``inputs`` as it takes tensors."""

    node: Node
    output_nr: int
    ownership_token: Any = None

    _batched = False  # what the engine reads of an input besides its edge

    def _edge(self):
        return (self.node, self.output_nr)


def get_gradient_edge(tensor) -> GradientEdge:
    """The gradient edge of ``tensor``: its ``grad_fn`` (a leaf's ``AccumulateGrad``) and
    output number.

    Example:
        >>> import numtorch as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> y = x * 2
        >>> edge = torch.autograd.graph.get_gradient_edge(y)
        >>> edge.node.name(), torch.autograd.grad(y.sum() * 3, edge)
        ('MulBackward0', (tensor([3., 3.]),))
    """
    if not tensor.requires_grad:
        raise RuntimeError(
            "It is not possible to get the gradient edge for a Tensor that does not require "
            "gradients"
        )
    node, output_nr = tensor._edge()
    return GradientEdge(node, output_nr)


class _MultiHandle(RemovableHandle):
    """The handle of a multi-gradient hook: ``remove()`` removes its hook on every tensor."""

    def __init__(self, handles):
        self.handles = tuple(handles)

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Call ``fn`` once per backward run on the gradients of ``tensors``.

    ``mode="all"``: after every tensor the run reaches has its gradient, ``fn(grads)`` gets
    them in order, with None for the tensors the run does not reach. ``mode="any"``:
    ``fn(grad)`` gets the first gradient computed. ``fn``'s result is ignored; the gradients
    are not changed. Returns one handle whose ``remove()`` removes the hook from all tensors.

    Example:
        >>> import numtorch as torch
        >>> a, b = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
        >>> seen = []
        >>> h = torch.autograd.graph.register_multi_grad_hook((a, b), seen.append)
        >>> (a * 3).sum().backward()
        >>> seen
        [[tensor([3., 3.]), None]]
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    for i, t in enumerate(tensors):
        if not t.requires_grad:
            raise RuntimeError(
                f"register_multi_grad_hook: tensor {i} does not require grad, so it never "
                "gets a gradient; pass only tensors that require grad"
            )
    if mode == "any":
        fired = set()  # the backward runs that have called fn already

        def first_hook(grad):
            run = current_run()
            if run not in fired:
                fired.add(run)
                fn(grad)

        return _MultiHandle(t.register_hook(first_hook) for t in tensors)

    # Per backward run: the gradients so far and how many tensors that run reaches
    # (counted when the first of them arrives, as the graph is known by then).
    buffers, expected = {}, {}
    nodes = [t._edge()[0] for t in tensors]

    def hook_for(index):
        def hook(grad):
            run = current_run()
            if run not in buffers:
                buffers[run] = [None] * len(tensors)
                expected[run] = sum(will_execute(node) for node in nodes)
            buffers[run][index] = grad
            expected[run] -= 1
            if expected[run] == 0:
                grads = buffers.pop(run)
                del expected[run]
                fn(grads)

        return hook

    return _MultiHandle(t.register_hook(hook_for(i)) for i, t in enumerate(tensors))


class _Handle:
    """What a tensor saved under ``allow_mutation_on_saved_tensors`` is packed as."""


class _AllowMutationOnSavedContext:
    """The state of an ``allow_mutation_on_saved_tensors`` block: the tensors saved in it
    (``original``), those changed in place since and the values they had when saved
    (``cloned``), cleared when the block ends."""

    def __init__(self) -> None:
        self.cloned: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.original: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self.tid_to_weakhandle: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
        self._saved: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def clear(self) -> None:
        self.cloned.clear()
        self.original.clear()
        self.tid_to_weakhandle.clear()
        self._saved.clear()

    def _pack(self, tensor) -> _Handle:
        tid = (id(tensor), tensor._version)
        handle = self.tid_to_weakhandle.get(tid)
        if handle is None:  # the same tensor at the same version is saved once
            handle = self.tid_to_weakhandle[tid] = _Handle()
            self.original[handle] = tensor
            # an in-place write has no hook that runs before it changes the array, so the
            # value is copied now; backward reads the copy only if the tensor was changed
            self._saved[handle] = (tensor.detach().clone(), tensor._version)
        return handle

    def _unpack(self, handle):
        if not _mutation_allowed[0] or handle not in self.original:
            raise AssertionError(
                "Trying to backward outside of the 'allow_mutation_on_saved_tensors' context "
                "in which the graph was originally recorded."
            )
        if handle in self.cloned:
            return self.cloned[handle]
        tensor = self.original[handle]
        copy, version = self._saved[handle]
        if tensor._version == version:
            return tensor
        self.cloned[handle] = copy
        return copy


_mutation_allowed = [False]  # inside an allow_mutation_on_saved_tensors block (any thread)


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Within the block, a tensor saved for backward may be changed in place: backward uses
    the value it had when saved instead of refusing it. Run the forward and the backward
    inside the same block; the block cannot be nested. Yields the block's state
    (``_AllowMutationOnSavedContext``), cleared on exit.

    numtorch keeps a copy of every tensor saved in the block (torch copies a saved tensor
    when it is first changed): the gradients are the same, the memory is that of
    ``save_on_cpu``.

    Example:
        >>> import numtorch as torch
        >>> with torch.autograd.graph.allow_mutation_on_saved_tensors():
        ...     a = torch.ones(2, 3, requires_grad=True)
        ...     b = a.clone()
        ...     out = (b**2).sum()
        ...     _ = b.sin_()
        ...     out.backward()
        >>> a.grad
        tensor([[2., 2., 2.],
                [2., 2., 2.]])
    """
    ctx = _AllowMutationOnSavedContext()
    with saved_tensors_hooks(ctx._pack, ctx._unpack):
        try:
            if _mutation_allowed[0]:
                raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
            _mutation_allowed[0] = True
            yield ctx
        finally:
            ctx.clear()
            _mutation_allowed[0] = False

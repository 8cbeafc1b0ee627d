"""Views: tensors sharing memory and the version counter with a base tensor.

Note [Views and in-place]
A view remembers its root base and the op steps that made it from that root
(``_view_steps``). When an in-place op writes through a view of a tensor in the graph, the
root's ``grad_fn`` becomes a ``CopySlices`` node: its gradient is the incoming gradient with
the view's region replaced by what the in-place op's own backward gives for that region.
Every view whose version is older than its counter then rebuilds its ``grad_fn`` by replaying
its steps on the root (so its gradient flows through the root's new history).
"""

from __future__ import annotations

from ..autograd import grad_mode
from ..autograd.graph import Node, VersionCounter, next_sequence_nr


def mark_view(result, source, spec, args, output_nr=None) -> None:
    """Make ``result`` a view of ``source``'s root base, replayable from it."""
    root = source._base if source._base is not None else source
    vc = root._vc
    if vc is None:
        vc = root._vc = VersionCounter()
    result._vc = vc
    result._base = root
    result._view_version = vc.version
    if root._requires_grad and not grad_mode.is_grad_enabled():
        result._view_no_grad = True  # checked by check_inplace, as torch forbids it
    step = (spec, tuple(args[1:]), output_nr)
    steps = source._view_steps
    result._view_steps = steps + (step,) if steps else (step,)


def mark_multi_view(results, source, spec, args) -> None:
    for nr, r in enumerate(results):
        mark_view(r, source, spec, args, nr)


def replay(root, steps):
    """Re-apply recorded view steps to ``root`` (recording nodes under grad mode)."""
    t = root
    for spec, rest, output_nr in steps:
        out = spec.run([t, *rest])
        t = out if output_nr is None else out[output_nr]
    return t


def refresh_view_grad_fn(view) -> None:
    """Rebuild a stale view's ``grad_fn`` from its root's current history."""
    root = view._base
    view._view_version = view._vc.version
    if not root._requires_grad:
        return
    with grad_mode.enable_grad():
        replayed = replay(root, view._view_steps)
    view._grad_fn = replayed._grad_fn
    view._output_nr = replayed._output_nr
    view._requires_grad = replayed._requires_grad
    view._view_version = view._vc.version
    retain_on_new_grad_fn(view)


def retain_on_new_grad_fn(t) -> None:
    """After ``t`` got a new grad_fn (in-place), ``retain_grad`` follows it, as in torch;
    hooks registered earlier stay with the old node (they see the gradient of the old value)."""
    if t._retains_grad and t._grad_fn is not None:
        t._grad_fn._register_retains_grad(t._output_nr, t)


class CopySlices(Node):
    """Gradient of a root tensor after an in-place op wrote through one of its views."""

    _saved = True  # the wrapped node's saved values are released through _release

    def __init__(self, root, steps, fn: Node):
        self.next_functions = (root._edge(),) + fn.next_functions[1:]
        self._input_meta = ((root._data.shape, root._data.dtype),) + fn._input_meta[1:]
        self._steps = steps
        self._fn = fn
        self._sequence_nr = next_sequence_nr()

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    def _apply(self, grad_outputs: tuple) -> tuple:
        grad = grad_outputs[0]
        if grad is None:
            return (None,) * len(self.next_functions)
        result = grad.clone()
        region = replay(result, self._steps)
        fn_grads = self._fn._apply((region.clone(),))
        if fn_grads[0] is None:
            region.zero_()
        else:
            region.copy_(fn_grads[0].sum_to_size(region.shape))
        return (result,) + tuple(fn_grads[1:])

    def _release(self) -> None:
        self._fn._release()

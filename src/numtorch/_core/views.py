"""Views: tensors sharing memory and the version counter with a base tensor.

Note [Views and in-place]
A view remembers its root base and the op steps that made it from that root
(``_view_steps``). When an in-place op writes through a view of a tensor in the graph, the
root's ``grad_fn`` becomes a ``CopySlices`` node: its gradient is the incoming gradient with
the view's region replaced by what the in-place op's own backward gives for that region.
Every view whose version is older than its counter then gets a new ``grad_fn``, as torch
does: an ``AsStridedBackward0`` from the root's new history, whose backward scatters the
view's gradient into the root's shape (adding where the view overlaps itself, as an expand
does). Outputs of multi-view ops (``unbind``, ``split``) refuse this, as in torch.
"""

from __future__ import annotations

import math
import weakref

from ..backend import xp
from . import grad_mode
from .backward_run import task
from .graph import Node, freed_error, next_sequence_nr
from .versions import VersionCounter


def mark_view(result, source, spec, args, output_nr=None) -> None:
    """Make ``result`` a view of ``source``'s root base, replayable from it."""
    root = source._base if source._base is not None else source
    vc = root._vc
    if vc is None:
        vc = root._vc = VersionCounter()
    result._vc = vc
    result._base = root
    result._view_version = vc.version
    if root._requires_grad:
        if not grad_mode.is_grad_enabled():
            # Note [Views made without grad mode]
            result._view_no_grad = True  # checked by check_inplace, as torch forbids it
            result._requires_grad = True
    elif grad_mode.is_grad_enabled():
        _track_view(root, result)
        if output_nr is not None or source.__dict__.get("_multi_view_without_grad_fn"):
            # torch's multi-output view of a tensor that requires no grad has no grad_fn:
            # its refusals say it "was created in no_grad mode"
            result.__dict__["_multi_view_without_grad_fn"] = True
    if source.__dict__.get("_conj_bit") and result._data.dtype.kind == "c":
        result._conj_bit = True  # a complex view of a conjugate is flagged, as torch's views
    step = (spec, tuple(args[1:]), output_nr)
    steps = source._view_steps
    result._view_steps = steps + (step,) if steps else (step,)


# Note [Views made without grad mode]
# torch's view of a tensor that requires grad, made under no_grad (or inference mode),
# requires grad too but has no grad_fn: it is a leaf whose gradient edge leads nowhere. Ops
# on it record nodes (their outputs require grad), a backward through them reaches nothing,
# and autograd.grad with respect to it finds it unused. ``Tensor._edge`` gives it no
# accumulator; ``check_inplace`` refuses to write into it with grad mode on.


# Note [Views of a tensor that starts requiring grad]
# torch's view requires grad whenever its base does (its grad_fn is made lazily from the
# base's history). A tensor that requires no grad starts to when an in-place op records a
# node on it or on one of its views; its other views, made before, must follow. numtorch
# reads ``_requires_grad`` directly in every op, so the root remembers (weakly) the views
# made of it while it required no grad, and ``views_follow_root`` flags them at that moment;
# their grad_fn is still made on first use (``Tensor._edge``, ``Tensor.grad_fn``).


def _track_view(root, view) -> None:
    views = root.__dict__.get("_plain_views")
    if views is None:
        views = root.__dict__["_plain_views"] = weakref.WeakSet()
    views.add(view)


def views_follow_root(root) -> None:
    """Flag the views made of ``root`` while it required no grad: it now does."""
    views = root.__dict__.pop("_plain_views", None)
    if views is not None:
        for view in views:
            view._requires_grad = True


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


def multi_output_message(view, happened: str) -> str | None:
    """torch's refusal for views descending from a multi-view op (unbind, split, chunk)."""
    steps = view._view_steps
    if not any(output_nr is not None for _, _, output_nr in steps):
        return None
    spec, _, output_nr = steps[-1]
    op = spec.node_class.__name__.rsplit("Backward", 1)[0]  # torch names "Unbind", "Slice"
    if view.__dict__.get("_multi_view_without_grad_fn"):
        with_grad = "is being modified inplace" if happened.startswith("is") else happened
        start = f"A view was created in no_grad mode and {with_grad} with grad mode enabled."
    else:
        start = f"Output {output_nr or 0} of {op} is a view and {happened}."
    return (
        f"{start} This view is the output of a function that returns multiple views. Such "
        "functions do not allow the output views to be modified inplace. You should replace the "
        "inplace operation by an out-of-place one."
    )


def refresh_view_grad_fn(view) -> None:
    """Give a stale view (its root changed in place) a ``grad_fn`` from the root's history."""
    root = view._base
    if not root._requires_grad:
        view._view_version = view._vc.version
        return
    message = multi_output_message(
        view, "its base or another view of its base has been modified inplace"
    )
    if message:  # refused at every use, as torch's grad_fn is (the view stays stale)
        raise RuntimeError(message)
    view._view_version = view._vc.version
    steps = view._view_steps
    replayed = _replayed_prefix(view, root)
    if replayed == len(steps) and _moved_view_positions(root, view, steps) is None:
        # as_strided cannot change the dtype: torch replays the view on the root instead
        with grad_mode.enable_grad():
            fresh = replay(root, steps)
        view._grad_fn, view._output_nr = fresh._grad_fn, fresh._output_nr
    else:
        # views made after view_as_real/view_as_complex: as_strided of that replay
        if replayed:
            with grad_mode.enable_grad():
                root = replay(root, steps[:replayed])
        if _only_restrided_in_place(view, root, len(steps) - replayed):
            view._grad_fn, view._output_nr = root._grad_fn, root._output_nr
        else:
            view._grad_fn = _from_view_function(view, root, steps, replayed)
            view._output_nr = 0
    view._requires_grad = True
    retain_on_new_grad_fn(view)


def _only_restrided_in_place(view, replayed, after: int) -> bool:
    """Whether the view's steps after its view function are all in-place view ops
    (squeeze_, t_...) that left its geometry as the view function gives it: torch's
    in-place view ops do not extend a view function, which it replays alone then."""
    trailing = view.__dict__.get("_inplace_view_steps", 0)
    data, fresh = view._data, replayed._data
    return (
        0 < after <= trailing
        and data.shape == fresh.shape
        and data.strides == fresh.strides
        and data.dtype == fresh.dtype
    )


def _from_view_function(view, replayed, steps, prefix: int):
    """The AsStridedBackward0 of a view after view_as_real/view_as_complex: torch's view
    function covers each later view step with an as_strided of the geometry it made, and
    in-place view ops (squeeze_, t_) after the last of them do not extend it. Where they
    changed the view's geometry, torch's node has the geometry from before them: a gradient
    of the view's shape is summed to that shape where it broadcasts to it, and refused
    otherwise (at the same elements where the shapes agree, as torch's as_strided reads it)."""
    trailing = view.__dict__.get("_inplace_view_steps", 0)
    kept = len(steps) - trailing
    if trailing > 0 and 0 < prefix < kept:
        with grad_mode.no_grad():
            stale = replay(replayed, steps[prefix:kept])
        if stale._data.shape != view._data.shape or stale._data.strides != view._data.strides:
            node = AsStridedBackward0(replayed, stale, steps[prefix:kept])
            node._expects = tuple(stale._data.shape)
            return node
    return AsStridedBackward0(replayed, view, steps[prefix:])


# torch records a view function for these (as_strided cannot change the dtype)
REPLAYED_VIEWS = frozenset(("view_as_real", "view_as_complex"))


def _replayed_prefix(view, root) -> int:
    """How many of the view's steps torch replays: up to the last view_as_real or
    view_as_complex (the steps after it it covers with one as_strided)."""
    steps = view._view_steps
    if len(steps) == 1 and root._data.dtype != view._data.dtype:
        return 1
    names = [spec.name for spec, _, _ in steps]
    return max((k + 1 for k, name in enumerate(names) if name in REPLAYED_VIEWS), default=0)


def retain_on_new_grad_fn(t) -> None:
    """After ``t`` got a new grad_fn (in-place), ``retain_grad`` follows it, as in torch;
    hooks registered earlier stay with the old node (they see the gradient of the old value)."""
    if t._retains_grad and t._grad_fn is not None:
        t._grad_fn._register_retains_grad(t._output_nr, t)


# Note [Sparse roots]
# A sparse tensor's values() is a view of the sparse tensor in torch. An in-place op through
# it records a CopySlices on that sparse root, whose backward makes a gradient with the
# root's strides (none: all 0) and copies into it, which torch refuses as an overlapping
# write. numtorch's root is the dense values tensor, flagged ``_sparse_root``; its CopySlices
# raises torch's error at the same point. So does the CopySlices of a root whose elements
# overlap (a dim of stride 0 and size above 1: an expanded tensor that an in-place op wrote
# through a view of one row), whose layout torch's copy refuses the same way.
OVERLAP_MESSAGE = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)


class CopySlices(Node):
    """Gradient of a root tensor after an in-place op wrote through one of its views."""

    _saved = True  # the wrapped node's saved values are released through _release

    def __init__(self, root, steps, fn: Node, view=None):
        self.next_functions = (root._edge(),) + fn.next_functions[1:]
        self._input_meta = ((root._data.shape, root._data.dtype),) + fn._input_meta[1:]
        self._steps = steps
        self._positions = None if view is None else _moved_view_positions(root, view, steps)
        self._root_stride = root.stride()
        self._fn = fn
        self._sequence_nr = next_sequence_nr()
        # Note [Sparse roots]: a root whose elements overlap (expanded) is refused likewise
        data = root._data  # (an empty root is dense to torch, whatever its strides)
        self._refuses_root = root.__dict__.get("_sparse_root", False) or (
            data.size > 0 and any(st == 0 and n > 1 for n, st in zip(data.shape, data.strides))
        )

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    def _apply(self, grad_outputs: tuple) -> tuple:
        grad = grad_outputs[0]
        if grad is None:
            return (None,) * len(self.next_functions)
        fn = self._fn
        if fn is None:
            raise freed_error(self)
        if self._refuses_root:
            # Note [Sparse roots]: torch's CopySlices lays its gradient out with the strides of
            # the root, a sparse or expanded tensor, and its copy into that layout refuses to
            # write
            raise RuntimeError(OVERLAP_MESSAGE)
        if self._positions is not None:  # Note [Roots that changed their geometry]
            return self._apply_at_positions(grad, fn)
        # the view steps replay on the root's layout (a view() step may need it), whatever
        # the incoming gradient's strides: torch copies grad into an empty_strided root too
        if grad.stride() == self._root_stride:
            result = grad.clone()
        else:
            result = grad.new_empty_strided(grad.shape, self._root_stride)
            result.copy_(grad)
        region = replay(result, self._steps)
        fn_grads = self._run_fn(fn, (region.clone(),))
        if fn_grads[0] is None:
            region.zero_()
        else:
            region.copy_(fn_grads[0].sum_to_size(region.shape))
        return (result,) + tuple(fn_grads[1:])

    def _apply_at_positions(self, grad, fn) -> tuple:
        flat = grad.reshape(-1).clone()
        positions = grad._make(self._positions)
        shape = fn._input_meta[0][0]
        fn_grads = self._run_fn(fn, (flat.index_select(0, positions).reshape(shape),))
        region = fn_grads[0]
        region = flat.new_zeros(shape) if region is None else region.sum_to_size(shape)
        result = flat.index_copy(0, positions, region.reshape(-1)).reshape(grad.shape)
        return (result,) + tuple(fn_grads[1:])

    def _run_fn(self, fn, grads) -> list:
        # The wrapped node's edges are not in the graph the run walked (its first leads to
        # the view's old history): as torch's CopySlices, it computes a gradient for each
        # edge where this node's own edge of that position is wanted (autograd.grad runs
        # formulas only for wanted edges, see OpNode._apply)
        reached = task.reached
        if reached is None or reached[1] is None:
            return fn._apply(grads)
        deps, scheduled, accumulate = reached
        wanted = {
            theirs[0]
            for theirs, mine in zip(fn.next_functions, self.next_functions)
            if theirs[0] is not None and mine[0] in scheduled
        }
        task.reached = (deps, scheduled | wanted, accumulate)
        try:
            return fn._apply(grads)
        finally:
            task.reached = reached

    def _release(self) -> None:
        # Drop the wrapped node rather than free its saved values: a saved output it
        # returns in a create_graph backward has that node as grad_fn, and a later backward
        # through that gradient runs the node directly (torch's CopySlices does the same).
        self._fn = None
        self._saved = None


class AsStridedBackward0(Node):
    """A view's gradient once its root changed in place: scattered into the root's shape."""

    def __init__(self, root, view, steps=None):
        self.next_functions = (root._edge(),)
        self._input_meta = ((root._data.shape, root._data.dtype),)
        steps = view._view_steps if steps is None else steps
        moved = _moved_view_positions(root, view, steps)  # Note [Roots that changed ...]
        self._real_of_complex = False
        if moved is not None:
            self._positions = moved
        else:
            with grad_mode.no_grad():  # where each view element lives in the root, flattened
                positions = replay(_numbered(root), steps)._data
            # a real view of a complex root (view_as_real, .real) numbers the root's real view
            self._real_of_complex = root._data.dtype.kind == "c" and positions.dtype.kind == "f"
            if positions.dtype.kind == "c":
                positions = positions.real // 2
            self._positions = xp.ascontiguousarray(positions).reshape(-1).astype(xp.int64)
        itemsize = view._data.itemsize
        self._saved_size = tuple(view._data.shape)
        self._saved_stride = tuple(s // itemsize for s in view._data.strides)
        self._saved_storage_offset = view.storage_offset()
        self._sequence_nr = next_sequence_nr()

    _expects = None  # the shape torch's view function gave (_from_view_function)

    def _apply(self, grad_outputs: tuple) -> tuple:
        grad = grad_outputs[0]
        if grad is None:
            return (None,)
        if self._expects is not None and tuple(grad.shape) != self._expects:
            try:
                grad = grad.sum_to_size(self._expects)
            except RuntimeError:
                raise RuntimeError(
                    f"Function {self.name()} got an invalid gradient - got {list(grad.shape)} "
                    f"but expected shape compatible with {list(self._expects)}: the view's "
                    "in-place view op (squeeze_, t_) after view_as_real or view_as_complex is "
                    "not part of the view function its gradient is replayed by"
                ) from None
        shape, dtype = self._input_meta[0]
        positions = grad._make(self._positions)
        if self._real_of_complex:
            flat = grad._make(xp.zeros(2 * math.prod(shape), grad._data.dtype))
            pairs = flat.index_add(0, positions, grad.reshape(-1)).reshape(*shape, 2)
            return (pairs[..., 0] + pairs[..., 1] * 1j,)
        flat = grad._make(xp.zeros(math.prod(shape), dtype))
        return (flat.index_add(0, positions, grad.reshape(-1)).reshape(shape),)


def _numbered(root):
    """A tensor of the root's shape holding each element's flat position. A complex root
    holds 2k + (2k + 1)j, so that a real view of it reads positions in the real view."""
    data = root._data
    if data.dtype.kind != "c":
        positions = xp.arange(data.size).reshape(data.shape)
    else:
        even = xp.arange(0, 2 * data.size, 2, dtype=xp.float64)
        positions = (even + 1j * (even + 1)).reshape(data.shape)
    # laid out like the root: a view step that needs its strides (view(-1) of a transposed
    # root that is contiguous again) replays as it did on the root
    numbered = xp.empty_like(data, dtype=positions.dtype)
    numbered[...] = positions
    return root._make(numbered)


# Note [Roots that changed their geometry]
# A view replays its steps on its root, which finds its elements while the root keeps the
# shape and strides it had when the view was made. An in-place op that changes them (t_,
# transpose_, squeeze_, as_strided_) leaves the view where it was in memory, and torch's
# nodes find it there (as_strided over the storage). Where the replay no longer lands on the
# view's memory, the view's elements are found in the root by their addresses instead.
def _byte_offsets(data, start: int):
    offsets = xp.full(data.shape, start, dtype=xp.int64)
    for d, (n, stride) in enumerate(zip(data.shape, data.strides)):
        shape = [1] * data.ndim
        shape[d] = n
        offsets = offsets + (xp.arange(n, dtype=xp.int64) * stride).reshape(shape)
    return offsets.reshape(-1)


def _address_positions(root_data, view_data):
    """The root's flat index of each view element, found by memory address; None where one
    is not an element of the root (another dtype, a copy) or the root repeats an address."""
    if root_data.dtype != view_data.dtype or root_data.size == 0 or view_data.size == 0:
        return None
    start = view_data.__array_interface__["data"][0] - root_data.__array_interface__["data"][0]
    root_offsets = _byte_offsets(root_data, 0)
    order = xp.argsort(root_offsets, kind="stable")
    ordered = root_offsets[order]
    if (ordered[1:] == ordered[:-1]).any():
        return None
    wanted = _byte_offsets(view_data, start)
    found = xp.minimum(xp.searchsorted(ordered, wanted), ordered.size - 1)
    if not (ordered[found] == wanted).all():
        return None
    return order[found]


def _moved_view_positions(root, view, steps):
    """The view's positions in the root by address, where replaying ``steps`` on the root
    misses them (the root's geometry changed in place), else None."""
    if root._data.dtype.kind == "c":
        return None
    by_address = _address_positions(root._data, view._data)
    if by_address is None:
        return None
    numbered = _numbered(root)
    # floating positions (exact to 2**53), so that a view_as_complex step replays too
    numbered = root._make(numbered._data.astype(xp.float64, order="K"))
    try:
        with grad_mode.no_grad():
            replayed = replay(numbered, steps)._data
    except (RuntimeError, IndexError):  # the steps do not fit the root's new shape
        return by_address
    if replayed.shape == view._data.shape and (replayed.reshape(-1) == by_address).all():
        return None
    return by_address

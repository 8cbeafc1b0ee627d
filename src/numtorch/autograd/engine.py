"""The backward engine: one iterative walker used by backward, grad, functional, gradcheck.

1. Count each node's incoming edges with an iterative walk (no recursion: deep graphs work).
2. Run ready nodes from a heap, highest sequence number first (deterministic, like torch).
3. Per node: tensor hooks, retain_grad, captures, pre-hooks, ``_apply`` under
   ``set_grad_enabled(create_graph)``, post-hooks; conform each gradient to its input's
   shape and dtype (the one place broadcasting is undone) and add it to the next buffer.
4. Leaves end at AccumulateGrad; ``autograd.grad`` captures gradients instead and only runs
   the part of the graph that leads to its inputs.

Note [Atomic backward]
Gradients for ``.grad`` are collected during the walk and committed only when the walk
succeeded, so a backward that raises leaves every ``.grad`` as it was. Saved values are
freed as nodes finish (memory), unless ``retain_graph``.
"""

from __future__ import annotations

import heapq
import itertools
import threading

from .. import _dtypes
from .._dispatch import dispatch
from ..backend import xp
from . import grad_mode
from .anomaly_mode import is_anomaly_enabled, run_with_anomaly
from .graph import accumulate_into_grad
from .hooks import commit_leaf_grad, leaf_hooks, node_post_hooks, node_pre_hooks, tensor_hooks

Tensor = None  # numtorch.Tensor, bound by _tensor.py (importing it here would be a cycle)
ndarray = xp.ndarray


def nodes_leading_to(roots, deps, targets) -> set:
    """Nodes from which some capture target is reachable through at least one edge (the
    part autograd.grad runs; a target itself runs only if it leads to another target)."""
    remaining = dict(deps)
    order = []
    stack = [n for n in roots if remaining.get(n, 0) == 0]
    while stack:
        node = stack.pop()
        order.append(node)
        for nxt, _ in node.next_functions:
            if nxt is not None:
                remaining[nxt] -= 1
                if remaining[nxt] == 0:
                    stack.append(nxt)
    needed = set()
    for node in reversed(order):
        if any(n in needed or n in targets for n, _ in node.next_functions):
            needed.add(node)
    return needed


def conform_gradient(grad, meta, node):
    """Reduce a broadcast gradient to its input's shape and cast it to the input's dtype."""
    index = next(i for i, m in enumerate(node._input_meta) if m is meta)
    data = getattr(grad, "_data", None)
    if data is None:
        raise RuntimeError(
            f"expected Variable or None (got {type(grad).__name__}): Function {node.name()} "
            f"returned it as gradient {index}"
        )
    shape, dtype = meta
    if data.shape != shape:
        try:
            grad = grad.sum_to_size(shape)
        except RuntimeError:
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {index} - got "
                f"{list(data.shape)} but expected shape compatible with {list(shape)}"
            ) from None
    if grad._data.dtype != dtype:
        if grad._data.dtype.kind == "c" and dtype.kind != "c":
            grad = grad.real  # a real input's gradient is the real part (as torch's)
        grad = grad.to(_dtypes.from_numpy_dtype(dtype))
    return grad


def graph_dependencies(root_nodes) -> dict:
    """How many edges point at each node reachable from the roots (iterative walk)."""
    deps = dict.fromkeys(root_nodes, 0)  # roots are known: a root reached again is not re-walked
    stack = list(root_nodes)
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is not None:
                if nxt in deps:
                    deps[nxt] += 1
                else:
                    deps[nxt] = 1
                    stack.append(nxt)
    return deps


def start_walk(roots, grad_roots, inputs):
    """What a walk starts from: root nodes, dependency counts, the nodes whose gradients
    are captured for ``inputs`` (and the part of the graph leading to them), and the root
    gradients in their buffers."""
    root_edges = []
    for i, t in enumerate(roots):
        edge = t._edge()
        if edge[0] is None:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
        root_edges.append(edge)
    root_nodes = list({id(e[0]): e[0] for e in root_edges}.values())
    deps = graph_dependencies(root_nodes)
    captures = {}
    needed = None
    if inputs is not None:
        for k, t in enumerate(inputs):
            node, nr = t._edge()
            if node is None:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            captures.setdefault(node, []).append((nr, k))
        needed = nodes_leading_to(root_nodes, deps, captures)
    buffers = {}
    for (node, nr), g in zip(root_edges, grad_roots):
        buf = buffers.setdefault(node, [None] * node._num_outputs)
        buf[nr] = g if buf[nr] is None else buf[nr] + g
    return root_nodes, deps, captures, needed, buffers


class _Task(threading.local):
    accumulating = True  # False while autograd.grad or backward(inputs=...) runs


_task = _Task()


def is_checkpoint_valid() -> bool:
    """``torch.autograd._is_checkpoint_valid``: False inside ``autograd.grad`` or
    ``backward(inputs=...)``, where a reentrant checkpoint cannot write ``.grad``."""
    return _task.accumulating


def run_backward(
    roots, grad_roots, retain_graph=False, create_graph=False, inputs=None, accumulate=True
):
    """Backpropagate ``grad_roots`` from ``roots``; return the captured grads of ``inputs``."""
    outer = _task.accumulating
    _task.accumulating = inputs is None
    try:
        return _run_backward(roots, grad_roots, retain_graph, create_graph, inputs, accumulate)
    finally:
        _task.accumulating = outer


def _run_backward(roots, grad_roots, retain_graph, create_graph, inputs, accumulate):
    root_nodes, deps, captures, needed, buffers = start_walk(roots, grad_roots, inputs)
    scheduled = needed.union(captures) if needed is not None else None
    captured = [None] * (len(inputs) if inputs is not None else 0)
    tiebreak = itertools.count().__next__
    ready = [(-n._sequence_nr, tiebreak(), n) for n in root_nodes if deps[n] == 0]
    heapq.heapify(ready)
    pending = []  # (AccumulateGrad, grad) committed at the end: Note [Atomic backward]
    anomaly = is_anomaly_enabled()
    pop, push = heapq.heappop, heapq.heappush
    make = Tensor._make
    follow = None  # the only node made ready by the last step: run it without the heap
    # Anything unusual about this run sends every node through the full per-node path.
    special = anomaly or dispatch.slow or bool(captures) or needed is not None
    with grad_mode.set_grad_enabled(bool(create_graph)):
        while follow is not None or ready:
            if follow is not None:
                node, follow = follow, None
            else:
                node = pop(ready)[2]
            grads = buffers.pop(node, None) or [None] * node._num_outputs
            if node._is_accumulator:
                grads = leaf_hooks(node.variable, grads)
                if captures and node in captures:
                    for nr, k in captures[node]:
                        captured[k] = grads[nr]
                if accumulate and grads[0] is not None and (inputs is None or node in captures):
                    if node._hooked and node._pre_hooks:
                        grads = node_pre_hooks(node, grads)
                    pending.append((node, grads[0]))
                continue
            if special or node._hooked:
                # Note [Hooks ordering]: as in torch, a node that runs has its inputs captured
                # before its tensor hooks; a node that is only captured runs its hooks first.
                runs = needed is None or node in needed
                if captures and runs and node in captures:
                    for nr, k in captures[node]:
                        captured[k] = grads[nr]
                if node._hooked:
                    grads = tensor_hooks(node, grads)
                if not runs:
                    for nr, k in captures.get(node, ()):
                        captured[k] = grads[nr]
                    continue
                if dispatch.slow:
                    outputs = _observed_node(node, lambda: _run_node(node, grads, anomaly))
                else:
                    outputs = _run_node(node, grads, anomaly)
            elif len(grads) > 1:
                outputs = _run_node(node, grads, anomaly)
            elif grads[0] is None:
                outputs = (None,) * len(node.next_functions)
            else:
                outputs = node._apply(grads)  # nodes check their own gradient counts
            if node._saved and not retain_graph:
                node._release()
            first = None  # a single newly ready node can skip the heap (see `follow`)
            for (nxt, nr), g, meta in zip(node.next_functions, outputs, node._input_meta):
                if nxt is None or (needed is not None and nxt not in scheduled):
                    continue
                if g is not None:
                    try:
                        data = g._data
                    except AttributeError:
                        data = None
                    if data is None or data.shape != meta[0] or data.dtype is not meta[1]:
                        g = conform_gradient(g, meta, node)
                    buf = buffers.get(nxt)
                    if buf is None:
                        buf = buffers[nxt] = [None] * nxt._num_outputs
                    old = buf[nr]
                    if old is None:
                        buf[nr] = g
                    elif create_graph:
                        buf[nr] = old + g
                    else:
                        total = old._data + g._data
                        if total.__class__ is not ndarray:  # 0-d sums give NumPy scalars
                            total = xp.asarray(total)
                        buf[nr] = make(total)
                left = deps[nxt] - 1
                deps[nxt] = left
                if left == 0:
                    if first is None:
                        first = nxt
                    else:
                        push(ready, (-nxt._sequence_nr, tiebreak(), nxt))
            if first is not None:
                if ready and -ready[0][0] > first._sequence_nr:
                    push(ready, (-first._sequence_nr, tiebreak(), first))
                else:
                    follow = first
        # The loop's last locals still refer to gradients: drop them, so the commit can take
        # over gradient arrays nothing else holds instead of copying them.
        g = data = outputs = grads = None
        for node, grad in pending:
            if dispatch.slow:
                _observed_node(node, lambda: commit_leaf_grad(node, grad))
            else:
                commit_leaf_grad(node, grad)
        if accumulate and inputs is not None:
            for t, grad in zip(inputs, captured):
                if grad is not None and t._grad_fn is not None:  # leaves went through pending
                    accumulate_into_grad(t, grad)
    return captured


def _observed_node(node, run):
    for observer in dispatch.observers:
        wrap = getattr(observer, "wrap_node", None)
        if wrap is not None:
            run = wrap(node, run)
    return run()


def _wrong_count(node, outputs):
    raise RuntimeError(
        f"function {node.name()} returned an incorrect number of gradients (expected "
        f"{len(node.next_functions)}, got {len(outputs)})"
    )


def _run_node(node, grads, anomaly):
    for g in grads:
        if g is not None:
            break
    else:
        return (None,) * len(node.next_functions)
    if node._hooked and node._pre_hooks:
        grads = node_pre_hooks(node, grads)
    outputs = run_with_anomaly(node, grads) if anomaly else node._apply(grads)
    if len(outputs) != len(node.next_functions):
        _wrong_count(node, outputs)
    if node._hooked and node._post_hooks:
        outputs = node_post_hooks(node, outputs, grads)
    return outputs

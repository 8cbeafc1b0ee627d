"""The backward engine: one iterative walker used by backward, grad, functional, gradcheck.

1. Count each node's incoming edges with an iterative walk (no recursion: deep graphs work).
2. Run ready nodes from a heap, highest sequence number first (deterministic, like torch).
3. Per node: tensor hooks, retain_grad, captures, pre-hooks, ``_apply`` under
   ``set_grad_enabled(create_graph)``, post-hooks; conform each gradient to its input's
   shape and dtype (the one place broadcasting is undone) and add it to the next buffer.
4. Leaves end at AccumulateGrad; ``autograd.grad`` captures gradients instead and only runs
   the part of the graph that leads to its inputs.

Note [Gradients as arrays]
Without ``create_graph`` and with no observer active, nothing a node computes is recorded,
so the buffers hold gradients as bare arrays and an op's node runs the array forms of its
formulas on them (``OpNode._apply_array``, Note [Formulas on arrays]). A gradient becomes a
tensor only where code outside the engine sees it: hooks, anomaly checks, the captures of
``autograd.grad``, ``.grad``, nodes that are not ops (custom Functions, CopySlices) and
formulas on tensors. With ``create_graph`` or an observer the buffers hold tensors. Buffers
are keyed like edges: a node for its output 0, ``(node, nr)`` for its others.

Note [Nodes that refuse]
torch's engine runs every node of the graph it walks, with undefined gradients where none
arrived; a node of formulas then passes undefined gradients on, which numtorch does by
skipping it, but torch's NotImplemented node, and a node whose every formula is torch's
not_implemented (``CdistBackwardBackward0``), raise whatever reaches them. Such a node
(``_refuses``: defop marks it) runs, and raises, even when every gradient it gets is None.

Note [Atomic backward]
Gradients for ``.grad`` are collected during the walk and committed only when the walk
succeeded, so a backward that raises leaves every ``.grad`` as it was. Saved values are
freed as nodes finish (memory), unless ``retain_graph``.
"""

from __future__ import annotations

import heapq
import itertools

from ..backend import xp
from . import grad_mode
from . import node_calls as calls
from .anomaly_mode import is_anomaly_enabled
from .backward_run import next_run
from .backward_run import task as _task
from .dependencies import start_walk
from .graph import accumulate_into_grad
from .hooks import commit_leaf_grad, leaf_hooks, node_pre_hooks, tensor_hooks
from .node_calls import observed_node, run_node
from .observers import dispatch

ndarray = xp.ndarray


def run_backward(
    roots, grad_roots, retain_graph=False, create_graph=False, inputs=None, accumulate=True
):
    """Backpropagate ``grad_roots`` from ``roots``; return the captured grads of ``inputs``."""
    outer = _task.accumulating, _task.run, _task.reached
    _task.accumulating = inputs is None
    _task.run = next_run()
    try:
        return _run_backward(roots, grad_roots, retain_graph, create_graph, inputs, accumulate)
    finally:
        _task.accumulating, _task.run, _task.reached = outer


def _run_backward(roots, grad_roots, retain_graph, create_graph, inputs, accumulate):
    arrays = not create_graph and not dispatch.observing
    root_nodes, deps, captures, needed, buffers = start_walk(roots, grad_roots, inputs, arrays)
    scheduled = needed.union(captures) if needed is not None else None
    _task.reached = (deps, scheduled, accumulate)
    captured = [None] * (len(inputs) if inputs is not None else 0)
    tiebreak = itertools.count().__next__
    ready = [(-n._sequence_nr, tiebreak(), n) for n in root_nodes if deps[n] == 0]
    heapq.heapify(ready)
    pending = []  # (AccumulateGrad, grad) committed at the end: Note [Atomic backward]
    anomaly = is_anomaly_enabled()
    pop, push = heapq.heappop, heapq.heappush
    follow = None  # the only node made ready by the last step: run it without the heap
    # Anything unusual about this run sends every node through the full per-node path.
    special = anomaly or dispatch.observing or bool(captures) or needed is not None
    release = not retain_graph
    fast = arrays and not special  # op nodes without hooks run on arrays (_takes_arrays)
    with grad_mode.set_grad_enabled(bool(create_graph)):
        while follow is not None or ready:
            if follow is not None:
                node, follow = follow, None
            else:
                node = pop(ready)[2]
            if node._num_outputs == 1:  # Note [Gradients as arrays]
                grad = buffers.pop(node, None)
                grads = None
            else:
                grads = calls.gather_gradients(buffers, node)
                grad = None
            if fast and node._takes_arrays and grad.__class__ is ndarray:  # not sparse
                outputs = node._apply_array(grad, release)  # may free the saved values
            elif node._is_accumulator:
                grads = leaf_hooks(node.variable, [calls.tensor_of(grad) if arrays else grad])
                if captures and node in captures:
                    for nr, k in captures[node]:
                        captured[k] = grads[nr]
                if accumulate and (inputs is None or node in captures):
                    if grads[0] is not None:
                        if node._hooked and node._pre_hooks:
                            grads = node_pre_hooks(node, grads)
                        pending.append((node, grads[0]))
                    elif node.variable._post_accumulate_hooks:
                        pending.append((node, None))  # torch runs them without a gradient
                continue
            elif special or node._hooked or grads is not None:
                if grads is None:
                    grads = [grad]
                if arrays:  # hooks, captures and general nodes see tensors
                    grads = [calls.tensor_of(g) for g in grads]
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
                if dispatch.observing:
                    outputs = observed_node(node, lambda: run_node(node, grads, anomaly))
                else:
                    outputs = run_node(node, grads, anomaly)
            elif grad is None:
                if node._refuses:  # Note [Nodes that refuse]
                    node._apply([None])
                outputs = (None,) * len(node.next_functions)
            elif not arrays:
                outputs = node._apply([grad])  # nodes check their own gradient counts
            else:
                outputs = node._apply([calls.tensor_of(grad)])
            if node._saved and release:  # FREED is false: freed by _apply_array already
                node._release()
            edges = node._edges
            if edges is None:  # Note [Edges without a tuple] in op_node.py; zip stops at ONE_INPUT
                edges = (node._edge0, node._edge1)
            for index, (edge, g, meta) in enumerate(zip(edges, outputs, node._input_meta)):
                nxt = edge
                if edge.__class__ is tuple:
                    nxt = edge[0]
                    if edge[1] == 0:
                        edge = nxt
                if nxt is None or (needed is not None and nxt not in scheduled):
                    continue
                if g is not None:
                    # a tensor (no array path here, or a formula on tensors) is conformed there
                    if g.__class__ is not ndarray or (g.shape, g.dtype) != meta:
                        g = calls.conform_gradient(g, meta, node, index, arrays)
                    old = buffers.get(edge)
                    if old is None:
                        buffers[edge] = g
                    elif arrays and old.__class__ is ndarray and g.__class__ is ndarray:
                        # a complex sum as torch's add: Note [Complex alpha] in ops/pointwise.py
                        buffers[edge] = old + g if g.dtype.kind != "c" else calls.add_arrays(old, g)
                    else:
                        buffers[edge] = calls.add_gradients(old, g, create_graph, arrays)
                left = deps[nxt]
                if left != 1:  # waits for more gradients (a ready node's count stays 1)
                    deps[nxt] = left - 1
                elif follow is None:  # a single newly ready node can skip the heap
                    follow = nxt
                else:
                    push(ready, (-nxt._sequence_nr, tiebreak(), nxt))
            if follow is not None and ready and -ready[0][0] > follow._sequence_nr:
                push(ready, (-follow._sequence_nr, tiebreak(), follow))
                follow = None
        # The loop's last locals still refer to gradients: drop them, so the commit can take
        # over gradient arrays nothing else holds instead of copying them.
        g = old = outputs = grads = grad = None
        for node, grad in pending:
            if dispatch.observing:
                observed_node(node, lambda: commit_leaf_grad(node, grad))
            else:
                commit_leaf_grad(node, grad)
        if accumulate and inputs is not None:
            for t, grad in zip(inputs, captured):
                if grad is not None and t._grad_fn is not None:  # leaves went through pending
                    accumulate_into_grad(t, grad)
    return captured

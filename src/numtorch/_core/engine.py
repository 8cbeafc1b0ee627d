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

from ..backend import xp
from . import grad_mode
from .anomaly_mode import is_anomaly_enabled
from .dependencies import start_walk
from .graph import accumulate_into_grad
from .hooks import commit_leaf_grad, leaf_hooks, node_pre_hooks, tensor_hooks
from .node_calls import conform_gradient, observed_node, run_node
from .observers import dispatch

ndarray = xp.ndarray


class _Task(threading.local):
    accumulating = True  # False while autograd.grad or backward(inputs=...) runs
    run = 0  # the backward run in progress (0: none), see current_run


_task = _Task()
_runs = itertools.count(1)


def current_run() -> int:
    """Which backward run is executing (a new number per run; 0 outside backward): the
    non-reentrant checkpoint recomputes its block once per run, as torch does per graph task."""
    return _task.run


def is_checkpoint_valid() -> bool:
    """``torch.autograd._is_checkpoint_valid``: False inside ``autograd.grad`` or
    ``backward(inputs=...)``, where a reentrant checkpoint cannot write ``.grad``."""
    return _task.accumulating


def run_backward(
    roots, grad_roots, retain_graph=False, create_graph=False, inputs=None, accumulate=True
):
    """Backpropagate ``grad_roots`` from ``roots``; return the captured grads of ``inputs``."""
    outer = _task.accumulating, _task.run
    _task.accumulating = inputs is None
    _task.run = next(_runs)
    try:
        return _run_backward(roots, grad_roots, retain_graph, create_graph, inputs, accumulate)
    finally:
        _task.accumulating, _task.run = outer


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
                    outputs = observed_node(node, lambda: run_node(node, grads, anomaly))
                else:
                    outputs = run_node(node, grads, anomaly)
            elif len(grads) > 1:
                outputs = run_node(node, grads, anomaly)
            elif grads[0] is None:
                outputs = (None,) * len(node.next_functions)
            else:
                outputs = node._apply(grads)  # nodes check their own gradient counts
            if node._saved and not retain_graph:
                node._release()
            first = None  # a single newly ready node can skip the heap (see `follow`)
            for index, (nxt, g, meta) in enumerate(
                zip(node._short_edges(), outputs, node._input_meta)
            ):
                if nxt.__class__ is tuple:  # Note [Edges without a tuple] in op.py
                    nxt, nr = nxt
                else:
                    nr = 0
                if nxt is None or (needed is not None and nxt not in scheduled):
                    continue
                if g is not None:
                    try:
                        data = g._data
                    except (AttributeError, NotImplementedError):  # not a tensor; sparse
                        data = None
                    if data is None or data.shape != meta[0] or data.dtype is not meta[1]:
                        g = conform_gradient(g, meta, node, index)
                    buf = buffers.get(nxt)
                    if buf is None:
                        buf = buffers[nxt] = [None] * nxt._num_outputs
                    old = buf[nr]
                    if old is None:
                        buf[nr] = g
                    elif (
                        create_graph
                        or g._batched
                        or old._batched
                        or old._fw_grads is not None
                        or g._fw_grads is not None
                        or old.is_sparse
                        or g.is_sparse
                    ):
                        # an op: it records, batches and adds tangents (a sparse sum goes
                        # through dense + sparse, which is dense)
                        buf[nr] = g + old if old.is_sparse and not g.is_sparse else old + g
                    else:
                        total = old._data + g._data
                        if total.__class__ is not ndarray:  # 0-d sums give NumPy scalars
                            total = xp.asarray(total)
                        buf[nr] = g._make(total)
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
                observed_node(node, lambda: commit_leaf_grad(node, grad))
            else:
                commit_leaf_grad(node, grad)
        if accumulate and inputs is not None:
            for t, grad in zip(inputs, captured):
                if grad is not None and t._grad_fn is not None:  # leaves went through pending
                    accumulate_into_grad(t, grad)
    return captured

"""Batched backward: push a batch of cotangents through the graph in one walk.

``autograd.grad(..., is_grads_batched=True)`` and ``jacobian(..., vectorize=True)`` need one
vector-Jacobian product per row of a batch of cotangents. Instead of walking the graph once
per row, this walker carries gradients with an extra leading batch dimension ``B`` and runs
each node once for the whole batch.

Note [Batched gradients]
A gradient buffer for a tensor of shape ``S`` holds shape ``(B, *S)``. How a node turns a
batched gradient into batched input gradients depends on its formulas:

- pointwise formulas (``grad * other``...) broadcast the batch dimension by themselves;
- formulas that name dims or shapes run with those arguments shifted past the batch
  dimension (``dim`` -> ``dim + 1``, ``input_shape`` -> ``(B, *input_shape)``);
- a few (matmul family, full reductions) have a batched rule here;
- every other node (custom Functions, indexing, CopySlices...) runs once per row and its
  results are stacked. This is always correct, only slower.

Each result is then reduced to ``(B, *input_shape)`` (the batched form of the engine's
unbroadcasting). Graphs with hooks, anomaly mode or active observers take the row-by-row
path through the normal engine instead (see ``can_batch``), so their semantics stay exact.
"""

from __future__ import annotations

import heapq
import itertools

from .._core import dtypes as _dtypes
from .._core import grad_mode
from .._core.anomaly_mode import is_anomaly_enabled
from .._core.dependencies import start_walk
from .._core.node_calls import conform_gradient
from .._core.observers import dispatch


def can_batch(roots) -> bool:
    """Whether the graph behind ``roots`` can take the batched walk (no hooks, no observers)."""
    if is_anomaly_enabled() or dispatch.slow:
        return False
    stack = [t._edge()[0] for t in roots]
    seen = set()
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if node._hooked:
            return False
        if node._is_accumulator and node.variable._hooks:
            return False
        stack.extend(n for n, _ in node.next_functions)
    return True


def run_batched_backward(roots, grad_roots, inputs, retain_graph, create_graph) -> list:
    """Like ``run_backward(..., inputs=inputs, accumulate=False)`` with batched grad_roots
    (shape ``(B, *root.shape)``); returns the batched gradients of ``inputs`` (or None)."""
    batch = grad_roots[0].shape[0]
    root_nodes, deps, captures, needed, buffers = start_walk(roots, grad_roots, inputs)
    scheduled = needed.union(captures)
    captured = [None] * len(inputs)
    tiebreak = itertools.count().__next__
    ready = [(-n._sequence_nr, tiebreak(), n) for n in root_nodes if deps.get(n, 0) == 0]
    heapq.heapify(ready)
    with grad_mode.set_grad_enabled(bool(create_graph)):
        while ready:
            node = heapq.heappop(ready)[2]
            grads = buffers.pop(node, None) or [None] * node._num_outputs
            for nr, k in captures.get(node, ()):
                captured[k] = grads[nr]
            if node._is_accumulator or node not in needed:
                continue
            outputs = apply_batched(node, grads, batch)
            if not retain_graph:
                node._release()
            for (nxt, nr), g in zip(node.next_functions, outputs):
                if nxt is None or nxt not in scheduled:
                    continue
                if g is not None:
                    buf = buffers.setdefault(nxt, [None] * nxt._num_outputs)
                    buf[nr] = g if buf[nr] is None else buf[nr] + g
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    heapq.heappush(ready, (-nxt._sequence_nr, tiebreak(), nxt))
    return captured


def apply_batched(node, grads, batch: int) -> list:
    """Run ``node`` on batched gradients; each result has shape ``(B, *input_shape)``."""
    if all(g is None for g in grads):
        return [None] * len(node.next_functions)
    rule = _rule_for(node)
    if rule is not None:
        try:
            outputs = rule(node, grads, batch)
            if len(outputs) == len(node.next_functions):
                return [
                    None if g is None or meta is None else _reduce_batched(g, meta, batch)
                    for g, meta in zip(outputs, node._input_meta)
                ]
        except Exception:  # a case the rule does not cover: the row-by-row path is exact,
            pass  # and re-raises any error that is not about batching
    return _row_by_row(node, grads, batch)


class _NotBatchable(Exception):
    """A rule met a case it does not cover: run the node row by row instead."""


def _reduce_batched(g, meta, batch: int):
    """Sum a batched gradient ``(B, *broadcast_shape)`` down to ``(B, *shape)`` and cast it."""
    shape, dtype = meta
    full = tuple(g.shape)
    if len(full) < 1 + len(shape) or full[0] != batch:
        raise _NotBatchable
    lead = len(full) - 1 - len(shape)
    dims = list(range(1, 1 + lead))
    for i, (have, want) in enumerate(zip(full[1 + lead :], shape)):
        if have != want:
            if want != 1:
                raise _NotBatchable
            dims.append(1 + lead + i)
    if dims:
        g = g.sum(dims, keepdim=True)
    if lead:
        g = g.reshape((batch, *shape))
    if g._data.dtype != dtype:
        g = g.to(_dtypes.from_numpy_dtype(dtype))
    return g


def _row_by_row(node, grads, batch: int) -> list:
    from ..ops.shape import stack

    rows = []
    for b in range(batch):
        outputs = node._apply(tuple(None if g is None else g[b] for g in grads))
        if len(outputs) != len(node.next_functions):
            raise RuntimeError(
                f"function {node.name()} returned an incorrect number of gradients (expected "
                f"{len(node.next_functions)}, got {len(outputs)})"
            )
        rows.append(
            [
                None if g is None or meta is None else conform_gradient(g, meta, node, k)
                for k, (g, meta) in enumerate(zip(outputs, node._input_meta))
            ]
        )
    result = []
    for k, meta in enumerate(node._input_meta):
        column = [row[k] for row in rows]
        if all(g is None for g in column):
            result.append(None)
            continue
        if any(g is None for g in column):
            from .._creation import zeros

            column = [zeros(meta[0], dtype=column[0].dtype) if g is None else g for g in column]
        result.append(stack(column))
    return result


# -- rules -------------------------------------------------------------------------------------
def _shift_dim(d):
    # Negative dims count from the end and need no shift past the batch dimension.
    if d is None:
        return None
    if isinstance(d, (tuple, list)):
        return tuple(_shift_dim(x) for x in d)
    return d + 1 if d >= 0 else d


def _formula_rule(shifts):
    """Run the node's own formulas with dim/shape arguments shifted past the batch dim."""

    def rule(node, grads, batch):
        from .._core.dispatch import FREED
        from .._core.graph import freed_error

        if node._saved is FREED:
            raise freed_error(node)
        values = node._values(grads)
        ndim = len(node._input_meta[0][0]) if node._input_meta[0] is not None else None
        for name, kind in shifts.items():
            if name not in values:
                raise _NotBatchable
            value = values[name]
            if kind == "dim":
                values[name] = _shift_dim(value)
            elif kind == "shape":
                values[name] = (batch, *value)
            elif kind == "shapes":
                values[name] = tuple((batch, *s) for s in value)
            elif kind == "perm":
                values[name] = (0, *(d % ndim + 1 for d in value))
        return node._apply_values(values)

    return rule


def _pointwise_rule(node, grads, batch):
    # Pointwise formulas broadcast the leading batch dimension of ``grad`` by themselves.
    return list(node._apply(tuple(grads)))


def _saved(node, grads):
    from .._core.dispatch import FREED
    from .._core.graph import freed_error

    if node._saved is FREED:
        raise freed_error(node)
    return node._values(grads)


def _wants(node, k) -> bool:
    return node.next_functions[k][0] is not None


def _sum_all_rule(node, grads, batch, mean=False):
    shape = node._input_meta[0][0]
    g = grads[0].reshape((batch,) + (1,) * len(shape)).expand((batch, *shape))
    if mean:
        count = 1
        for s in shape:
            count *= s
        g = g / count
    return [g]


def _mm_rule(node, grads, batch):
    v, g = _saved(node, grads), grads[0]
    return [
        g.matmul(v["mat2"].t()) if _wants(node, 0) else None,
        v["input"].t().matmul(g) if _wants(node, 1) else None,
    ]


def _bmm_rule(node, grads, batch):
    v, g = _saved(node, grads), grads[0]
    return [
        g.matmul(v["mat2"].transpose(1, 2)) if _wants(node, 0) else None,
        v["input"].transpose(1, 2).matmul(g) if _wants(node, 1) else None,
    ]


def _addmm_rule(node, grads, batch):
    v, g = _saved(node, grads), grads[0]
    beta, alpha = v.get("beta", 1), v.get("alpha", 1)
    return [
        (g if beta == 1 else g * beta) if _wants(node, 0) else None,
        g.matmul(v["mat2"].t()) * alpha if _wants(node, 1) else None,
        v["mat1"].t().matmul(g) * alpha if _wants(node, 2) else None,
    ]


def _scaled(t, scale):
    return t if scale == 1 else t * scale


def _addmv_rule(node, grads, batch):
    v, g = _saved(node, grads), grads[0]
    return [
        _scaled(g, v.get("beta", 1)) if _wants(node, 0) else None,
        _scaled(g.unsqueeze(-1) * v["vec"], v["alpha"]) if _wants(node, 1) else None,
        _scaled(g.matmul(v["mat"]), v["alpha"]) if _wants(node, 2) else None,
    ]


def _addr_rule(node, grads, batch):
    v, g = _saved(node, grads), grads[0]
    return [
        _scaled(g, v.get("beta", 1)) if _wants(node, 0) else None,
        _scaled(g.matmul(v["vec2"]), v["alpha"]) if _wants(node, 1) else None,
        _scaled(v["vec1"].matmul(g), v["alpha"]) if _wants(node, 2) else None,
    ]


def _baddbmm_rule(node, grads, batch, summed=False):
    # addbmm sums its batch of products: every product gets the same (unsqueezed) gradient
    v, g = _saved(node, grads), grads[0]
    h = g.unsqueeze(1) if summed else g
    return [
        _scaled(g, v.get("beta", 1)) if _wants(node, 0) else None,
        _scaled(h.matmul(v["batch2"].transpose(-1, -2)), v["alpha"]) if _wants(node, 1) else None,
        _scaled(v["batch1"].transpose(-1, -2).matmul(h), v["alpha"]) if _wants(node, 2) else None,
    ]


def _mv_rule(node, grads, batch):
    v, g = _saved(node, grads), grads[0]
    return [
        g.unsqueeze(-1) * v["vec"] if _wants(node, 0) else None,
        g.matmul(v["input"]) if _wants(node, 1) else None,
    ]


def _dot_rule(node, grads, batch):
    v, g = _saved(node, grads), grads[0].unsqueeze(-1)
    return [
        g * v["tensor"] if _wants(node, 0) else None,
        g * v["input"] if _wants(node, 1) else None,
    ]


def _t_rule(node, grads, batch):
    g = grads[0]
    return [g.transpose(1, 2) if g.ndim == 3 else g]


def _expand_rule(node, grads, batch):
    return [grads[0]]  # _reduce_batched sums the expanded dims


# Node classes whose formulas are pointwise in ``grad`` (checked one by one).
_POINTWISE = """
AddBackward0 SubBackward0 RsubBackward1 MulBackward0 MulBackward1 DivBackward0 DivBackward1
DivBackward2 SgnBackward0 AddBackward1 MaskedFillBackward0
RemainderBackward0 FmodBackward0 NegBackward0 PowBackward0 PowBackward1 PowBackward2
ReciprocalBackward0 ExpBackward0 Exp2Backward0 Expm1Backward0 LogBackward0 Log2Backward0
Log10Backward0 Log1PBackward0 SqrtBackward0 RsqrtBackward0 SinBackward0 CosBackward0
TanBackward0 AsinBackward0 AcosBackward0 AtanBackward0 SinhBackward0 CoshBackward0
TanhBackward0 SigmoidBackward0 ReluBackward0 AbsBackward0 SignBackward0 FloorBackward0
CeilBackward0 TruncBackward0 RoundBackward0 FracBackward0 ClampBackward0 ClampBackward1
MaximumBackward0 MinimumBackward0 WhereBackward0 AddcmulBackward0 AddcdivBackward0
LerpBackward0 NanToNumBackward0 TanhBackwardBackward0 SigmoidBackwardBackward0
ThresholdBackwardBackward0 CloneBackward0 ToCopyBackward0 AliasBackward0 ZeroBackward0
CopyBackwards
"""

_RULES = dict.fromkeys(_POINTWISE.split(), _pointwise_rule)
_RULES.update(
    {
        "SumBackward0": _sum_all_rule,
        "MeanBackward0": lambda node, grads, batch: _sum_all_rule(node, grads, batch, True),
        "MmBackward0": _mm_rule,
        "BmmBackward0": _bmm_rule,
        "AddmmBackward0": _addmm_rule,
        "AddmvBackward0": _addmv_rule,
        "AddrBackward0": _addr_rule,
        "BaddbmmBackward0": _baddbmm_rule,
        "AddbmmBackward0": lambda node, grads, batch: _baddbmm_rule(node, grads, batch, True),
        "MvBackward0": _mv_rule,
        "DotBackward0": _dot_rule,
        "TBackward0": _t_rule,
        "ExpandBackward0": _expand_rule,
    }
)
_SHIFTED = {
    "ViewBackward0": {"input_shape": "shape"},
    "UnsafeViewBackward0": {"input_shape": "shape"},
    "SqueezeBackward0": {"input_shape": "shape"},
    "SqueezeBackward1": {"input_shape": "shape", "dim": "dim"},
    "SqueezeBackward2": {"input_shape": "shape"},
    "UnsqueezeBackward0": {"dim": "dim"},
    "SqueezeBackward4": {"dim": "dim"},  # matmul's vector @ matrix squeezes its result
    "TransposeBackward0": {"dim0": "dim", "dim1": "dim"},
    "PermuteBackward0": {"dims": "perm"},
    "SumBackward1": {"input_shape": "shape", "dim": "dim"},
    "MeanBackward1": {"input_shape": "shape", "dim": "dim"},
    "SoftmaxBackward0": {"dim": "dim"},
    "LogSoftmaxBackward0": {"dim": "dim"},
    "CumsumBackward0": {"dim": "dim"},
    "FlipBackward0": {"dims": "dim"},
    "SelectBackward0": {"input_shape": "shape", "dim": "dim"},
    "SliceBackward0": {"input_shape": "shape", "dim": "dim"},
    "SelectBackwardBackward0": {"dim": "dim"},
    "SliceBackwardBackward0": {"dim": "dim"},
    "CatBackward0": {"tensors_shape": "shapes", "dim": "dim"},
    "StackBackward0": {"dim": "dim"},
}
_RULES.update({name: _formula_rule(shifts) for name, shifts in _SHIFTED.items()})


def _rule_for(node):
    # Only the registry's own node classes qualify: a user class could reuse a name.
    if getattr(type(node), "_spec", None) is None:
        return None
    return _RULES.get(type(node).__name__)

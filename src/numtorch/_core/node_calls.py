"""How the engine runs one node: its hooks, the anomaly check and observers around it, the
count of gradients it returns, and each gradient conformed to its input (engine.py)."""

from __future__ import annotations

from . import dtypes as _dtypes
from .anomaly_mode import run_with_anomaly
from .hooks import node_post_hooks, node_pre_hooks
from .observers import dispatch


def conform_gradient(grad, meta, node, index: int):
    """Reduce a broadcast gradient to input ``index``'s shape and cast it to its dtype."""
    if getattr(grad, "is_sparse", False):  # sparse gradients come with their input's shape
        if tuple(grad.shape) != meta[0]:
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {index} - got "
                f"{list(grad.shape)} but expected shape compatible with {list(meta[0])}"
            )
        return grad
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


def observed_node(node, run):
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


def run_node(node, grads, anomaly):
    for g in grads:
        if g is not None:
            break
    else:
        return (None,) * len(node.next_functions)
    if node._hooked and node._pre_hooks:
        grads = node_pre_hooks(node, grads)
    if dispatch.meta:
        # saved values of ops run on meta tensors are the zero arrays computed before the
        # results became meta (Note [Meta tensors through ops]): formulas may mix them
        dispatch.in_backward += 1
        try:
            outputs = run_with_anomaly(node, grads) if anomaly else node._apply(grads)
        finally:
            dispatch.in_backward -= 1
    else:
        outputs = run_with_anomaly(node, grads) if anomaly else node._apply(grads)
    if len(outputs) != len(node.next_functions):
        _wrong_count(node, outputs)
    if node._hooked and node._post_hooks:
        outputs = node_post_hooks(node, outputs, grads)
    return outputs

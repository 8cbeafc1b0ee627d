"""How the engine runs one node: its hooks, the anomaly check and observers around it, the
count of gradients it returns, and each gradient conformed to its input (engine.py)."""

from __future__ import annotations

from ..backend import xp
from ..backend.vector_sum import ordered_sum
from . import dtypes as _dtypes
from .anomaly_mode import run_with_anomaly
from .hooks import node_post_hooks, node_pre_hooks
from .observers import dispatch
from .tensor import Tensor

_ndarray = xp.ndarray
_new = object.__new__


def tensor_of(value):
    """A gradient held as an array (Note [Gradients as arrays]) as a tensor; None stays."""
    if value is None or isinstance(value, Tensor):  # a sparse gradient stays a tensor
        return value
    if value.__class__ is not _ndarray and not isinstance(value, _ndarray):
        value = xp.asarray(value)  # operations on 0-d arrays give NumPy scalars
    t = _new(Tensor)
    t._data = value
    t._requires_grad = False
    t._grad_fn = None
    t._base = None
    return t


def gather_gradients(buffers, node) -> list:
    """The gradients of a node of several outputs, taken out of the engine's buffers (keyed
    like edges: the node for output 0, ``(node, nr)`` for the others)."""
    grads = [buffers.pop(node, None)]
    grads.extend(buffers.pop((node, nr), None) for nr in range(1, node._num_outputs))
    return grads


def data_of(grad):
    """A gradient tensor's array; None for a sparse gradient (or a value that is no tensor)."""
    try:
        return grad._data
    except (AttributeError, NotImplementedError):
        return None


def add_gradients(old, grad, create_graph, arrays=False):
    """The sum of two gradients for the same output (tensors; with ``arrays``, arrays unless
    one is sparse)."""
    if arrays:
        old, grad = tensor_of(old), tensor_of(grad)
        if old.is_sparse or grad.is_sparse:  # dense + sparse is dense: keep the dense one first
            total = grad + old if old.is_sparse and not grad.is_sparse else old + grad
            return total if total.is_sparse else total._data
        return xp.asarray(add_arrays(old._data, grad._data))
    if old.is_sparse or grad.is_sparse:
        return grad + old if old.is_sparse and not grad.is_sparse else old + grad
    if create_graph or grad._batched or old._batched or old._fw_grads is not None:
        return old + grad  # an op: it records, batches and adds tangents
    if grad._fw_grads is not None:
        return old + grad
    total = add_arrays(old._data, grad._data)
    if total.__class__ is not _ndarray:  # 0-d sums give NumPy scalars
        total = xp.asarray(total)
    return grad._make(total)


def add_arrays(old, new):
    """``old + new`` as torch's add: a complex ``new`` is first multiplied by alpha = 1 + 0j,
    so an infinite or NaN part makes its other part NaN (Note [Complex alpha] in
    ops/pointwise.py)."""
    total = old + new
    if total.dtype.kind == "c":
        total = (old + new * (1 + 0j)).astype(total.dtype, copy=False)
    return total


def conform_gradient(grad, meta, node, index: int, arrays: bool = False):
    """Reduce a broadcast gradient to input ``index``'s shape and cast it to its dtype; with
    ``arrays``, take and give it as an array (a node may also have returned a tensor)."""
    if getattr(grad, "is_sparse", False):  # sparse gradients come with their input's shape
        if tuple(grad.shape) != meta[0]:
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {index} - got "
                f"{list(grad.shape)} but expected shape compatible with {list(meta[0])}"
            )
        return grad
    if arrays:
        data = grad._data if isinstance(grad, Tensor) else grad
        if data.__class__ is _ndarray or isinstance(data, xp.generic):
            data = _conform_array(xp.asarray(data), meta)
            if data is not None:
                return data
            if not isinstance(grad, Tensor):
                grad = tensor_of(grad)
        return conform_gradient(grad, meta, node, index)._data
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
            if not getattr(node, "r_to_c", True):  # torch's validate_outputs
                raise RuntimeError(
                    "Expected isFloatingType(grad.scalar_type()) || (input_is_complex == "
                    "grad_is_complex) to be true, but got false.  (Could this error message be "
                    "improved?  If so, please report an enhancement request to PyTorch.)"
                )
            grad = grad.real  # a real input's gradient is the real part (as torch's)
        grad = grad.to(_dtypes.from_numpy_dtype(dtype))
    return grad


# A bias's gradient sums a (batch, features) gradient over its rows. NumPy adds the rows one
# after the other (11 us at 128 x 512); a product with a vector of ones is one BLAS GEMV
# (6 us; torch's sum 6-10 us). Its order of additions is BLAS's, so the last bits differ
# from NumPy's sum (and neither is torch's); below 64 rows the two take the same time.
_GEMV_ROWS = 64
_ONES = {}


def _column_sums(data):
    dtype = data.dtype
    if dtype != xp.float32 and dtype != xp.float64:  # NumPy's matmul has no BLAS for others
        return xp.add.reduce(data, axis=0)
    key = (data.shape[0], dtype.char)
    ones = _ONES.get(key)
    if ones is None:
        if len(_ONES) > 64:  # a handful of batch sizes in practice: bound it all the same
            _ONES.clear()
        ones = _ONES[key] = xp.ones(data.shape[0], dtype)
    return xp.matmul(ones, data)


def _conform_array(data, meta):
    """``conform_gradient`` on a real array (None where the tensor path must decide: complex
    values, other dtypes, shapes that do not broadcast)."""
    shape, dtype = meta
    if data.dtype.kind != "f":  # bfloat16 sums in float32, complex casts: the tensor path
        return None
    if data.shape != shape:
        lead = data.ndim - len(shape)
        if lead < 0:
            return None
        dims = list(range(lead))
        for i, size in enumerate(shape):
            if size == 1 and data.shape[lead + i] != 1:
                dims.append(lead + i)
            elif size != data.shape[lead + i]:
                return None
        if lead == 1 and len(dims) == 1 and data.ndim == 2 and data.shape[0] >= _GEMV_ROWS:
            data = _column_sums(data)
        elif len(dims) == lead:  # leading dims alone (a bias's gradient): no keepdims reshape
            if (
                lead == data.ndim
            ):  # a full sum, in torch's order (Note [Sum in torch's vector order])
                total = ordered_sum(data, None, False)
                data = xp.add.reduce(data, axis=None) if total is None else total
            else:
                data = xp.add.reduce(data, axis=tuple(dims))
            if data.__class__ is not _ndarray:  # a sum to 0-d is a NumPy scalar
                data = xp.asarray(data)
        else:
            # trailing dims sum in torch's order, as the sum a program writes by hand does
            total = ordered_sum(data, tuple(dims), True)
            if total is None:
                total = xp.add.reduce(data, axis=tuple(dims), keepdims=True)
            data = total.reshape(shape)
    if data.dtype != dtype:
        if dtype.kind != "f":
            return None
        data = data.astype(dtype)
    return data


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
        if not node._refuses:  # Note [Nodes that refuse] in engine.py
            if node._hooked:
                return _hooks_without_gradients(node, grads, anomaly)
            return (None,) * len(node.next_functions)
    if node._hooked and node._pre_hooks:
        grads = node_pre_hooks(node, grads)
    return _apply_node(node, grads, anomaly)


def _hooks_without_gradients(node, grads, anomaly):
    # torch runs a node that got no gradient at all, so its hooks see None (and the node
    # runs after all if a pre-hook supplies a gradient)
    if node._pre_hooks:
        grads = node_pre_hooks(node, grads)
        if any(g is not None for g in grads):
            return _apply_node(node, grads, anomaly)
    outputs = (None,) * len(node.next_functions)
    if node._post_hooks:
        outputs = node_post_hooks(node, outputs, grads)
    return outputs


def _apply_node(node, grads, anomaly):
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
        # torch validates the gradients (reduced to each input's shape and dtype) before
        # its post-hooks see them
        metas = node._input_meta or ()
        outputs = tuple(
            g
            if g is None or i >= len(metas) or metas[i] is None
            else conform_gradient(g, metas[i], node, i)
            for i, g in enumerate(outputs)
        )
        outputs = node_post_hooks(node, outputs, grads)
    return outputs

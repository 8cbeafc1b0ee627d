"""gather, scatter, scatter_add, index_select and index_add, with the index checks torch runs before
them."""

from __future__ import annotations

from .._core import batch_rules
from .._core.dispatch import require_tensor
from .._core.op import defop, export, not_implemented
from .._core.tensor import Tensor, _wrap_dim
from .._creation import zeros
from ..autograd.forward_grad import batch_shift, batched, no_forward_derivative
from ..backend import xp
from .concatenation import stack
from .indexing import _lead_shape
from .sparse import sparse_index_select


# -- gather and scatter ----------------------------------------------------------------------
def _check_index(index, name):
    if index._data.dtype.kind not in "iu":
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index")


def check_scatter_bounds(input, dim, index) -> None:
    """torch's RuntimeError for an index outside ``input`` along ``dim`` (NumPy would raise
    IndexError, or wrap a negative index around)."""
    size = input.shape[dim] if input.ndim else 1
    data = index._data
    outside = (data < 0) | (data >= size)
    if outside.any():
        bad = int(data[outside].flat[0])
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")


def check_scatter_dims(input, index, src, dim=None) -> None:
    """torch's checks of index against self and a tensor src, in torch's order: one number
    of dims (0-d and 1-D count as one) and, given ``dim``, index no larger than self (but
    along ``dim``) nor than src, whose sizes are read per index dim (an IndexError where src
    has fewer dims). Before NumPy would meet a mismatch as an IndexError."""
    if index._data.size == 0:
        return
    dims = max(index.ndim, 1)
    if max(input.ndim, 1) != dims:
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    tensor_src = isinstance(src, Tensor)
    wrong = False
    if dim is not None:
        sizes = [index.shape[d] if index.ndim else 1 for d in range(dims)]
        wrong = any(
            n > (input.shape[d] if input.ndim else 1) for d, n in enumerate(sizes) if d != dim
        )
        if tensor_src and not wrong:
            for d, n in enumerate(sizes):
                if n > (src.shape[_wrap_dim(d, src.ndim)] if src.ndim else 1):
                    wrong = True
                    break
    if tensor_src and max(src.ndim, 1) != dims:
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    if wrong:
        raise RuntimeError(
            f"Expected index {list(index.shape)} to be no larger than self {list(input.shape)} "
            f"apart from dimension {dim}"
            + (f" and to be no larger size than src {list(src.shape)}" if tensor_src else "")
        )


def lift_0d(*arrays):
    """The arrays with each 0-d one as 1-D: torch treats a 0-d tensor as one of one element
    along dim 0 in the scatter and index kernels, where NumPy's indexing of it fails."""
    return tuple(a.reshape(1) if getattr(a, "ndim", None) == 0 else a for a in arrays)


def _scatter_key(index, dim):
    key = list(xp.indices(index.shape, sparse=True))
    key[dim] = index
    return tuple(key)


def _check_gather_shapes(input, dim, index, name):
    if index._data.size == 0:  # torch checks nothing for an empty index
        return
    if index.ndim != input.ndim and not (index.ndim <= 1 and input.ndim <= 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for d in range(index.ndim):
        if d != dim and index.shape[d] > input.shape[d]:
            raise RuntimeError(
                f"Size does not match at dimension {d} expected index {list(index.shape)} to be "
                f"no larger than self {list(input.shape)} apart from dimension {dim}"
            )


def _gather_backward(grad, input_shape, dim, index):
    # (an empty index still scatters, as torch's does: under create_graph the zeros it gives
    # require grad through grad)
    if not input_shape:  # a 0-d input was read once per index element
        return grad.sum()
    if index.ndim == 0:  # a 1-D input read at a 0-d index
        index, grad = index.reshape(1), grad.reshape(1)
    return zeros(input_shape, dtype=grad.dtype).scatter_add(dim, index, grad)


# Forward derivatives of the gathers and scatters (linear): a leading batch of tangents gets
# the index expanded over it; the 0-d cases go one row at a time
def _rows(fn, tangents):
    return stack([fn(*row) for row in zip(*tangents)])


@batched
def _gather_jvp(input_t, input, dim, index):
    if not batch_shift(input_t, input):
        return _gather(input_t, dim, index)
    if input.ndim == 0 or index.ndim != input.ndim:
        return _rows(lambda t: _gather(t, dim, index), [input_t])
    return _gather(input_t, dim + 1, index.expand(_lead_shape(input_t, input, index.shape)))


def _scatter_jvp(op):
    @batched
    def jvp(input_t, src_t, input, dim, index, src):
        lead = (
            _lead_shape(input_t, input, ()) if input_t is not None else _lead_shape(src_t, src, ())
        )
        input_t = (
            zeros(lead + tuple(input.shape), dtype=input.dtype) if input_t is None else input_t
        )
        src_t = zeros(lead + tuple(src.shape), dtype=src.dtype) if src_t is None else src_t
        if not lead:
            return op(input_t, dim, index, src_t)
        if input.ndim == 0 or not index.ndim == src.ndim == input.ndim:
            return _rows(lambda t, s: op(t, dim, index, s), [input_t, src_t])
        return op(input_t, dim + 1, index.expand(lead + tuple(index.shape)), src_t)

    return jvp


@defop(
    batch=batch_rules.along("dim"),
    name="gather",
    # torch saves the input itself (not only its shape): changing it in place fails backward
    input=lambda grad, input, dim, index: _gather_backward(grad, input.shape, dim, index),
    jvp=_gather_jvp,
)
def _gather(input, dim, index):
    if index.size == 0:
        return xp.empty(index.shape, input.dtype)
    size = input.shape[dim] if input.ndim else 1
    if (index < 0).any() or (index >= size).any():
        bad = int(next(i for i in index.reshape(-1) if i < 0 or i >= size))
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")
    if input.ndim == 0:
        return xp.broadcast_to(input, index.shape).copy()
    if index.ndim == 0:
        return input[index].copy()
    trimmed = input[
        tuple(slice(0, s) if d != dim else slice(None) for d, s in enumerate(index.shape))
    ]
    return xp.take_along_axis(trimmed, index, dim)


@export
def gather(input, dim, index, *, sparse_grad=False) -> Tensor:
    """Values of ``input`` at ``index`` along ``dim``."""
    require_tensor("gather", "index", 3, index)
    dim = _wrap_dim(dim, max(input.ndim, 1))  # torch wraps dim before reading the index
    _check_index(index, "gather")
    _check_gather_shapes(input, dim, index, "gather")
    return _gather(input, dim, index)


@defop(
    batch=batch_rules.along("dim"),
    name="scatter_add",
    input=lambda grad: grad,
    src=lambda grad, dim, index: grad.gather(dim, index),
    jvp=_scatter_jvp(lambda *args: _scatter_add(*args)),
)
def _scatter_add(input, dim, index, src):
    if index.size == 0:  # torch checks nothing and writes nothing
        return input.copy()
    shape = input.shape
    input, index, src = lift_0d(input, index, src)
    out = input.copy()
    trimmed = src[tuple(slice(0, s) for s in index.shape)]
    xp.add.at(out, _scatter_key(index, dim), trimmed)
    return out.reshape(shape)


def _check_src_dtype(input, src):
    if isinstance(src, Tensor) and src._data.dtype != input._data.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")


@export(inplace=True)
def scatter_add(input, dim, index, src) -> Tensor:
    """Copy of ``input`` with ``src`` added at ``index`` along ``dim`` (duplicates add up)."""
    require_tensor("scatter_add", "index", 3, index)
    require_tensor("scatter_add", "src", 4, src)
    dim = _wrap_dim(dim, max(input.ndim, 1))  # torch wraps dim before the dtype checks
    _check_index(index, "scatter_add")
    _check_src_dtype(input, src)
    check_scatter_dims(input, index, src, dim)
    check_scatter_bounds(input, dim, index)
    return _scatter_add(input, dim, index, src)


@defop(
    batch=batch_rules.along("dim"),
    name="scatter_src",
    aten="scatter",
    node="ScatterBackward0",
    input=lambda grad, dim, index: grad.scatter(dim, index, 0.0),
    src=lambda grad, dim, index: grad.gather(dim, index),
    jvp=_scatter_jvp(lambda *args: _scatter_src(*args)),
)
def _scatter_src(input, dim, index, src):
    if index.size == 0:  # torch checks nothing and writes nothing
        return input.copy()
    shape = input.shape
    input, index, src = lift_0d(input, index, src)
    out = input.copy()
    out[_scatter_key(index, dim)] = src[tuple(slice(0, s) for s in index.shape)]
    return out.reshape(shape)


@batched
def _scatter_value_jvp(input_t, input, dim, index):
    # the written value is a constant: its places get a zero tangent
    if not batch_shift(input_t, input):
        return _scatter_value(input_t, dim, index, 0)
    if input.ndim == 0 or index.ndim != input.ndim:
        return _rows(lambda t: _scatter_value(t, dim, index, 0), [input_t])
    return _scatter_value(
        input_t, dim + 1, index.expand(_lead_shape(input_t, input, index.shape)), 0
    )


@defop(
    batch=batch_rules.along("dim"),
    name="scatter_value",
    aten="scatter",
    node="ScatterBackward1",
    input=lambda grad, dim, index: grad.scatter(dim, index, 0.0),
    jvp=_scatter_value_jvp,
)
def _scatter_value(input, dim, index, value):
    if index.size == 0:  # torch checks nothing and writes nothing
        return input.copy()
    shape = input.shape
    input, index = lift_0d(input, index)
    out = input.copy()
    out[_scatter_key(index, dim)] = value
    return out.reshape(shape)


# scatter(..., reduce="add" | "multiply") accumulates into ``input`` (repeated indices
# combine); torch registers no derivative for it: its node refuses backward
@defop(
    batch=batch_rules.along("dim"),
    name="scatter_reduce_argument",
    aten="scatter",
    node="NotImplemented",
    input=not_implemented("scatter"),
    scalars=("src",),
    src=not_implemented("scatter"),  # a src tensor that requires grad gets the node too
    jvp=no_forward_derivative("scatter"),
)
def _scatter_with_reduce(input, dim, index, src, reduce):
    shape = input.shape
    input, index = lift_0d(input, index)
    out = input.copy()
    if index.size:
        if isinstance(src, xp.ndarray):
            src = lift_0d(src)[0][tuple(slice(0, n) for n in index.shape)]
        ufunc = xp.add if reduce == "add" else xp.multiply
        ufunc.at(out, _scatter_key(index, dim), src)
    return out.reshape(shape)


@export(inplace=True)
def scatter(input, dim, index, src=None, *, value=None, reduce=None) -> Tensor:
    """Copy of ``input`` with ``src`` (tensor or number) written at ``index`` along ``dim``."""
    require_tensor("scatter", "index", 3, index)
    dim = _wrap_dim(dim, max(input.ndim, 1))  # torch wraps dim before the dtype checks
    _check_index(index, "scatter")
    if reduce is not None and reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    check_scatter_dims(input, index, src, dim)
    check_scatter_bounds(input, dim, index)
    if src is None:
        src = value
    if reduce is not None:
        if isinstance(src, Tensor):
            _check_src_dtype(input, src)
        return _scatter_with_reduce(input, dim, index, src, reduce)
    if isinstance(src, Tensor):
        _check_src_dtype(input, src)
        return _scatter_src(input, dim, index, src)
    return _scatter_value(input, dim, index, src)


def _index_select_backward(grad, input_shape, dim, index):
    if not input_shape:
        return grad
    return zeros(input_shape, dtype=grad.dtype).index_add(dim, index.reshape(-1), grad)


@batched
def _index_select_jvp(input_t, input, dim, index):
    if input.ndim == 0:
        return input_t
    return _index_select(input_t, dim + batch_shift(input_t, input), index)


@defop(
    batch=batch_rules.unbatched_index("index"),
    name="index_select",
    input=_index_select_backward,
    jvp=_index_select_jvp,
)
def _index_select(input, dim, index):
    if input.ndim == 0:  # the one element, whatever the index's shape (checked to hold one)
        return input.copy()
    return xp.take(input, index.reshape(-1), axis=dim)  # a 0-d index selects one slice


@export
def index_select(input, dim, index) -> Tensor:
    """The slices of ``input`` along ``dim`` at the positions in ``index`` (1-D)."""
    require_tensor("index_select", "index", 3, index)
    _wrap_dim(dim, max(input.ndim, 1))  # torch wraps dim before reading the index
    if index._data.dtype.kind not in "iu":
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if input.is_sparse:
        return sparse_index_select(input, dim, index, index_select)
    dim = _wrap_dim(dim, max(input.ndim, 1))
    size = input.shape[dim] if input.ndim else 1
    if input.ndim == 0 and index._data.size != 1:
        raise RuntimeError(
            f"index_select(): Index to scalar can have only 1 value, got {index._data.size} "
            "value(s)"
        )
    if index._data.size and size == 0 and input.ndim > 1:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if index._data.size and (index._data.max() >= size or index._data.min() < 0):
        if dim > 0:  # torch's kernel for inner dims reports it differently
            bad = int(next(i for i in index._data.reshape(-1) if i < 0 or i >= size))
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={size}")
        raise IndexError(
            f"index out of range in self (index_select along dim {dim} of size {size})"
        )
    return _index_select(input, dim, index)


@batched
def _index_add_jvp(input_t, source_t, input, dim, index, source, alpha):
    lead = (
        _lead_shape(input_t, input, ())
        if input_t is not None
        else _lead_shape(source_t, source, ())
    )
    input_t = zeros(lead + tuple(input.shape), dtype=input.dtype) if input_t is None else input_t
    source_t = (
        zeros(lead + tuple(source.shape), dtype=source.dtype) if source_t is None else source_t
    )
    if lead and (input.ndim == 0 or source.ndim != input.ndim):
        return _rows(lambda t, s: _index_add(t, dim, index, s, alpha), [input_t, source_t])
    return _index_add(input_t, dim + len(lead), index, source_t, alpha)


@defop(
    batch=batch_rules.unbatched_index("index"),
    name="index_add",
    scalars=("alpha",),
    input=lambda grad: grad,
    # reshape_as(source), as torch's formula: the source is saved, and changing it in place
    # fails the backward
    source=lambda grad, dim, index, source, alpha: (
        grad.index_select(dim, index).reshape(source.shape) * alpha
    ),
    jvp=_index_add_jvp,
)
def _index_add(input, dim, index, source, alpha=1):
    shape = input.shape
    if input.ndim > 1 and (index.size == 0 or input.size == 0):
        return input.copy()
    input, index, source = lift_0d(input, index, source)
    out = input.copy()
    xp.add.at(out, (slice(None),) * dim + (index,), source * alpha if alpha != 1 else source)
    return out.reshape(shape)


@export(inplace=True)
def index_add(input, dim, index, source, *, alpha=1) -> Tensor:
    """Copy of ``input`` with ``source`` slices added at ``index`` along ``dim``."""
    require_tensor("index_add", "index", 3, index)
    require_tensor("index_add", "source", 4, source)
    _wrap_dim(dim, max(input.ndim, 1))  # torch wraps dim before the dtype checks
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(
            f"index_add_(): self ({input.dtype.scalar_name}) and source "
            f"({source.dtype.scalar_name}) must have the same scalar type"
        )
    dim = _wrap_dim(dim, max(input.ndim, 1))
    _check_index_count(input, dim, index, source)
    check_source_shape(input, dim, source)
    if input.ndim > 1 and (index.numel() == 0 or input.numel() == 0):
        return _index_add(input, dim, index, source, alpha)  # torch adds nothing, unchecked
    _check_index_bounds(input, dim, index)
    return _index_add(input, dim, index, source, alpha)


def _check_index_count(input, dim, index, source) -> None:
    """torch's checks, in its order, that index_add's source has one slice per index."""
    if dim != 0 and dim >= source.ndim:
        raise RuntimeError(
            f"index_add_(): Indexing dim {dim} is out of bounds of the source tensor with dim "
            f"{source.ndim}"
        )
    count = index.numel()
    if source.ndim == 0:
        if count != 1:  # torch reads source.size(dim) for its message: that raises first
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    elif count != source.shape[dim]:
        raise RuntimeError(
            f"index_add_(): Number of indices ({count}) should be equal to source.size(dim): "
            f"({source.shape[dim]}), for dim: {dim}"
        )


def _check_index_bounds(input, dim, index) -> None:
    # torch's kernel: a matrix's loop names the index and dim (RuntimeError), a vector's not
    data = index._data.reshape(-1)
    size = input.shape[dim] if input.ndim else 1
    bad = data[(data >= size) | (data < -size)]
    if bad.size:
        if input.ndim > 1:
            raise RuntimeError(
                f"index {int(bad[0])} is out of bounds for dimension {dim} with size {size}"
            )
        raise IndexError("index out of range in self")


def check_source_shape(input, dim, source) -> None:
    """torch's check that index_add's and index_reduce's source has input's dims and sizes
    apart from ``dim`` (a 0-d and a 1-D tensor do not match here)."""
    if source.ndim != input.ndim or any(
        s != t for d, (s, t) in enumerate(zip(input.shape, source.shape)) if d != dim
    ):
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {list(input.shape)} source.shape = "
            f"{list(source.shape)}"
        )

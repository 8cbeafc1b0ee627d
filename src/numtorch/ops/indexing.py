"""Indexing: ``__getitem__``/``__setitem__``, gather/scatter, index_select/index_add, masks.

Backward of every gather-like op scatters with ``np.add.at`` semantics, so duplicate
indices accumulate (``x[[0, 0]].sum()`` gives ``x.grad[0] == 2``).
"""

from __future__ import annotations

import numbers
import warnings

from .._core import batch_rules, index_batch_rules
from .._core.dispatch import broadcast_shape
from .._core.inplace import check_inplace, check_no_partial_overlap, dense, write_inplace
from .._core.meta import no_data, refuse_meta
from .._core.op import defop, export, not_implemented
from .._core.tensor import Tensor, _wrap_dim
from .._creation import zeros, zeros_like
from ..autograd.forward_grad import align, batch_shift, batched, no_forward_derivative
from ..backend import xp
from .pointwise import where
from .shape import _unsqueeze, stack
from .sparse import sparse_index_select


def _bounds(index: int, size: int, dim: int) -> int:
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")
    return index + size if index < 0 else index


def _lead_shape(tangent, primal, shape) -> tuple:
    """``shape`` behind the leading batch dimension of ``tangent`` (if it has one)."""
    return tuple(tangent.shape[: batch_shift(tangent, primal)]) + tuple(shape)


# -- basic views: select and slice -----------------------------------------------------------
@defop(
    batch=batch_rules.into_shape("input_shape", "dim"),
    name="select_backward",
    node="SelectBackwardBackward0",
    grad_output=lambda grad, dim, index: grad.select(dim, index),
    jvp=batched(
        lambda grad_output_t, grad_output, input_shape, dim, index: _select_backward(
            grad_output_t,
            _lead_shape(grad_output_t, grad_output, input_shape),
            dim + batch_shift(grad_output_t, grad_output),
            index,
        )
    ),
)
def _select_backward(grad_output, input_shape, dim, index):
    out = xp.zeros(input_shape, grad_output.dtype)
    out[(slice(None),) * dim + (index,)] = grad_output
    return out


@defop(
    batch=batch_rules.along("dim"),
    name="select",
    view=True,
    input=lambda grad, input_shape, dim, index: _select_backward(grad, input_shape, dim, index),
    jvp=batched(
        lambda input_t, input, dim, index: _select(
            input_t, dim + batch_shift(input_t, input), index
        )
    ),
)
def _select(input, dim, index):
    # The trailing Ellipsis keeps a 0-d result a view (a bare integer key returns a copy).
    return input[(slice(None),) * dim + (index, Ellipsis)]


@export
def select(input, dim, index) -> Tensor:
    """The slice at ``index`` along ``dim`` (a view without that dim)."""
    if input.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, input.ndim)
    return _select(input, dim, _bounds(int(index), input.shape[dim], dim))


@defop(
    batch=batch_rules.into_shape("input_shape", "dim"),
    name="slice_backward",
    node="SliceBackwardBackward0",
    grad_output=lambda grad, dim, start, end, step: _slice(grad, dim, start, end, step),
    jvp=batched(
        lambda grad_output_t, grad_output, input_shape, dim, start, end, step: _slice_backward(
            grad_output_t,
            _lead_shape(grad_output_t, grad_output, input_shape),
            dim + batch_shift(grad_output_t, grad_output),
            start,
            end,
            step,
        )
    ),
)
def _slice_backward(grad_output, input_shape, dim, start, end, step):
    out = xp.zeros(input_shape, grad_output.dtype)
    out[(slice(None),) * dim + (slice(start, end, step),)] = grad_output
    return out


@defop(
    batch=batch_rules.along("dim"),
    name="slice",
    view=True,
    input=lambda grad, input_shape, dim, start, end, step: _slice_backward(
        grad, input_shape, dim, start, end, step
    ),
    jvp=batched(
        lambda input_t, input, dim, start, end, step: _slice(
            input_t, dim + batch_shift(input_t, input), start, end, step
        )
    ),
)
def _slice(input, dim, start, end, step):
    return input[(slice(None),) * dim + (slice(start, end, step),)]


def narrow_slice(input, dim, start, end, step=1) -> Tensor:
    """``input[..., start:end:step, ...]`` along ``dim`` (a view)."""
    if step <= 0:
        raise ValueError("step must be greater than zero")
    start, end, step = slice(start, end, step).indices(input.shape[dim])
    return _slice(input, dim, start, max(end, start), step)


@export
def narrow(input, dim, start, length) -> Tensor:
    if input.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, input.ndim)
    size = input.shape[dim]
    if isinstance(start, Tensor):
        start = start.item()
    start = check_narrow_start(start, size)
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return _slice(input, dim, start, start + length, 1)


def check_narrow_start(start, size):
    """``start`` wrapped into ``[0, size]``; torch's IndexError when it lies outside
    ``[-size, size]``."""
    if not -size <= start <= size:
        raise IndexError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {start})"
        )
    return start + size if start < 0 else start


@defop(
    batch=batch_rules.pointwise,
    name="index_alias",
    aten="alias",
    node="AliasBackward0",
    view=True,
    input=lambda grad: grad,
    jvp=batched(lambda input_t: _alias(input_t)),
)
def _alias(input):
    return input[...]


# -- key normalisation -----------------------------------------------------------------------
def _index_array(value, position: int):
    if isinstance(value, Tensor):
        data = value._data
    else:
        data = xp.asarray(value)
        if data.dtype.kind == "f":  # torch reads a Python or NumPy sequence as long
            data = data.astype(xp.int64)
    if data.dtype.kind == "b":
        return data
    if data.dtype == xp.uint8:  # torch's legacy byte masks
        warnings.warn(
            "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
            "instead.",
            UserWarning,
            stacklevel=5,
        )
        return data.astype(xp.bool_)
    if data.dtype.kind in "iu":
        return data.astype(xp.int64, copy=False)
    if data.size == 0:
        return data.astype(xp.int64)
    raise IndexError("tensors used as indices must be long, int, byte or bool tensors")


def _sequence_as_tuple(key) -> bool:
    # torch's legacy rule (from NumPy): a short list holding sequences, tensors, slices,
    # None or Ellipsis indexes several dims, x[[0, [1]]] == x[0, [1]]
    if not isinstance(key, list) or len(key) >= 32:
        return False
    return any(
        k is None or k is Ellipsis or isinstance(k, (slice, list, tuple, Tensor)) for k in key
    )


def normalize_key(key) -> tuple[tuple, bool]:
    """Turn an indexing key into a tuple; report whether it holds advanced (array) parts."""
    if _sequence_as_tuple(key):
        warnings.warn(
            "Using a non-tuple sequence for multidimensional indexing is deprecated and will be "
            "changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq].",
            UserWarning,
            stacklevel=4,
        )
        key = tuple(key)
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    advanced = False
    for i, k in enumerate(key):
        if k is None or k is Ellipsis or isinstance(k, slice):
            if isinstance(k, slice):
                k = slice(
                    *(v.item() if isinstance(v, Tensor) else v for v in (k.start, k.stop, k.step))
                )
            out.append(k)
        elif isinstance(k, bool):
            out.append(xp.asarray(k))
            advanced = True
        elif isinstance(k, (numbers.Integral, xp.integer)):
            out.append(int(k))
        elif isinstance(k, Tensor) and k._data.ndim == 0 and k._data.dtype.kind in "iu":
            out.append(int(k._data))
        elif isinstance(k, xp.ndarray) and k.ndim == 0 and k.dtype.kind in "iu":
            out.append(int(k))
        elif isinstance(k, (Tensor, list, tuple, range, xp.ndarray)):
            out.append(_index_array(k, i))
            advanced = True
        elif isinstance(k, (str, bytes)):
            raise TypeError(f"invalid index of type '{type(k).__name__}'")
        else:
            raise IndexError(
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                f"Variables are valid indices (got {type(k).__name__})"
            )
    return tuple(out), advanced


def _expand_bool_masks(key, shape):
    # A bool mask stands for the integer arrays of its nonzero positions (as torch does).
    out = []
    dim = 0
    specified = 0
    for k in key:
        is_mask = isinstance(k, xp.ndarray) and k.dtype == xp.bool_
        specified += (k.ndim if is_mask else 1) if k is not None and k is not Ellipsis else 0
    for k in key:
        if isinstance(k, xp.ndarray) and k.dtype == xp.bool_ and k.ndim:
            for i, n in enumerate(k.shape):
                if dim + i < len(shape) and n != shape[dim + i]:
                    raise IndexError(
                        f"The shape of the mask {list(k.shape)} at index {i} does not match "
                        f"the shape of the indexed tensor {list(shape)} at index {dim + i}"
                    )
            refuse_meta("nonzero", k)
            out.extend(xp.nonzero(k))
            dim += k.ndim
        else:
            out.append(k)
            if k is Ellipsis:
                dim += max(len(shape) - specified, 0)
            elif k is not None:
                dim += 1
    return tuple(out)


def _basic_getitem(input, key):
    specified = sum(1 for k in key if k is not None and k is not Ellipsis)
    if specified > input.ndim:
        raise IndexError(f"too many indices for tensor of dimension {input.ndim}")
    if len(key) == 1 and isinstance(key[0], slice):
        return narrow_slice(input, 0, key[0].start, key[0].stop, key[0].step or 1)
    result = input
    dim = 0
    applied = False
    for k in key:
        if k is None:
            result = _unsqueeze(result, dim)
            dim += 1
        elif k is Ellipsis:
            dim += input.ndim - specified
            continue
        elif isinstance(k, int):
            result = select(result, dim, k)
        else:
            step = 1 if k.step is None else k.step
            if k.start in (None, 0) and k.stop is None and step == 1:
                dim += 1
                continue
            result = narrow_slice(result, dim, k.start, k.stop, step)
            dim += 1
        applied = True
    return result if applied else _alias(input)


@defop(
    batch=batch_rules.index,
    name="index",
    promote=None,
    input=lambda grad, input_shape, key: zeros(input_shape, dtype=grad.dtype).index_put(
        key, grad, accumulate=True
    ),
    jvp="linear",
)
def _index(input, key):
    try:
        # NumPy may lay advanced-index results out in any order; torch's are contiguous, so
        # a later view/reshape aliases them exactly where torch's does
        result = input[key]
        return result if result.flags.c_contiguous else xp.ascontiguousarray(result)
    except IndexError as error:
        raise IndexError(str(error).replace("axis", "dimension")) from None


def getitem(input, key) -> Tensor:
    """``tensor[key]``: basic keys give views; integer/bool arrays give copies."""
    key, advanced = normalize_key(key)
    if not advanced:
        return _basic_getitem(input, key)
    if input.ndim == 0 and any(isinstance(k, xp.ndarray) and k.dtype != xp.bool_ for k in key):
        raise IndexError("too many indices for tensor of dimension 0")
    return _index(input, _expand_bool_masks(key, input.shape))


Tensor.__getitem__ = getitem


# -- index_put and __setitem__ ---------------------------------------------------------------
@defop(
    batch=index_batch_rules.index_put,
    name="index_put",
    scalars=("values",),
    input=lambda grad, key, accumulate: grad if accumulate else grad.index_put(key, 0.0),
    values=lambda grad, key: grad[key],
    jvp="linear",
)
def _index_put(input, key, values, accumulate=False):
    out = input.copy()
    values = xp.asarray(values).astype(input.dtype, copy=False)
    try:
        if accumulate:
            xp.add.at(out, key, values)
        else:
            out[key] = values
    except IndexError as error:
        raise IndexError(str(error).replace("axis", "dimension")) from None
    except ValueError as error:
        raise RuntimeError(f"shape mismatch in index_put: {error}") from None
    return out


@export
def index_put(input, indices, values, accumulate=False) -> Tensor:
    """Copy of ``input`` with ``values`` written (or added) at ``indices``."""
    if isinstance(indices, tuple) and all(
        isinstance(k, (slice, int, type(None), type(Ellipsis), xp.ndarray)) for k in indices
    ):
        key = indices
    else:
        key, _ = normalize_key(tuple(indices) if isinstance(indices, list) else indices)
    used = sum(_dims_indexed(k) for k in (key if isinstance(key, tuple) else (key,)))
    if used > input.ndim:  # torch counts the indices before comparing dtypes
        raise IndexError(f"too many indices for tensor of dimension {input.ndim} (got {used})")
    if isinstance(values, Tensor) and values._data.dtype != input._data.dtype:
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{input.dtype.scalar_name} for the destination and {values.dtype.scalar_name} for "
            "the source."
        )
    return _index_put(input, _expand_bool_masks(key, input.shape), values, accumulate)


def _dims_indexed(k) -> int:
    if k is None or k is Ellipsis:
        return 0
    data = getattr(k, "_data", k)
    if getattr(data, "dtype", None) == xp.bool_:
        return data.ndim
    return 1


def _check_no_overlap(self, values) -> None:
    # index_put_ refuses values sharing any memory with the written tensor, as torch
    if (
        isinstance(values, Tensor)
        and dense(self._data)
        and dense(values._data)
        and xp.may_share_memory(self._data, values._data)
    ):
        raise RuntimeError(
            "unsupported operation: some elements of the input tensor and the written-to "
            "tensor refer to a single memory location. Please clone() the tensor before "
            "performing the operation."
        )


def _index_put_(self, indices, values, accumulate=False):
    _check_no_overlap(self, values)
    return _inplace(self, lambda: index_put(self, indices, values, accumulate), "index_put_")


Tensor.index_put_ = _index_put_


def _inplace(self, compute, name):
    check_inplace(self, name)
    return write_inplace(self, compute(), name)


def _single_mask(key) -> bool:
    # torch writes ``t[mask] = value`` (with basic indices around it) as a masked_fill
    parts = key if isinstance(key, tuple) else (key,)
    tensors = [k for k in parts if isinstance(k, Tensor)]
    return len(tensors) == 1 and tensors[0]._data.dtype == xp.bool_


def setitem(self, key, value) -> None:
    """``tensor[key] = value``: writes through a view (basic keys) or index_put_."""
    if isinstance(key, Tensor) and key.ndim == 0 and key._data.dtype == xp.bool_:
        # torch reads a 0-d bool key as a new dim of size 1 (0 where False): a view write,
        # recorded as CopySlices
        view = self.unsqueeze(0)
        if not key._data:
            view = view[0:0]
        if isinstance(value, Tensor):
            view.copy_(value)
        else:
            view.fill_(value)
        return
    nkey, advanced = normalize_key(key)
    if advanced:
        if (
            isinstance(value, Tensor)
            and value._data.dtype != self._data.dtype
            and (value.ndim or not _single_mask(key))
        ):
            raise RuntimeError(  # torch casts numbers, and 0-dim values under one bool mask
                "Index put requires the source and destination dtypes match, got "
                f"{self.dtype.scalar_name} for the destination and {value.dtype.scalar_name} "
                "for the source."
            )
        _check_no_overlap(self, value)
        _inplace(
            self,
            lambda: _index_put(self, _expand_bool_masks(nkey, self.shape), value),
            "index_put_",
        )
        return
    view = _basic_getitem(self, nkey)
    if isinstance(value, Tensor):
        if value.ndim > view.ndim:  # torch drops the value's leading size-1 dims first
            lead = 0
            while lead < value.ndim and value.shape[lead] == 1:
                lead += 1
            value = value.reshape(value.shape[lead:])
        view.copy_(value)
    else:
        view.fill_(value)


Tensor.__setitem__ = setitem


@batched
def _copy_jvp(input_t, src_t, input, src):
    if src_t is None:
        return zeros_like(input_t)
    lead = _lead_shape(src_t, src, ())
    return align(src_t, src, input.ndim).expand(lead + tuple(input.shape)).to(input.dtype)


@defop(
    batch=batch_rules.pointwise_into,
    name="copy",
    aten="copy_",
    node="CopyBackwards",
    input=lambda grad: zeros_like(grad),
    src=lambda grad: grad,
    jvp=_copy_jvp,
)
def _copy(input, src):
    return xp.array(xp.broadcast_to(src, input.shape), dtype=input.dtype)


def copy_(self, src, non_blocking=False) -> Tensor:
    """Copy ``src`` (broadcast, cast) into this tensor in place."""
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'src' must be Tensor, not {type(src).__name__}")
    if src.is_meta and not self.is_meta:
        no_data()
    check_no_partial_overlap(self, (src,))
    shape = self._data.shape
    if src._data.shape != shape:
        broadcast = broadcast_shape(shape, src._data.shape)  # torch's a (self) / b (src) error
        if broadcast != shape:
            raise RuntimeError(
                f"output with shape {list(shape)} doesn't match the broadcast shape "
                f"{list(broadcast)}"
            )
    return _inplace(self, lambda: _copy(self, src), "copy_")


Tensor.copy_ = copy_


@batched
def _fill_jvp(input_t, value_t, input, value):
    t, p = (input_t, input) if input_t is not None else (value_t, value)
    shape = _lead_shape(t, p, input.shape)
    if value_t is None:
        return zeros(shape, dtype=input.dtype)
    return align(value_t, value, input.ndim).expand(shape)


@defop(
    batch=batch_rules.pointwise_into,
    name="fill",
    aten="fill_",
    node="FillBackward2",
    scalars=("value",),
    input=lambda grad: zeros_like(grad),
    value=lambda grad: grad.sum(),
    jvp=_fill_jvp,
)
def _fill(input, value):
    return xp.full(input.shape, value, dtype=input.dtype)


@defop(
    batch=batch_rules.pointwise,
    name="zero",
    aten="zero_",
    node="ZeroBackward0",
    input=lambda grad: zeros_like(grad),
    jvp=batched(lambda input_t: zeros_like(input_t)),
)
def _zero(input):
    return xp.zeros_like(input)


Tensor.fill_ = lambda self, value: _inplace(self, lambda: _fill(self, value), "fill_")
Tensor.zero_ = lambda self: _inplace(self, lambda: _zero(self), "zero_")


@export(method=False)
def fill(input, value) -> Tensor:
    return _fill(input, value)


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
    if index._data.size == 0:
        return zeros(input_shape, dtype=grad.dtype)
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
    _check_index(index, "gather")
    dim = _wrap_dim(dim, max(input.ndim, 1))
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
    _check_index(index, "scatter_add")
    dim = _wrap_dim(dim, max(input.ndim, 1))  # torch wraps dim before comparing dtypes
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
    _check_index(index, "scatter")
    if reduce is not None and reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    dim = _wrap_dim(dim, max(input.ndim, 1))
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


# -- masks -----------------------------------------------------------------------------------
# torch names the mask's dtype by its C++ type here
_CPP_NAMES = {
    "int64": "long int",
    "int32": "int",
    "int16": "short int",
    "int8": "signed char",
    "uint8": "unsigned char",
    "float32": "float",
    "float64": "double",
    "float16": "c10::Half",
}


def _check_mask(mask, name):
    if mask._data.dtype != xp.bool_:
        dtype = mask._data.dtype.name
        raise RuntimeError(
            f"{name} only supports boolean masks, but got mask with dtype "
            f"{_CPP_NAMES.get(dtype, dtype)}"
        )


def _fill_masked(input, mask, value):
    return xp.where(mask, xp.asarray(value).astype(input.dtype), input)


@defop(
    batch=batch_rules.pointwise,
    name="masked_fill",
    scalars=("value",),
    input=lambda grad, mask: where(mask, 0.0, grad),
    jvp=batched(lambda input_t, mask: where(mask, 0.0, input_t)),
)
def _masked_fill(input, mask, value):
    return _fill_masked(input, mask, value)


@batched
def _masked_fill_tensor_jvp(input_t, value_t, input, mask, value, result):
    fill = 0.0 if value_t is None else align(value_t, value, result.ndim)
    return where(mask, fill, 0.0 if input_t is None else input_t)


@defop(
    batch=batch_rules.pointwise_into,
    name="masked_fill_tensor",
    node="MaskedFillBackward1",
    input=lambda grad, mask: where(mask, 0.0, grad),
    value=lambda grad, mask: where(mask, grad, 0.0).sum(),
    jvp=_masked_fill_tensor_jvp,
)
def _masked_fill_tensor(input, mask, value):
    return _fill_masked(input, mask, value)


@export(inplace=True)
def masked_fill(input, mask, value) -> Tensor:
    """Copy of ``input`` with ``value`` where ``mask`` is True."""
    _check_mask(mask, "masked_fill_")
    broadcast_shape(mask._data.shape, input._data.shape)
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(
                "masked_fill_ only supports a 0-dimensional value tensor, but got "
                f"tensor with {value.ndim} dimension(s)."
            )
        return _masked_fill_tensor(input, mask, value)
    return _masked_fill(input, mask, value)


def _masked_select_backward(grad, input_shape, mask):
    # the mask broadcasts against the input: index with its full-shape expansion
    shape = broadcast_shape(tuple(input_shape), mask.shape)
    return zeros(shape, dtype=grad.dtype).index_put((mask.expand(shape),), grad, accumulate=True)


@batched
def _masked_select_jvp(input_t, input, mask, result):
    if not batch_shift(input_t, input):
        return _masked_select(input_t, mask)
    shape = broadcast_shape(tuple(input.shape), tuple(mask.shape))
    rows = align(input_t, input, len(shape)).expand(_lead_shape(input_t, input, shape))
    return rows.reshape(rows.shape[0], -1)[:, mask.expand(shape).reshape(-1)]


@defop(
    name="masked_select",
    # torch saves the input itself (not only its shape): changing it in place fails backward
    input=lambda grad, input, mask: _masked_select_backward(grad, input.shape, mask),
    jvp=_masked_select_jvp,
)
def _masked_select(input, mask):
    shape = broadcast_shape(input.shape, mask.shape)
    return xp.broadcast_to(input, shape)[xp.broadcast_to(mask, shape)]


@export
def masked_select(input, mask) -> Tensor:
    _check_mask(mask, "masked_select")
    refuse_meta("masked_select", input, mask)
    return _masked_select(input, mask)


@batched
def _take_jvp(input_t, input, index):
    if not batch_shift(input_t, input):
        return _take(input_t, index)
    return input_t.reshape(input_t.shape[0], -1)[:, index]


@defop(
    batch=index_batch_rules.take,
    name="take",
    # the formula names ``input`` (not only its shape) because torch saves self here: an
    # in-place change of it before backward then raises, as in torch
    input=lambda grad, input, index: (
        zeros(input.shape, dtype=grad.dtype)
        .reshape(-1)
        .index_put((index.reshape(-1),), grad.reshape(-1), accumulate=True)
        .reshape(input.shape)
    ),
    jvp=_take_jvp,
)
def _take(input, index):
    return xp.take(input.reshape(-1), index)


@export
def take(input, index) -> Tensor:
    return _take(input, index)


@export
def nonzero(input, *, as_tuple=False):
    """Indices of nonzero elements: an (n, ndim) tensor, or one tensor per dim."""
    refuse_meta("nonzero", input)
    found = xp.nonzero(input._data) if input.ndim else xp.nonzero(input._data.reshape(1))
    if as_tuple:
        return tuple(Tensor._make(f.astype(xp.int64)) for f in found)
    return Tensor._make(
        xp.stack(found, axis=1).astype(xp.int64) if found else xp.zeros((0, 0), xp.int64)
    )


@export
def argwhere(input) -> Tensor:
    return nonzero(input)

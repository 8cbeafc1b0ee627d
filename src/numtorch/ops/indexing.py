"""Indexing: ``__getitem__`` and ``__setitem__``, select and narrow, index_put, copy_ and fill_.

Backward of every gather-like op scatters with ``np.add.at`` semantics, so duplicate indices
accumulate (``x[[0, 0]].sum()`` gives ``x.grad[0] == 2``).
"""

from __future__ import annotations

import numbers
import warnings

from .._core import batch_rules, index_batch_rules
from .._core.dispatch import broadcast_shape, dispatch, fill_scalar
from .._core.inplace import check_inplace, check_no_partial_overlap, dense, write_inplace
from .._core.meta import no_data, refuse_meta
from .._core.op import defop, export, overloaded
from .._core.tensor import Tensor, _wrap_dim, int_argument, typename
from .._creation import zeros, zeros_like
from ..autograd.forward_grad import align, batch_shift, batched
from ..backend import layout as dense_layout
from ..backend import xp
from .shape import _unsqueeze


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
    if length.__class__ is not int:
        length = int_argument(length, "length", "narrow")
    if start.__class__ is not int and not isinstance(start, Tensor):  # (a tensor overload)
        start = int_argument(start, "start", "narrow")
    if length < 0:  # torch's first check, before the dim or the start
        raise RuntimeError("narrow(): length must be non-negative.")
    if input.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, input.ndim)
    size = input.shape[dim]
    if isinstance(start, Tensor):
        start = start.item()
    start = check_narrow_start(start, size)
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
    if data.size == 0 and not isinstance(value, Tensor):  # [] is a float list: no indices
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
                if k.step is not None and k.step <= 0:  # before any dim is counted
                    raise ValueError(
                        "slice step cannot be zero"
                        if k.step == 0
                        else "step must be greater than zero"
                    )
            out.append(k)
        elif isinstance(k, bool):
            out.append(xp.asarray(k))
            advanced = True
        elif isinstance(k, (numbers.Integral, xp.integer)):
            out.append(int(k))
        elif (
            isinstance(k, Tensor)
            and k._data.ndim == 0
            and k._data.dtype.kind in "iu"
            and k._data.dtype != xp.uint8  # a byte tensor is a (legacy) mask, 0-d too
        ):
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
    view, _ = _apply_basic(input, key)
    return view if view is not input else _alias(input)


_ALL = slice(None)
_ndarray = xp.ndarray


def _apply_basic(input, key):
    """The view the key's basic parts select, as torch applies them before any tensor index
    (integers select, slices narrow, None unsqueezes), and the key left for the view: full
    slices and the index arrays. Integers thus drop their dims before NumPy's rule places
    the advanced dims: ``x[0, :, [0, 1]]`` is 3 x 2, as in torch (NumPy's order: 2 x 3).
    ``input`` itself when nothing applied."""
    specified = 0  # dims the key names (a bool mask names as many as it has)
    for k in key:
        if k is not None and k is not Ellipsis:
            specified += k.ndim if k.__class__ is _ndarray and k.dtype == xp.bool_ else 1
    if specified > input.ndim:
        raise IndexError(f"too many indices for tensor of dimension {input.ndim}")
    result = input
    rest = []
    dim = 0
    for k in key:
        if k is None:
            result = _unsqueeze(result, dim)
            rest.append(_ALL)
            dim += 1
        elif k is Ellipsis:
            skipped = input.ndim - specified
            rest.extend([_ALL] * skipped)
            dim += skipped
        elif isinstance(k, int):
            result = select(result, dim, k)
        elif isinstance(k, slice):
            rest.append(_ALL)
            step = 1 if k.step is None else k.step
            # torch skips a slice from 0 with step 1 whose stop reaches the end (a start
            # of -n still slices)
            stop = k.stop
            if not (
                k.start in (None, 0) and step == 1 and (stop is None or stop >= result.shape[dim])
            ):
                result = narrow_slice(result, dim, k.start, stop, step)
            dim += 1
        else:  # an index array: a bool mask covers as many dims as it has
            rest.append(k)
            dim += k.ndim if k.dtype == xp.bool_ else 1
    return result, tuple(rest)


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
    if dispatch.torch_function is not None:  # offered as Tensor.__getitem__, as in torch
        taken = dispatch.torch_function(getitem, (input, key))
        if taken is not NotImplemented:
            return taken
    if key.__class__ is int and input._data.ndim:  # x[i], the commonest key: what
        return select(input, 0, key)  # _apply_basic does for it, without the key's walk
    bare_slice = key.__class__ is slice
    key, advanced = normalize_key(key)
    if bare_slice:  # torch's getitem slices even a full range here (SliceBackward0)
        if input.ndim == 0:
            raise IndexError("too many indices for tensor of dimension 0")
        return narrow_slice(input, 0, key[0].start, key[0].stop, key[0].step or 1)
    if not advanced:
        return _basic_getitem(input, key)
    if input.ndim == 0 and any(isinstance(k, xp.ndarray) and k.dtype != xp.bool_ for k in key):
        raise IndexError("too many indices for tensor of dimension 0")
    view, rest = _apply_basic(input, key)
    return _index(view, _expand_bool_masks(rest, view.shape))


getitem.__name__ = getitem.__qualname__ = "__getitem__"  # what __torch_function__ sees
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
    out = dense_layout.copy(input)  # torch's clone keeps the input's layout
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
    key = _expand_bool_masks(key, input.shape)
    _check_empty_dims_indexed(key, input.shape)  # also before the dtypes
    if isinstance(values, Tensor) and values._data.dtype != input._data.dtype:
        raise RuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{input.dtype.scalar_name} for the destination and {values.dtype.scalar_name} for "
            "the source."
        )
    return _index_put(input, key, values, accumulate)


def _check_empty_dims_indexed(key, shape) -> None:
    """torch's advanced indexing refuses, before anything else, an index into a dim of size 0
    unless the indices themselves are empty: no number is a valid index there."""
    arrays, dim, sizes = [], 0, []
    specified = sum(k is not None and k is not Ellipsis for k in key)
    for k in key:
        if k is Ellipsis:
            dim += max(len(shape) - specified, 0)
            continue
        if k is None:
            continue
        if isinstance(k, xp.ndarray) and k.ndim >= 0 and k.dtype.kind in "iu" and dim < len(shape):
            arrays.append(k)
            sizes.append(shape[dim])
        dim += 1
    try:
        shape = xp.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        shapes = ", ".join(str(list(a.shape)) for a in arrays)
        raise IndexError(
            f"shape mismatch: indexing tensors could not be broadcast together with shapes {shapes}"
        ) from None
    if 0 in sizes and 0 not in shape:
        raise IndexError("index is out of bounds for dimension with size 0")


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
    offer = dispatch.torch_function  # offered as Tensor.__setitem__, as in torch
    if offer is not None and offer(setitem, (self, key, value)) is not NotImplemented:
        return
    # torch reads the value before the key: one that is no tensor nor number is refused first
    if not isinstance(value, (Tensor, numbers.Number, xp.generic)):
        raise TypeError(f"can't assign a {typename(value)} to a {self.type()}")
    if isinstance(key, Tensor) and key.ndim == 0 and key._data.dtype == xp.bool_:
        # torch reads a 0-d bool key as a new dim of size 1 (0 where False): a view write,
        # recorded as CopySlices
        view = self.unsqueeze(0)
        if not key._data:
            view = view[0:0]
        if isinstance(value, Tensor):
            # it is still an index_put to torch: the value must broadcast (leading size-1
            # dims dropped) to the indexing result, and then have the written tensor's dtype
            shape = tuple(value.shape)
            while len(shape) > view.ndim and shape[0] == 1:
                shape = shape[1:]
            fits = len(shape) <= view.ndim and all(
                n in (1, m) for n, m in zip(reversed(shape), reversed(view.shape))
            )
            if not fits:
                raise RuntimeError(
                    f"shape mismatch: value tensor of shape {list(value.shape)} cannot be "
                    f"broadcast to indexing result of shape {list(view.shape)}"
                )
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(
                    "Index put requires the source and destination dtypes match, got "
                    f"{self.dtype.scalar_name} for the destination and "
                    f"{value.dtype.scalar_name} for the source."
                )
            view.copy_(value if shape == tuple(value.shape) else value.reshape(shape))
        else:
            view.fill_(value)
        return
    try:
        nkey, advanced = normalize_key(key)
    except IndexError:
        # torch's index_put_ refuses a leaf that requires grad, then a value sharing self's
        # memory, before it reads the indices
        if self._requires_grad:
            check_inplace(self, "index_put_")
        _check_no_overlap(self, value)
        raise
    if advanced:
        # torch writes into the view the basic parts select (CopySlices on self when that
        # is a real view), at the index arrays left
        view, rest = _apply_basic(self, nkey)
        # index_put_ refuses a leaf, then a value sharing self's memory, before the indices
        check_inplace(view, "index_put_")
        _check_no_overlap(self, value)
        expanded = _expand_bool_masks(rest, view.shape)
        _check_empty_dims_indexed(expanded, view.shape)
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
        _inplace(view, lambda: _index_put(view, expanded, value), "index_put_")
        return
    # torch's copy_to into what the key's basic parts select: self itself when its slices
    # all take whole dims (CopyBackwards, FillBackward3 on self, not CopySlices over a view)
    view, _ = _apply_basic(self, nkey)
    if not isinstance(value, Tensor):  # a number is a 0-dim tensor of self's dtype to torch
        value = Tensor._make(xp.asarray(fill_scalar(value, self._data.dtype), self._data.dtype))
    if value._data.shape == view._data.shape:
        view.copy_(value)
    elif value.ndim == 0:
        view.fill_(value)
    else:
        # torch views the value without its leading size-1 dims, then expands it to the
        # written shape (ViewBackward0 and ExpandBackward0 in the graph)
        lead = 0
        while lead < value.ndim and value.shape[lead] == 1:
            lead += 1
        value = value.view(value.shape[lead:])
        if value._data.shape != view._data.shape:
            value = value.expand(view.shape)
        view.copy_(value)


setitem.__name__ = setitem.__qualname__ = "__setitem__"
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


def copy_(self, other, non_blocking=False) -> Tensor:
    """Copy ``other`` (broadcast, cast) into this tensor in place (torch's Python name for
    the schema's ``src``)."""
    if not isinstance(other, Tensor):
        raise TypeError(
            f"copy_(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}"
        )
    if other.is_meta and not self.is_meta:
        no_data()
    check_no_partial_overlap(self, (other,))
    shape = self._data.shape
    if other._data.shape != shape:
        broadcast = broadcast_shape(shape, other._data.shape)  # torch's a (self) / b (src) error
        if broadcast != shape:
            raise RuntimeError(
                f"output with shape {list(shape)} doesn't match the broadcast shape "
                f"{list(broadcast)}"
            )
    return _inplace(self, lambda: _copy(self, other), "copy_")


Tensor.copy_ = copy_


@batched
def _fill_jvp(input_t, value_t, input, value):
    t, p = (input_t, input) if input_t is not None else (value_t, value)
    shape = _lead_shape(t, p, input.shape)
    if value_t is None:
        return zeros(shape, dtype=input.dtype)
    return align(value_t, value, input.ndim).expand(shape)


def _fill_values(input, value):
    return xp.full(input.shape, fill_scalar(value, input.dtype), dtype=input.dtype)


# torch names four nodes: torch.fill with a number (FillBackward0) or a 0-dim tensor
# (FillBackward1), and fill_ with either (FillBackward2, FillBackward3)
_FILL = dict(
    batch=batch_rules.pointwise_into,
    scalars=("value",),
    input=lambda grad: zeros_like(grad),
    value=lambda grad: grad.sum(),
    jvp=_fill_jvp,
)
_fill = overloaded("value", "FillBackward0", "FillBackward1", name="fill", **_FILL)(_fill_values)
_fill_ = overloaded("value", "FillBackward2", "FillBackward3", name="fill_", **_FILL)(_fill_values)


def _fill_value(value):
    if isinstance(value, Tensor) and value.ndim:
        raise RuntimeError(
            "fill_ only supports 0-dimension value tensor but got tensor with "
            f"{value.ndim} dimensions."
        )
    return value


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


def _fill_inplace(self, value):
    if isinstance(value, Tensor):
        # fill_.Tensor's kernel refuses an overlapping (expanded) target, which fill_ with a
        # number writes through (inplace.WRITE_THROUGH_OVERLAP)
        check_inplace(self, "fill_")
        return write_inplace(self, _fill_(self, _fill_value(value)), "fill_.Tensor")
    return _inplace(self, lambda: _fill_(self, value), "fill_")


Tensor.fill_ = _fill_inplace
Tensor.zero_ = lambda self: _inplace(self, lambda: _zero(self), "zero_")


@export(method=False)
def fill(input, value) -> Tensor:
    return _fill(input, _fill_value(value))

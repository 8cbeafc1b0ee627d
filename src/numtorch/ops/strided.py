"""``as_strided`` (a view with explicit sizes and strides over a tensor's storage) and the
``*_scatter`` ops: a copy of ``input`` with ``src`` written into one of its views
(diagonal, select, slice, as_strided), as torch's functionalization produces them."""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core.inplace import check_inplace
from .._core.op import FUNCTIONS, defop, export
from .._core.tensor import Tensor, _wrap_dim
from .._creation import ones, zeros, zeros_like
from ..autograd.forward_grad import batch_shift, batched
from ..backend import layout, xp
from .indexing import _bounds
from .triangular import _diagonal_dims, diagonal_view


# -- as_strided ------------------------------------------------------------------------------
def _storage(array):
    """The 1-D storage under ``array`` (its owning array, flattened) and the element
    offset of ``array``'s first element in it."""
    root = array
    while True:
        base = root.base
        if base is not None and not isinstance(base, xp.ndarray):
            # as_strided and broadcast_to views (an expanded tensor) hang off a DummyArray
            # that holds the array whose memory they show
            base = getattr(base, "base", None)
        if not isinstance(base, xp.ndarray):
            break
        root = base
    if not root.flags.c_contiguous:  # owned memory is contiguous; a foreign buffer may not be
        root = array
    flat = xp.ascontiguousarray(root.reshape(-1))  # (a copy only where root = array)
    if flat.dtype != array.dtype and flat.size:
        # the storage of a view_as_real: counted in the view's elements, not the owner's
        flat = flat.view(array.dtype)
    offset = (array.__array_interface__["data"][0] - root.__array_interface__["data"][0]) // max(
        array.itemsize, 1
    )
    return flat, offset


def _check_geometry(size, stride, storage_offset, storage_size, itemsize):
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError(
            f"as_strided: Negative strides are not supported at the moment, got strides: "
            f"{list(stride)}"
        )
    if storage_offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {storage_offset}")
    needed = 0 if 0 in size else storage_offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))
    if needed > storage_size:
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset "
            f"{storage_offset}, and itemsize {itemsize} requiring a storage size of "
            f"{needed * itemsize} are out of bounds for storage of size "
            f"{storage_size * itemsize}"
        )


def _positions(size, stride, offset) -> Tensor:
    """Storage index of every element of a ``size``/``stride`` view starting at ``offset``."""
    flat = xp.full(size, offset, dtype=xp.int64)
    for d, (n, s) in enumerate(zip(size, stride)):
        shape = [1] * len(size)
        shape[d] = n
        flat = flat + (xp.arange(n, dtype=xp.int64) * s).reshape(shape)
    return Tensor._make(xp.ascontiguousarray(flat).reshape(-1))


def _may_overlap(size, stride) -> bool:
    """Whether a geometry may show one storage element twice (torch's
    _maybe_overlapping_memory: each stride, smallest first, past all the smaller ones span)."""
    span = 0
    for n, s in sorted((pair for pair in zip(size, stride) if pair[0] != 1), key=lambda p: p[1]):
        if s <= span:
            return True
        span += s * (n - 1)
    return False


def _as_strided_backward(grad, input_geometry, size, stride, storage_offset):
    # scatter into the storage (adding where the view overlaps itself), then read the
    # input's own elements back out of it
    storage_size, input_shape, input_stride, input_offset = input_geometry
    storage = zeros(storage_size, dtype=grad.dtype)
    storage = storage.index_add(0, _positions(size, stride, storage_offset), grad.reshape(-1))
    wanted = _positions(input_shape, input_stride, input_offset)
    if 0 not in input_shape and _may_overlap(input_shape, input_stride):
        # an input that shows an element n times (an expanded one) gets 1/n of its gradient
        # at each: the gradients of its copies add up to the element's again, as torch's
        # as_strided_backward divides (clamped: positions the input never reads stay finite)
        counts = zeros(storage_size, dtype=grad.dtype).index_add(
            0, wanted, ones(wanted.shape[0], dtype=grad.dtype)
        )
        storage = storage / counts.clamp(min=1)
    return storage.index_select(0, wanted).reshape(input_shape)


def _as_strided_array(input, size, stride, storage_offset, input_geometry):
    flat, _ = _storage(input)
    _check_geometry(size, stride, storage_offset, flat.shape[0], input.itemsize)
    if 0 in size:
        return flat[:0].reshape(size)
    # built on the storage itself, so its base chain (and storage_offset) leads there
    return xp.ndarray(
        size,
        input.dtype,
        buffer=flat,
        offset=storage_offset * input.itemsize,
        strides=tuple(s * input.itemsize for s in stride),
    )


def _as_strided_view(input, size, stride, storage_offset, input_geometry):
    """The array of as_strided: read-only where two of its elements share memory (a dim of
    stride 0 and size above 1), as NumPy marks an expanded view, so that an in-place op on
    it meets torch's overlap refusal (torch's check sees that kind of overlap only)."""
    out = _as_strided_array(input, size, stride, storage_offset, input_geometry)
    if 0 in stride and any(st == 0 and n > 1 for n, st in zip(size, stride)):
        out.flags.writeable = False
    return out


@batched
def _as_strided_jvp(input_t, input, size, stride, storage_offset, input_geometry):
    # A tangent laid out like its primal (the tangent of a view is a view of its base's
    # tangent) takes the same view of its own storage; any other (a row of a batch, a
    # copy) is first written into a storage shaped like the primal's, zero elsewhere.
    storage_size, input_shape, input_stride, input_offset = input_geometry
    if batch_shift(input_t, input) == 0:
        flat, offset = _storage(input_t._data)
        steps = tuple(s // max(input_t._data.itemsize, 1) for s in input_t._data.strides)
        if flat.shape[0] == storage_size and offset == input_offset and steps == input_stride:
            return _as_strided(input_t, size, stride, storage_offset, input_geometry)
        return _as_strided_jvp(
            input_t.unsqueeze(0), input, size, stride, storage_offset, input_geometry
        )[0]
    batch = input_t.shape[0]
    storage = zeros((batch, storage_size), dtype=input_t.dtype)
    wanted = _positions(input_shape, input_stride, input_offset)
    storage = storage.index_copy(1, wanted, input_t.reshape(batch, -1))
    return storage.as_strided((batch, *size), (storage_size, *stride), storage_offset)


@export
def as_strided(input, size, stride, storage_offset=None) -> Tensor:
    """A view of ``input``'s storage with the given sizes, strides (in elements) and start.

    Example:
        >>> import numtorch as torch
        >>> torch.arange(6.0).as_strided((2, 2), (1, 2))
        tensor([[0., 2.],
                [1., 3.]])
    """
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    flat, offset = _storage(input._data)
    if storage_offset is None:
        storage_offset = offset
    geometry = (flat.shape[0], tuple(input.shape), input.stride(), offset)
    return _as_strided(input, size, stride, int(storage_offset), geometry)


_as_strided = defop(
    name="as_strided",
    view=True,
    input=lambda grad, input_geometry, size, stride, storage_offset: _as_strided_backward(
        grad, input_geometry, size, stride, storage_offset
    ),
    jvp=_as_strided_jvp,
)(_as_strided_view)

# as_strided_ gives ``self`` the new geometry; torch records it as AsStridedBackward1
_as_strided_inplace = defop(
    name="as_strided_",
    node="AsStridedBackward1",
    input=lambda grad, input_geometry, size, stride, storage_offset: _as_strided_backward(
        grad, input_geometry, size, stride, storage_offset
    ),
    jvp=_as_strided_jvp,
)(_as_strided_view)


def as_strided_(self, size, stride, storage_offset=None) -> Tensor:
    """Give ``self`` new sizes and strides over its storage (see :func:`as_strided`)."""
    from .inplace_views import _restride

    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    flat, offset = _storage(self._data)
    geometry = (flat.shape[0], tuple(self.shape), self.stride(), offset)
    start = offset if storage_offset is None else int(storage_offset)
    return _restride(
        self, _as_strided_inplace, _as_strided, "as_strided_", size, stride, start, geometry
    )


Tensor.as_strided_ = as_strided_
FUNCTIONS["as_strided_"] = as_strided_


# -- scatters into views ---------------------------------------------------------------------
def _check_src(src_shape, slice_shape):
    if tuple(src_shape) != tuple(slice_shape):
        raise RuntimeError(
            "expected src to have a size equal to the slice of self. src size = "
            f"{list(src_shape)}, slice size = {list(slice_shape)}"
        )


# Forward derivatives of the scatters into views (linear in ``input`` and ``src``): the same
# scatter of the tangents, zeros for one without, past a leading batch of tangents
def _both_tangents(input_t, src_t, input, src):
    shift = batch_shift(input_t, input) if input_t is not None else batch_shift(src_t, src)
    lead = tuple((input_t if input_t is not None else src_t).shape[:shift])
    input_t = zeros(lead + tuple(input.shape), dtype=input.dtype) if input_t is None else input_t
    src_t = zeros(lead + tuple(src.shape), dtype=src.dtype) if src_t is None else src_t
    return input_t, src_t, shift


@batched
def _diagonal_scatter_jvp(input_t, src_t, input, src, offset, dim1, dim2):
    input_t, src_t, shift = _both_tangents(input_t, src_t, input, src)
    return _diagonal_scatter(input_t, src_t, offset, dim1 + shift, dim2 + shift)


@batched
def _select_scatter_jvp(input_t, src_t, input, src, dim, index):
    input_t, src_t, shift = _both_tangents(input_t, src_t, input, src)
    return _select_scatter(input_t, src_t, dim + shift, index)


@batched
def _slice_scatter_jvp(input_t, src_t, input, src, dim, start, end, step):
    input_t, src_t, shift = _both_tangents(input_t, src_t, input, src)
    return _slice_scatter(input_t, src_t, dim + shift, start, end, step)


@defop(
    batch=batch_rules.along("dim1", "dim2"),
    name="diagonal_scatter",
    # src's shape only, as torch keeps: an in-place change of src afterwards is fine
    input=lambda grad, src_shape, offset, dim1, dim2: grad.diagonal_scatter(
        grad.new_zeros(src_shape), offset, dim1, dim2
    ),
    src=lambda grad, offset, dim1, dim2: grad.diagonal(offset, dim1, dim2),
    jvp=_diagonal_scatter_jvp,
)
def _diagonal_scatter(input, src, offset, dim1, dim2):
    out = layout.copy(input)  # torch scatters into a clone in the input's layout
    region = diagonal_view(out, offset, dim1, dim2)
    _check_src(src.shape, region.shape)
    region[...] = src
    return out


@export
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1) -> Tensor:
    """Copy of ``input`` with ``src`` written into ``input.diagonal(offset, dim1, dim2)``."""
    d1, d2 = _diagonal_dims(input.ndim, dim1, dim2)
    return _diagonal_scatter(input, src, int(offset), d1, d2)


@defop(
    batch=batch_rules.along("dim"),
    name="select_scatter",
    input=lambda grad, src_shape, dim, index: grad.select_scatter(
        grad.new_zeros(src_shape), dim, index
    ),
    src=lambda grad, dim, index: grad.select(dim, index),
    jvp=_select_scatter_jvp,
)
def _select_scatter(input, src, dim, index):
    out = layout.copy(input)  # torch scatters into a clone in the input's layout
    key = (slice(None),) * dim + (index, Ellipsis)
    _check_src(src.shape, out[key].shape)
    out[key] = src
    return out


@export
def select_scatter(input, src, dim, index) -> Tensor:
    """Copy of ``input`` with ``src`` written into ``input.select(dim, index)``."""
    dim = _wrap_dim(dim, input.ndim)
    size = input.shape[dim]
    if not -size <= index < size:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size {list(input.shape)} at "
            f"dimension {dim}"
        )
    return _select_scatter(input, src, dim, _bounds(int(index), size, dim))


@defop(
    batch=batch_rules.along("dim"),
    name="slice_scatter",
    input=lambda grad, src_shape, dim, start, end, step: grad.slice_scatter(
        grad.new_zeros(src_shape), dim, start, end, step
    ),
    src=lambda grad, dim, start, end, step: grad[(slice(None),) * dim + (slice(start, end, step),)],
    jvp=_slice_scatter_jvp,
)
def _slice_scatter(input, src, dim, start, end, step):
    out = layout.copy(input)  # torch scatters into a clone in the input's layout
    key = (slice(None),) * dim + (slice(start, end, step),)
    _check_src(src.shape, out[key].shape)
    out[key] = src
    return out


@export
def slice_scatter(input, src, dim=0, start=None, end=None, step=1) -> Tensor:
    """Copy of ``input`` with ``src`` written into ``input[..., start:end:step, ...]``
    along ``dim``.

    Example:
        >>> import numtorch as torch
        >>> torch.zeros(4).slice_scatter(torch.ones(2), start=1, end=3)
        tensor([0., 1., 1., 0.])
    """
    dim = _wrap_dim(dim, input.ndim)
    return _slice_scatter(input, src, dim, start, end, step)


def _as_strided_scatter_input(grad, size, stride, storage_offset):
    # torch's as_strided_scatter_backward keeps the gradient *inside* the written region
    # (where the true derivative is 0) and zeros it elsewhere; matched here for parity
    grad = grad.contiguous()
    region = grad.as_strided(size, stride, storage_offset)
    return zeros_like(grad).as_strided_scatter(region, size, stride, storage_offset)


@defop(
    name="as_strided_scatter",
    input=lambda grad, size, stride, storage_offset: _as_strided_scatter_input(
        grad, size, stride, storage_offset
    ),
    # torch's formula: grad.contiguous().as_strided(...), the region of a dense gradient
    src=lambda grad, size, stride, storage_offset: (
        grad.contiguous().as_strided(size, stride, storage_offset).clone()
    ),
    jvp="linear",
)
def _as_strided_scatter(input, src, size, stride, storage_offset, dense=False):
    # torch clones the input with its strides and storage offset (its whole storage, copied)
    # and writes into as_strided of that clone: the offset counts from the storage's start,
    # and defaults to the input's own; an input whose elements overlap is cloned densely, and
    # so is each sample under vmap (``dense``: its storage is the sample's own)
    out = None
    if not dense and not any(st == 0 and n > 1 for n, st in zip(input.shape, input.strides)):
        storage, start = _storage(input)
        storage = storage.copy()
        out = _as_strided_array(storage, input.shape, _elements(input), start, None)
        if not xp.array_equal(out, input, equal_nan=input.dtype.kind in "fc"):
            out = None  # memory NumPy does not lend as one block (a foreign buffer)
    if out is None:
        storage, start = xp.array(input, order="C").reshape(-1), 0
        out = storage.reshape(input.shape)
    storage_offset = start if storage_offset is None else storage_offset
    region = _as_strided_array(storage, size, stride, storage_offset, None)
    _check_src(src.shape, region.shape)
    region[...] = src
    return out


def _elements(array) -> tuple:
    return tuple(s // max(array.itemsize, 1) for s in array.strides)


@export
def as_strided_scatter(input, src, size, stride, storage_offset=None) -> Tensor:
    """Copy of ``input`` (its strides and storage offset kept) with ``src`` written into
    ``as_strided(size, stride, storage_offset)`` of it."""
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    if input.requires_grad and not input.is_contiguous():
        raise RuntimeError("as_strided_scatter is currently only supported for contiguous inputs")
    offset = None if storage_offset is None else int(storage_offset)
    return _as_strided_scatter(input, src, size, stride, offset, input._batched)


# -- fill_diagonal_ --------------------------------------------------------------------------
def fill_diagonal_(self, fill_value, wrap=False) -> Tensor:
    """Fill the main diagonal in place (all dims of equal length beyond 2-D; ``wrap``
    restarts it below a tall matrix's square top, every ``cols + 1`` elements)."""
    check_inplace(self, "fill_diagonal_")  # self itself, as torch's native in-place op
    if self.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.ndim > 2 and len(set(self.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    n = min(self.shape)
    stride = sum(self.stride())
    if wrap and self.ndim == 2 and self.shape[0] > self.shape[1] + 1 and self.is_contiguous():
        n = math.ceil(self.numel() / (self.shape[1] + 1))
    self.as_strided((n,), (stride,), self.storage_offset()).fill_(fill_value)
    return self


Tensor.fill_diagonal_ = fill_diagonal_

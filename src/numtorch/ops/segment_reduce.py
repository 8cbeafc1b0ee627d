"""segment_reduce: sum, mean, max, min or prod over consecutive segments of an axis, as
torch's (segments given by lengths or offsets; an ``initial`` value joins every segment)."""

from __future__ import annotations

import math

from .._core.op import defop, export, not_implemented
from .._core.tensor import Tensor, _wrap_dim
from ..autograd.forward_grad import no_forward_derivative
from ..backend import xp

_REDUCES = {"sum": "sum", "mean": "mean", "max": "max", "amax": "max", "min": "min"}
_REDUCES.update(amin="min", prod="prod")
# what an empty segment gives without an initial value
_EMPTY = {"sum": 0.0, "mean": math.nan, "max": -math.inf, "min": math.inf, "prod": 1.0}


def _rows(array, axis):
    """``array`` with its dims before ``axis`` flattened into one (an explicit count, not -1,
    which numpy cannot infer for an empty array)."""
    return array.reshape((int(math.prod(array.shape[:axis])), *array.shape[axis:]))


def _segments(lengths):
    """Per row of ``lengths`` (all but its last dim, flattened): (start, stop) pairs."""
    rows = _rows(lengths, lengths.ndim - 1)
    ends = xp.cumsum(rows, axis=1)
    return [list(zip((e - n).tolist(), e.tolist())) for n, e in zip(rows, ends)]


def _views(data, axis, lengths):
    """(output index, data slice) per segment: the leading dims of ``data`` before ``axis``
    go with the rows of ``lengths``."""
    flat = _rows(data, axis)
    # like torch, rows of lengths past the leading dims of data are not read
    for row, pairs in zip(range(flat.shape[0]), _segments(lengths)):
        for s, (start, stop) in enumerate(pairs):
            yield (row, s), flat[row, start:stop]


def _reduce_one(values, reduce, initial):
    if values.shape[0] == 0:
        fill = _EMPTY[reduce] if initial is None else initial
        return xp.full(values.shape[1:], fill, values.dtype)
    if reduce == "mean":
        total = values.sum(0) + (0 if initial is None else initial)
        return total / values.shape[0]
    fn = {"sum": xp.sum, "max": xp.max, "min": xp.min, "prod": xp.prod}[reduce]
    out = fn(values, axis=0)
    if initial is not None:
        combine = {"sum": xp.add, "max": xp.maximum, "min": xp.minimum, "prod": xp.multiply}
        out = combine[reduce](out, initial)
    return out.astype(values.dtype, copy=False)


def _reduce_backward(grad, output, data, reduce, lengths, axis, initial):
    """The gradient of one segment reduction: 1 (sum), 1/length (mean), shared equally among
    the elements equal to the extreme (max, min), the product of the others (prod)."""
    out = xp.zeros_like(data)
    flat_out = _rows(out, axis)
    grad = _rows(grad, axis)
    output = _rows(output, axis)
    for (row, s), values in _views(data, axis, lengths):
        n = values.shape[0]
        if n == 0:
            continue
        g = grad[row, s]
        start = sum(int(k) for k in _rows(lengths, lengths.ndim - 1)[row, :s])
        target = flat_out[row, start : start + n]
        if reduce == "sum":
            target[...] = g
        elif reduce == "mean":
            target[...] = g / n
        elif reduce in ("max", "min"):
            # a NaN result came from the NaNs of the segment: they share its gradient
            best = output[row, s]
            hit = (values == best) | (xp.isnan(values) & xp.isnan(best))
            # torch's kernel shares only a positive gradient among ties: a negative (or NaN)
            # one goes whole to every tied element
            g = xp.broadcast_to(g, hit.shape)
            target[...] = xp.where(hit, xp.where(g > 0, g / xp.maximum(hit.sum(0), 1), g), 0)
        else:  # prod: result / value as torch's, the product of the others at 0 and NaN
            ones = xp.ones((1, *values.shape[1:]), values.dtype)
            with xp.errstate(divide="ignore", invalid="ignore", over="ignore"):
                before = xp.cumprod(xp.concatenate([ones, values[:-1]]), axis=0)
                after = xp.cumprod(xp.concatenate([ones, values[:0:-1]]), axis=0)[::-1]
                others = before * after * (1 if initial is None else initial)
                ratio = output[row, s] / values
            # torch computes the exclusive product where the ratio is undefined: at a NaN
            # the others' product stays finite where result / value would be NaN
            target[...] = g * xp.where((values == 0) | xp.isnan(values), others, ratio)
    return out


# torch's gradient is an op without a derivative of its own: a second order raises its error
@defop(
    name="_segment_reduce_backward",
    schema_args=8,  # (grad, output, data, reduce, lengths, offsets, axis, initial)
    node="NotImplemented",
    grad=not_implemented("_segment_reduce_backward"),
    data=not_implemented("_segment_reduce_backward"),
    jvp=no_forward_derivative("_segment_reduce_backward"),
)
def _segment_reduce_backward_op(grad, output, data, reduce, lengths, axis, initial):
    return _reduce_backward(grad, output, data, reduce, lengths, axis, initial)


@defop(
    name="_segment_reduce",
    aten="segment_reduce",
    schema_args=8,  # (data, reduce, lengths, indices, offsets, axis, unsafe, initial)
    node="SegmentReduceBackward0",
    data=lambda grad, result, data, reduce, lengths, axis, initial: _segment_reduce_backward_op(
        grad, result, data, reduce, lengths, axis, initial
    ),
    jvp=no_forward_derivative("segment_reduce"),
)
def _segment_reduce_op(data, reduce, lengths, axis, initial):
    shape = (*data.shape[:axis], lengths.shape[-1], *data.shape[axis + 1 :])
    out = xp.empty((int(math.prod(data.shape[:axis])), *shape[axis:]), data.dtype)
    with xp.errstate(invalid="ignore", over="ignore"):  # torch's NaN/inf, no warning
        for (row, s), values in _views(data, axis, lengths):
            out[row, s] = _reduce_one(values, reduce, initial)
    return out.reshape(shape)


@export(method=False)
def segment_reduce(
    data, reduce, *, lengths=None, indices=None, offsets=None, axis=0, unsafe=False, initial=None
) -> Tensor:
    """Reduce consecutive segments of ``data`` along ``axis``: ``lengths`` (or ``offsets``)
    has the leading dims of ``data`` before ``axis`` and one entry per segment.

    Example:
        >>> import numtorch as torch
        >>> data = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
        >>> torch.segment_reduce(data, "max", lengths=torch.tensor([2, 0, 3, 1]))
        tensor([2., -inf, 5., 6.])
    """
    if reduce not in _REDUCES:
        raise RuntimeError(
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
        )
    if indices is not None:
        raise RuntimeError("segment_reduce(): indices based reduction is not supported yet.")
    if lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    given = lengths if lengths is not None else offsets
    kind = "lengths" if lengths is not None else "offsets"
    axis = _wrap_dim(axis, data.ndim)
    if data.ndim < given.ndim:
        raise RuntimeError(
            f"Expected data.dim() >= {kind}_value.dim() to be true, but got false.  "
            "(segment_reduce(): data needs at least the dims of the lengths or offsets.)"
        )
    if axis != given.ndim - 1:
        raise RuntimeError(
            f"segment_reduce(): Expected axis to be the last dimension of {kind} but got {axis}."
        )
    if lengths is not None and not unsafe and lengths.numel() == 0:
        # torch checks min(lengths) >= 0, which has no value without elements
        raise RuntimeError(
            "min(): Expected reduction dim to be specified for input.numel() == 0. Specify "
            "the reduction dim with the 'dim' argument."
        )
    counts = given._data.real.astype(xp.int64)  # complex lengths fail the dtype check below
    if lengths is None:
        counts = xp.diff(counts, axis=-1)
    if (counts < 0).any():
        raise RuntimeError("lengths contains negative value!")
    if not unsafe and (counts.sum(-1) != data.shape[axis]).any():
        raise RuntimeError(
            "segment_reduce(): Expected all rows of lengths along axis to sum to "
            "data.size(lengths.dim()-1) when !unsafe."
        )
    # torch checks the shapes and lengths before its kernels check the dtypes
    if not data.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"_segment_reduce_cpu\" not implemented for '{data.dtype.scalar_name}'"
        )
    if given.dtype.is_floating_point or given.dtype.is_complex:
        raise NotImplementedError(
            f'"_segment_reduce_{kind}_cpu_kernel1" not implemented for '
            f"'{given.dtype.scalar_name}'"
        )
    lengths_tensor = Tensor._make(counts)
    return _segment_reduce_op(data, _REDUCES[reduce], lengths_tensor, axis, initial)

"""Order statistics: median, nanmedian, kthvalue, mode, quantile and nanquantile.

The ``dim`` forms return (values, indices) and send the gradient to the selected elements;
median and nanmedian of all elements share it among ties (torch's evenly distributed
subgradient). NaN counts as larger than every number, as in sorting. Among tied values the
index returned is the first in a stable sort (torch's comparator breaks ties by index), but
for a nanmedian row of NaNs (see ``_all_nan_pick``), kthvalue (torch's quickselect, see
``_quick_select_index``) and ``mode``, which gives the last occurrence as torch does.
"""

from __future__ import annotations

import functools

from .._core import batch_rules
from .._core.kernel_dtypes import COMPLEX, NUMBERS, REAL, kernel
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim, int_argument
from .._creation import full_like, tensor
from ..autograd.forward_grad import batched
from ..backend import xp
from .extrema import _evenly_distribute, _select_backward, evenly_read_jvp, return_type
from .linalg import _squeeze_result
from .pointwise import where
from .reduction import _take_along, keepdim_error

_median_type = return_type("median")
_nanmedian_type = return_type("nanmedian")
_kthvalue_type = return_type("kthvalue")
_mode_type = return_type("mode")


def _nan_count(input, dim):
    if input.dtype.kind not in "fV":
        return 0
    return xp.sum(xp.isnan(input), axis=dim, keepdims=True)


def _pick_sorted(input, dim, position):
    """Values and indices at sorted ``position`` (an array broadcasting against the input
    with ``dim`` kept) along ``dim``; a stable sort puts NaNs last in their order."""
    order = xp.argsort(input, axis=dim, kind="stable")
    shape = list(input.shape)
    shape[dim] = 1
    position = xp.broadcast_to(xp.asarray(position, xp.int64), shape)
    indices = xp.take_along_axis(order, position, dim)
    return xp.take_along_axis(input, indices, dim), indices


def _finish(values, indices, dim, keepdim):
    if not keepdim:
        values, indices = values.squeeze(dim), indices.squeeze(dim)
    return values, indices.astype(xp.int64)


def _check_nonempty(input, dim, name):
    if input.ndim and input.shape[dim] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")


@functools.cache
def _all_nan_pick(n: int) -> int:
    """The index torch's nanmedian gives a row of ``n`` NaNs: its comparator orders numbers
    by value, then index, but finds no order between two NaNs, so libstdc++'s
    ``nth_element`` (introselect for position 0) leaves there what its median-of-three
    swaps and partition swaps bring, replayed here for elements that never compare less."""
    order, last, depth = list(range(n)), n, 2 * (n.bit_length() - 1)
    while last > 3 and depth:  # at depth 0 its heap select for one element moves nothing
        depth -= 1
        middle = last // 2
        order[0], order[middle] = order[middle], order[0]
        low, high = 1, last
        while True:  # the unguarded partition swaps every pair it meets
            high -= 1
            if not low < high:
                break
            order[low], order[high] = order[high], order[low]
            low += 1
        last = low
    return order[0]


def _lower_median(input, dim, ignore_nan):
    n = input.shape[dim]
    nans = _nan_count(input, dim)
    if ignore_nan:
        # the lower median of the numbers; position 0 (a NaN) when all are NaN
        position = xp.maximum((n - nans - 1) // 2, 0)
    else:
        # any NaN makes the median NaN: take the first NaN (sorted right after the numbers)
        position = xp.where(nans > 0, n - nans, (n - 1) // 2)
    values, indices = _pick_sorted(input, dim, position)
    if ignore_nan and n > 3 and xp.any(nans == n):
        indices = xp.where(nans == n, _all_nan_pick(n), indices)
    return values, indices


def _median_all_forward(input, ignore_nan):
    flat = input.reshape(-1)
    if flat.size == 0:
        return xp.asarray(xp.nan, input.dtype)
    return _lower_median(flat, 0, ignore_nan)[0][0]


def _median_dim_forward(input, dim, keepdim, ignore_nan):
    if input.ndim == 0:
        return input.copy(), xp.zeros((), xp.int64)
    values, indices = _lower_median(input, dim, ignore_nan)
    return _finish(values, indices, dim, keepdim)


def _select_formula(grad, input_shape, dim, keepdim, result1):
    if len(input_shape) == 0:
        return grad
    return _select_backward(grad, input_shape, dim, result1, keepdim)


def _distribute(grad, input, result):
    return _evenly_distribute(grad, input, result, None, False)


# Forward derivatives: the tangent at the selected element; all-element medians read their
# ties evenly
@batched
def _selected_jvp(input_t, input, dim, keepdim, result1):
    return _take_along(input_t, input, dim, result1, keepdim), None


@defop(
    batch=batch_rules.full_reduction("median_dim", values_only=True),
    name="median_all",
    dtypes=kernel("median_cpu", NUMBERS - COMPLEX),
    node="MedianBackward0",
    input=_distribute,
    jvp=evenly_read_jvp,
)
def _median_all(input):
    return _median_all_forward(input, False)


@defop(
    batch=batch_rules.full_reduction("nanmedian_dim", values_only=True),
    name="nanmedian_all",
    dtypes=kernel("median_cpu", NUMBERS - COMPLEX),
    node="NanmedianBackward0",
    input=_distribute,
    jvp=evenly_read_jvp,
)
def _nanmedian_all(input):
    return _median_all_forward(input, True)


@defop(
    batch=batch_rules.along("dim"),
    name="median_dim",
    dtypes=kernel("median_out", NUMBERS - COMPLEX),
    node="MedianBackward1",
    outputs=2,
    returns=_median_type,
    input=_select_formula,
    jvp=_selected_jvp,
)
def _median_dim(input, dim, keepdim):
    return _median_dim_forward(input, dim, keepdim, False)


@defop(
    batch=batch_rules.along("dim"),
    name="nanmedian_dim",
    dtypes=kernel("median_out", NUMBERS - COMPLEX),
    node="NanmedianBackward1",
    outputs=2,
    returns=_nanmedian_type,
    input=_select_formula,
    jvp=_selected_jvp,
)
def _nanmedian_dim(input, dim, keepdim):
    return _median_dim_forward(input, dim, keepdim, True)


def _reduction_dim(input, dim, name):
    dim = _wrap_dim(dim, max(input.ndim, 1))
    _check_nonempty(input, dim, name)
    return dim


@export
def median(input, dim=None, keepdim=False):
    """The lower median of all elements, or (values, indices) along ``dim``; NaN if a
    NaN is present.

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([[3.0, 1.0, 2.0, 4.0]]).median(1)
        torch.return_types.median(
        values=tensor([2.]),
        indices=tensor([2]))
    """
    if keepdim.__class__ is not bool:
        raise keepdim_error("median", keepdim)
    if dim is None:
        return _median_all(input)
    return _median_dim(input, _reduction_dim(input, dim, "median"), keepdim)


@export
def nanmedian(input, dim=None, keepdim=False):
    """Like ``median``, ignoring NaNs (NaN only where every element is NaN).

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([1.0, float("nan"), 3.0, 2.0]).nanmedian()
        tensor(2.)
    """
    if keepdim.__class__ is not bool:
        raise keepdim_error("nanmedian", keepdim)
    if dim is None:
        return _nanmedian_all(input)
    return _nanmedian_dim(input, _reduction_dim(input, dim, "nanmedian"), keepdim)


@defop(
    batch=batch_rules.along("dim"),
    name="kthvalue",
    dtypes=kernel("kthvalue_cpu", NUMBERS - COMPLEX),
    outputs=2,
    returns=_kthvalue_type,
    input=_select_formula,
    jvp=_selected_jvp,
)
def _kthvalue(input, k, dim, keepdim):
    if input.ndim == 0:
        return input.copy(), xp.zeros((), xp.int64)
    values, indices = _pick_sorted(input, dim, k - 1)
    # among ties, the index is the one torch's quickselect leaves at position k - 1
    same = (input == values) | (xp.isnan(input) & xp.isnan(values))
    tied = xp.moveaxis(xp.sum(same, axis=dim, keepdims=True) > 1, dim, -1)
    if tied.any():
        rows, picked = xp.moveaxis(input, dim, -1), xp.moveaxis(indices, dim, -1)
        chosen = xp.moveaxis(values, dim, -1)
        for row in map(tuple, xp.argwhere(tied[..., 0])):  # () for a 1-D input's one row
            picked[row] = _quick_select_index(rows[row].tolist(), k - 1)
            # the value is that element's own: a 0.0 and a -0.0 tie, but keep their signs
            chosen[row] = xp.take_along_axis(rows[row], picked[row].reshape(-1), -1)
    return _finish(values, indices, dim, keepdim)


def _quick_select_index(row, k):
    """The index torch's ``quick_select_template`` (median-of-three quickselect, NaN
    greatest) leaves at position ``k`` of ``row``: which of several equal values it is."""
    values, index = list(row), list(range(len(row)))

    def greater(x, y):
        return (x != x and y == y) or x > y

    def swap(i, j):
        values[i], values[j] = values[j], values[i]
        index[i], index[j] = index[j], index[i]

    low, high = 0, len(values) - 1
    while high > low + 1:
        swap(low + (high - low) // 2, low + 1)
        if greater(values[low + 1], values[high]):
            swap(low + 1, high)
        if greater(values[low], values[high]):
            swap(low, high)
        if greater(values[low + 1], values[low]):
            swap(low + 1, low)
        i, j, pivot = low + 1, high, values[low]
        while True:
            i += 1
            while greater(pivot, values[i]):
                i += 1
            j -= 1
            while greater(values[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(low, j)
        if j <= k:
            low = i
        if j >= k:
            high = j - 1
    if high == low + 1 and greater(values[low], values[high]):
        swap(low, high)
    return index[k]


@export
def kthvalue(input, k, dim=-1, keepdim=False):
    """The ``k``-th smallest element (1-based) along ``dim`` and its index.

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([5.0, 1.0, 4.0]).kthvalue(2)
        torch.return_types.kthvalue(
        values=tensor(4.),
        indices=tensor(2))
    """
    if keepdim.__class__ is not bool:
        raise keepdim_error("kthvalue", keepdim)
    if k.__class__ is not int:
        k = int_argument(k, "k", "kthvalue")
    dim = _wrap_dim(dim, max(input.ndim, 1))
    size = input.shape[dim] if input.ndim else 1
    if size == 0:
        raise IndexError(f"kthvalue(): Expected reduction dim {dim} to have non-zero size.")
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    return _kthvalue(input, int(k), dim, keepdim)


def _mode_forward(input, dim, keepdim):
    x = xp.moveaxis(input, dim, -1)
    n = x.shape[-1]
    s = xp.sort(x, axis=-1)
    same = s[..., 1:] == s[..., :-1]
    if s.dtype.kind in "fV":
        same |= xp.isnan(s[..., 1:]) & xp.isnan(s[..., :-1])
    starts = xp.concatenate([xp.ones(s.shape[:-1] + (1,), bool), ~same], axis=-1)
    ends = xp.concatenate([~same, xp.ones(s.shape[:-1] + (1,), bool)], axis=-1)
    positions = xp.arange(n)
    first = xp.maximum.accumulate(xp.where(starts, positions, 0), axis=-1)
    last = xp.flip(xp.minimum.accumulate(xp.flip(xp.where(ends, positions, n), -1), -1), -1)
    # the longest run; ties go to the smallest value (the first such run when sorted)
    best = xp.argmax(last - first, axis=-1)[..., None]
    value = xp.take_along_axis(s, best, -1)
    equal = x == value
    if x.dtype.kind in "fV":
        equal |= xp.isnan(x) & xp.isnan(value)
    index = xp.max(xp.where(equal, positions, -1), axis=-1, keepdims=True)  # last occurrence
    if x.dtype.kind == "f" and n <= _INSERTION_SORTED:
        has_nan = xp.isnan(x).any(-1)
        for row in xp.ndindex(*x.shape[:-1]):
            if has_nan[row]:
                value[row], index[row] = _mode_with_nan(x[row])
    value, index = xp.moveaxis(value, -1, dim), xp.moveaxis(index, -1, dim)
    return _finish(value, index, dim, keepdim)


# torch's mode sorts each slice with std::sort and ``<``, which for up to 16 elements is
# libstdc++'s insertion sort; NaN compares false both ways there, so where NaNs end up (and
# which value wins a tie of counts) follows that algorithm, each NaN a run of its own
_INSERTION_SORTED = 16


def _mode_with_nan(values):
    items = [(v, i) for i, v in enumerate(values.tolist())]
    for i in range(1, len(items)):
        item = items[i]
        if item[0] < items[0][0]:
            items[1 : i + 1] = items[:i]
            items[0] = item
            continue
        j = i
        while item[0] < items[j - 1][0]:  # stops at 0: item < items[0] is false
            items[j] = items[j - 1]
            j -= 1
        items[j] = item
    best, run, found = 0, 0, items[0]
    for i, item in enumerate(items):
        run += 1
        if i == len(items) - 1 or item[0] != items[i + 1][0]:
            if run > best:
                best, found = run, item
            run = 0
    return found


@defop(
    batch=batch_rules.along("dim"),
    name="mode",
    dtypes=kernel("mode_cpu", REAL),
    outputs=2,
    returns=_mode_type,
    input=_select_formula,
    jvp=_selected_jvp,
)
def _mode(input, dim, keepdim):
    if input.ndim == 0:
        return input.copy(), xp.zeros((), xp.int64)
    return _mode_forward(input, dim, keepdim)


@export
def mode(input, dim=-1, keepdim=False):
    """The most frequent value along ``dim`` (the smallest among ties) and the index of its
    last occurrence.

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([2, 1, 2, 3]).mode()
        torch.return_types.mode(
        values=tensor(2),
        indices=tensor(2))
    """
    if keepdim.__class__ is not bool:
        raise keepdim_error("mode", keepdim)
    return _mode(input, _reduction_dim(input, dim, "mode"), keepdim)


# -- quantile (composite, as torch: sort, gather the neighbours, interpolate) ----------------
_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _check_quantile(input, q, interpolation):
    if input._data.size == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if isinstance(q, Tensor) and q.ndim > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if input._data.dtype not in (xp.float32, xp.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if isinstance(q, Tensor):
        if q._data.dtype != input._data.dtype:
            raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
        if ((q._data < 0) | (q._data > 1)).any():
            raise RuntimeError("quantile() q values must be in the range [0, 1]")
    elif not 0 <= q <= 1:
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q}")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(
            "quantile() interpolation must be one of linear, lower, higher, midpoint or "
            f"nearest, but got {interpolation}"
        )


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan):
    _check_quantile(input, q, interpolation)
    if not isinstance(q, Tensor):
        q = tensor(q, dtype=input.dtype)
    scalar_q = q.ndim == 0  # a number or a 0-d tensor: no dim for q in the result
    ndim = input.ndim
    if dim is not None:
        dim = _wrap_dim(dim, ndim)  # a 0-d input takes dim 0 or -1 only
    if dim is not None and ndim:
        out_shape = list(input.shape)
        if keepdim:
            out_shape[dim] = 1
        else:
            del out_shape[dim]
    else:
        out_shape = [1] * ndim if keepdim else []
    if dim is None or not ndim:
        ordered = input.flatten().sort()[0]
    elif dim == ndim - 1:
        ordered = input.sort()[0]
    else:
        ordered = input.unsqueeze(-1).transpose(dim, -1).sort()[0]
    n = ordered.shape[-1]
    ordered = ordered.view(*out_shape, n)
    nans = ordered.isnan()
    if ignore_nan:
        # ranks among the numbers; all-NaN slices get rank 0 (a NaN)
        ranks = q * (nans.logical_not().sum(-1, keepdim=True) - 1)
        ranks = ranks.masked_fill(ranks < 0, 0)
    else:
        # any NaN: take the last position (a NaN)
        ranks = where(nans.any(-1, keepdim=True), float(n - 1), q * (n - 1))
    if interpolation == "lower":
        ranks = ranks.floor()
    elif interpolation == "higher":
        ranks = ranks.ceil()
    elif interpolation == "nearest":
        ranks = ranks.round()
    below = ranks.long()
    values = ordered.gather(-1, below)
    if interpolation in ("linear", "midpoint"):
        weights = ranks - below if interpolation == "linear" else full_like(ranks, 0.5)
        above = ordered.gather(-1, ranks.ceil().long())
        values = values.lerp(above, weights)
    if scalar_q:
        return _squeeze_result(values, values.ndim - 1)
    return _squeeze_result(values.unsqueeze(0).transpose(0, -1), values.ndim)


@export
def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear") -> Tensor:
    """The ``q``-th quantiles (``q`` a number or 1-D tensor in [0, 1]) of all elements or
    along ``dim``, interpolating between neighbours (NaN if a NaN is present).

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([1.0, 2.0, 3.0, 4.0]).quantile(0.5)
        tensor(2.5000)
    """
    if keepdim.__class__ is not bool:
        raise keepdim_error("quantile", keepdim)
    return _quantile(input, q, dim, keepdim, interpolation, False)


@export
def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear") -> Tensor:
    """Like ``quantile``, ignoring NaNs.

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([1.0, float("nan"), 3.0]).nanquantile(0.5)
        tensor(2.)
    """
    if keepdim.__class__ is not bool:
        raise keepdim_error("nanquantile", keepdim)
    return _quantile(input, q, dim, keepdim, interpolation, True)

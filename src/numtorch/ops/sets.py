"""Sets and counting: unique, unique_consecutive, bincount, histc, searchsorted, bucketize,
isin. None of these is differentiable; as in torch, unique and bincount (with weights) still
record a node on inputs that require grad, and backward through it raises."""

from __future__ import annotations

import math

from .._core import batch_rules, unsigned
from .._core import dtypes as _dtypes
from .._core.kernel_dtypes import BOOL, REAL, kernel
from .._core.meta import refuse_meta
from .._core.op import defop, export, not_implemented, refusing
from .._core.tensor import Tensor, _wrap_dim
from ..autograd.forward_grad import no_forward_derivative, not_implemented_jvp
from ..backend import xp


def _no_derivative(name: str):
    @refusing
    def formula(grad):
        raise NotImplementedError(f"the derivative for '{name}' is not implemented.")

    return formula


def _pick(outputs, return_inverse, return_counts):
    values, inverse, counts = outputs
    if not (return_inverse or return_counts):
        return values
    return (values,) + ((inverse,) if return_inverse else ()) + ((counts,) if return_counts else ())


# -- unique ----------------------------------------------------------------------------------
# torch has no forward derivative for these either
@defop(
    name="_unique2",
    batch=batch_rules.dynamic_shape("_unique2"),
    dtypes=kernel("unique", REAL),
    node="Unique2Backward0",
    outputs=3,
    input=_no_derivative("_unique2"),
    jvp=no_forward_derivative("_unique2"),
)
def _unique_all(input):
    values, inverse, counts = xp.unique(
        input, return_inverse=True, return_counts=True, equal_nan=False
    )
    return values, inverse.reshape(input.shape).astype(xp.int64), counts.astype(xp.int64)


@defop(
    name="unique_dim",
    batch=batch_rules.dynamic_shape("unique_dim"),
    dtypes=kernel("unique_dim", REAL),
    outputs=3,
    input=_no_derivative("unique_dim"),
    jvp=no_forward_derivative("unique_dim"),
)
def _unique_dim(input, dim):
    values, inverse, counts = xp.unique(input, return_inverse=True, return_counts=True, axis=dim)
    return values, inverse.reshape(-1).astype(xp.int64), counts.astype(xp.int64)


@export
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements (or slices along ``dim``), sorted; optionally the index of each
    element's value in them (``return_inverse``) and how often each occurs. The result is
    sorted even with ``sorted=False`` (torch's CPU unique sorts as well).

    Example:
        >>> import numtorch as torch
        >>> torch.unique(torch.tensor([3, 1, 3, 2]), return_counts=True)
        (tensor([1, 2, 3]), tensor([1, 1, 2]))
    """
    refuse_meta("_unique2", input)
    if dim is None:
        outputs = _unique_all(input)
    else:
        outputs = _unique_dim(input, _unique_dim_arg(input, dim))
    return _pick(outputs, return_inverse, return_counts)


def _unique_dim_arg(input, dim) -> int:
    if input.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    dim = _wrap_dim(dim, input.ndim)
    if any(n == 0 for d, n in enumerate(input.shape) if d != dim):
        raise RuntimeError(
            "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied"
        )
    return dim


def _consecutive_runs(input, dim):
    if dim is None:
        flat = input.reshape(-1)
        changed = flat[1:] != flat[:-1]
    else:
        moved = xp.moveaxis(input, dim, 0)
        rest = math.prod(moved.shape[1:])
        changed = (moved[1:] != moved[:-1]).reshape(max(moved.shape[0] - 1, 0), rest).any(axis=1)
    length = input.size if dim is None else input.shape[dim]
    starts = xp.concatenate([xp.ones(min(length, 1), bool), changed])
    inverse = xp.cumsum(starts) - 1
    edges = xp.flatnonzero(starts)
    counts = xp.diff(xp.append(edges, length))
    return edges, inverse.astype(xp.int64), counts.astype(xp.int64)


@defop(
    name="unique_consecutive",
    batch=batch_rules.dynamic_shape("unique_consecutive"),
    outputs=3,
    input=_no_derivative("unique_consecutive"),
    jvp=no_forward_derivative("unique_consecutive"),
)
def _unique_consecutive(input, dim):
    edges, inverse, counts = _consecutive_runs(input, dim)
    if dim is None:
        return input.reshape(-1)[edges], inverse.reshape(input.shape), counts
    return xp.take(input, edges, axis=dim), inverse, counts


@export
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse runs of equal consecutive elements (or slices along ``dim``) to one.

    Example:
        >>> import numtorch as torch
        >>> torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1]))
        tensor([1, 2, 3, 1])
    """
    if dim is not None:
        dim = _unique_dim_arg(input, dim)
    return _pick(_unique_consecutive(input, dim), return_inverse, return_counts)


# -- bincount and histc ----------------------------------------------------------------------
@defop(
    node="NotImplemented",
    weights=not_implemented("bincount"),
    jvp=not_implemented_jvp("bincount"),
)
def _bincount(input, weights, minlength):
    out = xp.bincount(input, weights, minlength)
    if weights is None:
        return out.astype(xp.int64)
    # torch's kernel sums float32 weights as float32 and any others (halves too) as float64
    return out.astype(xp.float32 if weights.dtype == xp.float32 else xp.float64, copy=False)


@export
def bincount(input, weights=None, minlength=0) -> Tensor:
    """How often each value 0, 1, ... occurs in a 1-D non-negative integer tensor (summing
    ``weights`` instead of ones, when given).

    Example:
        >>> import numtorch as torch
        >>> torch.bincount(torch.tensor([1, 1, 3]))
        tensor([0, 2, 0, 1])
    """
    data = input._data
    if data.dtype.kind not in "biu":
        raise NotImplementedError(
            f"\"bincount_cpu\" not implemented for '{input.dtype.scalar_name}'"
        )
    if data.ndim != 1 or (data.size and data.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and (weights.ndim != 1 or weights.shape[0] != data.shape[0]):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is not None and (weights.dtype is _dtypes.bfloat16 or weights.is_complex()):
        # summed as float64 (bfloat16 kernels run in float32); complex weights lose their
        # imaginary parts, with torch's warning
        weights = weights.double()
    return _bincount(input, weights, int(minlength))


@defop()
def _histc(input, bins, min, max):
    lo, hi = float(min), float(max)
    if lo == hi and input.size:
        lo, hi = float(input.min()), float(input.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (xp.isfinite(lo) and xp.isfinite(hi)):
        raise RuntimeError(f"torch.histc: range of [{lo}, {hi}] is not finite")
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    inside = input[(input >= lo) & (input <= hi)]
    # torch's linear binning; the right edge belongs to the last bin
    position = ((inside - lo) * bins / (hi - lo)).astype(xp.int64)
    position = xp.minimum(position, bins - 1)
    return xp.bincount(position, minlength=bins).astype(input.dtype)


@export
def histc(input, bins=100, min=0, max=0) -> Tensor:
    """A histogram of ``bins`` equal bins over ``[min, max]`` (the data's range when both are
    0); values outside are ignored.

    Example:
        >>> import numtorch as torch
        >>> torch.histc(torch.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3)
        tensor([0., 2., 1., 0.])
    """
    if input._data.dtype.kind not in "fV":
        raise NotImplementedError(
            f"\"histogram_cpu\" not implemented for '{input.dtype.scalar_name}'"
        )
    if bins <= 0:
        raise RuntimeError(f"torch.histc(): bins must be > 0, but got {bins} for dimension 0")
    return _histc(input, int(bins), min, max)


# -- searchsorted, bucketize, isin -----------------------------------------------------------
def _side(right, side):
    if side is None:
        return "right" if right else "left"
    if side not in ("left", "right"):
        raise RuntimeError(
            f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}"
        )
    if right and side == "left":
        raise RuntimeError(
            "torch.searchsorted(): side and right can't be set to opposites, got side of left "
            "while right was True"
        )
    return side


@defop()
def _searchsorted(sorted_sequence, input, side, out_int32, sorter):
    if sorter is not None:
        sorted_sequence = xp.take_along_axis(sorted_sequence, sorter, -1)
    values = xp.asarray(input)
    dtype = xp.int32 if out_int32 else xp.int64
    if values.size == 0:
        return xp.zeros(values.shape, dtype)
    *batch, length = sorted_sequence.shape
    rows = sorted_sequence.reshape(math.prod(batch), length)
    flat = values.reshape(rows.shape[0], -1)
    return _binary_search(rows, flat, side == "right").reshape(values.shape).astype(dtype)


def _binary_search(rows, values, right):
    """torch's bisection, every value at once: a step goes right unless the middle element
    is >= the value (> for ``right``), so NaNs on either side send it right. On a sequence
    that is not sorted (or holds NaN) the answer is wherever these steps end, which NumPy's
    searchsorted (reusing bounds between neighbouring values) does not reproduce."""
    length = rows.shape[-1]
    which = xp.arange(rows.shape[0])[:, None]
    start = xp.zeros(values.shape, xp.int64)
    end = xp.full(values.shape, length, xp.int64)
    with xp.errstate(invalid="ignore"):
        while True:
            active = start < end
            if not active.any():
                return start
            middle = start + ((end - start) >> 1)
            found = rows[which, xp.minimum(middle, length - 1)]
            before = found > values if right else found >= values
            start = xp.where(active & ~before, middle + 1, start)
            end = xp.where(active & before, middle, end)


@export(method=False)
def searchsorted(
    sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None
) -> Tensor:
    """Where each value of ``input`` would be inserted into the sorted last dim of
    ``sorted_sequence`` to keep it sorted (``right`` or ``side='right'``: after equal ones).

    Example:
        >>> import numtorch as torch
        >>> torch.searchsorted(torch.tensor([1, 3, 5, 7]), torch.tensor([3, 6, 9]))
        tensor([1, 3, 4])
    """
    side = _side(right, side)
    boundaries = sorted_sequence.shape
    if not boundaries:
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
            "dimension"
        )
    if isinstance(input, Tensor) and len(boundaries) > 1 and input.shape[:-1] != boundaries[:-1]:
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
            "dimensions of boundaries tensor and input value tensor must match, but we got "
            f"boundaries tensor {list(boundaries)} and input value tensor {list(input.shape)}"
        )
    _SEARCHSORTED.check_tensor(sorted_sequence)
    return _searchsorted(sorted_sequence, input, side, out_int32, sorter)


# Note [Kernel dtypes]: the bisection compares real numbers, bools excepted
_SEARCHSORTED = kernel("searchsorted_out_cpu", REAL - BOOL)


@export(method=False)
def bucketize(input, boundaries, *, out_int32=False, right=False) -> Tensor:
    """The index of the bucket each value falls in, for 1-D sorted ``boundaries``
    (``right=False``: ``boundaries[i-1] < x <= boundaries[i]``).

    Example:
        >>> import numtorch as torch
        >>> torch.bucketize(torch.tensor([3, 6, 9]), torch.tensor([1, 3, 5, 7]))
        tensor([1, 3, 4])
    """
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


@export(method=False)
def isin(elements, test_elements, *, assume_unique=False, invert=False) -> Tensor:
    """Whether each element of ``elements`` occurs in ``test_elements`` (either may be a
    number).

    Example:
        >>> import numtorch as torch
        >>> torch.isin(torch.tensor([1, 2, 3]), torch.tensor([2, 5]))
        tensor([False,  True, False])
    """
    for t in (elements, test_elements):
        if isinstance(t, Tensor):
            unsigned.refuse("isin_default_cpu", t.dtype)
    a = elements._data if isinstance(elements, Tensor) else xp.asarray(elements)
    b = test_elements._data if isinstance(test_elements, Tensor) else xp.asarray(test_elements)
    return Tensor._make(xp.asarray(xp.isin(a, b, invert=invert)))

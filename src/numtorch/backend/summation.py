"""Floating-point sums in the order torch's CPU kernel adds (ATen's ``cascade_sum``).

Note [Summation order]: a float32 sum depends on the order of its additions, and programs
print sums whose last bit shows (``probs.sum()`` prints ``tensor(1.0000)`` or ``tensor(1.)``).
NumPy adds pairwise in blocks of eight; torch's kernel, for a reduction run on one thread,
adds in this order:

- a row of ``n`` contiguous values, ``n`` at least one vector (8 float32 or 4 float64
  lanes, AVX2): the vectors are summed lane-wise by ``row_sum`` below, then the values past
  the last whole vector are added one by one from 0, then the lanes one by one;
- ``row_sum`` of ``m`` rows: four interleaved partial sums (rows ``k, k+4, ...``), each a
  ``cascade`` over its rows, the rows past the last group of four added to the first
  partial, then the partials added in order;
- ``cascade`` of ``m`` rows: blocks of ``2**p`` rows (``p = max(4, ceil(log2 m) // 4)``)
  are summed left to right; each block's sum is added to a level-1 sum, which moves to
  level 2 after ``2**p`` blocks, and so on up to level 3; at the end, the rows past the
  last whole block (summed from 0), then levels 1, 2 and 3;
- a reduction over non-contiguous rows (columns contiguous): column groups of 32 (4 when
  fewer than 8 columns) take ``cascade`` over the rows, the other columns ``row_sum``;
- a row shorter than a vector: ``row_sum`` of its values.

Tensors of ``GRAIN`` values or more are split across threads by torch (how depends on the
thread count), and other layouts go through dims torch reorders by stride: those, and
other dtypes, keep NumPy's sum.
"""

from __future__ import annotations

import math

import numpy as xp

GRAIN = 32768  # at::internal::GRAIN_SIZE: smaller reductions run on one thread
_LANES = {xp.dtype(xp.float32): 8, xp.dtype(xp.float64): 4}


def _in_order(x, axis=1):
    """The sum along ``axis`` (1 or 2) added strictly left to right (the axis is short: a
    block of 16, the rows past one, a vector's tail and lanes)."""
    if x.shape[axis] > 2 and math.prod(x.shape[axis + 1 :]) > 1:
        # NumPy reduces an axis that is not the innermost by adding its rows in order,
        # elementwise over the inner lanes (pairwise summation runs along the innermost)
        return xp.add.reduce(x, axis=axis)
    items = x.swapaxes(0, axis)  # items[i]: the other axes, axes 0 and axis - 1 swapped
    if items.shape[0] == 0:
        total = xp.zeros(items.shape[1:], x.dtype)
    else:
        total = items[0]
        for i in range(1, items.shape[0]):
            total = total + items[i]
    return total.swapaxes(0, axis - 1)


def _cascade(rows):
    """``rows`` (batch, size, ...) summed over axis 1 in torch's blocks and levels."""
    batch, size, lanes = rows.shape[0], rows.shape[1], rows.shape[2:]
    power = max(4, (1 if size <= 2 else (size - 1).bit_length()) // 4)
    step = 1 << power
    if size < step:
        return _in_order(rows)
    blocks = size // step
    block_sums = _in_order(rows[:, : blocks * step].reshape((batch, blocks, step) + lanes), 2)
    tail = _in_order(rows[:, blocks * step :])
    full1 = blocks // step
    level1 = _in_order(block_sums[:, : full1 * step].reshape((batch, full1, step) + lanes), 2)
    full2 = full1 // step
    level2 = _in_order(level1[:, : full2 * step].reshape((batch, full2, step) + lanes), 2)
    acc1 = _in_order(block_sums[:, full1 * step :])
    acc2 = _in_order(level1[:, full2 * step :])
    return ((tail + acc1) + acc2) + _in_order(level2)


def _row_sum(rows):
    """``rows`` (batch, size, ...) summed over axis 1 as four interleaved partial sums."""
    batch, size, lanes = rows.shape[0], rows.shape[1], rows.shape[2:]
    groups = size // 4
    if not groups:
        return _in_order(rows)
    partial = _cascade(rows[:, : 4 * groups].reshape((batch, groups, 4) + lanes))
    # the rows past the last group go to the first partial sum, then the other partials
    rest = (partial[:, :1], rows[:, 4 * groups :], partial[:, 1:])
    return _in_order(xp.concatenate(rest, axis=1))


def _inner(x, lanes):
    """Sums over the last axis of ``x`` (rows, n), contiguous along it."""
    n = x.shape[-1]
    if n < lanes:
        return _row_sum(x)
    whole = n // lanes
    lane_sums = _row_sum(x[:, : whole * lanes].reshape(x.shape[0], whole, lanes))
    # the values past the last vector from 0, then the lanes, one by one
    return _in_order(xp.concatenate((x[:, whole * lanes :], lane_sums), axis=1))


def _outer(x, lanes):
    """Sums over axis 1 of ``x`` (outer, n, columns), the columns contiguous."""
    columns = x.shape[-1]
    group = 4 * lanes if columns >= lanes else 4
    cut = columns // group * group
    if not cut:
        return _row_sum(x)
    # torch runs whole vectors and single columns past the groups apart: the same order
    return xp.concatenate((_cascade(x[:, :, :cut]), _row_sum(x[:, :, cut:])), axis=1)


def _memory_order(a, dims):
    """``a`` (and the reduced ``dims``) with its axes in memory order, where that makes a
    C-contiguous array of a full reduction or a reduction over the last, contiguous axis
    (torch reorders a reduction's dims by stride); None for other layouts."""
    if a.flags.c_contiguous:
        return a, dims
    if any(s <= 0 for d, s in enumerate(a.strides) if a.shape[d] > 1):
        return None  # broadcast (stride 0) dims: torch's iterator orders them otherwise
    if len(dims) == a.ndim:
        order = sorted(range(a.ndim), key=lambda d: -a.strides[d])
        dense = a.transpose(order)
        return (dense, dims) if dense.flags.c_contiguous else None
    if dims == [a.ndim - 1] and a.strides[-1] == a.itemsize:
        return xp.ascontiguousarray(a), dims  # each row's sum reads only that row
    return None


def _full_sum_of_rows(a, lanes):
    """A full reduction of a 2-D array whose rows are contiguous but not adjacent (a slice):
    torch adds each row's sum to the output in turn."""
    return _in_order(_inner(a, lanes)[None, :])


def torch_sum(a, axis=None, keepdims=False):
    """``a.sum(axis, keepdims=keepdims)`` with torch's order of additions where it is known
    (Note [Summation order]), NumPy's sum otherwise. ``axis``: None, an int or a tuple."""
    lanes = _LANES.get(a.dtype)
    dims = range(a.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
    dims = sorted(d % a.ndim for d in dims) if a.ndim else []
    if lanes is None or not dims or a.size >= GRAIN or a.size == 0:
        return xp.sum(a, axis=axis, keepdims=keepdims)
    kept = [1 if d in dims else s for d, s in enumerate(a.shape)]
    shape = kept if keepdims else [s for d, s in enumerate(a.shape) if d not in dims]
    layout = _memory_order(a, dims)
    if layout is None and len(dims) == a.ndim and min(a.strides, default=1) > 0:
        # torch drops size-1 dims: a strided vector takes the one-at-a-time row sum, rows
        # that are contiguous but not adjacent add their sums in turn
        rows = a.squeeze()
        if rows.ndim == 1:
            return (0 + _row_sum(rows[None, :])[0]).astype(a.dtype).reshape(shape)
        if rows.ndim == 2 and rows.strides[1] == a.itemsize:
            return (0 + _full_sum_of_rows(rows, lanes)).astype(a.dtype).reshape(shape)
    if layout is None:
        return xp.sum(a, axis=axis, keepdims=keepdims)
    a, dims = layout
    if dims[-1] - dims[0] != len(dims) - 1:
        return xp.sum(a, axis=tuple(dims), keepdims=keepdims).reshape(shape)
    outer = math.prod(a.shape[: dims[0]])
    inner = math.prod(a.shape[dims[-1] + 1 :])
    x = a.reshape(outer, -1, inner)
    result = _inner(x[:, :, 0], lanes) if inner == 1 else _outer(x, lanes)
    result = 0 + result  # the output starts at 0, so a sum of -0.0 is 0.0, as torch's
    return result.astype(a.dtype, copy=False).reshape(shape)


def torch_mean(a, axis=None, keepdims=False):
    """torch's mean on the CPU: the sum (in torch's order) divided by the count."""
    if a.dtype not in _LANES:
        return xp.mean(a, axis=axis, keepdims=keepdims)
    total = torch_sum(a, axis, keepdims)
    count = a.size // max(total.size, 1) if a.size else 0
    with xp.errstate(divide="ignore", invalid="ignore"):
        return (total / a.dtype.type(count)).astype(a.dtype, copy=False)

"""torch's memory layout for a new array made like another (``empty_like``, ``clone``).

torch keeps the strides of a tensor that is non-overlapping and dense; any other (expanded,
sliced) gets dense strides in the same memory order, where a dim of stride 0 takes no part in
the ordering (``at::infer_dense_strides``, the rule TensorIterator sorts by). NumPy's
``order="K"`` sorts a stride-0 dim innermost instead: a copy of ``x.expand(2, 3)`` would have
strides (1, 2) where torch's has (3, 1), and a later ``.view(-1)`` would fail where torch's
works.
"""

from __future__ import annotations

import math

import numpy as xp


def _is_dense(shape, strides) -> bool:
    """Whether the strides (in elements) tile a block exactly: torch's
    ``is_non_overlapping_and_dense`` (dims of size 1 do not count)."""
    expected = 1
    for size, stride in sorted(zip(shape, strides), key=lambda pair: pair[1]):
        if size == 1:
            continue
        if stride != expected:
            return False
        expected *= size
    return True


def dense_strides(shape, strides) -> tuple:
    """Strides (in elements) of a dense tensor of ``shape`` in the memory order of
    ``strides``: an insertion sort by increasing stride from C order, leaving every dim of
    stride 0 where it is (``at::infer_dense_strides``)."""
    return _sorted_dense(shape, [strides])


def _is_contiguous(shape, strides) -> bool:
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1 and stride != expected:
            return False
        expected *= size
    return True


def _sorted_dense(shape, operands) -> tuple:
    ndim = len(shape)
    perm = list(range(ndim - 1, -1, -1))  # innermost first

    def after(dim0, dim1):  # 1: dim0 goes after dim1; -1: before; 0: ambiguous
        for strides in operands:
            stride0, stride1 = strides[dim0], strides[dim1]
            if stride0 == 0 or stride1 == 0:
                continue
            if stride0 != stride1:
                return -1 if stride0 < stride1 else 1
            if shape[dim0] > shape[dim1]:
                return 1
        return 0

    for i in range(1, ndim):
        dim1 = i
        for dim0 in range(i - 1, -1, -1):
            comparison = after(perm[dim0], perm[dim1])
            if comparison > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif comparison < 0:
                break
    result = [0] * ndim
    step = 1
    for dim in perm:
        result[dim] = step
        step *= max(shape[dim], 1)
    return tuple(result)


def view_strides(shape, strides, new_shape):
    """The strides of a view of ``new_shape`` over memory of ``shape`` and ``strides`` (in
    elements), or None where no view exists (torch's ``computeStride``: dims merge only
    where they are contiguous with each other)."""
    if math.prod(shape) == 0 or not shape:  # nothing to lay out: row-major
        return _sorted_dense(new_shape, [])
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = strides[-1]
    tensor_numel = view_numel = 1
    for tensor_d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[tensor_d]
        if tensor_d == 0 or (
            shape[tensor_d - 1] != 1 and strides[tensor_d - 1] != tensor_numel * chunk_base_stride
        ):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_strides[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = strides[tensor_d - 1]
                tensor_numel = view_numel = 1
    return tuple(new_strides) if view_d == -1 else None


def non_overlapping_and_dense(array) -> bool:
    """torch's ``is_non_overlapping_and_dense`` of an array (NumPy's flips count as strides)."""
    return _is_dense(array.shape, tuple(abs(s) // array.itemsize for s in array.strides))


def preserved_strides(array) -> tuple:
    """The strides (in elements) of torch's ``empty_like(array)``: the array's own where it
    is non-overlapping and dense, else dense ones in its memory order."""
    strides = tuple(abs(s) // array.itemsize for s in array.strides)  # (NumPy's flips)
    return strides if _is_dense(array.shape, strides) else dense_strides(array.shape, strides)


def fill_order(shape, strides) -> list:
    """The dims from the slowest to the fastest in memory: the order in which torch's
    serial kernels (random fills) visit the elements. A dim of size 1 has no order."""
    keys = [abs(st) if n > 1 else 0 for st, n in zip(strides, shape)]
    return sorted(range(len(shape)), key=lambda d: -keys[d])


def empty_like(array, dtype=None):
    """An uninitialised array shaped like ``array`` in torch's preserved layout."""
    dtype = array.dtype if dtype is None else xp.dtype(dtype)
    if array.flags.c_contiguous or array.ndim < 2:
        return xp.empty(array.shape, dtype)
    if 0 in array.shape:
        return xp.empty(array.shape, dtype)
    strides = preserved_strides(array)
    size = sum((n - 1) * s for n, s in zip(array.shape, strides)) + 1
    block = xp.empty(size, dtype)
    return xp.ndarray(array.shape, dtype, block, 0, tuple(s * dtype.itemsize for s in strides))


def copy(array):
    """A copy of ``array`` in torch's preserved layout (``clone()``)."""
    if array.flags.c_contiguous or array.ndim < 2:
        return array.copy()
    out = empty_like(array)
    out[...] = array
    return out


def full_like(array, fill_value, dtype=None):
    """An array shaped like ``array`` in torch's preserved layout, filled with one value."""
    dtype = array.dtype if dtype is None else xp.dtype(dtype)
    if array.flags.c_contiguous or array.ndim < 2:
        return xp.full(array.shape, fill_value, dtype)
    out = empty_like(array, dtype)
    out[...] = fill_value
    return out


def astype(array, dtype):
    """``array`` cast to ``dtype`` into a new array in torch's preserved layout (``to()``)."""
    if array.flags.c_contiguous or array.ndim < 2:
        return array.astype(dtype)
    out = empty_like(array, dtype)
    xp.copyto(out, array, casting="unsafe")
    return out


def row_major(out):
    """A reduction's, scan's or softmax's result laid out as torch's: torch allocates it
    row-major whatever the input's strides, where NumPy's follows the input's memory order
    (the sum over dim 1 of a transpose would have strides (1, n) and refuse .view(-1))."""
    if isinstance(out, xp.ndarray) and not out.flags.c_contiguous:
        return xp.asarray(out, order="C")
    return out


# Note [Elementwise result layout]
# torch's TensorIterator allocates an elementwise op's result from its operands' strides
# (``compute_fast_setup_type``, then ``reorder_dimensions``): where every operand has the
# result's shape, a result contiguous when all are contiguous, channels-last when all are,
# and with their strides when all share them and are dense; otherwise dense strides in the
# memory order the operands agree on (``_sorted_dense``: a broadcast dim has no say, the
# first operand that orders two dims decides, equal strides put the smaller dim inside). A
# number torch wraps into a 0-d operand (``x * 2``) counts: the shapes then differ. NumPy's
# ufuncs (order "K") choose otherwise for broadcast, sliced and size-1 dims, and a later
# ``.view()`` or ``.stride()`` shows it. The runners call ``iterator_result`` only where an
# operand is not C-contiguous (where all are, both libraries give row-major results).

_LAST_ORDERS = {4: (1, 3, 2, 0), 5: (1, 4, 3, 2, 0)}  # channels-last: fastest dim first


def _channels_last(shape, strides) -> bool:
    order = _LAST_ORDERS.get(len(shape))
    return order is not None and dense_in_order(shape, strides, order)


def dense_in_order(shape, strides, inner_first) -> bool:
    """Whether ``strides`` lay ``shape`` out densely with the dims of ``inner_first`` from the
    fastest to the slowest (size-1 dims may have any stride, as in torch)."""
    expected = 1
    for d in inner_first:
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def _channels_last_strides(shape) -> tuple:
    result = [0] * len(shape)
    step = 1
    for d in _LAST_ORDERS[len(shape)]:
        result[d] = step
        step *= shape[d]
    return tuple(result)


def elementwise_strides(shape, operands) -> tuple:
    """Strides (in elements) of torch's result of ``shape`` for an elementwise op on
    ``operands``, (shape, strides) pairs in torch's operand order (Note [Elementwise result
    layout]); ``shape`` holds no zero."""
    shape = tuple(shape)
    if all(tuple(sizes) == shape for sizes, _ in operands):
        if all(_is_contiguous(shape, strides) for _, strides in operands):
            return _sorted_dense(shape, [])
        if all(_channels_last(shape, strides) for _, strides in operands):
            return _channels_last_strides(shape)
        first = tuple(operands[-1][1])
        if all(tuple(strides) == first for _, strides in operands) and _is_dense(shape, first):
            return first
    broadcast = []
    for sizes, strides in operands:
        lead = len(shape) - len(sizes)
        broadcast.append(
            [0] * lead
            + [
                0 if n == 1 and shape[lead + i] != 1 else st
                for i, (n, st) in enumerate(zip(sizes, strides))
            ]
        )
    return _sorted_dense(shape, broadcast)


def iterator_result(out, operands, cast=()):
    """``out``, NumPy's result of an elementwise op on ``operands`` (arrays, numbers torch
    wraps as 0-d operands, None for a number it does not), copied into torch's layout where
    NumPy's differs. The operands at the positions ``cast`` are cast to the dtype the op
    computes in first, as torch's iterator casts them (``to()``: their preserved layout)
    before it orders the dims."""
    if out.__class__ is not xp.ndarray or out.ndim < 2 or out.size == 0:
        return out
    if any(out is a for a in operands):  # an op that hands its input back (conj of a real)
        return out
    shape, strides = out.shape, out.strides
    for a in operands:
        if a.__class__ is not xp.ndarray or a.shape != shape or a.strides != strides:
            break
    else:  # operands laid out as NumPy's fresh (so dense) result: torch keeps that layout
        if 1 not in shape:
            return out
    pairs = []
    for k, a in enumerate(operands):
        if a.__class__ is xp.ndarray:
            if k in cast and a.ndim:
                pairs.append((a.shape, preserved_strides(a)))
            else:
                pairs.append((a.shape, tuple(abs(s) // a.itemsize for s in a.strides)))
        elif a is not None:
            pairs.append(((), ()))
    strides = elementwise_strides(out.shape, pairs)
    itemsize = out.itemsize
    if tuple(s // itemsize for s in out.strides) == strides:
        return out
    block = xp.empty(out.size, out.dtype)
    result = xp.ndarray(out.shape, out.dtype, block, 0, tuple(s * itemsize for s in strides))
    result[...] = out
    return result

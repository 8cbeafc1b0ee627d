"""torch's CPU order of additions for a sum over contiguous trailing dims (float32, float64).

Note [Sum in torch's vector order]
torch's CPU sum of a row laid out contiguously reads it as vectors of 8 float32 or 4
float64 lanes (its sum kernel runs at the AVX2 level even where AVX512 is present). The
vectors are dealt round-robin to 4 accumulators; each accumulator adds its vectors in order
(past 16 vectors, in a cascade of levels of 16: Note [The cascade]); the vectors left over
join the first accumulator, the accumulators fold into the first in order, then a scalar
starting at zero adds the row's tail elements and the 8 (or 4) lanes in order. A row
shorter than one vector takes the same path one element at a time. NumPy's pairwise sum
(8 interleaved partial sums combined as a tree) agreed with it in 30-50% of rows of 5 to
33 values, so a printed row sum of probabilities read tensor(1.) where torch's read
tensor(1.0000); this order gives torch's bits. Sums of more than 32768 values keep NumPy's
sum: torch splits them between threads, so their last bits depend on the machine.

Note [The cascade]
Each accumulator adds its first 16 items from zero, hands the block's sum to a second
level, and starts again; the second level hands on every 16 block sums to a third, which
hands every 16 of its sums to a fourth that keeps adding. The items past the last whole
block go into the cleared first level, and the levels fold first to last.
"""

from __future__ import annotations

from . import xp

_LANES = {xp.dtype(xp.float32): 8, xp.dtype(xp.float64): 4}
_ILP = 4  # accumulators a row is dealt to
_LEVELS = 4
_MOST_VALUES = 1 << 15  # torch's grain size: past it a sum may be split between threads


def ordered_sum(a, axis, keepdims):
    """``a`` summed over ``axis`` in torch's order, or None where that order is not known
    here (another dtype or layout, or too many values): the caller sums its own way."""
    lanes = _LANES.get(a.dtype)
    if lanes is None or not 0 < a.size <= _MOST_VALUES:
        return None
    ndim = a.ndim
    axes = tuple(range(ndim)) if axis is None else axis
    first = ndim - len(axes)
    if ndim == 0 or axes != tuple(range(first, ndim)) or not _trailing_contiguous(a, first):
        return None
    n = 1
    for size in a.shape[first:]:
        n *= size
    rows = a.reshape(-1, n)
    total = _rows_sum(rows, lanes)
    if keepdims:
        return total.reshape(a.shape[:first] + (1,) * len(axes))
    return total.reshape(a.shape[:first])


def _trailing_contiguous(a, first):
    """Whether dims ``first`` onward are one run of unit-stride elements (torch's iterator
    folds them into one inner dim)."""
    step = a.itemsize
    for size, stride in zip(reversed(a.shape[first:]), reversed(a.strides[first:])):
        if size != 1 and stride != step:
            return False
        step *= size
    return True


def _rows_sum(rows, lanes):
    """Each row of ``rows`` (R, n) summed in torch's vector order: an (R,) array."""
    r, n = rows.shape
    if n < lanes:  # one element at a time: the same dealing, then in order
        return _in_order(rows.T[_SHORT_ORDER[n]]) + 0  # + 0: torch's sum starts at +0
    count = n // lanes
    whole = count * lanes
    # laid out (vectors, lanes, rows), so each sum in order runs over the leading axis
    vectors = rows[:, :whole].reshape(r, count, lanes).transpose(1, 2, 0)
    dealt = count // _ILP
    if dealt:
        acc = _cascade(vectors[: dealt * _ILP].reshape(dealt, _ILP, lanes, r))
        vectors = xp.concatenate([acc[:1], vectors[dealt * _ILP :], acc[1:]])
    lanes_sum = _in_order(vectors)
    return _in_order(xp.concatenate([rows[:, whole:].T, lanes_sum])) + 0


# a row of n < 8 elements: 4 dealt to the accumulators, the rest added to the first, folded
_SHORT_ORDER = [[0, *range(_ILP, n), *range(1, min(n, _ILP))] for n in range(8)]


def _in_order(items):
    """The sum over the leading axis, adding one item at a time."""
    if items.size == items.shape[0]:  # NumPy adds a 1-d run pairwise, not in order
        return xp.add.accumulate(items.reshape(-1))[-1].reshape(items.shape[1:])
    # over the leading axis of a row-major array NumPy adds whole items in order
    return xp.add.reduce(xp.ascontiguousarray(items), axis=0)


def _cascade(items):
    """The sum over the leading axis in Note [The cascade]."""
    count = items.shape[0]
    power = max(4, (int(count - 1).bit_length() if count > 1 else 0) // _LEVELS)
    step = 1 << power
    if count < step:  # one block, no level above
        return _in_order(items)
    zero = xp.zeros(items.shape[1:], dtype=items.dtype)
    levels = []
    for _ in range(_LEVELS - 1):
        blocks = count // step
        rest = items[blocks * step :]
        levels.append(_in_order(rest) if len(rest) else zero)
        whole = items[: blocks * step].reshape(blocks, step, *items.shape[1:])
        items = _in_order(whole.swapaxes(0, 1)) if blocks else items[:0]
        count = blocks
    total = levels[0]
    for level in (*levels[1:], _in_order(items) if count else zero):
        total = total + level
    return total

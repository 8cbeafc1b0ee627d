"""Which ``k`` entries torch's CPU ``topk`` selects when values tie.

Pruning turns a ``topk`` into a mask, so the *set* of selected indices must be torch's
even among equal magnitudes (a weight matrix of small integers, or zeros after an earlier
round). Torch's CPU kernel pairs each value with its index and runs the C++ standard
library's ``partial_sort`` (when ``64 k <= n``) or ``nth_element`` with a comparator that
looks at values only; which of several equal values end up in front is decided by
libstdc++'s heap and introselect steps, replayed here. Without ties at the k-th value the
set is unique and NumPy's ``argpartition`` gives it directly.
"""

from __future__ import annotations

import numpy as np

__all__ = ["topk_index_set"]


def topk_index_set(values: np.ndarray, k: int, largest: bool) -> np.ndarray:
    """The indices (unordered) of the ``k`` entries torch's ``topk`` returns for a 1-D
    ``values``; NaN counts as the largest value, as in torch."""
    n = values.size
    if k == 0:
        return np.zeros(0, dtype=np.int64)
    key = np.where(np.isnan(values), np.inf, values).astype(np.float64)
    nan = np.isnan(values)
    # order key: smaller first; NaN after +inf when taking the smallest, before when largest
    if largest:
        key = -key
    rank = np.lexsort((np.zeros(n), nan if not largest else ~nan, key))
    cut = key[rank[k - 1]], (nan if not largest else ~nan)[rank[k - 1]]
    same = (key == cut[0]) & ((nan if not largest else ~nan) == cut[1])
    before = int(np.count_nonzero(same[rank[:k]]))
    if before == np.count_nonzero(same):
        return np.sort(rank[:k])
    return np.sort(_replay(values, k, largest))


def _replay(values, k, largest):
    n = values.size
    items = [(float(v), i) for i, v in enumerate(values.tolist())]

    def less(x, y):  # torch's comparator on (value, index) pairs: values only
        a, b = x[0], y[0]
        if largest:
            return (a != a and b == b) or a > b
        return (a == a and b != b) or a < b

    if k * 64 <= n:
        _heap_select(items, 0, k, n, less)
    else:
        _introselect(items, 0, k - 1, n, 2 * (n.bit_length() - 1), less)
    return np.array([i for _, i in items[:k]], dtype=np.int64)


def _adjust_heap(a, first, hole, length, value, less):
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _heap_select(a, first, middle, last, less):
    length = middle - first
    if length >= 2:
        parent = (length - 2) // 2
        while True:
            _adjust_heap(a, first, parent, length, a[first + parent], less)
            if parent == 0:
                break
            parent -= 1
    for i in range(middle, last):
        if less(a[i], a[first]):
            value = a[i]
            a[i] = a[first]
            _adjust_heap(a, first, 0, length, value, less)


def _move_median_to_first(a, result, x, y, z, less):
    if less(a[x], a[y]):
        if less(a[y], a[z]):
            pick = y
        elif less(a[x], a[z]):
            pick = z
        else:
            pick = x
    elif less(a[x], a[z]):
        pick = x
    elif less(a[y], a[z]):
        pick = z
    else:
        pick = y
    a[result], a[pick] = a[pick], a[result]


def _unguarded_partition(a, first, last, pivot, less):
    while True:
        while less(a[first], a[pivot]):
            first += 1
        last -= 1
        while less(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _insertion_sort(a, first, last, less):
    for i in range(first + 1, last):
        value = a[i]
        if less(value, a[first]):
            a[first + 1 : i + 1] = a[first:i]
            a[first] = value
        else:
            j = i
            while less(value, a[j - 1]):
                a[j] = a[j - 1]
                j -= 1
            a[j] = value


def _introselect(a, first, nth, last, depth, less):
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, less)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        mid = first + (last - first) // 2
        _move_median_to_first(a, first, first + 1, mid, last - 1, less)
        cut = _unguarded_partition(a, first + 1, last, first, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last, less)

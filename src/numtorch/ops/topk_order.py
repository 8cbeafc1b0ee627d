"""Which of equal elements torch's CPU ``topk`` returns, and in what order.

torch's kernel (``topk_impl_loop``) pairs each element of a row with its index and runs the
C++ standard library's algorithms on the pairs, comparing values only (NaN above every
number): ``std::partial_sort`` where ``k * 64 <= n``, else ``std::nth_element`` and, when
``sorted``, ``std::sort`` of the first ``k - 1``. Which of equal values come first, and the
order of an unsorted result, are those algorithms' (libstdc++'s introselect, introsort and
heaps, written out below step for step), not a rule of the op; a row of distinct values has
one answer, which NumPy's sort gives directly.
"""

from __future__ import annotations


def _comparator(largest: bool):
    if largest:
        return lambda x, y: (x != x and y == y) or x > y
    return lambda x, y: (x == x and y != y) or x < y


def _lg(n: int) -> int:
    return n.bit_length() - 1


# -- heaps (std::__adjust_heap, __push_heap, __heap_select, __sort_heap) --------------------
def _push_heap(a, first, hole, top, value, less):
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent][0], value[0]):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _adjust_heap(a, first, hole, length, value, less):
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child][0], a[first + child - 1][0]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    _push_heap(a, first, hole, top, value, less)


def _make_heap(a, first, last, less):
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(a, first, parent, length, a[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(a, first, last, result, less):
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value, less)


def _heap_select(a, first, middle, last, less):
    _make_heap(a, first, middle, less)
    for i in range(middle, last):
        if less(a[i][0], a[first][0]):
            _pop_heap(a, first, middle, i, less)


def _sort_heap(a, first, last, less):
    while last - first > 1:
        last -= 1
        _pop_heap(a, first, last, last, less)


def _partial_sort(a, first, middle, last, less):
    _heap_select(a, first, middle, last, less)
    _sort_heap(a, first, middle, less)


# -- partitions and insertion sorts ---------------------------------------------------------
def _move_median_to_first(a, result, i, j, k, less):
    x, y, z = a[i][0], a[j][0], a[k][0]
    if less(x, y):
        pick = j if less(y, z) else (k if less(x, z) else i)
    elif less(x, z):
        pick = i
    else:
        pick = k if less(y, z) else j
    a[result], a[pick] = a[pick], a[result]


def _unguarded_partition(a, first, last, pivot, less):
    while True:
        while less(a[first][0], a[pivot][0]):
            first += 1
        last -= 1
        while less(a[pivot][0], a[last][0]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _partition_pivot(a, first, last, less):
    mid = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, mid, last - 1, less)
    return _unguarded_partition(a, first + 1, last, first, less)


def _linear_insert(a, last, less):
    value = a[last]
    previous = last - 1
    while less(value[0], a[previous][0]):
        a[last] = a[previous]
        last = previous
        previous -= 1
    a[last] = value


def _insertion_sort(a, first, last, less):
    if first == last:
        return
    for i in range(first + 1, last):
        if less(a[i][0], a[first][0]):
            value = a[i]
            a[first + 1 : i + 1] = a[first:i]
            a[first] = value
        else:
            _linear_insert(a, i, less)


# -- std::sort and std::nth_element ---------------------------------------------------------
_THRESHOLD = 16


def _introsort_loop(a, first, last, depth, less):
    while last - first > _THRESHOLD:
        if depth == 0:
            _partial_sort(a, first, last, last, less)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        _introsort_loop(a, cut, last, depth, less)
        last = cut


def _sort(a, first, last, less):
    if first == last:
        return
    _introsort_loop(a, first, last, _lg(last - first) * 2, less)
    if last - first > _THRESHOLD:
        _insertion_sort(a, first, first + _THRESHOLD, less)
        for i in range(first + _THRESHOLD, last):
            _linear_insert(a, i, less)
    else:
        _insertion_sort(a, first, last, less)


def _nth_element(a, first, nth, last, less):
    if first == last or nth == last:
        return
    depth = _lg(last - first) * 2
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, less)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last, less)


def row_topk(values, k: int, largest: bool, sorted: bool) -> list:
    """The indices torch's CPU topk returns for one row of ``values`` (Python numbers)."""
    n = len(values)
    pairs = [(v, i) for i, v in enumerate(values)]
    less = _comparator(largest)
    if k == 0:
        return []
    if k * 64 <= n:
        _partial_sort(pairs, 0, k, n, less)
    else:
        _nth_element(pairs, 0, k - 1, n, less)
        if sorted:
            _sort(pairs, 0, k - 1, less)
    return [i for _, i in pairs[:k]]


def has_ties(rows, xp) -> object:
    """Per row of a 2-D array: whether two elements compare equal (NaNs count as equal)."""
    ordered = xp.sort(rows, axis=-1)
    same = ordered[:, 1:] == ordered[:, :-1]
    if ordered.dtype.kind in "fc":
        same |= xp.isnan(ordered[:, 1:]) & xp.isnan(ordered[:, :-1])
    return same.any(axis=-1)

"""Forward columns kept for the weight gradient of the same convolution.

Note [Kept forward columns]
A convolution's weight gradient multiplies the output gradient by the same columns its
forward multiplied the weight by. A forward that builds all its columns in one buffer (one
image, as ResNet-18 at batch 1, or a batch whose columns fit in one cache tile) can hand
that buffer to its weight gradient instead of dropping it, which saves the weight gradient
its own column copy (a pass writing 9x the layer's input for a 3x3 kernel). Batches copied
a few images at a time through the cache (Note [Columns in the cache]) keep the shifted rows
their columns are copied from instead (``Geometry.shifted_rows``: 3x the input for a 3x3
kernel, under the geometry prefixed with "rows"), so the weight gradient copies its columns
from them without building them again (the small CNN's weight gradients, inside the
training step: 0.83-0.87x the time).

Columns are kept per input array, under the convolution's geometry, only while grad mode is
on, and are dropped when the weight gradient takes them, when the input array dies (an
activation dies with its graph) or when the total kept passes ``KEPT_BUDGET`` (the oldest
go first), so a graph kept alive without backward costs at most that much more.

Columns the weight gradient is done with are spare buffers for the next forward's columns
of the same size, and for the scratch columns of the stride-1 input gradient, which have
the forward's size (within the same budget): freed, the C library hands a few MB blocks back
to the system, and each step's columns then cost 4,700 page faults and about 12 ms of system
time in a ResNet-18 step at batch 1, more than the copies they save. The columns
are a copy of the input at forward time, and the saved input is what torch reads in
backward: an in-place change of the input bumps its version, and backward refuses it before
reading either.
"""

from __future__ import annotations

import math
import threading
import weakref

from ...backend import xp

# Elements of kept and spare columns in all (64 MiB of float32: one ResNet-18 forward at batch 1
# keeps 14.7M elements).
KEPT_BUDGET = 1 << 24

_kept: dict = {}  # (id(input), *geometry) -> (weakref to the input, columns)
_spare: list = []  # columns no longer kept, to be written again
_size = [0]  # elements kept and spare
# re-entrant: an input that dies inside a locked section (a collection) calls ``forget``
_lock = threading.RLock()


def buffer(shape, dtype):
    """An array of ``shape`` for columns to keep, or for scratch columns handed back with
    ``give_back`` after use: a spare one of that size, or a new one."""
    size = math.prod(shape)
    with _lock:
        for i, spare in enumerate(_spare):
            if spare.size == size and spare.dtype == dtype:
                del _spare[i]
                _size[0] -= size
                return spare.reshape(shape)
    return xp.empty(shape, dtype)


def give_back(columns) -> None:
    """``columns`` taken and used: spare for a later ``buffer``."""
    with _lock:
        if _size[0] + columns.size <= KEPT_BUDGET:
            _spare.append(columns)
            _size[0] += columns.size


def keep(x, geometry, columns) -> None:
    """Keep ``columns``, computed from the array ``x``, for ``take(x, geometry)``."""
    if columns.size > KEPT_BUDGET:
        return
    key = (id(x), *geometry)

    def forget(ref, key=key):
        with _lock:
            entry = _kept.get(key)
            if entry is not None and entry[0] is ref:
                give_back(_drop(key))

    with _lock:
        _drop(key)
        while _spare and _size[0] + columns.size > KEPT_BUDGET:
            _size[0] -= _spare.pop(0).size
        while _kept and _size[0] + columns.size > KEPT_BUDGET:
            _drop(next(iter(_kept)))
        _kept[key] = (weakref.ref(x, forget), columns)
        _size[0] += columns.size


def take(x, geometry):
    """The columns kept for ``x`` under ``geometry`` (then no longer kept), or None."""
    key = (id(x), *geometry)
    with _lock:
        entry = _kept.get(key)
        if entry is None or entry[0]() is not x:
            return None
        return _drop(key)


def _drop(key):
    entry = _kept.pop(key, None)
    if entry is None:
        return None
    _size[0] -= entry[1].size
    return entry[1]

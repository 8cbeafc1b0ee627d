"""Input metadata shared between nodes (Note [Shared input metadata])."""

from __future__ import annotations

NO_META = (None,)  # a one-input node whose input has no history


# Note [Shared input metadata]
# A node keeps each input's (shape, dtype) to conform gradients. Nodes of inputs alike share
# one tuple for it, so recording an op allocates no metadata the garbage collector must
# track; the table is cleared if a program makes very many distinct shapes.
_metas: dict = {}
_meta_pairs: dict = {}


# The recorder (runners.py) looks a meta up by the array's shape alone: ``_by_shape`` holds
# the meta last made for each shape, taken when its dtype is the array's (by identity). That
# skips building and hashing a (shape, dtype) key per recorded input (about 40 ns).
_by_shape: dict = {}


def input_meta(data) -> tuple:
    """The shared ``(shape, dtype)`` of array ``data``."""
    key = (data.shape, data.dtype)
    meta = _metas.get(key)
    if meta is None:
        if len(_metas) > 4096:
            _metas.clear()
            _meta_pairs.clear()
            _by_shape.clear()
        meta = _metas[key] = key
    _by_shape[key[0]] = meta
    return meta


def input_metas(meta0, meta1) -> tuple:
    """The shared ``_input_meta`` tuple of a node with inputs ``meta0`` and ``meta1``."""
    key = (meta0, meta1)
    pair = _meta_pairs.get(key)
    if pair is None:
        if len(_meta_pairs) > 4096:
            _meta_pairs.clear()
        pair = _meta_pairs[key] = key
    return pair


_singles: dict = {}


def one_input_meta(meta) -> tuple:
    """The shared ``_input_meta`` tuple of a node with one input."""
    single = _singles.get(meta)
    if single is None:
        if len(_singles) > 4096:
            _singles.clear()
        single = _singles[meta] = (meta,)
    return single


_single_metas: dict = {}


def single_input_meta(data) -> tuple:
    """The shared ``_input_meta`` tuple of a node whose one input is array ``data``."""
    key = (data.shape, data.dtype)
    single = _single_metas.get(key)
    if single is None:
        if len(_single_metas) > 4096:
            _single_metas.clear()
            _single_by_shape.clear()
        single = _single_metas[key] = one_input_meta(input_meta(data))
    _single_by_shape[key[0]] = single
    return single


_single_by_shape: dict = {}  # the last ``single_input_meta`` per shape, as ``_by_shape``

# The tables themselves, for the recorder's inlined lookups (runners.py): a hit
# costs a dict lookup instead of a call; a miss goes through the functions above.
METAS = _by_shape  # shape -> (shape, dtype): check the dtype
SINGLES = _singles
PAIRS = _meta_pairs
SINGLE_METAS = _single_by_shape  # shape -> ((shape, dtype),): check the dtype

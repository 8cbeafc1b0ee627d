"""Memory formats as strides: channels-last arrays are NumPy arrays whose channel axis is the
fastest, as torch lays them out (Note [Channels last]).

# Note [Channels last]
# ``x.to(memory_format=torch.channels_last)`` keeps the shape and the values and changes the
# strides: for N, C, H, W the channel stride is 1, then W, H, N. NumPy keeps such a layout
# through elementwise ufuncs (order "K"), as torch's elementwise kernels do; the layers that
# torch runs in channels-last when their input is (convolutions) lay out their result so.
"""

from __future__ import annotations

from ..backend import layout, xp

# memory format name -> (rank, the order of dims from the slowest to the fastest)
_ORDERS = {"channels_last": (4, (0, 2, 3, 1)), "channels_last_3d": (5, (0, 2, 3, 4, 1))}


def format_name(memory_format) -> str | None:
    """``"contiguous_format"``, ``"preserve_format"``, ``"channels_last"``... or None."""
    return None if memory_format is None else getattr(memory_format, "_name", None)


def check_rank(ndim: int, name: str) -> None:
    rank = _ORDERS[name][0]
    if ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {name} format")


def is_contiguous_as(array, name: str | None) -> bool:
    """torch's rule: dims of size 1 may have any stride."""
    if name not in _ORDERS:
        return array.flags.c_contiguous
    rank, order = _ORDERS[name]
    if array.ndim != rank:
        return False
    expected = 1
    for d in reversed(order):
        size = array.shape[d]
        if size != 1:
            if array.strides[d] != expected * array.itemsize:
                return False
            expected *= size
    return True


def has_layout(array, name: str) -> bool:
    """Whether ``array`` is laid out exactly as a fresh ``name`` copy would be (torch's
    ``suggest_memory_format``: a tensor contiguous both ways counts as contiguous)."""
    return (
        array.ndim == _ORDERS[name][0]
        and is_contiguous_as(array, name)
        and not array.flags.c_contiguous
    )


def copy_as(array, name: str):
    """A copy of ``array`` in ``name``'s layout (``"contiguous_format"``: row-major; a plain
    copy at other ranks, as under vmap)."""
    if name == "contiguous_format":
        return xp.array(array, order="C", copy=True)
    rank, order = _ORDERS[name]
    if array.ndim != rank:
        return array.copy(order="K")
    inverse = tuple(order.index(d) for d in range(rank))
    # a fresh row-major buffer (NumPy would keep a transpose that is already contiguous in
    # its relaxed sense, with a size-1 dim's stride left as it was)
    result = xp.empty(tuple(array.shape[d] for d in order), dtype=array.dtype)
    result[...] = array.transpose(order)
    return result.transpose(inverse)


def suggested(*arrays) -> str | None:
    """The channels-last format one of ``arrays`` is laid out in, if any."""
    for a in arrays:
        for name in _ORDERS:
            if has_layout(a, name):
                return name
    return None


def memory_order(array) -> tuple | None:
    """The dims of ``empty_like(array)`` from the slowest to the fastest in memory, or None
    where that is row-major: the order in which ``rand_like`` and dropout fill it."""
    if array.flags.c_contiguous or array.ndim < 2 or array.size == 0:
        return None
    order = layout.fill_order(array.shape, layout.preserved_strides(array))
    return None if order == list(range(array.ndim)) else tuple(order)


def in_memory_order(array, make):
    """``make(shape)`` (a fresh array) laid out as ``array`` is: values drawn in memory
    order land where torch's fill of ``empty_like(array)`` puts them."""
    order = memory_order(array)
    if order is None:
        return make(array.shape)
    inverse = tuple(order.index(d) for d in range(array.ndim))
    return make(tuple(array.shape[d] for d in order)).transpose(inverse)

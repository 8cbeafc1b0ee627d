"""Memory layouts of dense tensors: ``torch.empty_permuted`` and ``Tensor.dim_order``.

numtorch's tensors are NumPy arrays, whose strides may run through the dims in any order;
these read and make such layouts the way torch's do."""

from __future__ import annotations

from ._core.device import check_device
from ._core.tensor import Tensor
from ._creation import _finish, _float_dtype, _size
from ._tensor_queries import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    empty_in_order,
    memory_format,
    preserve_format,
)
from .backend import layout as memory_layout


def empty_permuted(
    size,
    physical_layout,
    *,
    dtype=None,
    layout=None,
    device=None,
    requires_grad=False,
    pin_memory=False,
) -> Tensor:
    """An uninitialised tensor of ``size`` whose memory runs through its dims in the order
    ``physical_layout`` gives, outermost first.

    Example:
        >>> import numtorch as torch
        >>> torch.empty_permuted((2, 3, 5, 7), (0, 2, 3, 1)).stride()
        (105, 1, 21, 3)
    """
    check_device(device)
    shape = _size((tuple(size),), "empty_permuted")
    order = tuple(int(d) for d in physical_layout)
    if len(order) != len(shape):
        raise RuntimeError(
            "Number of dimensions in size does not match the length of the physical_layout; "
            f"i.e. len(size) = {len(shape)} is not equal to len(physical_layout) = {len(order)}"
        )
    seen = set()
    for i, d in enumerate(order):
        if not 0 <= d < len(shape):
            raise RuntimeError(
                f"Dimension out of range (expected to be between 0 and {len(shape) - 1}, but "
                f"got {d} at index {i}).  NB: negative dims not currently supported; file an "
                "issue if you want it."
            )
        if d in seen:
            raise RuntimeError("Duplicate dim not allowed")
        seen.add(d)
    data = empty_in_order(shape, order, _float_dtype(dtype).np)
    return _finish(data, requires_grad, "empty_permuted()")


# the dims from innermost to outermost that each format's strides must follow
_INNER_FIRST = {channels_last: (1, 3, 2, 0), channels_last_3d: (1, 4, 3, 2, 0)}


def _contiguous_in(tensor: Tensor, fmt) -> bool:
    """``tensor.is_contiguous(memory_format=fmt)`` as torch defines it: dims of size 1 may
    have any stride."""
    sizes, strides = tuple(tensor.shape), tensor.stride()
    if fmt is contiguous_format or fmt is preserve_format:  # torch reads preserve as contiguous
        inner_first = tuple(reversed(range(len(sizes))))
    elif fmt in _INNER_FIRST and len(sizes) == len(_INNER_FIRST[fmt]):
        inner_first = _INNER_FIRST[fmt]
    else:
        return False
    return memory_layout.dense_in_order(sizes, strides, inner_first)


def _outer_than(tensor: Tensor, a: int, b: int) -> int:
    """1 when dim ``a`` lies inside dim ``b`` in memory, -1 when outside, 0 when strides do
    not tell (a zero stride, or equal strides over equal sizes)."""

    def at_least(x, y):  # torch's test, which counts a zero y as smaller than anything
        return y == 0 or (x != 0 and x >= y)

    stride_a, stride_b = tensor.stride(a), tensor.stride(b)
    if stride_a == 0 or stride_b == 0:
        return 0
    if stride_a == stride_b:
        return 0 if at_least(tensor.shape[b], tensor.shape[a]) else 1
    return -1 if at_least(stride_b, stride_a) else 1


def _physical_order(tensor: Tensor, check: bool) -> tuple[list, bool]:
    """The dims from outermost to innermost, and whether ``check`` finds it ambiguous."""
    ndim = tensor.ndim
    if ndim < 2:
        return list(range(ndim)), False
    contiguous = _contiguous_in(tensor, contiguous_format)
    last = _contiguous_in(tensor, channels_last)
    if contiguous != last:
        return (list(range(ndim)) if contiguous else [0, *range(2, ndim), 1]), False
    # an insertion sort, innermost first, that leaves pairs the strides cannot tell in place
    order = list(reversed(range(ndim)))
    for i in range(1, ndim):
        j = i
        for k in reversed(range(i)):
            comparison = _outer_than(tensor, order[k], order[j])
            if comparison > 0:
                order[k], order[j] = order[j], order[k]
                j = k
            elif comparison < 0:
                break
    ambiguous = check and any(
        _outer_than(tensor, order[i], order[i + 1]) != -1 for i in range(ndim - 1)
    )
    return list(reversed(order)), ambiguous


def dim_order(self, *, ambiguity_check=False) -> tuple:
    """The dims of ``self`` from outermost to innermost in memory. ``ambiguity_check=True``
    raises where more than one order fits the strides (dims of size 1, equal strides); a
    list of memory formats raises unless the tensor is contiguous in exactly one of them.

    Example:
        >>> import numtorch as torch
        >>> torch.empty((2, 3, 5, 7)).transpose(1, 2).dim_order()
        (0, 2, 1, 3)
    """
    if getattr(self, "is_sparse", False):
        raise AttributeError(
            f"Can't get dim order on sparse type: {self.type()} Use Tensor.to_dense() to "
            "convert to a dense tensor first."
        )
    wrong = "The ambiguity_check argument must be a bool or a list of memory formats."
    if not isinstance(ambiguity_check, bool):
        if not isinstance(ambiguity_check, list):
            raise TypeError(wrong)
        if not all(isinstance(f, memory_format) for f in ambiguity_check):
            raise TypeError(wrong)
    formats = ambiguity_check if isinstance(ambiguity_check, list) else []
    check_dims = ambiguity_check if isinstance(ambiguity_check, bool) else True
    sizes, strides = tuple(self.shape), self.stride()
    several = any(s == 1 for s in sizes) or any(a == b for a, b in zip(strides, strides[1:]))
    if check_dims and several and sum(_contiguous_in(self, f) for f in formats) != 1:
        raise RuntimeError(
            "The tensor does not have unique dim order, or cannot map to exact one of the "
            "given memory formats."
        )
    order, ambiguous = _physical_order(self, bool(ambiguity_check))
    if ambiguous:
        raise RuntimeError("The tensor does not have unique dim order.")
    return tuple(order)


dim_order.__qualname__ = "Tensor.dim_order"
Tensor.dim_order = dim_order

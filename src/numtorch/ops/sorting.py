"""sort, argsort and topk (stable where torch is), with their named results."""

from __future__ import annotations

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.kernel_dtypes import COMPLEX, NUMBERS, REAL, KernelDtypes, own_message
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim, int_argument
from .._creation import zeros
from ..autograd.forward_grad import batched
from ..backend import xp
from .extrema import return_type
from .reduction import _take_along
from .topk_order import has_ties, row_topk


def _sort_backward(grad, input_shape, dim, result1):
    if not input_shape:  # a 0-d input sorts to itself
        return grad
    return zeros(input_shape, dtype=grad.dtype).scatter(dim, result1, grad)


_sort_type = return_type("sort")
_topk_type = return_type("topk")


class _TopkDtypes(KernelDtypes):
    """topk refuses complex and bool with one message each."""

    def error(self, np_dtype):
        kind = "complex" if np_dtype.kind == "c" else "bool"
        space = " " if kind == "complex" else ""  # torch's messages, their spacing included
        return RuntimeError(f"{space}topk does not support {kind} dtypes on CPU")


_TOPK = _TopkDtypes(NUMBERS - COMPLEX)


def _sort_kernel(input, dim, descending):
    if input.ndim == 0:
        return input.copy(), xp.zeros((), xp.int64)
    idx = _order(input, dim, descending)
    return xp.take_along_axis(input, idx, dim), idx.astype(xp.int64)


def _sort_entry(name: str, node: str):
    return defop(
        batch=batch_rules.along("dim"),
        name=name,
        node=node,
        aten="sort",
        dtypes=own_message(REAL, " Sort does not support complex dtypes on CPU"),
        outputs=2,
        returns=_sort_type,
        input=lambda grad, input_shape, dim, result1: _sort_backward(
            grad, input_shape, dim, result1
        ),
        jvp=batched(
            lambda input_t, input, dim, result1: (_take_along(input_t, input, dim, result1), None)
        ),
    )(_sort_kernel)


# torch's two overloads, one the same sort under the other's node name: a call that names
# ``stable`` (any value, None included) runs sort.stable and records SortBackward1
_sort = _sort_entry("sort", "SortBackward0")
_sort_stable = _sort_entry("sort_stable", "SortBackward1")
_NO_STABLE = object()


def _order(input, dim, descending):
    """Stable sorting indices; descending keeps equal elements in their original order and
    puts NaN first (negating would wrap unsigned and minimum integers)."""
    if not descending:
        return xp.argsort(input, axis=dim, kind="stable")
    n = input.shape[dim] if input.ndim else 1
    flipped = xp.argsort(xp.flip(input, dim), axis=dim, kind="stable")
    return xp.flip(n - 1 - flipped, dim)


@export
def sort(input, dim=-1, descending=False, *, stable=_NO_STABLE):
    """Sorted values and their indices along ``dim`` (always stable)."""
    entry = _sort if stable is _NO_STABLE else _sort_stable
    if input._data.dtype == xp.bool_:  # NumPy sorts bools; only the values keep their dtype
        values, indices = entry(input.to(_dtypes.uint8), _wrap_dim(dim, input.ndim), descending)
        return _sort_type(values.to(_dtypes.bool_), indices)
    return entry(input, _wrap_dim(dim, input.ndim), descending)


@export
def argsort(input, dim=-1, descending=False, stable=False) -> Tensor:
    return sort(input, dim, descending)[1]


@defop(
    batch=batch_rules.along("dim"),
    name="topk",
    dtypes=_TOPK,
    outputs=2,
    returns=_topk_type,
    input=lambda grad, input_shape, dim, result1: _sort_backward(grad, input_shape, dim, result1),
    jvp=batched(
        lambda input_t, input, dim, result1: (_take_along(input_t, input, dim, result1), None)
    ),
)
def _topk(input, k, dim, largest, sorted):
    if input.ndim == 0:
        return input.copy(), xp.zeros((), xp.int64)
    order = _order(input, dim, largest)
    idx = xp.take(order, xp.arange(k), axis=dim).astype(xp.int64)
    n = input.shape[dim]
    if k and n > 1:
        # torch's pick among equal values, and its unsorted order, are its selection
        # algorithm's (topk_order): rerun it on the rows where NumPy's order may differ
        rows = xp.moveaxis(input, dim, -1).reshape(-1, n)
        chosen = xp.moveaxis(idx, dim, -1).reshape(-1, k)
        redo = xp.ones(len(rows), bool) if not sorted and k * 64 > n else has_ties(rows, xp)
        for r in xp.nonzero(redo)[0]:
            chosen[r] = row_topk(rows[r].tolist(), k, largest, sorted)
        idx = xp.moveaxis(chosen.reshape(idx.shape[:dim] + idx.shape[dim + 1 :] + (k,)), -1, dim)
    return xp.take_along_axis(input, idx, dim), idx


@export
def topk(input, k, dim=-1, largest=True, sorted=True):
    """The ``k`` largest (or smallest) values along ``dim`` and their indices."""
    if k.__class__ is not int:
        k = int_argument(k, "k", "topk")
    dim = _wrap_dim(dim, input.ndim)
    if not 0 <= k <= (input.shape[dim] if input.ndim else 1):
        raise RuntimeError("selected index k out of range")
    return _topk(input, k, dim, largest, sorted)

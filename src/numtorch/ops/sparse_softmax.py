"""``torch.sparse.softmax`` and ``log_softmax`` of sparse COO tensors: the softmax along
``dim`` over the specified entries only (the unspecified ones count as minus infinity, so
they stay unspecified), with torch's nodes ``SparseSoftmaxBackward0`` and
``SparseLogSoftmaxBackward0``.

Along a sparse dim the entries that share every other sparse index form a group; along a
dense dim each entry's values are normalized on their own axis. The input is coalesced first.
"""

from __future__ import annotations

from .._core.kernel_dtypes import FLOATING, kernel
from .._core.op import defop
from .._core.tensor import Tensor, _wrap_dim
from ..backend import xp
from .sparse import SparseTensor, _index_tensor
from .sparse_primitives import _sum_values


def _group_reduce(x, groups, count, axis):
    """Per-group sums broadcast back to the entries (axis None), or sums along a dense axis."""
    if axis is None:
        return _sum_values(x, groups, count).index_select(0, groups)
    return x.sum(axis, keepdim=True)


def _forward(values, groups, count, axis, log):
    if axis is None:
        index = groups
        top = xp.full((count,) + values.shape[1:], -xp.inf, values.dtype)
        xp.maximum.at(top, index, values)
        shifted = values - top[index]
        sums = xp.zeros((count,) + values.shape[1:], values.dtype)
        xp.add.at(sums, index, xp.exp(shifted))
        total = sums[index]
    else:
        shifted = values - values.max(axis, keepdims=True)
        total = xp.exp(shifted).sum(axis, keepdims=True)
    return shifted - xp.log(total) if log else xp.exp(shifted) / total


@defop(
    name="sparse_softmax_values",
    aten="_sparse_softmax",
    dtypes=kernel("softmax", FLOATING),  # the values' dtype, after any dtype= cast
    schema_args=3,
    node="SparseSoftmaxBackward0",
    values=lambda grad, result, groups, count, axis: (
        result * (grad - _group_reduce(grad * result, groups, count, axis))
    ),
    # the softmax Jacobian is symmetric: the forward derivative has the backward's form
    jvp=lambda values_t, result, groups, count, axis: (
        result * (values_t - _group_reduce(values_t * result, groups, count, axis))
    ),
)
def _softmax_values(values, groups, count, axis):
    return _forward(values, groups, count, axis, False)


@defop(
    name="sparse_log_softmax_values",
    aten="_sparse_log_softmax",
    dtypes=kernel("log_softmax", FLOATING),
    schema_args=3,
    node="SparseLogSoftmaxBackward0",
    values=lambda grad, result, groups, count, axis: (
        grad - result.exp() * _group_reduce(grad, groups, count, axis)
    ),
    jvp=lambda values_t, result, groups, count, axis: (
        values_t - _group_reduce(result.exp() * values_t, groups, count, axis)
    ),
)
def _log_softmax_values(values, groups, count, axis):
    return _forward(values, groups, count, axis, True)


def _apply(op, input, dim, dtype, name):
    if not isinstance(input, SparseTensor):
        raise NotImplementedError(f"torch.sparse.{name} expects a sparse COO tensor")
    dim = _wrap_dim(dim, input.ndim)
    coalesced = input.coalesce()
    values = coalesced._value_tensor if dtype is None else coalesced._value_tensor.to(dtype)
    sparse_dim = input.sparse_dim()
    if dim >= sparse_dim:
        result = op(values, None, 0, dim - sparse_dim + 1)
    else:
        others = [d for d in range(sparse_dim) if d != dim]
        index = coalesced._index_array[others]
        if others and index.size:
            sizes = [input.shape[d] for d in others]
            linear = xp.ravel_multi_index(tuple(index), sizes)
        else:
            linear = xp.zeros(index.shape[1], xp.int64)
        unique, groups = xp.unique(linear, return_inverse=True)
        result = op(values, _index_tensor(groups.reshape(-1)), len(unique), None)
    return SparseTensor._build(coalesced._index_array, result, input.shape, True)


def softmax(input, dim, *, dtype=None) -> Tensor:
    """The softmax along ``dim`` over a sparse tensor's specified entries."""
    return _apply(_softmax_values, input, dim, dtype, "softmax")


def log_softmax(input, dim, *, dtype=None) -> Tensor:
    """The log-softmax along ``dim`` over a sparse tensor's specified entries."""
    return _apply(_log_softmax_values, input, dim, dtype, "log_softmax")

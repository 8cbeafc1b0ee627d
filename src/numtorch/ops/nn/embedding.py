"""Embedding lookup (grad_fn ``EmbeddingBackward0``) and its scatter-add backward.

Backward adds each gradient row into the row its index names with ``np.add.at`` semantics, so
indices that repeat accumulate; the ``padding_idx`` row gets no gradient, and
``scale_grad_by_freq`` divides each row by how often its index occurs in the batch.
"""

from __future__ import annotations

from ..._core import shape_batch_rules, weight_batch_rules
from ..._core.dispatch import require_tensor
from ..._core.dtypes import bool_
from ..._core.op import defop, export
from ..._core.tensor import Tensor
from ...backend import xp
from ..sparse import SparseTensor


def _row_scale(indices, num_weights, padding_idx, scale_grad_by_freq, dtype):
    """Per-row factor applied to the scattered gradient (None when it is all ones)."""
    if padding_idx < 0 and not scale_grad_by_freq:
        return None
    scale = xp.ones(num_weights, dtype)
    if scale_grad_by_freq:
        counts = xp.bincount(indices.reshape(-1), minlength=num_weights)
        scale /= xp.maximum(counts, 1)
    if padding_idx >= 0:
        scale[padding_idx] = 0
    return scale


def _backward_adjoint(grad, indices, padding_idx, scale_grad_by_freq):
    # the adjoint of (scatter, then scale rows) is (scale rows, then gather)
    scale = _row_scale(
        indices._data, grad.shape[0], padding_idx, scale_grad_by_freq, grad._data.dtype
    )
    if scale is not None:
        grad = grad * Tensor._make(scale[:, None])
    return embedding_op(grad, indices, padding_idx, scale_grad_by_freq, False)


@defop(
    batch=shape_batch_rules.embedding_dense_backward,
    name="embedding_dense_backward",
    node="EmbeddingDenseBackwardBackward0",
    grad_output=lambda grad, indices, padding_idx, scale_grad_by_freq: _backward_adjoint(
        grad, indices, padding_idx, scale_grad_by_freq
    ),
    jvp="linear",
)
def embedding_backward_op(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq):
    flat = indices.reshape(-1)
    rows = grad_output.reshape(flat.size, grad_output.shape[-1])  # (not -1: no indices)
    out = xp.zeros((num_weights, rows.shape[1]), grad_output.dtype)
    xp.add.at(out, flat, rows)
    scale = _row_scale(indices, num_weights, padding_idx, scale_grad_by_freq, out.dtype)
    if scale is not None:
        out *= scale[:, None]
    if padding_idx >= 0:  # torch skips the padding row's lookups: +0.0, whatever they held
        out[padding_idx] = 0
    return out


def _sparse_weight_grad(grad, indices, num_weights, padding_idx, scale_grad_by_freq):
    """torch's embedding_sparse_backward: one entry per looked-up index (the padding index
    left out), the gradient rows as values, uncoalesced."""
    flat = indices._data.reshape(-1)
    rows = grad.reshape(flat.size, grad.shape[-1])
    scale = _row_scale(flat, num_weights, -1, scale_grad_by_freq, grad._data.dtype)
    if scale is not None:
        rows = rows * Tensor._make(scale[flat][:, None])
    if padding_idx >= 0:
        keep = flat != padding_idx
        flat, rows = flat[keep], rows[Tensor._make(keep)]
    return SparseTensor._build(flat[None], rows, (num_weights, grad.shape[-1]), False)


def _weight_grad(grad, weight_shape, indices, padding_idx, scale_grad_by_freq, sparse):
    if sparse:
        return _sparse_weight_grad(grad, indices, weight_shape[0], padding_idx, scale_grad_by_freq)
    return embedding_backward_op(grad, indices, weight_shape[0], padding_idx, scale_grad_by_freq)


@defop(
    batch=weight_batch_rules.embedding,
    name="embedding",
    node="EmbeddingBackward0",
    weight=_weight_grad,
    jvp="linear",
)
def embedding_op(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    return xp.take(weight, indices, axis=0)


def check_weight_2d(weight) -> None:
    """torch's refusal of an embedding table that is not a matrix (before NumPy's take)."""
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")


@export(method=False)
def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False) -> Tensor:
    """Rows of ``weight`` picked by the integer tensor ``indices`` (shape: indices + (dim,))."""
    check_weight_2d(weight)
    require_tensor("embedding", "indices", 2, indices)
    if indices._data.dtype not in (xp.int64, xp.int32):  # torch takes Long and Int only
        # torch names a bool tensor by its legacy type
        got = "CPUBoolType" if indices.dtype is bool_ else f"torch.{indices.dtype._tag}"
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got {got} instead (while checking arguments for "
            "embedding)"
        )
    data = indices._data
    # under vmap the values are not readable here; the batched take checks them
    if not indices._batched and data.size and (data.min() < 0 or data.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    return embedding_op(weight, indices, padding_idx, scale_grad_by_freq, bool(sparse))

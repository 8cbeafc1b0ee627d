"""Embedding bags (grad_fn ``EmbeddingBagBackward0``): per bag, the sum, mean or max of the
rows of ``weight`` named by a run of 1-D ``indices``; ``offsets`` start each bag.

Entries equal to ``padding_idx`` are skipped (and not counted by the mean); an empty bag
gives a zero row. ``per_sample_weights`` (mode sum) scale each row before summing.
Backward gathers the bag gradients back to the positions and scatter-adds them into the
rows; as in torch, those gradients cannot be differentiated again.
"""

from __future__ import annotations

from ..._core.kernel_dtypes import FLOATS, own_message
from ..._core.op import defop, not_implemented, refusing
from ..._core.tensor import Tensor
from ...autograd.forward_grad import no_forward_derivative
from ...backend import xp

MODES = {"sum": 0, "mean": 1, "max": 2}


def _bags(indices, offsets, include_last_offset):
    """(bag of each position, number of bags). With ``include_last_offset`` the final
    offset is dropped: as in torch, the last bag runs to the end of ``indices``."""
    if include_last_offset:
        offsets = offsets[:-1]
    bag = xp.searchsorted(offsets, xp.arange(indices.shape[0]), side="right") - 1
    return bag, offsets.shape[0]


def _position_scale(indices, bag, num_bags, mode, padding_idx, scale_grad_by_freq, dtype):
    """Per-position factor of the sum/mean: 0 for padding, 1/bag size for the mean and
    1/frequency of the index under scale_grad_by_freq (the last only for the gradient)."""
    scale = (indices != padding_idx).astype(dtype)
    if mode == 1:
        counts = xp.bincount(bag, weights=scale, minlength=num_bags)
        scale = scale / xp.maximum(counts, 1)[bag]
    if scale_grad_by_freq:
        frequency = xp.bincount(indices, minlength=int(indices.max(initial=0)) + 1)
        scale = scale / frequency[indices]
    return scale.astype(dtype, copy=False)  # a float64 scale would put add.at on its slow path


def _max_rows(weight, indices, bag, num_bags, padding_idx):
    """(max over each bag per column, the weight row it came from; -1 for empty bags)."""
    positions = xp.nonzero(indices != padding_idx)[0]
    rows, bags = indices[positions], bag[positions]
    values = weight[rows]
    out = xp.full((num_bags, weight.shape[1]), -xp.inf, weight.dtype)
    # torch seeds each bag with its first row and replaces only by a strictly greater value:
    # a NaN first row stays, a later NaN never wins
    xp.fmax.at(out, bags, values)
    # the first position of each bag reaching the max (ties go to the earliest, as torch)
    first = xp.full(out.shape, positions.shape[0], xp.int64)
    hit_pos, hit_col = xp.nonzero(values == out[bags])
    xp.minimum.at(first, (bags[hit_pos], hit_col), hit_pos)
    seed = xp.full(num_bags, positions.shape[0], xp.int64)
    xp.minimum.at(seed, bags, xp.arange(positions.shape[0]))
    filled = xp.nonzero(seed < positions.shape[0])[0]
    nan_bag, nan_col = xp.nonzero(xp.isnan(values[seed[filled]]))
    out[filled[nan_bag], nan_col] = xp.nan
    first[filled[nan_bag], nan_col] = seed[filled[nan_bag]]
    empty = first == positions.shape[0]
    if not rows.size:  # every index is the padding: all bags are empty
        return xp.zeros_like(out), xp.full(out.shape, -1, indices.dtype)
    argmax = xp.where(empty, -1, rows[xp.minimum(first, positions.shape[0] - 1)])
    return xp.where(empty, 0, out), argmax


def _grad_weight(
    grad, num_weights, argmax, indices, offsets, mode, psw, padding_idx, last, by_freq
):
    data = indices._data
    bag, num_bags = _bags(data, offsets._data, last)
    weight_shape = (num_weights, grad.shape[1])
    if mode == 2:
        argmax = argmax._data
        # an empty bag sends nothing (filled, not multiplied by 0: its gradient may be NaN)
        empty = Tensor._make(argmax < 0)
        target = Tensor._make(xp.maximum(argmax, 0))
        return grad.new_zeros(weight_shape).scatter_add(0, target, grad.masked_fill(empty, 0))
    scale = _position_scale(data, bag, num_bags, mode, padding_idx, by_freq, grad._data.dtype)
    rows = grad.index_select(0, Tensor._make(bag)) * Tensor._make(scale[:, None])
    if psw is not None:
        rows = rows * psw[:, None]
    # a padding entry's row gets nothing, even where its bag's gradient is NaN or inf
    rows = rows.masked_fill(Tensor._make((data == padding_idx)[:, None]), 0)
    return grad.new_zeros(weight_shape).index_add(0, indices, rows)


def _grad_per_sample_weights(grad, weight, indices, offsets, padding_idx, last):
    data = indices._data
    bag, _ = _bags(data, offsets._data, last)
    skipped = Tensor._make(data == padding_idx)
    bag_grads = grad.index_select(0, Tensor._make(bag))
    return (bag_grads * weight.index_select(0, indices)).sum(1).masked_fill(skipped, 0)


@refusing
def _backward_not_implemented(grad):
    raise NotImplementedError("the derivative for '_embedding_bag_backward' is not implemented.")


# torch records both gradients as nodes it cannot differentiate: a second order through an
# embedding bag raises (EmbeddingBagBackwardBackward0 for the weight's, NotImplemented for
# the per-sample weights')
@defop(
    name="_embedding_bag_backward",
    schema_args=12,
    node="EmbeddingBagBackwardBackward0",
    grad_output=_backward_not_implemented,
    per_sample_weights=_backward_not_implemented,
    jvp=no_forward_derivative("_embedding_bag_backward"),
)
def _embedding_bag_backward(
    grad_output,
    max_indices,
    indices,
    offsets,
    num_weights,
    mode,
    per_sample_weights,
    padding_idx,
    last,
    by_freq,
):
    psw = None if per_sample_weights is None else Tensor._make(per_sample_weights)
    grad_output, max_indices, indices, offsets = map(
        Tensor._make, (grad_output, max_indices, indices, offsets)
    )
    return _grad_weight(
        grad_output,
        num_weights,
        max_indices,
        indices,
        offsets,
        mode,
        psw,
        padding_idx,
        last,
        by_freq,
    )._data


@defop(
    name="_embedding_bag_per_sample_weights_backward",
    schema_args=7,
    node="NotImplemented",
    grad_output=not_implemented("_embedding_bag_per_sample_weights_backward"),
    weight=not_implemented("_embedding_bag_per_sample_weights_backward"),
    jvp=no_forward_derivative("_embedding_bag_per_sample_weights_backward"),
)
def _per_sample_weights_backward(grad_output, weight, indices, offsets, padding_idx, last):
    tensors = map(Tensor._make, (grad_output, weight, indices, offsets))
    return _grad_per_sample_weights(*tensors, padding_idx, last)._data


# As torch's, the weight's gradient reads the weight's size and the max mode's argmax (a
# second output), not the weight itself: only the per-sample weights' gradient saves it, so
# changing the weight in place after the call fails only that backward
@defop(
    name="_embedding_bag",
    node="EmbeddingBagBackward0",
    dtypes=own_message(
        FLOATS,
        "Expected tensor for argument #1 'weight' to have one of the following scalar types: "
        "Half, BFloat16, Float, Double; but got {dtype} instead (while checking arguments for "
        "embedding_bag)",
    ),
    outputs=2,
    weight=lambda grad, weight_shape, indices, offsets, mode, per_sample_weights, padding_idx, include_last_offset, scale_grad_by_freq, result1: (  # noqa: E501
        _embedding_bag_backward(
            grad,
            result1,
            indices,
            offsets,
            weight_shape[0],
            mode,
            per_sample_weights,
            padding_idx,
            include_last_offset,
            scale_grad_by_freq,
        )
    ),
    per_sample_weights=lambda grad, weight, indices, offsets, padding_idx, include_last_offset: (
        _per_sample_weights_backward(
            grad, weight, indices, offsets, padding_idx, include_last_offset
        )
    ),
    jvp=no_forward_derivative("_embedding_bag"),
)
def embedding_bag_op(
    weight,
    indices,
    offsets,
    mode=1,
    per_sample_weights=None,
    padding_idx=-1,
    include_last_offset=False,
    scale_grad_by_freq=False,
):
    bag, num_bags = _bags(indices, offsets, include_last_offset)
    if mode == 2:
        return _max_rows(weight, indices, bag, num_bags, padding_idx)
    used = indices != padding_idx
    # padding entries are skipped, not added times 0: a NaN or inf row there adds nothing
    out = xp.zeros((num_bags, weight.shape[1]), weight.dtype)
    rows = weight[indices[used]]
    if per_sample_weights is not None:
        rows = rows * per_sample_weights[used, None]
    xp.add.at(out, bag[used], rows)
    if mode == 1:
        # torch sums a bag's rows, then divides by their number: a sum past the dtype's
        # range is infinite, as a mean of the divided rows would not be
        counts = xp.bincount(bag[used], minlength=num_bags)
        out /= xp.maximum(counts, 1).astype(out.dtype)[:, None]
    return out, xp.zeros(0, xp.int64)

"""Margin and embedding losses of ``numtorch.nn.functional``: margin ranking, hinge
embedding, soft margin, multi-label soft margin, multi-class margin, cosine embedding and
triplet margin losses.

Where torch's loss is a composite (C++ or Python), it is composed the same way here, so its
grad_fn is torch's (``ClampMinBackward0``, ``AddBackward0``, ``MeanBackward0``...); the others
are primitives of ``numtorch.ops.nn.loss``.
"""

from __future__ import annotations

from ..._core.observers import composite
from ..._core.tensor import Tensor
from ..._creation import full_like, zeros_like
from ...ops.clamping import minimum
from ...ops.nn import loss as L
from ...ops.nn import multilabel_margin as MLM
from ...ops.nn import pointwise_loss as PL
from ...ops.pointwise import where
from ...ops.shape import broadcast_tensors
from .activation import logsigmoid
from .distance import pairwise_distance
from .loss import _check_target_dtype, _reduction, legacy_reduction


@composite(
    "aten::margin_ranking_loss", schema_args=5
)  # its own op in torch: autocast runs it in float32
def margin_ranking_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)``: ``target`` (1 or -1) says which
    input should rank higher.

    Example:
        >>> import numtorch as torch
        >>> F = torch.nn.functional
        >>> F.margin_ranking_loss(torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0]),
        ...                       torch.tensor([1.0, 1.0]), margin=0.5)
        tensor(0.7500)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} "
        )
    return margin_ranking_loss_unchecked(input1, input2, target, margin, reduction)


def margin_ranking_loss_unchecked(input1, input2, target, margin, reduction) -> Tensor:
    """ATen's margin_ranking_loss (``torch.margin_ranking_loss``): the inputs broadcast, the
    dims check is F's alone."""
    return L.reduce_tensor((-target * (input1 - input2) + margin).clamp_min(0), reduction)


@composite(
    "aten::hinge_embedding_loss", schema_args=4
)  # its own op in torch: autocast runs it in float32
def hinge_embedding_loss(
    input: Tensor,
    target: Tensor,
    margin: float = 1.0,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``input`` where ``target == 1``, ``max(0, margin - input)`` where ``target == -1``."""
    reduction = _reduction(size_average, reduce, reduction)
    zeros = zeros_like(input)
    # torch subtracts from the margin filled into the input's dtype (an integer input
    # truncates it), not from a number that promotes
    margin_clamp = (full_like(input, margin) - input).clamp_min(0)
    output = where(target != 1, margin_clamp, zeros) + where(target != -1, input, zeros)
    return L.reduce_tensor(output, reduction)


def soft_margin_loss(
    input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean"
) -> Tensor:
    """``log(1 + exp(-target * input))`` for targets 1 or -1."""
    reduction = _reduction(size_average, reduce, reduction)
    L.check_not_differentiable("soft_margin_loss", "target", target)
    if input.shape != target.shape:
        input, target = broadcast_tensors(input, target)
    return PL.soft_margin_loss_op(input, target, reduction)


def multilabel_soft_margin_loss(
    input: Tensor,
    target: Tensor,
    weight=None,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """Binary cross entropy of ``sigmoid(input)`` per class against 0/1 targets, averaged
    over the classes (the last dim)."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.ndim - 1
    loss = loss.sum(dim=class_dim) / input.shape[class_dim]
    if reduction not in L.REDUCTIONS:
        raise ValueError(reduction + " is not valid")
    return L.reduce_tensor(loss, reduction)


def multi_margin_loss(
    input: Tensor,
    target: Tensor,
    p: int = 1,
    margin: float = 1.0,
    weight=None,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """Multi-class hinge loss: ``sum_{i != y} max(0, margin - x[y] + x[i])^p / C`` per sample
    (weighted by ``weight[y]``)."""
    reduction = _reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.ndim != 1:
        raise ValueError("weight must be one-dimensional")
    if input.ndim > 2 or (input.ndim > 0 and input.shape[-1] == 0):
        raise RuntimeError(
            "Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
            f"{list(input.shape)}"
        )
    batch = input.shape[0] if input.ndim == 2 else 1
    classes = input.shape[-1] if input.ndim else 1
    if target.ndim > 1 or target.numel() != batch:
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of "
            f"input samples (batch size). Expected target size [{batch}], but got "
            f"{list(target.shape)}. Input has shape {list(input.shape)}."
        )
    _check_target_dtype(target, byte_ok=False)
    if weight is not None:
        L.check_not_differentiable("multi_margin_loss", "weight", weight)
        if weight.numel() != classes:
            raise RuntimeError(
                f"inconsistent weight size, expected {classes} but got {list(weight.shape)}"
            )
    if ((target < 0) | (target >= classes)).any():
        raise RuntimeError("target out of range")
    if weight is not None and weight.dtype != input.dtype:
        raise RuntimeError(
            f"expected scalar type {input.dtype.scalar_name} but found {weight.dtype.scalar_name}"
        )
    return L.multi_margin_loss_op(input, target, p, margin, weight, reduction)


# torch's constant is a C++ float: 1e-12 rounded to float32, which zero vectors expose
_EPSILON = 9.999999960041972e-13


@composite(
    "aten::cosine_embedding_loss", schema_args=5
)  # its own op in torch: autocast runs it in float32
def cosine_embedding_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``1 - cos(x1, x2)`` where ``target == 1``, ``max(0, cos(x1, x2) - margin)`` where
    ``target == -1``."""
    reduction = _reduction(size_average, reduce, reduction)
    dim = target.ndim
    if dim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if dim == 1 and (input1.ndim != 2 or input2.ndim != 2):
        raise RuntimeError(
            "1D target tensor expects 2D input tensors, but found inputs with sizes "
            f"{list(input1.shape)} and {list(input2.shape)}."
        )
    if dim == 0 and (input1.ndim != 1 or input2.ndim != 1):
        raise RuntimeError(
            "0D target tensor expects 1D input tensors, but found inputs with sizes "
            f"{list(input1.shape)} and {list(input2.shape)}."
        )
    products = (input1 * input2).sum(dim)
    squares1 = (input1 * input1).sum(dim) + _EPSILON
    squares2 = (input2 * input2).sum(dim) + _EPSILON
    cos = products / (squares1 * squares2).sqrt()
    zeros = zeros_like(cos)
    positive = where(target == 1, 1 - cos, zeros)
    negative = where(target == -1, (cos - margin).clamp_min(0), zeros)
    return L.reduce_tensor(positive + negative, reduction)


@composite(
    "aten::triplet_margin_loss", schema_args=8
)  # its own op in torch: autocast runs it in float32
def triplet_margin_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    margin: float = 1.0,
    p: float = 2,
    eps: float = 1e-6,
    swap: bool = False,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``max(0, d(a, p) - d(a, n) + margin)`` with the pairwise p-norm distance ``d``;
    ``swap`` uses ``min(d(a, n), d(p, n))`` as the negative distance."""
    reduction = _reduction(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.ndim, positive.ndim, negative.ndim)
    if len(set(dims)) != 1:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative "
            f"{dims[2]}D inputs"
        )
    distance_positive = pairwise_distance(anchor, positive, p, eps)
    distance_negative = pairwise_distance(anchor, negative, p, eps)
    if swap:
        distance_negative = minimum(
            distance_negative, pairwise_distance(positive, negative, p, eps)
        )
    loss = (margin + distance_positive - distance_negative).clamp_min(0)
    return L.reduce_tensor(loss, reduction)


def triplet_margin_with_distance_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    *,
    distance_function=None,
    margin: float = 1.0,
    swap: bool = False,
    reduction: str = "mean",
) -> Tensor:
    """``max(0, d(anchor, positive) - d(anchor, negative) + margin)`` for any distance
    function ``d`` (default: ``pairwise_distance``); ``swap`` uses
    ``min(d(a, n), d(p, n))`` as the negative distance.

    Example:
        >>> import numtorch as torch
        >>> a, p, n = torch.zeros(1, 2), torch.ones(1, 2), torch.full((1, 2), 2.0)
        >>> F = torch.nn.functional
        >>> F.triplet_margin_with_distance_loss(a, p, n, distance_function=F.l1_loss)
        tensor(0.)
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    if not (anchor.ndim == positive.ndim == negative.ndim):
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {anchor.ndim}D, positive {positive.ndim}D, and "
            f"negative {negative.ndim}D inputs"
        )
    if distance_function is None:
        distance_function = pairwise_distance
    distance_positive = distance_function(anchor, positive)
    distance_negative = distance_function(anchor, negative)
    if swap:
        distance_negative = minimum(distance_negative, distance_function(positive, negative))
    loss = (margin + distance_positive - distance_negative).clamp_min(0)
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.mean()
    return loss


def multilabel_margin_loss(
    input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean"
) -> Tensor:
    """Multi-label hinge loss: ``sum_{j listed, i not listed} max(0, 1 - x[j] + x[i]) / C`` per
    sample, where a row of ``target`` lists class indices up to its first -1."""
    reduction = _reduction(size_average, reduce, reduction)
    if input.ndim > 2 or (input.ndim > 0 and input.shape[-1] == 0):
        raise RuntimeError(
            "Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
            f"{list(input.shape)}"
        )
    if target.shape != input.shape:
        raise RuntimeError(
            f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}"
        )
    _check_target_dtype(target, byte_ok=False)
    classes = input.shape[-1] if input.ndim else 1
    if ((target < -1) | (target >= classes)).any():
        raise RuntimeError("argument #2 'target' is out of range")
    if not input.is_floating_point():
        raise NotImplementedError(
            f'"multilabel_margin_loss_forward_out_frame" not implemented for '
            f"'{input.dtype.scalar_name}'"
        )
    return MLM.multilabel_margin_loss_op(input, target, reduction)

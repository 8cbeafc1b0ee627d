"""Loss functions of ``numtorch.nn.functional``, with torch's argument checks.

``cross_entropy`` is ``nll_loss(log_softmax(input))`` for class indices (grad_fn
``NllLossBackward0``) and a weighted sum of ``log_softmax * target`` for class
probabilities, with label smoothing composed as torch composes it.
"""

from __future__ import annotations

import warnings

from ..._tensor import Tensor
from ...ops.nn import loss as L
from .activation import log_softmax


def legacy_reduction(size_average, reduce, emit_warning=True) -> str:
    """torch's mapping of the deprecated ``size_average``/``reduce`` flags to ``reduction``."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
    if emit_warning:
        warnings.warn(
            "size_average and reduce args will be deprecated, please use "
            f"reduction='{reduction}' instead.",
            stacklevel=3,
        )
    return reduction


def _reduction(size_average, reduce, reduction) -> str:
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce)
    if reduction not in L.REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _warn_broadcast(input, target):
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.",
            stacklevel=3,
        )


def mse_loss(
    input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean"
) -> Tensor:
    """Mean squared error ``(input - target)^2``, reduced.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.mse_loss(torch.tensor([1.0, 3.0]), torch.tensor([0.0, 0.0]))
        tensor(5.)
    """
    reduction = _reduction(size_average, reduce, reduction)
    _warn_broadcast(input, target)
    return L.mse_loss_op(input, target, reduction)


def l1_loss(
    input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean"
) -> Tensor:
    """Mean absolute error ``|input - target|``, reduced."""
    reduction = _reduction(size_average, reduce, reduction)
    _warn_broadcast(input, target)
    return L.reduce_tensor((input - target).abs(), reduction)


def _check_target_dtype(target):
    if not isinstance(target, Tensor) or target._data.dtype.kind not in "iub":
        found = target.dtype._tag[:-6] if isinstance(target, Tensor) else type(target).__name__
        raise RuntimeError(f"expected scalar type Long but found {found}")


def nll_loss(
    input: Tensor,
    target: Tensor,
    weight=None,
    size_average=None,
    ignore_index: int = -100,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """Negative log likelihood of the target classes given log-probabilities ``input``
    of shape (N, C, ...) or (C,).

    Example:
        >>> import numtorch as torch
        >>> logp = torch.tensor([[-0.5, -1.0], [-2.0, -0.1]])
        >>> torch.nn.functional.nll_loss(logp, torch.tensor([0, 1]))
        tensor(0.3000)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if input.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.ndim})")
    _check_target_dtype(target)
    if input.ndim >= 2 and input.shape[0] != (target.shape[0] if target.ndim else 1):
        raise ValueError(
            f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
            f"({target.shape[0] if target.ndim else 1})."
        )
    classes = input.shape[0] if input.ndim == 1 else input.shape[1]
    if weight is not None:
        L.check_not_differentiable("nll_loss_forward", "weight", weight)
        if weight.numel() != classes:
            raise RuntimeError(
                f"weight tensor should be defined either for all {classes} classes or no "
                f"classes but got weight tensor of shape: {list(weight.shape)}"
            )
    expected = input.shape[:1] + input.shape[2:] if input.ndim > 1 else ()
    if tuple(target.shape) != tuple(expected):
        raise RuntimeError(f"Expected target size {list(expected)}, got {list(target.shape)}")
    if input.ndim <= 2:
        return L.nll_loss_op(input, target, weight, reduction, ignore_index)
    if input.ndim == 4:
        return L.nll_loss2d_op(input, target, weight, reduction, ignore_index)
    # other ranks go through the 2-D kernel, as in torch
    n, c = input.shape[0], input.shape[1]
    out = L.nll_loss2d_op(
        input.reshape(n, c, 1, -1), target.reshape(n, 1, -1), weight, reduction, ignore_index
    )
    return out.view(target.shape) if reduction == "none" else out


def cross_entropy(
    input: Tensor,
    target: Tensor,
    weight=None,
    size_average=None,
    ignore_index: int = -100,
    reduce=None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """Cross entropy between logits ``input`` (N, C, ...) and class indices or class
    probabilities ``target``, optionally with label smoothing.

    Example:
        >>> import numtorch as torch
        >>> logits = torch.tensor([[2.0, 0.0], [0.0, 2.0]])
        >>> torch.nn.functional.cross_entropy(logits, torch.tensor([0, 1]))
        tensor(0.1269)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")
    class_dim = 0 if input.ndim == 1 else 1
    classes = input.shape[class_dim]
    log_probs = log_softmax(input, class_dim)
    if target._data.dtype.kind == "f":
        if target.shape != input.shape:
            raise RuntimeError(
                f"Expected target size {list(input.shape)}, got {list(target.shape)}"
            )
        return _soft_cross_entropy(log_probs, target, weight, reduction, label_smoothing)
    loss = nll_loss(log_probs, target, weight, None, ignore_index, None, reduction)
    if label_smoothing == 0.0:
        return loss
    ignored = target == ignore_index
    if weight is not None:
        shape = [1] * input.ndim
        shape[class_dim] = classes
        smooth = -(log_probs * weight.view(shape)).sum(class_dim)
    else:
        smooth = -log_probs.sum(class_dim)
    smooth = smooth.masked_fill(ignored, 0.0)
    if reduction == "mean":
        kept = target[~ignored]
        denominator = weight[kept].sum() if weight is not None else (~ignored).sum()
        smooth = smooth.sum() / denominator
    elif reduction == "sum":
        smooth = smooth.sum()
    return (1 - label_smoothing) * loss + smooth * (label_smoothing / classes)


def _soft_cross_entropy(log_probs, target, weight, reduction, label_smoothing):
    class_dim = 0 if log_probs.ndim == 1 else 1
    classes = log_probs.shape[class_dim]
    if label_smoothing > 0.0:
        target = target * (1 - label_smoothing) + label_smoothing / classes
    product = log_probs * target
    if weight is not None:
        shape = [1] * log_probs.ndim
        shape[class_dim] = classes
        product = product * weight.view(shape)
    if reduction == "mean":
        return -product.sum() / (log_probs.numel() / classes)
    if reduction == "sum":
        return -product.sum()
    return -product.sum(class_dim)


def binary_cross_entropy(
    input: Tensor,
    target: Tensor,
    weight=None,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """``-(t log(x) + (1 - t) log(1 - x))`` for probabilities ``x`` (logs clamped at -100)."""
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}) is deprecated. Please ensure they have the same size."
        )
    L.check_not_differentiable("binary_cross_entropy", "weight", weight)
    return L.binary_cross_entropy_op(input, target, weight, reduction)


def binary_cross_entropy_with_logits(
    input: Tensor,
    target: Tensor,
    weight=None,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
    pos_weight=None,
) -> Tensor:
    """Binary cross entropy of ``sigmoid(input)``, computed stably from the logits;
    ``pos_weight`` weighs the positive term per class.

    Example:
        >>> import numtorch as torch
        >>> F = torch.nn.functional
        >>> F.binary_cross_entropy_with_logits(torch.tensor([0.0]), torch.tensor([1.0]))
        tensor(0.6931)
    """
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})"
        )
    name = "binary_cross_entropy_with_logits"
    L.check_not_differentiable(name, "weight", weight)
    L.check_not_differentiable(name, "pos_weight", pos_weight)
    return L.binary_cross_entropy_with_logits_op(input, target, weight, pos_weight, reduction)

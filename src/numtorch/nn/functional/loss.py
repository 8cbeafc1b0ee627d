"""Loss functions of ``numtorch.nn.functional``, with torch's argument checks: regression and
likelihood losses, cross entropy and its relatives (margin losses: margin_loss.py).

``cross_entropy`` is ``nll_loss(log_softmax(input))`` for class indices (grad_fn
``NllLossBackward0``) and a weighted sum of ``log_softmax * target`` for class
probabilities, with label smoothing composed as torch composes it.
"""

from __future__ import annotations

import math
import warnings

from ..._core.dispatch import require_tensor
from ..._core.dtypes import result_type as torch_result_type
from ..._core.grad_mode import no_grad
from ..._core.observers import composite
from ..._core.tensor import Tensor, _read_dim
from ..._creation import ones_like
from ...backend import xp
from ...ops.nn import loss as L
from ...ops.nn import pointwise_loss as PL
from ...ops.pointwise import _div_scalar, _mul_scalar
from ...ops.shape import broadcast_tensors
from ...ops.special import xlogy
from .activation import log_softmax


def _require_tensors(name, input, target):
    # torch's TypeError for a NumPy array (or another non-tensor) given to a loss
    require_tensor(name, "input", 1, input)
    require_tensor(name, "target", 2, target)


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


def _warn_broadcast(input, target, stacklevel=3):
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.",
            stacklevel=stacklevel,
        )


def _weighted(errors, weight, input, reduction):
    """torch 2.13's weighted mse/l1: ``sum(errors * weight) / sum(weight)`` for the mean."""
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    weighted = errors * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return weighted.sum()
    return weighted.sum() / weight.sum()


def mse_loss(
    input: Tensor,
    target: Tensor,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
    weight=None,
) -> Tensor:
    """Mean squared error ``(input - target)^2``, reduced.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.functional.mse_loss(torch.tensor([1.0, 3.0]), torch.tensor([0.0, 0.0]))
        tensor(5.)
    """
    _require_tensors("mse_loss", input, target)
    reduction = _reduction(size_average, reduce, reduction)
    _warn_broadcast(input, target)
    if not (input.is_floating_point() or target.is_floating_point()):
        dtype = torch_result_type(input, target)
        raise NotImplementedError(f"\"mse_cpu\" not implemented for '{dtype.scalar_name}'")
    if weight is not None:
        a, b = broadcast_tensors(input, target)
        return _weighted((a - b).pow(2), weight, input, reduction)
    if input.shape != target.shape:
        # torch broadcasts first: a 0-d operand then counts as dimensioned in type promotion
        input, target = broadcast_tensors(input, target)
    return PL.mse_loss_op(input, target, reduction)


@composite("aten::l1_loss", schema_args=3)  # its own op in torch: autocast runs it in float32
def l1_loss(
    input: Tensor,
    target: Tensor,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
    weight=None,
) -> Tensor:
    """Mean absolute error ``|input - target|``, reduced (``weight``: per element)."""
    _require_tensors("l1_loss", input, target)
    reduction = _reduction(size_average, reduce, reduction)
    _warn_broadcast(input, target)
    if weight is not None:
        a, b = broadcast_tensors(input, target)
        return _weighted((a - b).abs(), weight, input, reduction)
    if input.shape != target.shape:  # as mse_loss: broadcast before promoting
        input, target = broadcast_tensors(input, target)
    return L.reduce_tensor((input - target).abs(), reduction)


def _check_target_dtype(target, byte_ok: bool = True):
    """nll_loss takes Long or Byte class indices; the margin losses only Long."""
    if not isinstance(target, Tensor):
        raise RuntimeError(f"expected scalar type Long but found {type(target).__name__}")
    dtype = target._data.dtype  # compared, not named: NumPy builds dtype.name on each read
    if dtype == xp.int64 or (byte_ok and dtype == xp.uint8):
        return
    if byte_ok:
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {target.dtype.scalar_name}"
        )
    raise RuntimeError(f"expected scalar type Long but found {target.dtype.scalar_name}")


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
    _require_tensors("nll_loss_nd", input, target)
    reduction = _reduction(size_average, reduce, reduction)
    # shapes as NumPy's tuples: a Size costs a Python call per index
    shape, target_shape = input._data.shape, target._data.shape
    ndim = len(shape)
    if ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {ndim})")
    _check_target_dtype(target)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"nll_loss_out_frame\" not implemented for '{input.dtype.scalar_name}'"
        )
    if ndim >= 2 and shape[0] != (target_shape[0] if target_shape else 1):
        raise ValueError(
            f"Expected input batch_size ({shape[0]}) to match target batch_size "
            f"({target_shape[0] if target_shape else 1})."
        )
    classes = shape[0] if ndim == 1 else shape[1]
    if weight is not None:
        L.check_not_differentiable("nll_loss_forward", "weight", weight)
        if weight.dtype != input.dtype:
            raise RuntimeError(
                f"expected scalar type {input.dtype.scalar_name} but found "
                f"{weight.dtype.scalar_name}"
            )
        if weight.numel() != classes and ndim <= 2:  # (the spatial kernel checks its own)
            raise RuntimeError(
                f"weight tensor should be defined either for all {classes} classes or no "
                f"classes but got weight tensor of shape: {list(weight.shape)}"
            )
    if ndim == 1 and len(target_shape) == 1:
        if target_shape[0] != 1:
            raise ValueError(
                f"For 1D input, 1D target must have size 1, but got target size: {target_shape[0]}"
            )
        target = target.reshape(())  # one sample either way: a 0-d loss, as torch
        target_shape = ()
    expected = shape[:1] + shape[2:] if ndim > 1 else ()
    if ndim != 4 and target_shape != expected:
        raise RuntimeError(f"Expected target size {list(expected)}, got {list(target_shape)}")
    if ndim <= 2:
        return L.nll_loss_op(input, target, weight, reduction, ignore_index)
    if ndim == 4:
        _check_spatial(shape, target_shape, weight)
        return L.nll_loss2d_op(input, target, weight, reduction, ignore_index)
    # other ranks go through the 2-D kernel on a contiguous copy, as in torch (which views
    # an operand with no elements as (n, c, 0, 0) and (n, 0, 0))
    n, c = shape[0], shape[1]
    rest = math.prod(shape[2:])
    in_view = (n, c, 1, rest) if input.numel() else (n, c, 0, 0)
    target_view = (n, 1, rest) if target.numel() else (n, 0, 0)
    _check_spatial(in_view, target_view, weight)
    out = L.nll_loss2d_op(
        input.contiguous().view(in_view),
        target.reshape(target_view),
        weight,
        reduction,
        ignore_index,
    )
    return out.view(target.shape) if reduction == "none" else out


def _check_spatial(shape, target_shape, weight) -> None:
    """torch's nll_loss2d checks, in its order."""
    if len(target_shape) != 3:
        raise RuntimeError(
            "only batches of spatial targets supported (3D tensors) but got targets of "
            f"dimension: {len(target_shape)}"
        )
    if weight is not None and weight.numel() != shape[1]:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    if (shape[0], shape[2], shape[3]) != target_shape:
        raise RuntimeError(
            f"size mismatch (got input: {list(shape)} , target: {list(target_shape)}"
        )


def _check_index_target(input, target):
    # a float target of another shape than the input is read as class indices, as torch
    # reads it: nll_loss_nd's batch check (a 0-d target's batch reads as 0), its size check,
    # then nll_loss's dtype check
    if input.ndim >= 2 and (target.ndim == 0 or target.shape[0] != input.shape[0]):
        raise ValueError(
            f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
            f"({target.shape[0] if target.ndim else 0})."
        )
    expected = input.shape[:1] + input.shape[2:]
    if input.ndim >= 3 and tuple(target.shape) != tuple(expected):
        raise RuntimeError(f"Expected target size {list(expected)}, got {list(target.shape)}")
    raise RuntimeError(
        f"expected target dtype to be Long or Byte, but got {target.dtype.scalar_name}"
    )


@composite("aten::cross_entropy_loss", schema_args=6)
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
    _require_tensors("cross_entropy_loss", input, target)
    reduction = _reduction(size_average, reduce, reduction)
    # torch refuses only smoothing above 1; a negative one is ignored, like 0
    if label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")
    # torch takes a target of input's shape for class probabilities before reading dims
    shape = input._data.shape
    if target._data.shape == shape and target._data.dtype.kind not in "fV":
        raise RuntimeError(
            "Expected floating point type for target with class probabilities, got "
            f"{target.dtype.scalar_name}"
        )
    class_dim = 0 if len(shape) == 1 else 1
    classes = shape[_read_dim(len(shape), class_dim)]
    log_probs = log_softmax(input, class_dim)
    if target._data.dtype.kind in "fV":
        if target.shape != input.shape:
            _check_index_target(input, target)
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _soft_cross_entropy(log_probs, target, weight, reduction, label_smoothing)
    loss = nll_loss(log_probs, target, weight, None, ignore_index, None, reduction)
    if label_smoothing <= 0.0:
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
    # torch's C++ composite multiplies by Scalars (MulBackward1 in its graph)
    return _mul_scalar(loss, 1 - label_smoothing) + _mul_scalar(smooth, label_smoothing / classes)


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
        if log_probs.numel() == 0:  # torch fills the sum with NaN in place, then negates
            return -product.sum().fill_(math.nan)
        return _div_scalar(-product.sum(), log_probs.numel() / classes)
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
    _require_tensors("binary_cross_entropy", input, target)
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}) is deprecated. Please ensure they have the same size."
        )
    L.check_not_differentiable("binary_cross_entropy", "weight", weight)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"binary_cross_entropy\" not implemented for '{input.dtype.scalar_name}'"
        )
    if target.dtype != input.dtype:
        raise RuntimeError(
            f"Found dtype {target.dtype.scalar_name} but expected {input.dtype.scalar_name}"
        )
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
    _require_tensors("binary_cross_entropy_with_logits", input, target)
    reduction = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})"
        )
    name = "binary_cross_entropy_with_logits"
    L.check_not_differentiable(name, "weight", weight)
    L.check_not_differentiable(name, "pos_weight", pos_weight)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f"\"log_sigmoid_cpu\" not implemented for '{input.dtype.scalar_name}'"
        )
    if not target.dtype.is_floating_point:
        raise RuntimeError(
            f"result type {input.dtype.scalar_name} can't be cast to the desired output type "
            f"{target.dtype.scalar_name}"
        )
    L.check_bcel_shapes(input, target, weight, pos_weight)
    return L.binary_cross_entropy_with_logits_op(input, target, weight, pos_weight, reduction)


def _expanded(input, target):
    _warn_broadcast(input, target, stacklevel=4)
    return broadcast_tensors(input, target)


def smooth_l1_loss(
    input: Tensor,
    target: Tensor,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    """``0.5 (x - y)^2 / beta`` where ``|x - y| < beta``, else ``|x - y| - beta / 2``.

    Example:
        >>> import numtorch as torch
        >>> F = torch.nn.functional
        >>> F.smooth_l1_loss(torch.tensor([0.5, 3.0]), torch.zeros(2), reduction="none")
        tensor([0.1250, 2.5000])
    """
    _require_tensors("smooth_l1_loss", input, target)
    input, target = _expanded(input, target)
    reduction = _reduction(size_average, reduce, reduction)
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    return PL.smooth_l1_loss_op(input, target, reduction, beta)


def huber_loss(
    input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0, weight=None
) -> Tensor:
    """``0.5 (x - y)^2`` where ``|x - y| < delta``, else ``delta (|x - y| - delta / 2)``;
    optionally weighted per element."""
    _require_tensors("huber_loss", input, target)
    input, target = _expanded(input, target)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if weight is None:
        return PL.huber_loss_op(input, target, _reduction(None, None, reduction), delta)
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    loss = PL.huber_loss_op(input, target, "none", delta) * weight
    if reduction not in L.REDUCTIONS:
        raise ValueError(
            f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'."
        )
    return L.reduce_tensor(loss, reduction)


@composite("aten::kl_div", schema_args=4)  # its own op in torch: autocast runs it in float32
def kl_div(
    input: Tensor,
    target: Tensor,
    size_average=None,
    reduce=None,
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    """Kullback-Leibler divergence ``target * (log(target) - input)`` for log-probabilities
    ``input`` (``log_target``: the target is given as log-probabilities too).

    ``reduction='batchmean'`` divides the sum by the batch size (the mathematical KL
    divergence); ``'mean'`` divides by the number of elements, and warns as torch does.
    """
    _require_tensors("kl_div", input, target)
    if size_average is not None or reduce is not None:
        enum = legacy_reduction(size_average, reduce)
    else:
        if reduction == "mean":
            warnings.warn(
                "reduction: 'mean' divides the total loss by both the batch size and the support "
                "size.'batchmean' divides only by the batch size, and aligns with the KL div "
                "math definition.'mean' will be changed to behave the same as 'batchmean' in the "
                "next major release.",
                stacklevel=2,
            )
        enum = "sum" if reduction == "batchmean" else _reduction(None, None, reduction)
    reduced = kl_div_reduced(input, target, enum, log_target)
    if reduction == "batchmean" and input.ndim != 0:
        reduced = reduced / input.shape[0]
    return reduced


def kl_div_reduced(input: Tensor, target: Tensor, reduction: str, log_target: bool) -> Tensor:
    """ATen's kl_div (``torch.kl_div``): no warnings, no ``batchmean``."""
    if not (input.is_floating_point() or input.is_complex()) or not (
        target.is_floating_point() or target.is_complex()
    ):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if input.is_complex() or target.is_complex():
        raise RuntimeError("kl_div: Complex inputs not supported.")
    if log_target:
        losses = target.exp() * (target - input)
    else:
        losses = xlogy(target, target) - target * input
    return L.reduce_tensor(losses, reduction)


@composite(
    "aten::poisson_nll_loss", schema_args=6
)  # its own op in torch: autocast runs it in float32
def poisson_nll_loss(
    input: Tensor,
    target: Tensor,
    log_input: bool = True,
    full: bool = False,
    size_average=None,
    eps: float = 1e-8,
    reduce=None,
    reduction: str = "mean",
) -> Tensor:
    """Negative log likelihood of ``target`` under Poisson(rate): ``exp(input) - target *
    input`` for log-rates, else ``input - target * log(input + eps)``; ``full`` adds
    Stirling's approximation of ``log(target!)`` where ``target > 1``."""
    reduction = _reduction(size_average, reduce, reduction)
    if log_input:
        # torch's C++ ``exp(input) - target * input`` records the product first (the
        # compiler evaluates the right operand first), which orders double backward's sums
        product = target * input
        loss = input.exp() - product
    else:
        loss = input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return L.reduce_tensor(loss, reduction)


def gaussian_nll_loss(
    input: Tensor,
    target: Tensor,
    var,
    full: bool = False,
    eps: float = 1e-6,
    reduction: str = "mean",
) -> Tensor:
    """Negative log likelihood of ``target`` under N(input, var):
    ``0.5 (log(var) + (input - target)^2 / var)`` (+ ``0.5 log(2 pi)`` when ``full``), with
    ``var`` clamped to ``eps``; one variance per sample may be shared by the last dim.
    """
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * ones_like(input)
    elif not isinstance(var, Tensor):
        raise TypeError(f"gaussian_nll_loss(): var must be a Tensor or a float, not {type(var)}")
    elif (var < 0).any():
        raise ValueError("var has negative entry/entries")
    if var.shape != input.shape:
        if input.shape[:-1] == var.shape:
            var = var.unsqueeze(-1)
        elif not (
            input.ndim == var.ndim and sum(b for a, b in zip(input.shape, var.shape) if a != b) == 1
        ):
            raise ValueError("var is of incorrect size")
    if reduction not in L.REDUCTIONS:
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return L.reduce_tensor(loss, reduction)

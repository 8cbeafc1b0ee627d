"""torch's top-level forms of nn functions: ``torch.dropout``, ``torch.batch_norm``,
``torch.max_pool1d``, ``torch.kl_div``...

They are the same primitives as ``torch.nn.functional``'s (same grad_fns), with ATen's
signatures rather than F's: train flags are required positional arguments, losses take
``reduction`` as an int (0 none, 1 mean, 2 sum), pooling takes no ``return_indices``, and the
Python-side checks of F (ValueErrors) are ATen's RuntimeErrors or absent.
"""

from __future__ import annotations

from ._core.op import export
from ._core.tensor import Tensor, _read_dim
from .backend import xp
from .nn import functional as F
from .nn.functional.dropout import dropout_impl
from .nn.functional.loss import kl_div_reduced
from .nn.functional.margin_loss import margin_ranking_loss_unchecked
from .nn.functional.normalization import (
    _check_dtypes,
    batch_norm_unchecked,
    check_layer_norm,
    instance_norm_unchecked,
)
from .ops.nn import normalization as N
from .ops.nn.dropout import keep_mask, native_dropout_op
from .ops.overload_names import overload_names

_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}
# Note [Top-level loss reduction default]: the schemas say ``int reduction=Mean``, but torch's
# Python bindings parse that default as 0, so ``torch.kl_div(a, b)`` is unreduced.
_DEFAULT = 0


def _reduction(name: str, reduction) -> str:
    if isinstance(reduction, bool) or not isinstance(reduction, int):
        raise TypeError(
            f"{name}(): argument 'reduction' must be int, not {type(reduction).__name__}"
        )
    return _REDUCTIONS.get(reduction, "none")  # ATen leaves other values unreduced


# -- dropout ---------------------------------------------------------------------------------
def _dropout_family(name: str, alpha: bool, feature: bool):
    def functional(input: Tensor, p: float, train: bool) -> Tensor:
        return dropout_impl(input, p, train, alpha=alpha, feature=feature, inplace=False)

    def inplace(input: Tensor, p: float, train: bool) -> Tensor:
        return dropout_impl(input, p, train, alpha=alpha, feature=feature, inplace=True)

    functional.__name__ = functional.__qualname__ = name
    inplace.__name__ = inplace.__qualname__ = name + "_"
    functional.__doc__ = f"ATen's {name}: ``train`` is required."
    export(functional, method=False)
    export(inplace, method=False)
    return functional, inplace


dropout, dropout_ = _dropout_family("dropout", False, False)
alpha_dropout, alpha_dropout_ = _dropout_family("alpha_dropout", True, False)
feature_dropout, feature_dropout_ = _dropout_family("feature_dropout", False, True)
feature_alpha_dropout, feature_alpha_dropout_ = _dropout_family("feature_alpha_dropout", True, True)


@export(method=False)
def native_dropout(input: Tensor, p: float, train) -> tuple:
    """``(output, mask)``: the kept elements scaled by ``1 / (1 - p)`` and the boolean keep
    mask (all True when ``train`` is False, and the output a copy)."""
    if train is not None and not train:
        mask = Tensor._make(xp.ones(tuple(input.shape), dtype=bool))
        return native_dropout_op(input, mask, 1.0, 1.0), mask
    if not 0.0 <= p <= 1.0:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={1 - p}")
    mask = keep_mask(input.shape, p, input._data)
    scale = 0.0 if p == 1 else 1.0 / (1.0 - p)
    # torch's backward scales by 1 when train is None (derivatives.yaml), unlike the forward
    return native_dropout_op(input, mask, scale, 1.0 if train is None else scale), mask


# -- normalization ---------------------------------------------------------------------------
@export(method=False)
def layer_norm(
    input: Tensor, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True
) -> Tensor:
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


@export(method=False)
def native_layer_norm(input: Tensor, normalized_shape, weight, bias, eps) -> tuple:
    """``(output, mean, rstd)``; the statistics have the input's leading dims and ones."""
    normalized_shape = check_layer_norm(input, normalized_shape, weight, bias)
    return N.native_layer_norm_op(input, normalized_shape, weight, bias, eps)


@export(method=False)
def batch_norm(
    input: Tensor,
    weight,
    bias,
    running_mean,
    running_var,
    training: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool,
) -> Tensor:
    return batch_norm_unchecked(
        input, weight, bias, running_mean, running_var, training, momentum, eps
    )


@export(method=False)
def native_batch_norm(
    input: Tensor, weight, bias, running_mean, running_var, training, momentum, eps
) -> tuple:
    """``(output, save_mean, save_invstd)``: the batch statistics when training, empty
    tensors otherwise; running statistics are updated in place when training."""
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
    _check_dtypes(input, "batch_norm", weight, bias, running_mean, running_var)
    if training and input.numel() == 0:  # the kernel's batch statistics need an element
        sizes = ", ".join(str(n) for n in input.shape)
        raise RuntimeError(
            f"input tensor must have at least one element, but got input_sizes = [{sizes}]"
        )
    results = N.native_batch_norm_op(
        input, weight, bias, running_mean, running_var, training, momentum, eps
    )
    if not training:
        empty = Tensor._make(results[1]._data[:0].copy())
        return results[0], empty, Tensor._make(empty._data.copy())
    for stat in (running_mean, running_var):
        if stat is not None:
            stat._bump_version()
    return results


@export(method=False)
def group_norm(
    input: Tensor, num_groups: int, weight=None, bias=None, eps=1e-5, cudnn_enabled=True
) -> Tensor:
    # the aten op reads the batch and channel sizes before F's dims check
    _read_dim(input.ndim, 0), _read_dim(input.ndim, 1)
    return F.group_norm(input, num_groups, weight, bias, eps)


@export(method=False)
@overload_names(N="N_")
def native_group_norm(input: Tensor, weight, bias, N_, C, HxW, group, eps) -> tuple:
    """``(output, mean, rstd)`` with statistics of shape (N, group); as in torch, all three
    outputs come from the one differentiable node."""
    if input.numel() != N_ * C * HxW:  # torch's own check, worded as torch words it
        raise RuntimeError(
            "Expected X.numel() == N * C * HxW to be true, but got false.  (Could this error "
            "message be improved?  If so, please report an enhancement request to PyTorch.)"
        )
    # the kernel walks X as laid out densely (vmap's batching rule lays it out itself)
    if not input._batched and not N.dense_layout(input._data):
        raise RuntimeError(
            "Expected X.is_contiguous(memory_format) to be true, but got false.  (Could this "
            "error message be improved?  If so, please report an enhancement request to "
            "PyTorch.)"
        )
    return N.native_group_norm_op(input, weight, bias, N_, C, HxW, group, eps)


@export(method=False)
def instance_norm(
    input: Tensor,
    weight,
    bias,
    running_mean,
    running_var,
    use_input_stats: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool,
) -> Tensor:
    return instance_norm_unchecked(
        input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps
    )


# -- pooling ---------------------------------------------------------------------------------
def _stride(stride):
    return None if stride is None or (isinstance(stride, (tuple, list)) and not stride) else stride


@export(method=False)
def max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False) -> Tensor:
    return F.max_pool1d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


@export(method=False)
def max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False) -> Tensor:
    return F.max_pool2d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


@export(method=False)
def max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False) -> Tensor:
    return F.max_pool3d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


@export(method=False)
def max_pool1d_with_indices(
    input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False
) -> tuple:
    return tuple(
        F.max_pool1d(input, kernel_size, _stride(stride), padding, dilation, ceil_mode, True)
    )


@export(method=False)
def avg_pool1d(
    input, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True
) -> Tensor:
    return F.avg_pool1d(input, kernel_size, _stride(stride), padding, ceil_mode, count_include_pad)


@export(method=False)
def adaptive_avg_pool1d(input, output_size) -> Tensor:
    return F.adaptive_avg_pool1d(input, output_size)


@export(method=False)
def adaptive_max_pool1d(input, output_size) -> tuple:
    """``(output, indices)``: torch's top-level form always returns the indices."""
    return tuple(F.adaptive_max_pool1d(input, output_size, True))


# -- losses (reduction as an int) ------------------------------------------------------------
@export(method=False)
def binary_cross_entropy_with_logits(
    input, target, weight=None, pos_weight=None, reduction=_DEFAULT
) -> Tensor:
    from .ops.nn import loss as L

    name = "binary_cross_entropy_with_logits"
    enum = _reduction(name, reduction)
    L.check_bcel_shapes(input, target, weight, pos_weight)
    return L.binary_cross_entropy_with_logits_op(input, target, weight, pos_weight, enum)


@export(method=False)
def kl_div(input, target, reduction=_DEFAULT, *, log_target=False) -> Tensor:
    return kl_div_reduced(input, target, _reduction("kl_div", reduction), log_target)


@export(method=False)
def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=_DEFAULT) -> Tensor:
    enum = _reduction("cosine_embedding_loss", reduction)
    return F.cosine_embedding_loss(input1, input2, target, margin, reduction=enum)


@export(method=False)
def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=_DEFAULT) -> Tensor:
    enum = _reduction("margin_ranking_loss", reduction)
    return margin_ranking_loss_unchecked(input1, input2, target, margin, enum)


@export(method=False)
def hinge_embedding_loss(input, target, margin=1.0, reduction=_DEFAULT) -> Tensor:
    enum = _reduction("hinge_embedding_loss", reduction)
    return F.hinge_embedding_loss(input, target, margin, reduction=enum)


@export(method=False)
def ctc_loss(
    log_probs,
    targets,
    input_lengths,
    target_lengths,
    blank=0,
    reduction=_DEFAULT,
    zero_infinity=False,
) -> Tensor:
    enum = _reduction("ctc_loss", reduction)
    return F.ctc_loss(
        log_probs,
        targets,
        input_lengths,
        target_lengths,
        blank,
        reduction=enum,
        zero_infinity=zero_infinity,
    )


@export(method=False)
def poisson_nll_loss(input, target, log_input, full, eps, reduction) -> Tensor:
    enum = _reduction("poisson_nll_loss", reduction)
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=enum)


@export(method=False)
def triplet_margin_loss(
    anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction=_DEFAULT
) -> Tensor:
    enum = _reduction("triplet_margin_loss", reduction)
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction=enum)


# -- activations and the rest ----------------------------------------------------------------
@export(method=False)
def bilinear(input1, input2, weight, bias=None) -> Tensor:
    return F.bilinear(input1, input2, weight, bias)


@export
def prelu(input, weight) -> Tensor:
    return F.prelu(input, weight)


@export
def hardshrink(input, lambd=0.5) -> Tensor:
    return F.hardshrink(input, lambd)


@export(method=False)
def relu_(input) -> Tensor:
    return F.relu_(input)


@export(method=False)
def celu(input, alpha=1.0) -> Tensor:
    return F.celu(input, alpha)


@export(method=False)
def celu_(input, alpha=1.0) -> Tensor:
    return F.celu_(input, alpha)


@export(method=False)
def selu(input) -> Tensor:
    return F.selu(input)


@export(method=False)
def selu_(input) -> Tensor:
    return F.selu_(input)


@export(method=False)
def threshold(input, threshold, value) -> Tensor:
    return F.threshold(input, threshold, value)


@export(method=False)
def threshold_(input, threshold, value) -> Tensor:
    return F.threshold_(input, threshold, value)


@export(method=False)
def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None) -> Tensor:
    return F.rrelu(input, lower, upper, training)


@export(method=False)
def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None) -> Tensor:
    return F.rrelu_(input, lower, upper, training)

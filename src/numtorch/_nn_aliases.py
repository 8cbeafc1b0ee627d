"""torch's top-level forms of ``nn.functional`` ops (``torch.layer_norm``,
``torch.max_pool2d``, ``torch.kl_div``, ...). They take torch's native signatures: losses
take ``reduction`` as an int (1 mean, 2 sum, anything else none; the default is none at
this level), pools an empty ``stride`` for "same
as the kernel", dropout a required ``train`` flag."""

from __future__ import annotations

import warnings

from .nn import functional as F

_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}


def _reduction(reduction) -> str:
    return _REDUCTIONS.get(reduction, "none")


def dropout(input, p, train):
    return F.dropout(input, p, train)


def dropout_(input, p, train):
    return F.dropout(input, p, train, inplace=True)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    return F.group_norm(input, num_groups, weight, bias, eps)


def batch_norm(
    input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled
):
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(
    input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled
):
    return F.instance_norm(
        input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps
    )


def _pool(fn):
    def pool(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
        return fn(input, kernel_size, stride or None, padding, dilation, ceil_mode)

    pool.__name__ = pool.__qualname__ = fn.__name__
    return pool


max_pool1d = _pool(F.max_pool1d)
max_pool2d = _pool(F.max_pool2d)
max_pool3d = _pool(F.max_pool3d)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    return F.avg_pool1d(input, kernel_size, stride or None, padding, ceil_mode, count_include_pad)


def adaptive_avg_pool1d(input, output_size):
    return F.adaptive_avg_pool1d(input, output_size)


def adaptive_max_pool1d(input, output_size):
    """(values, indices), as torch's native op returns both."""
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)


def bilinear(input1, input2, weight, bias=None):
    return F.bilinear(input1, input2, weight, bias)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    return F.binary_cross_entropy_with_logits(
        input, target, weight, reduction=_reduction(reduction), pos_weight=pos_weight
    )


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.cosine_embedding_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return F.hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.margin_ranking_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def kl_div(input, target, reduction=0, *, log_target=False):
    with warnings.catch_warnings():  # the int form never warns about 'batchmean'
        warnings.simplefilter("ignore")
        return F.kl_div(input, target, reduction=_reduction(reduction), log_target=log_target)


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return F.poisson_nll_loss(
        input, target, log_input, full, eps=eps, reduction=_reduction(reduction)
    )


def triplet_margin_loss(
    anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction=0
):
    return F.triplet_margin_loss(
        anchor, positive, negative, margin, p, eps, swap, reduction=_reduction(reduction)
    )


def chain_matmul(*matrices):
    """Deprecated: the product of the matrices, as ``linalg.multi_dot``."""
    from . import linalg

    warnings.warn(
        "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. "
        "Use torch.linalg.multi_dot instead, which accepts a list of two or more tensors "
        "rather than multiple parameters.",
        UserWarning,
        stacklevel=2,
    )
    if len(matrices) == 1:
        return matrices[0].clone()
    return linalg.multi_dot(list(matrices))

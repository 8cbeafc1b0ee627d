"""Loss layers: regression (MSE, L1, smooth L1, Huber), likelihood (cross entropy, NLL, BCE,
KL divergence, Poisson, Gaussian) and margin losses."""

from __future__ import annotations

import warnings

from .. import functional as F
from ..functional.loss import legacy_reduction
from .distance import PairwiseDistance
from .module import Module


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction: str = "mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = legacy_reduction(size_average, reduce)
        self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction: str = "mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class MSELoss(_Loss):
    """Mean squared error (grad_fn ``MseLossBackward0``)."""

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    """Mean absolute error."""

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """Negative log likelihood of class indices given log-probabilities."""

    def __init__(
        self,
        weight=None,
        size_average=None,
        ignore_index: int = -100,
        reduce=None,
        reduction: str = "mean",
    ):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(
            input,
            target,
            weight=self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
        )


class NLLLoss2d(NLLLoss):
    """Deprecated name of ``NLLLoss`` (which takes (N, C, H, W) inputs too): warns once built."""

    def __init__(self, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
                 reduction: str = "mean"):  # fmt: skip
        warnings.warn(
            "`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a drop-in "
            "replacement and see https://pytorch.org/docs/main/nn.html#torch.nn.NLLLoss for "
            "more details.",
            stacklevel=2,
        )
        super().__init__(weight, size_average, ignore_index, reduce, reduction)


class CrossEntropyLoss(_WeightedLoss):
    """Cross entropy of logits against class indices or class probabilities.

    Example:
        >>> import numtorch as torch
        >>> loss = torch.nn.CrossEntropyLoss()(torch.zeros(2, 4), torch.tensor([1, 3]))
        >>> round(loss.item(), 4), loss.grad_fn
        (1.3863, None)
    """

    def __init__(
        self,
        weight=None,
        size_average=None,
        ignore_index: int = -100,
        reduce=None,
        reduction: str = "mean",
        label_smoothing: float = 0.0,
    ):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(
            input,
            target,
            weight=self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
            label_smoothing=self.label_smoothing,
        )


class BCELoss(_WeightedLoss):
    """Binary cross entropy of probabilities."""

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy of logits (stable), with optional ``pos_weight`` per class."""

    def __init__(
        self, weight=None, size_average=None, reduce=None, reduction: str = "mean", pos_weight=None
    ):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(
            input, target, self.weight, pos_weight=self.pos_weight, reduction=self.reduction
        )


class SmoothL1Loss(_Loss):
    """Squared error below ``beta``, absolute error above (grad_fn ``SmoothL1LossBackward0``)."""

    def __init__(self, size_average=None, reduce=None, reduction: str = "mean", beta: float = 1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Squared error below ``delta``, ``delta``-scaled absolute error above."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0):
        if not isinstance(delta, (float, int)):
            raise TypeError(f"delta must be a float or int, got: {type(delta)}")
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    """Kullback-Leibler divergence of log-probabilities from a target distribution."""

    def __init__(
        self, size_average=None, reduce=None, reduction: str = "mean", log_target: bool = False
    ):
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class PoissonNLLLoss(_Loss):
    """Negative log likelihood of counts under a Poisson distribution."""

    def __init__(
        self,
        log_input: bool = True,
        full: bool = False,
        size_average=None,
        eps: float = 1e-8,
        reduce=None,
        reduction: str = "mean",
    ):
        super().__init__(size_average, reduce, reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def forward(self, log_input, target):
        return F.poisson_nll_loss(
            log_input, target, self.log_input, self.full, eps=self.eps, reduction=self.reduction
        )


class GaussianNLLLoss(_Loss):
    """Negative log likelihood of the target under N(input, var)."""

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean"):
        super().__init__(None, None, reduction)
        self.full, self.eps = full, eps

    def forward(self, input, target, var):
        return F.gaussian_nll_loss(
            input, target, var, full=self.full, eps=self.eps, reduction=self.reduction
        )


class SoftMarginLoss(_Loss):
    """``log(1 + exp(-target * input))`` for targets 1 or -1."""

    def forward(self, input, target):
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """Per-class binary cross entropy of logits, averaged over the classes."""

    def forward(self, input, target):
        return F.multilabel_soft_margin_loss(
            input, target, weight=self.weight, reduction=self.reduction
        )


class MultiLabelMarginLoss(_Loss):
    """Multi-label hinge loss; each target row lists classes up to its first -1."""

    def forward(self, input, target):
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    """Multi-class hinge loss over class scores (grad_fn ``MultiMarginLossBackward0``)."""

    def __init__(
        self,
        p: int = 1,
        margin: float = 1.0,
        weight=None,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
    ):
        super().__init__(weight, size_average, reduce, reduction)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.ndim != 1:
            raise ValueError(
                "MultiMarginLoss: expected weight to be None or 1D tensor, got "
                f"{weight.ndim}D instead"
            )
        self.p, self.margin = p, margin

    def forward(self, input, target):
        return F.multi_margin_loss(
            input, target, self.p, self.margin, self.weight, reduction=self.reduction
        )


class _MarginLoss(_Loss):
    def __init__(self, margin, size_average, reduce, reduction):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin


class MarginRankingLoss(_MarginLoss):
    """``max(0, -target * (input1 - input2) + margin)``."""

    def __init__(self, margin: float = 0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(margin, size_average, reduce, reduction)

    def forward(self, input1, input2, target):
        return F.margin_ranking_loss(
            input1, input2, target, margin=self.margin, reduction=self.reduction
        )


class HingeEmbeddingLoss(_MarginLoss):
    """``input`` for target 1, ``max(0, margin - input)`` for target -1."""

    def __init__(self, margin: float = 1.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(margin, size_average, reduce, reduction)

    def forward(self, input, target):
        return F.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class CosineEmbeddingLoss(_MarginLoss):
    """``1 - cos(x1, x2)`` for target 1, ``max(0, cos(x1, x2) - margin)`` for target -1."""

    def __init__(self, margin: float = 0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(margin, size_average, reduce, reduction)

    def forward(self, input1, input2, target):
        return F.cosine_embedding_loss(
            input1, input2, target, margin=self.margin, reduction=self.reduction
        )


class TripletMarginLoss(_Loss):
    """``max(0, d(anchor, positive) - d(anchor, negative) + margin)``, p-norm distances."""

    def __init__(
        self,
        margin: float = 1.0,
        p: float = 2.0,
        eps: float = 1e-6,
        swap: bool = False,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
    ):
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(
                f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead"
            )
        self.margin, self.p, self.eps, self.swap = margin, p, eps, swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_loss(
            anchor,
            positive,
            negative,
            margin=self.margin,
            p=self.p,
            eps=self.eps,
            swap=self.swap,
            reduction=self.reduction,
        )


class TripletMarginWithDistanceLoss(_Loss):
    """``max(0, d(anchor, positive) - d(anchor, negative) + margin)`` with a chosen distance
    ``d`` (a module or function; default ``PairwiseDistance()``)."""

    def __init__(
        self,
        *,
        distance_function=None,
        margin: float = 1.0,
        swap: bool = False,
        reduction: str = "mean",
    ):
        super().__init__(size_average=None, reduce=None, reduction=reduction)
        if margin <= 0:
            raise ValueError(
                "TripletMarginWithDistanceLoss: expected margin to be greater than 0, got "
                f"{margin} instead"
            )
        self.distance_function = (
            distance_function if distance_function is not None else PairwiseDistance()
        )
        self.margin = margin
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_with_distance_loss(
            anchor,
            positive,
            negative,
            distance_function=self.distance_function,
            margin=self.margin,
            swap=self.swap,
            reduction=self.reduction,
        )


class CTCLoss(_Loss):
    """Connectionist temporal classification: ``-log p(target | input)`` summed over all
    alignments of the target to the input frames (``F.ctc_loss``)."""

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False):
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return F.ctc_loss(
            log_probs,
            targets,
            input_lengths,
            target_lengths,
            self.blank,
            self.reduction,
            self.zero_infinity,
        )

"""``nn.LinearCrossEntropyLoss``: a ``Linear`` layer to class logits and the cross entropy,
in one loss, and ``nn.LinearCrossEntropyOptions``, torch's chunking options (accepted and
checked; numtorch computes the reference path, see ``functional/linear_cross_entropy.py``)."""

from __future__ import annotations

import dataclasses
import math

from .. import functional as F
from .linear import Linear
from .loss import _WeightedLoss

_ACC_DTYPES = ("float16", "bfloat16", "float32", "float64")


@dataclasses.dataclass(slots=True, frozen=True)
class LinearCrossEntropyOptions:
    """How torch chunks ``linear_cross_entropy`` over the batch (``batch_chunk_size``,
    ``chunking_method`` "auto" or "aspect_ratio[:k]", ``acc_policy``, ``acc_dtype``)."""

    allow_retain_graph: bool = False
    batch_chunk_size: int | None = None
    chunking_method: str | None = "auto"
    acc_policy: str = "auto"
    acc_dtype: object = None  # a floating dtype

    def __post_init__(self):
        if self.acc_policy not in ("auto", "accurate", "balanced", "compact"):
            raise ValueError(f"invalid acc_policy: {self.acc_policy!r}")
        if self.chunking_method is not None and self.chunking_method != "auto":
            name, sep, factor = self.chunking_method.partition(":")
            factor = factor if sep else "1"
            if not (name == "aspect_ratio" and factor.isdigit() and int(factor) > 0):
                raise ValueError(f"invalid chunking_method: {self.chunking_method!r}")
        size = self.batch_chunk_size
        if not (size is None or (isinstance(size, int) and size > 0)):
            raise ValueError(f"batch_chunk_size must be positive int or None, got {size!r}")
        if self.acc_dtype is not None and str(self.acc_dtype).split(".")[-1] not in _ACC_DTYPES:
            raise ValueError(
                "acc_dtype must be one of {None, torch.float16, torch.bfloat16, torch.float32, "
                f"torch.float64}}, got {self.acc_dtype!r}. Pass acc_dtype=None to let the op "
                "pick automatically."
            )


class LinearCrossEntropyLoss(_WeightedLoss):
    """Cross entropy of ``self.linear(input)`` reshaped to ``(N, C, *out_features)`` logits;
    ``self.linear`` is a ``Linear(in_features, C * prod(out_features))``.

    Example:
        >>> import numtorch as torch
        >>> _ = torch.manual_seed(0)
        >>> loss = torch.nn.LinearCrossEntropyLoss(4, 3)
        >>> loss(torch.ones(2, 4), torch.tensor([0, 2])).grad_fn.name()
        'NllLossBackward0'
    """

    def __init__(
        self,
        in_features: int,
        num_classes: int,
        *,
        out_features: tuple[int, ...] = (),
        bias: bool = False,
        device=None,
        dtype=None,
        reduction: str = "mean",
        weight=None,
        ignore_index: int | None = None,
        label_smoothing: float = 0.0,
        options: LinearCrossEntropyOptions | None = None,
    ) -> None:
        if weight is not None and tuple(weight.shape) != (num_classes,):
            raise RuntimeError(
                f"expected weight shape to be {(num_classes,)}, got {tuple(weight.shape)}"
            )
        if label_smoothing < 0 or label_smoothing > 1.0:
            raise RuntimeError(
                f"expected label_smoothing to be in range [0, 1], got {label_smoothing}"
            )
        super().__init__(weight=weight, reduction=reduction)
        self.num_classes = num_classes
        self.out_features = out_features
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing
        # Linear's weight is 2-D: the (C, *out_features) rows are reshaped in forward
        rows = math.prod(out_features, start=num_classes)
        self.linear = Linear(in_features, rows, bias=bias, device=device, dtype=dtype)
        self.options = options

    def forward(self, input, target):
        shape = (self.num_classes, *self.out_features)
        linear_weight = self.linear.weight.reshape((*shape, self.linear.in_features))
        bias = self.linear.bias
        return F.linear_cross_entropy(
            input,
            linear_weight,
            target,
            linear_bias=None if bias is None else bias.reshape(shape),
            weight=self.weight,
            reduction=self.reduction,
            ignore_index=self.ignore_index,
            label_smoothing=self.label_smoothing,
            options=self.options,
        )

    def extra_repr(self) -> str:
        return (
            f"in_features={self.linear.in_features}, num_classes={self.num_classes}, "
            f"out_features={self.out_features}, bias={self.linear.bias is not None}, "
            f"reduction={self.reduction}, ignore_index={self.ignore_index}, "
            f"label_smoothing={self.label_smoothing}, options={self.options}"
        )

"""``F.linear_cross_entropy``: cross entropy of ``input @ linear_weight^T (+ linear_bias)``.

torch's reference path: one ``linear`` then ``cross_entropy`` on logits reshaped to
``(*batch, C, *out_features)``. torch also has a chunked path (``options=``) that never
materialises the logits; numtorch takes the reference path for it too (the same values to
rounding; the chunked path's one custom graph node becomes ``linear`` and ``cross_entropy``'s).
"""

from __future__ import annotations

import math
import warnings

from .linear import linear
from .loss import cross_entropy


def _check_shapes(input, linear_weight, linear_bias):
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(
            f"expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}"
        )
    if input.shape[-1] != linear_weight.shape[-1]:
        raise RuntimeError(
            "expected equal input and linear_weight last dimensions (in_features), "
            f"got {input.shape[-1]} and {linear_weight.shape[-1]}, respectively"
        )
    expected_bias = tuple(linear_weight.shape[:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != expected_bias:
        raise RuntimeError(
            f"expected linear_bias shape {expected_bias}, got {tuple(linear_bias.shape)}"
        )
    if linear_weight.dim() > 2 and input.dim() == 1:
        raise RuntimeError(
            f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} "
            f"requires batched input, (N, {input.shape[-1]}), got unbatched input with shape "
            f"{tuple(input.shape)}"
        )


def linear_cross_entropy(
    input,
    linear_weight,
    target,
    linear_bias=None,
    weight=None,
    reduction: str = "mean",
    ignore_index: int | None = None,
    label_smoothing: float = 0.0,
    options=None,
):
    """Cross entropy of the logits ``linear(input, linear_weight, linear_bias)``;
    ``linear_weight`` is ``(C, *out_features, in_features)`` for a K-dimensional loss.

    Example:
        >>> import numtorch as torch
        >>> W = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
        >>> x = torch.tensor([[0.5, -0.5]])
        >>> torch.nn.functional.linear_cross_entropy(x, W, torch.tensor([0]))
        tensor(0.6803)
    """
    _check_shapes(input, linear_weight, linear_bias)
    num_classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    in_features = input.shape[-1]
    logits_shape = (*input.shape[:-1], num_classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    ignore_index = -100 if ignore_index is None else ignore_index
    if options is not None and (
        out_features
        or reduction not in ("mean", "sum", "none")
        or label_smoothing != 0.0
        or str(target.dtype) != "torch.int64"
    ):
        warnings.warn(
            "linear_cross_entropy: ``options`` ignored; chunked path needs reduction in "
            "{'mean','sum','none'}, label_smoothing == 0, target.dtype == int64, "
            f"out_features == (). Got reduction={reduction!r}, "
            f"label_smoothing={label_smoothing}, target.dtype={target.dtype}, "
            f"out_features={out_features}, tracing=False, linear_bias.shape="
            f"{tuple(linear_bias.shape) if linear_bias is not None else None}.",
            stacklevel=2,
        )
    if out_features:
        rows = math.prod(out_features, start=num_classes)
        linear_weight = linear_weight.reshape((rows, in_features))
        if linear_bias is not None:
            linear_bias = linear_bias.reshape(rows)
    logits = linear(input, linear_weight, linear_bias).reshape(logits_shape)
    return cross_entropy(
        logits,
        target,
        weight=weight,
        reduction=reduction,
        ignore_index=ignore_index,
        label_smoothing=label_smoothing,
    )

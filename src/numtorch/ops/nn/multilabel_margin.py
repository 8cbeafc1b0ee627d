"""``multilabel_margin_loss``: the multi-label hinge loss with a padded list of targets.

Each row's target lists class indices up to the first -1. For every listed class ``j`` and
every class ``i`` not listed: ``max(0, 1 - x[j] + x[i])``, summed and divided by C.
"""

from __future__ import annotations

from ..._core.kernel_dtypes import FLOATING, kernel
from ..._core.op import defop, not_implemented
from ...autograd.forward_grad import no_forward_derivative
from ...backend import xp
from .loss import reduce_array


def _pairs(input, target):
    """(hinges (N, J, C) of every listed class j against every class i, which pairs count,
    the one-hot of listed classes (N, J, C))."""
    classes = input.shape[-1] if input.ndim else 1
    x = input.reshape(-1, classes)
    y = target.reshape(-1, classes)
    # a target list ends at its first -1
    listed = xp.cumprod(y != -1, axis=1).astype(bool)
    picked = xp.where(listed, y, 0)
    onehot = (picked[:, :, None] == xp.arange(classes)) & listed[:, :, None]
    is_target = onehot.any(axis=1)
    hinge = 1 - xp.take_along_axis(x, picked, 1)[:, :, None] + x[:, None, :]
    counted = listed[:, :, None] & ~is_target[:, None, :] & (hinge > 0)
    return hinge, counted, onehot


def _forward(input, target, reduction):
    hinge, counted, _ = _pairs(input, target)
    classes = hinge.shape[-1]
    # one running sum per row in target-then-class order, as torch's CPU kernel adds them
    terms = xp.where(counted, hinge, 0).reshape(hinge.shape[0], -1)
    losses = xp.cumsum(terms, axis=1)[:, -1] if terms.shape[1] else terms.sum(axis=1)
    losses = losses / classes
    if reduction == "none":
        shape = target.shape[:-1] if target.ndim else ()
        return losses.reshape(shape).astype(input.dtype, copy=False)
    return xp.asarray(reduce_array(losses, reduction), dtype=input.dtype)


def _gradient(grad, input, target, reduction):
    _, counted, onehot = _pairs(input, target)
    rows, classes = counted.shape[0], counted.shape[-1]
    # each counted pair (j, i) adds 1/C to x[i] and takes 1/C from x[j]
    g = counted.sum(axis=1) - xp.einsum("nj,njc->nc", counted.sum(axis=2), onehot)
    g = g.astype(input.dtype) / classes
    if reduction == "none":
        g = g * grad.reshape(-1, 1)
    else:
        g = g * (grad / rows if reduction == "mean" else grad)
    return g.reshape(input.shape).astype(input.dtype, copy=False)


# torch has no derivative for multilabel_margin_loss_backward: its node is NotImplemented
@defop(
    name="multilabel_margin_loss_backward",
    node="NotImplemented",
    schema_args=5,  # torch's also takes the is_target mask its forward saved
    grad_output=not_implemented("multilabel_margin_loss_backward"),
    self=not_implemented("multilabel_margin_loss_backward"),
    jvp=no_forward_derivative("multilabel_margin_loss_backward"),
)
def multilabel_margin_loss_backward(grad_output, self, target, reduction):
    return _gradient(grad_output, self, target, reduction)


@defop(
    name="multilabel_margin_loss",
    dtypes=kernel("multilabel_margin_loss_forward_out_frame", FLOATING),
    node="MultilabelMarginLossBackward0",
    aten="multilabel_margin_loss_forward",
    input=lambda grad, input, target, reduction: multilabel_margin_loss_backward(
        grad, input, target, reduction
    ),
    jvp=no_forward_derivative("multilabel_margin_loss_forward"),
)
def multilabel_margin_loss_op(input, target, reduction):
    return _forward(input, target, reduction)

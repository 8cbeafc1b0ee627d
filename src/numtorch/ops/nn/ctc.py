"""Connectionist temporal classification loss (grad_fn ``CtcLossBackward0``).

The loss of one sequence is ``-log p(target | log_probs)``, summed over every alignment of
the target (with blanks between and around its labels, repeats collapsed) to the input
frames. The forward variables ``alpha`` and backward variables ``beta`` run in log space
over the extended target ``l'`` (blank, l1, blank, l2, ..., blank), vectorized over the
batch with one Python step per frame.

Gradient: as torch's kernel, ``exp(log_probs) - exp(log(sum over s with l'_s = c of
alpha * beta) + nll - log_probs)``, zero past each input length. This is the gradient with
respect to the logits when ``log_probs = log_softmax(logits)`` (the usual case, where the
two agree after log_softmax's backward), not the raw derivative in ``log_probs``; like
torch's, it cannot be differentiated again.
"""

from __future__ import annotations

from ..._core.kernel_dtypes import FLOATING, kernel
from ..._core.op import defop, not_implemented
from ..._core.tensor import Tensor
from ...autograd.forward_grad import no_forward_derivative
from ...backend import xp

_NEG_INF = -xp.inf


def _extended(targets, target_lengths, blank):
    """(N, 2*S+1) extended labels, their valid mask, and where a skip over s-2 is allowed."""
    n = targets.shape[0]
    width = 2 * (int(target_lengths.max()) if n else 0) + 1
    labels = xp.full((n, width), blank, xp.int64)
    labels[:, 1::2] = targets[:, : (width - 1) // 2]
    valid = xp.arange(width)[None, :] < (2 * target_lengths[:, None] + 1)
    skip = xp.zeros((n, width), bool)
    # a label (odd position) may follow the previous label directly when they differ; the
    # test is on positions, not values, so a label equal to ``blank`` counts as a label
    skip[:, 3::2] = labels[:, 3::2] != labels[:, 1:-2:2]
    return labels, valid, skip


def _logsumexp3(a, b, c):
    top = xp.maximum(xp.maximum(a, b), c)
    safe = xp.where(xp.isfinite(top), top, 0)
    with xp.errstate(divide="ignore"):
        return safe + xp.log(xp.exp(a - safe) + xp.exp(b - safe) + xp.exp(c - safe))


def _shift(x, k):
    """x moved k places right (k > 0) or left (k < 0) along the last axis, -inf filled."""
    out = xp.full_like(x, _NEG_INF)
    if k > 0:
        out[:, k:] = x[:, :-k]
    else:
        out[:, :k] = x[:, -k:]
    return out


def _alpha_beta(log_probs, labels, valid, skip, input_lengths):
    """log alpha and log beta, (T, N, L); -inf outside each sequence."""
    frames, n = log_probs.shape[:2]
    rows = xp.arange(n)[:, None]
    emit = xp.where(valid[None], log_probs[:, rows, labels], _NEG_INF)  # (T, N, L)
    alpha = xp.full(emit.shape, _NEG_INF, log_probs.dtype)
    alpha[0, :, :2] = emit[0, :, :2]
    for t in range(1, frames):
        prev = alpha[t - 1]
        skipped = xp.where(skip, _shift(prev, 2), _NEG_INF)
        step = emit[t] + _logsumexp3(prev, _shift(prev, 1), skipped)
        alpha[t] = xp.where((t < input_lengths)[:, None], step, _NEG_INF)
    beta = xp.full(emit.shape, _NEG_INF, log_probs.dtype)
    ends = valid.sum(1) - 1  # the last blank of l', at 2 * target_length
    last = xp.arange(labels.shape[1])[None, :]
    end_mask = (last == ends[:, None]) | (last == ends[:, None] - 1)
    next_skip = xp.zeros_like(skip)  # may s step to s + 2
    next_skip[:, :-2] = skip[:, 2:]
    for t in range(frames - 1, -1, -1):
        start = xp.where(end_mask, emit[t], _NEG_INF)
        if t + 1 < frames:
            nxt = beta[t + 1]
            skipped = xp.where(next_skip, _shift(nxt, -2), _NEG_INF)
            step = emit[t] + _logsumexp3(nxt, _shift(nxt, -1), skipped)
        else:
            step = start
        at_end = (t == input_lengths - 1)[:, None]
        inside = (t < input_lengths - 1)[:, None]
        beta[t] = xp.where(at_end, start, xp.where(inside, step, _NEG_INF))
    return alpha, beta


def _nll(alpha, input_lengths, target_lengths):
    n = alpha.shape[1]
    rows = xp.arange(n)
    last = alpha[xp.maximum(input_lengths - 1, 0), rows]  # (N, L)
    end = 2 * target_lengths
    a = last[rows, end]
    b = xp.where(target_lengths > 0, last[rows, xp.maximum(end - 1, 0)], _NEG_INF)
    top = xp.maximum(a, b)
    safe = xp.where(xp.isfinite(top), top, 0)
    with xp.errstate(divide="ignore"):
        return -(safe + xp.log(xp.exp(a - safe) + xp.exp(b - safe)))


def _ctc_grad(grad, log_probs, targets, input_lengths, target_lengths, nll, blank, zero_infinity):
    lp = log_probs._data
    labels, valid, skip = _extended(targets._data, target_lengths._data, blank)
    lengths = input_lengths._data
    alpha, beta = _alpha_beta(lp, labels, valid, skip, lengths)
    nll = nll._data
    frames, n, classes = lp.shape
    # lcab[t, n, c] = log sum over s with l'_s = c of alpha * beta
    lcab = xp.full(lp.shape, _NEG_INF, lp.dtype)
    t_index, n_index, s_index = xp.nonzero(xp.broadcast_to(valid[None], alpha.shape))
    xp.logaddexp.at(
        lcab,
        (t_index, n_index, labels[n_index, s_index]),
        (alpha + beta)[t_index, n_index, s_index],
    )
    with xp.errstate(over="ignore", invalid="ignore"):
        result = (xp.exp(lp) - xp.exp(lcab + nll[None, :, None] - lp)) * grad._data[None, :, None]
    # as torch's kernel, frames past a sequence's length (and, with zero_infinity, a sequence
    # of infinite loss) are zeroed after the product: a NaN grad_output does not reach them
    result = xp.where((xp.arange(frames)[:, None] < lengths[None, :])[..., None], result, 0)
    if zero_infinity:
        result = xp.where(xp.isinf(nll)[None, :, None], 0, result)
    return Tensor._make(result.astype(lp.dtype, copy=False))


# torch records the gradient as a NotImplemented node: a second order raises there
@defop(
    name="_ctc_loss_backward",
    schema_args=9,
    node="NotImplemented",
    grad_output=not_implemented("_ctc_loss_backward"),
    log_probs=not_implemented("_ctc_loss_backward"),
    jvp=no_forward_derivative("_ctc_loss_backward"),
)
def ctc_loss_backward(
    grad_output, log_probs, targets, input_lengths, target_lengths, nll, blank, zero_infinity
):
    arrays = (grad_output, log_probs, targets, input_lengths, target_lengths, nll)
    grad_output, log_probs, targets, input_lengths, target_lengths, nll = map(Tensor._make, arrays)
    return _ctc_grad(
        grad_output, log_probs, targets, input_lengths, target_lengths, nll, blank, zero_infinity
    )._data


@defop(
    name="_ctc_loss",
    dtypes=kernel("ctc_loss_cpu", FLOATING),
    node="CtcLossBackward0",
    # the loss is saved (torch's result0), so changing it in place fails the backward
    log_probs=lambda grad, log_probs, targets, input_lengths, target_lengths, result, blank, zero_infinity: (  # noqa: E501
        ctc_loss_backward(
            grad, log_probs, targets, input_lengths, target_lengths, result, blank, zero_infinity
        )
    ),
    jvp=no_forward_derivative("_ctc_loss"),
)
def ctc_loss_op(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    labels, valid, skip = _extended(targets, target_lengths, blank)
    alpha, _ = _alpha_beta(log_probs, labels, valid, skip, input_lengths)
    return _nll(alpha, input_lengths, target_lengths).astype(log_probs.dtype)

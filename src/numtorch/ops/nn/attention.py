"""Attention primitives: ``_safe_softmax`` and the fused attention torch runs on CPU
(grad_fn ``ScaledDotProductFlashAttentionForCpuBackward0``).

``softmax(q k^T * scale + bias) v`` over the last two dims of (batch, heads, L, E)
queries and (batch, heads_kv, S, E) keys and values; ``heads_kv`` divides ``heads`` (grouped
query attention repeats each key/value head). ``bias`` is the additive form of the mask:
``-inf`` where a bool mask is False, the float mask itself otherwise, plus ``-inf`` above
the diagonal when causal. Rows that mask every key give zeros (torch's ``_safe_softmax``),
not NaN.

Derivatives, with P the probabilities, g the output gradient and dP = g v^T:
  dv = P^T g,   dS = P (dP - rowsum(dP P)),   dq = dS k * scale,   dk = dS^T q * scale.
The forward also returns P, which backward reads. As in torch, the gradients come from one
backward op (``_scaled_dot_product_flash_attention_for_cpu_backward``) that has no derivative:
its node is NotImplemented, and differentiating it raises torch's error.
"""

from __future__ import annotations

from ..._core import batch_rules
from ..._core.dispatch import FREED
from ..._core.graph import freed_error
from ..._core.op import defop, export
from ...autograd.forward_grad import batch_shift, batched, no_forward_derivative
from ...backend import layout, xp
from .simd_lanes import SIMD_BYTES


def _softmax_rows(x, dim):
    """Softmax whose all ``-inf`` rows are 0."""
    if x.shape[dim] == 0:  # no keys: nothing to normalize
        return x.copy()
    m = xp.max(x, axis=dim, keepdims=True)
    # a row holding +inf is NaN throughout (exp(inf - inf) joins its sum), as torch's
    e = xp.exp(x - xp.where(m == -xp.inf, 0, m))
    total = xp.sum(e, axis=dim, keepdims=True)
    return e / xp.where(total == 0, 1, total)


@batched
def _safe_softmax_jvp(input_t, input, dim, result):
    # d softmax = P (x_t - <P, x_t>) along dim (rows of zeros stay zero)
    if dim >= 0:
        dim += batch_shift(input_t, input)
    return result * (input_t - (input_t * result).sum(dim, keepdim=True))


@export(method=False)
@defop(
    batch=batch_rules.along("dim"),
    name="_safe_softmax",
    node="SafeSoftmaxBackward0",
    input=lambda grad, result, dim: result * (grad - (grad * result).sum(dim, keepdim=True)),
    jvp=_safe_softmax_jvp,
)
def safe_softmax(input, dim):
    return _softmax_rows(input, dim)


def attention_bias(attn_mask, is_causal, length, source, dtype):
    """The additive bias array (or None) for a mask array and the causal flag."""
    bias = None
    if attn_mask is not None:
        if attn_mask.dtype == xp.bool_:
            bias = xp.where(attn_mask, dtype.type(0), dtype.type(-xp.inf))
        else:
            bias = attn_mask.astype(dtype, copy=False)
    if is_causal:
        causal = xp.triu(xp.full((length, source), -xp.inf, dtype), 1)
        bias = causal if bias is None else bias + causal
    return bias


def _repeat_heads(t, groups):
    return t if groups == 1 else xp.repeat(t, groups, axis=-3)


def _flash_gradients(grad, query, key, value, attn_mask, is_causal, scale, result, result1):
    return flash_attention_backward(
        grad, query, key, value, result, attn_mask, is_causal, scale, result1
    )


def _flash_grad(k):
    # A formula called on its own (the generic path) takes one of the backward op's three
    # gradients; the node's _apply (below) calls the op once for all of them.
    def formula(grad, query, key, value, attn_mask, is_causal, scale, result, result1):
        return _flash_gradients(
            grad, query, key, value, attn_mask, is_causal, scale, result, result1
        )[k]

    return formula


def _flash_jvp(query_t, key_t, value_t, query, key, value, scale, result1):
    # with P = softmax(S), S = q k^T * scale + bias, O = P v:
    # dS = (dq k^T + q dk^T) * scale, dP = P (dS - rowsum(P dS)), dO = dP v + P dv
    groups = query.shape[-3] // key.shape[-3]
    probs, scores_t, out_t = result1, None, None
    if query_t is not None:
        scores_t = query_t.matmul(_expand_heads(key, groups).transpose(-1, -2))
    if key_t is not None:
        term = query.matmul(_expand_heads(key_t, groups).transpose(-1, -2))
        scores_t = term if scores_t is None else scores_t + term
    probs_t = None
    if scores_t is not None:
        scores_t = scores_t * scale
        probs_t = probs * (scores_t - (probs * scores_t).sum(-1, keepdim=True))
        out_t = probs_t.matmul(_expand_heads(value, groups))
    if value_t is not None:
        term = probs.matmul(_expand_heads(value_t, groups))
        out_t = term if out_t is None else out_t + term
    return out_t, probs_t


@defop(
    name="_scaled_dot_product_flash_attention_for_cpu",
    node="ScaledDotProductFlashAttentionForCpuBackward0",
    outputs=2,
    query=_flash_grad(0),
    key=_flash_grad(1),
    value=_flash_grad(2),
    jvp=_flash_jvp,
)
def flash_attention(query, key, value, attn_mask, is_causal, scale):
    """(output, attention probabilities); the probabilities are saved for backward."""
    groups = query.shape[-3] // key.shape[-3]
    exps, _, total = _flash_exp(*_flash_scores(query, key, attn_mask, is_causal, scale))
    # torch's kernel sums exp(scores) * values and divides by the row sum once at the end
    # (times its reciprocal): equal scores over integer values stay exact
    # the kernel writes into empty_like(query): the output keeps the query's memory order
    # (heads split from one projection by view and transpose give an output whose
    # transpose(1, 2) views back as the merged heads, as torch's does)
    out = layout.empty_like(query)
    xp.multiply(xp.matmul(exps, _repeat_heads(value, groups)), 1 / total, out=out)
    return out, exps / total


def _flash_scores(query, key, attn_mask, is_causal, scale):
    """``q k^T * scale`` plus the mask, as torch's CPU kernel forms them, and whether a
    mask was added."""
    groups = query.shape[-3] // key.shape[-3]
    scores = xp.matmul(query, xp.swapaxes(_repeat_heads(key, groups), -1, -2))
    if is_causal:  # torch writes -inf over the scores above the diagonal (a NaN score too)
        scores[..., _above_diagonal(scores)] = -xp.inf
    scores *= scores.dtype.type(scale)
    bias = attention_bias(attn_mask, False, query.shape[-2], key.shape[-2], scores.dtype)
    if bias is not None:
        scores += bias
    return scores, bias is not None


def _above_diagonal(scores):
    return ~xp.tri(scores.shape[-2], scores.shape[-1], dtype=bool)


# Note [Flash attention NaN rows]
# torch's CPU kernel takes each row's maximum over blocks of 512 keys with SIMD vectors and
# then one key at a time for the last block's tail (fewer keys than a vector holds): the
# vectors' maximum propagates NaN, the tail's (std::max) skips it (Note [SIMD lanes and
# NaN]). A row whose maximum is -inf (every score -inf, or NaN in the tail) gets
# probabilities 0 and a sum of 1: zeros times the values; a NaN maximum or any NaN
# probability makes the row NaN. With a mask the maximum is one vector reduction over the
# row, NaN-propagating throughout. Backward
# recomputes the probabilities as exp(scores - logsumexp) from the forward's maximum (0 for
# -inf) and sum, and rows of the output gradient meet the output: rowsum(grad * out).

_KEY_BLOCK = 512


def _flash_exp(scores, masked):
    """(exp(scores - row maximum), the maximum, the row sums) as torch's CPU kernel takes
    them: Note [Flash attention NaN rows]. A maximum of -inf is 0, a sum of 0 is 1."""
    keys = scores.shape[-1]
    rows = scores.shape[:-1] + (1,)
    if keys == 0:
        return scores.copy(), xp.zeros(rows, scores.dtype), xp.ones(rows, scores.dtype)
    last_block = (keys - 1) // _KEY_BLOCK * _KEY_BLOCK
    width = SIMD_BYTES // scores.dtype.itemsize
    tail = keys if masked else last_block + (keys - last_block) // width * width
    neg_inf = scores.dtype.type(-xp.inf)
    top = xp.fmax.reduce(scores[..., tail:], axis=-1, keepdims=True, initial=neg_inf)
    if tail:
        vectors = xp.max(scores[..., :tail], axis=-1, keepdims=True)
        top = xp.where(xp.isnan(vectors), vectors, xp.maximum(top, vectors))
    empty = top == neg_inf
    top = xp.where(empty, scores.dtype.type(0), top)
    exps = xp.exp(scores - top)
    exps[xp.broadcast_to(empty, exps.shape)] = 0
    total = xp.sum(exps, axis=-1, keepdims=True)
    return exps, top, xp.where(total == 0, 1, total)


# -- derivatives -----------------------------------------------------------------------------
def _expand_heads(t, groups):
    """Tensor version of ``_repeat_heads`` (differentiable)."""
    if groups == 1:
        return t
    b, h, s, e = t.shape
    return t.unsqueeze(2).expand(b, h, groups, s, e).reshape(b, h * groups, s, e)


def _fold_heads(t, groups):
    """Sum the gradient of repeated heads back onto each key/value head."""
    if groups == 1:
        return t
    b, h, s, e = t.shape
    return t.reshape(b, h // groups, groups, s, e).sum(2)


def _flash_backward(grad, query, key, value, out, attn_mask, is_causal, scale):
    """The query, key and value gradients as torch's CPU kernel computes them: Note [Flash
    attention NaN rows]. With P = exp(S - logsumexp) and D = rowsum(grad * out):
    dv = P^T grad, dS = P (grad v^T - D), dq = dS k * scale, dk = dS^T q * scale."""
    groups = query.shape[-3] // key.shape[-3]
    scores, masked = _flash_scores(query, key, attn_mask, is_causal, scale)
    _, top, total = _flash_exp(scores, masked)
    probs = xp.exp(scores - (top + xp.log(total)))
    if is_causal:  # torch zeroes them after the exponential
        probs[..., _above_diagonal(probs)] = 0
    grad_value = _fold_heads(xp.matmul(xp.swapaxes(probs, -1, -2), grad), groups)
    dprobs = xp.matmul(grad, xp.swapaxes(_repeat_heads(value, groups), -1, -2))
    dscores = probs * (dprobs - xp.sum(grad * out, axis=-1, keepdims=True))
    dscores *= dscores.dtype.type(scale)
    grad_query = xp.matmul(dscores, _repeat_heads(key, groups))
    grad_key = _fold_heads(xp.matmul(xp.swapaxes(dscores, -1, -2), query), groups)
    return grad_query, grad_key, grad_value


def _not_implemented(grad):
    raise RuntimeError(
        "derivative for aten::_scaled_dot_product_flash_attention_for_cpu_backward is not "
        "implemented"
    )


# As torch's, the three gradients are the outputs of one op, and so of one NotImplemented
# node: a second order reaches it once every one of them has its gradient, which decides
# which of several nodes without a derivative raises first.
@defop(
    name="_scaled_dot_product_flash_attention_for_cpu_backward",
    node="NotImplemented",
    outputs=3,
    schema_args=10,  # (grad_out, query, key, value, out, logsumexp, dropout_p, ...)
    grad_out=_not_implemented,
    query=_not_implemented,
    key=_not_implemented,
    value=_not_implemented,
    out=_not_implemented,
    jvp=no_forward_derivative("_scaled_dot_product_flash_attention_for_cpu_backward"),
)
def flash_attention_backward(grad_out, query, key, value, out, attn_mask, is_causal, scale, probs):
    """The gradients for ``query``, ``key`` and ``value`` of the fused attention."""
    return _flash_backward(grad_out, query, key, value, out, attn_mask, is_causal, scale)


def _flash_apply(node, grad_outputs):
    if node._saved is FREED:
        raise freed_error(node)
    _, _, argnames = flash_attention.spec.formulas[0]
    found = _flash_gradients(*node._arguments(argnames, grad_outputs))
    return [g if edge[0] is not None else None for g, edge in zip(found, node.next_functions)]


flash_attention.spec.node_class._apply = _flash_apply

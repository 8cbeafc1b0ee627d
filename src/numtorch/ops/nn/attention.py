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

from ..._core import batch_rules, grad_mode
from ..._core.op import defop, export
from ..._core.tensor import Tensor
from ...autograd.forward_grad import batch_shift, batched, no_forward_derivative
from ...backend import xp
from .composite_backward import tensors_of


def _softmax_rows(x, dim):
    """Softmax whose all ``-inf`` rows are 0."""
    if x.shape[dim] == 0:  # no keys: nothing to normalize
        return x.copy()
    m = xp.max(x, axis=dim, keepdims=True)
    e = xp.exp(x - xp.where(xp.isfinite(m), m, 0))
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


def _flash_grad(which):
    def formula(grad, query, key, value, attn_mask, is_causal, scale, result, result1):
        return flash_attention_backward(
            grad, query, key, value, result, attn_mask, is_causal, scale, result1, which
        )

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
    query=_flash_grad("query"),
    key=_flash_grad("key"),
    value=_flash_grad("value"),
    jvp=_flash_jvp,
)
def flash_attention(query, key, value, attn_mask, is_causal, scale):
    """(output, attention probabilities); the probabilities are saved for backward."""
    groups = query.shape[-3] // key.shape[-3]
    scores = xp.matmul(query, xp.swapaxes(_repeat_heads(key, groups), -1, -2))
    scores *= scores.dtype.type(scale)
    bias = attention_bias(attn_mask, is_causal, query.shape[-2], key.shape[-2], scores.dtype)
    if bias is not None:
        scores += bias
    probs = _softmax_rows(scores, -1)
    return xp.matmul(probs, _repeat_heads(value, groups)), probs


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


def _probs(query, key, attn_mask, is_causal, scale, saved):
    if not grad_mode.is_grad_enabled():
        return saved.detach()
    groups = query.shape[-3] // key.shape[-3]
    scores = query.matmul(_expand_heads(key, groups).transpose(-1, -2)) * scale
    mask = None if attn_mask is None else attn_mask._data
    bias = attention_bias(mask, is_causal, query.shape[-2], key.shape[-2], scores._data.dtype)
    if bias is not None:
        scores = scores + Tensor._make(bias)
    return safe_softmax(scores, -1)


def _scores_grad(grad, value, probs, groups):
    dprobs = grad.matmul(_expand_heads(value, groups).transpose(-1, -2))
    return probs * (dprobs - (dprobs * probs).sum(-1, keepdim=True))


def _query_grad(grad, query, key, value, attn_mask, is_causal, scale, result1):
    groups = query.shape[-3] // key.shape[-3]
    probs = _probs(query, key, attn_mask, is_causal, scale, result1)
    return _scores_grad(grad, value, probs, groups).matmul(_expand_heads(key, groups)) * scale


def _key_grad(grad, query, key, value, attn_mask, is_causal, scale, result1):
    groups = query.shape[-3] // key.shape[-3]
    probs = _probs(query, key, attn_mask, is_causal, scale, result1)
    dscores = _scores_grad(grad, value, probs, groups)
    return _fold_heads(dscores.transpose(-1, -2).matmul(query) * scale, groups)


def _value_grad(grad, query, key, value, attn_mask, is_causal, scale, result1):
    groups = query.shape[-3] // key.shape[-3]
    probs = _probs(query, key, attn_mask, is_causal, scale, result1)
    return _fold_heads(probs.transpose(-1, -2).matmul(grad), groups)


def _not_implemented(grad):
    raise RuntimeError(
        "derivative for aten::_scaled_dot_product_flash_attention_for_cpu_backward is not "
        "implemented"
    )


_GRADIENTS = {"query": _query_grad, "key": _key_grad, "value": _value_grad}


@defop(
    name="_scaled_dot_product_flash_attention_for_cpu_backward",
    node="NotImplemented",
    grad_out=_not_implemented,
    query=_not_implemented,
    key=_not_implemented,
    value=_not_implemented,
    out=_not_implemented,
    jvp=no_forward_derivative("_scaled_dot_product_flash_attention_for_cpu_backward"),
)
def flash_attention_backward(
    grad_out, query, key, value, out, attn_mask, is_causal, scale, probs, which
):
    """The gradient for ``query``, ``key`` or ``value`` (``which``) of the fused attention."""
    tensors = tensors_of(grad_out, query, key, value, attn_mask)
    with grad_mode.no_grad():
        return _GRADIENTS[which](*tensors, is_causal, scale, Tensor._make(probs))._data

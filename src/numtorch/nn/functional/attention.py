"""Attention functions of ``numtorch.nn.functional``: ``scaled_dot_product_attention`` and
``multi_head_attention_forward`` (with torch's mask helpers)."""

from __future__ import annotations

import math
import warnings

from ... import _creation
from ..._core.kernel_dtypes import COMPLEX, FLOATS, kernel, own_message
from ..._core.observers import composite
from ..._core.tensor import Tensor
from ...ops.concatenation import cat
from ...ops.nn.attention import attention_bias, flash_attention, safe_softmax
from ...ops.pointwise import _mul_scalar
from ...ops.scaled_products import baddbmm
from ..attention import SDPBackend, _backend_enabled
from .dropout import dropout
from .linear import linear
from .padding import pad

# Note [Kernel dtypes]: torch scales integer queries by a float tensor, which refuses them,
# and has no complex softmax
_SCALED_BY_A_FLOAT = own_message(FLOATS | COMPLEX, "expected scalar type Float but found {dtype}")
_SOFTMAX = kernel("softmax_lastdim_kernel_impl", FLOATS)


def _check_sdpa(query, key, value, attn_mask):
    if not (query.dtype == key.dtype == value.dtype):
        raise RuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{query.dtype.c_name} key.dtype: {key.dtype.c_name} and value.dtype: "
            f"{value.dtype.c_name} instead."
        )
    if query.ndim < 2 or key.ndim < 2 or value.ndim < 2:
        raise RuntimeError(
            "Expected query, key, and value to all be  at least 2 dimensional, but got "
            f"query.dim: {query.ndim} key.dim: {key.ndim} and value.dim: {value.ndim} instead."
        )
    if attn_mask is not None:
        dtype = attn_mask.dtype
        if dtype.name not in ("bool", "float32") and dtype != query.dtype:
            raise RuntimeError(
                "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                f"attn_mask.dtype: {attn_mask.dtype.c_name} and  query.dtype: "
                f"{query.dtype.c_name} instead."
            )


def _gqa_heads(query, key, value, enable_gqa):
    """How many query heads share each key head and value head (1 and 1 without GQA)."""
    if not enable_gqa or query.ndim < 3:
        return 1, 1
    q, k, v = query.shape[-3], key.shape[-3], value.shape[-3]
    if q % k or q % v:
        raise RuntimeError(
            "Number of heads in key and value must divide the number of heads in query"
        )
    return q // k, q // v


def _fused(query, key, value, attn_mask, dropout_p, groups):
    """Whether torch's CPU dispatcher picks its fused (flash) kernel for these inputs."""
    if dropout_p > 0.0 or not (query.ndim == key.ndim == value.ndim == 4):
        return False
    if not (query.shape[0] == key.shape[0] == value.shape[0]):
        return False
    if key.shape[1] != value.shape[1] or query.shape[1] != key.shape[1] * groups[0]:
        return False
    if attn_mask is not None:
        if attn_mask.requires_grad:  # the fused kernel has no mask gradient
            return False
        if attn_mask.ndim < 2:  # torch's check reads the mask's size(-2) unguarded
            raise IndexError(
                "Dimension specified as -2 but tensor has no dimensions"
                if attn_mask.ndim == 0
                else "Dimension out of range (expected to be in range of [-1, 0], but got -2)"
            )
        if attn_mask.ndim not in (2, 4):
            return False
    if not (query.shape[-1] == key.shape[-1] == value.shape[-1]):
        return False
    if query.shape[-2] == 0 or key.shape[-2] == 0:
        return False
    return all(t._data.strides[-1] == t._data.itemsize for t in (query, key, value))


def _repeat_heads(t, repeats):
    """``t.repeat_interleave(repeats, dim=-3)``."""
    if repeats == 1:
        return t
    shape = t.shape
    expanded = t.unsqueeze(-3).expand(*shape[:-2], repeats, *shape[-2:])
    return expanded.reshape(*shape[:-3], shape[-3] * repeats, *shape[-2:])


# one op in torch: the profiler shows its range, and a mask of a Tensor subclass (the causal
# masks of nn.attention.bias) takes the call over through __torch_function__
@composite("aten::scaled_dot_product_attention")
def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Tensor:
    """``softmax(query @ key^T * scale + mask) @ value`` over the last two dims.

    A bool ``attn_mask`` marks the keys each query may attend to (True = attend); a float
    mask is added to the scores. ``is_causal`` masks keys after the query's position
    (top-left aligned when L != S). ``scale`` defaults to ``1 / sqrt(E)``. Rows where every
    key is masked give zeros. With ``enable_gqa``, key/value heads are repeated to match
    the query heads.

    Example:
        >>> import numtorch as torch
        >>> q = torch.ones(1, 2, 3, 4, requires_grad=True)
        >>> torch.nn.functional.scaled_dot_product_attention(q, q, q).grad_fn
        <ScaledDotProductFlashAttentionForCpuBackward0 object at ...>
    """
    if query.is_nested:  # per constituent (numtorch.nested)
        return query._attention(key, value, attn_mask, dropout_p, is_causal, scale)
    _check_sdpa(query, key, value, attn_mask)
    if query.shape[-2] == 0 or value.numel() == 0:
        return _empty_attention(query, key, value)
    _SCALED_BY_A_FLOAT.check_tensor(query)
    _SOFTMAX.check_tensor(query)
    if dropout_p < 0.0 or dropout_p > 1.0:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
    groups = _gqa_heads(query, key, value, enable_gqa)
    if scale is None:  # 1 / sqrt(0) is inf, as in torch's C++
        scale = 1.0 / math.sqrt(query.shape[-1]) if query.shape[-1] else math.inf
    flash = _backend_enabled(SDPBackend.FLASH_ATTENTION)
    if flash and _fused(query, key, value, attn_mask, dropout_p, groups):
        if attn_mask is not None:
            scores = (*query.shape[:-1], key.shape[-2])
            _check_broadcast(scores, tuple(attn_mask.shape))
        return flash_attention(query, key, value, attn_mask, is_causal, scale)[0]
    if not _backend_enabled(SDPBackend.MATH):
        # the kernels enabled by nn.attention.sdpa_kernel: none of them takes these inputs
        if flash:
            raise RuntimeError("No available kernel.  Aborting execution.")
        raise RuntimeError(
            "No viable backend for scaled_dot_product_attention was found. This is likely "
            "due to turning off both the math kernel and the fused kernels."
        )
    return _attention_math(query, key, value, attn_mask, dropout_p, is_causal, scale, groups)


def _empty_attention(query, key, value):
    # torch's answer when there is no query or no value: zeros of the output's shape, linked
    # to all three inputs (zero gradients) by a sum times 0, before any other check
    shape = (*query.shape[:-1], value.shape[-1])
    link = (query.sum() + key.sum() + value.sum()) * 0
    return _creation.zeros(shape, dtype=query.dtype) + link


def _check_broadcast(scores, mask):
    for k in range(1, len(mask) + 1):
        if mask[-k] not in (1, scores[-k]):
            raise RuntimeError(
                f"The size of tensor a ({scores[-k]}) must match the size of tensor b "
                f"({mask[-k]}) at non-singleton dimension {len(scores) - k}"
            )


def _attention_math(query, key, value, attn_mask, dropout_p, is_causal, scale, groups):
    """torch's composite ``_scaled_dot_product_attention_math``: q and k each scaled by
    sqrt(scale), then matmul, mask, ``_safe_softmax``, dropout, matmul."""
    root = math.sqrt(abs(scale))
    # Scalar multiplications in torch's C++ composite (MulBackward1)
    q = _mul_scalar(query, -root if scale < 0 else root)
    length, source = query.shape[-2], key.shape[-2]
    if is_causal and attn_mask is not None:
        raise RuntimeError(
            "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
            "is_causal=True"
        )
    key, value = _repeat_heads(key, groups[0]), _repeat_heads(value, groups[1])
    scores = q.matmul(_mul_scalar(key.transpose(-2, -1), root))
    if attn_mask is not None and attn_mask.is_floating_point():
        scores = scores + attn_mask.to(query.dtype)
    else:
        mask = None if attn_mask is None else attn_mask._data
        bias = attention_bias(mask, is_causal, length, source, scores._data.dtype)
        if bias is not None:
            scores = scores + Tensor._make(bias)
    probs = safe_softmax(scores, -1)
    if dropout_p > 0.0:
        probs = dropout(probs, dropout_p)
    return probs.matmul(value)


# -- multi-head attention --------------------------------------------------------------------
def _none_or_dtype(input):
    if input is None:
        return None
    if isinstance(input, Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A bool mask as a float one (``-inf`` where True, 0 elsewhere); float masks pass."""
    if mask is None:
        return None
    is_float = mask.is_floating_point()
    if mask._data.dtype != bool and not is_float:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(
            f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type "
            "for both instead.",
            stacklevel=3,
        )
    if not is_float:
        mask = _creation.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    """Whether the input is batched; torch's AssertionErrors for inconsistent ranks."""
    if query.ndim == 3:
        if key.ndim != 3 or value.ndim != 3:
            raise AssertionError(
                "For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                f"{key.ndim}-D and {value.ndim}-D tensors respectively"
            )
        if key_padding_mask is not None and key_padding_mask.ndim != 2:
            raise AssertionError(
                "For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D "
                f"but found {key_padding_mask.ndim}-D tensor instead"
            )
        if attn_mask is not None and attn_mask.ndim not in (2, 3):
            raise AssertionError(
                "For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                f"found {attn_mask.ndim}-D tensor instead"
            )
        return True
    if query.ndim == 2:
        if key.ndim != 2 or value.ndim != 2:
            raise AssertionError(
                "For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                f"{key.ndim}-D and {value.ndim}-D tensors respectively"
            )
        if key_padding_mask is not None and key_padding_mask.ndim != 1:
            raise AssertionError(
                "For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D "
                f"but found {key_padding_mask.ndim}-D tensor instead"
            )
        if attn_mask is not None:
            if attn_mask.ndim not in (2, 3):
                raise AssertionError(
                    "For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D "
                    f"but found {attn_mask.ndim}-D tensor instead"
                )
            expected = (num_heads, query.shape[0], key.shape[0])
            if attn_mask.ndim == 3 and tuple(attn_mask.shape) != expected:
                raise AssertionError(
                    f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}"
                )
        return False
    raise AssertionError(
        "query should be unbatched 2D or batched 3D tensor but received "
        f"{query.ndim}-D query tensor"
    )


def _split_packed(proj, parts, embed_dim):
    # torch's layout (parts, E) rather than (E, parts), for the same order as chunk()
    proj = proj.unflatten(-1, (parts, embed_dim)).unsqueeze(0).transpose(0, -2).squeeze(-2)
    proj = proj.contiguous()
    return [proj[i] for i in range(parts)]


def _in_projection_packed(q, k, v, w, b=None):
    """Project query, key and value with one packed (3E, E) weight."""
    embed_dim = q.shape[-1]
    if k is v:
        if q is k:  # self-attention
            return _split_packed(linear(q, w, b), 3, embed_dim)
        w_q, w_kv = w.split([embed_dim, embed_dim * 2])
        b_q, b_kv = (None, None) if b is None else b.split([embed_dim, embed_dim * 2])
        return [linear(q, w_q, b_q), *_split_packed(linear(k, w_kv, b_kv), 2, embed_dim)]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return [linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)]


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """Project with separate weights (kdim/vdim differing from embed_dim)."""
    eq, ek, ev = q.shape[-1], k.shape[-1], v.shape[-1]
    expected = (("query", w_q, (eq, eq)), ("key", w_k, (eq, ek)), ("value", w_v, (eq, ev)))
    for name, w, shape in expected:
        if tuple(w.shape) != shape:
            raise AssertionError(f"expecting {name} weights shape of {shape}, but got {w.shape}")
    for name, b in (("query", b_q), ("key", b_k), ("value", b_v)):
        if b is not None and tuple(b.shape) != (eq,):
            raise AssertionError(f"expecting {name} bias shape of {(eq,)}, but got {b.shape}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _check_static(static, name, rows, head_dim):
    if static.shape[0] != rows:
        raise AssertionError(f"expecting {name}.size(0) of {rows}, but got {static.shape[0]}")
    if static.shape[2] != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got {static.shape[2]}")


def multi_head_attention_forward(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    embed_dim_to_check: int,
    num_heads: int,
    in_proj_weight,
    in_proj_bias,
    bias_k,
    bias_v,
    add_zero_attn: bool,
    dropout_p: float,
    out_proj_weight: Tensor,
    out_proj_bias,
    training: bool = True,
    key_padding_mask=None,
    need_weights: bool = True,
    attn_mask=None,
    use_separate_proj_weight: bool = False,
    q_proj_weight=None,
    k_proj_weight=None,
    v_proj_weight=None,
    static_k=None,
    static_v=None,
    average_attn_weights: bool = True,
    is_causal: bool = False,
):
    """Multi-head attention on (L, N, E) query and (S, N, E) key/value (or unbatched
    (L, E), (S, E)): ``(output, weights)``, weights averaged over heads unless
    ``average_attn_weights=False``, and None when ``need_weights=False``.

    With ``need_weights`` the scores are computed here (``baddbmm`` with the mask, softmax,
    dropout, ``bmm``); without, by ``scaled_dot_product_attention``, as torch does.
    """
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(
        key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask), "attn_mask", query.dtype
    )
    if is_causal and attn_mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer "
            "module method `generate_square_subsequent_mask` to create this mask."
        )
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # the is_causal hint goes to scaled_dot_product_attention instead
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, False)
        if key_padding_mask is not None:
            is_causal = False  # the merged mask is no longer causal
    if embed_dim != embed_dim_to_check:
        raise AssertionError(
            f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}"
        )
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(
                f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                f"{value.shape[:2]}"
            )
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(
                    f"use_separate_proj_weight is True but {name}_proj_weight is None"
                )
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(
            query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v
        )

    if attn_mask is not None:
        if attn_mask.ndim == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(
                    f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                    f"{(tgt_len, src_len)}."
                )
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.ndim == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(
                    f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                    f"{(bsz * num_heads, tgt_len, src_len)}."
                )
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.ndim} is not supported")

    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")

    # heads become batch: (L, N, E) -> (N * heads, L, head_dim)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    if static_k is None:
        k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        _check_static(static_k, "static_k", bsz * num_heads, head_dim)
        k = static_k
    if static_v is None:
        v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        _check_static(static_v, "static_v", bsz * num_heads, head_dim)
        v = static_v

    if add_zero_attn:
        zeros = (bsz * num_heads, 1, head_dim)
        k = cat([k, _creation.zeros(zeros, dtype=k.dtype)], dim=1)
        v = cat([v, _creation.zeros(zeros, dtype=v.dtype)], dim=1)
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    src_len = k.shape[1]

    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(
                f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                f"{key_padding_mask.shape[0]}"
            )
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(
                f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                f"{key_padding_mask.shape[1]}"
            )
        key_padding_mask = (
            key_padding_mask.view(bsz, 1, 1, src_len)
            .expand(-1, num_heads, -1, -1)
            .reshape(bsz * num_heads, 1, src_len)
        )
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0

    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(q.shape[-1]))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        if attn_mask is not None:
            weights = baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = q_scaled.bmm(k.transpose(-2, -1))
        weights = weights.softmax(dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        output = weights.bmm(v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        output = linear(output, out_proj_weight, out_proj_bias)
        output = output.view(tgt_len, bsz, output.shape[1])
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            output, weights = output.squeeze(1), weights.squeeze(0)
        return output, weights

    if attn_mask is not None:
        if attn_mask.shape[0] == 1 and attn_mask.ndim == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    output = output.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    output = linear(output, out_proj_weight, out_proj_bias)
    output = output.view(tgt_len, bsz, output.shape[1])
    if not is_batched:
        output = output.squeeze(1)
    return output, None

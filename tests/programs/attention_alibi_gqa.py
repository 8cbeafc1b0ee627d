# ALiBi slopes and bias, grouped-query attention with repeat_interleave, multi-query via einsum
import math

torch.manual_seed(0)


def get_slopes(n_heads):
    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        ratio = start
        return [start * ratio**i for i in range(n)]

    if math.log2(n_heads).is_integer():
        return get_slopes_power_of_2(n_heads)
    closest_power_of_2 = 2 ** math.floor(math.log2(n_heads))
    return (
        get_slopes_power_of_2(closest_power_of_2)
        + get_slopes(2 * closest_power_of_2)[0::2][: n_heads - closest_power_of_2]
    )


print([round(s, 6) for s in get_slopes(6)])
n_heads, T, hd = 4, 5, 8
slopes = torch.Tensor(get_slopes(n_heads))
pos = torch.arange(T)
rel = pos[None, :] - pos[:, None]
alibi = slopes[:, None, None] * rel[None].float()
causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
alibi = alibi.masked_fill(causal, float("-inf"))
print(alibi[1])
q, k, v = (torch.randn(2, n_heads, T, hd, requires_grad=True) for _ in range(3))
att = (q @ k.transpose(-2, -1)) / math.sqrt(hd) + alibi
att = att.softmax(-1)
y = att @ v
y2 = F.scaled_dot_product_attention(q, k, v, attn_mask=alibi)
torch.testing.assert_close(y, y2)
y.sum().backward()
out(alibi, y, q.grad, att.grad_fn.name())
# ---
# Grouped-query attention (Llama repeat_kv) and multi-query attention with einsum
import math

torch.manual_seed(0)
bsz, seqlen, n_heads, n_kv_heads, head_dim = 2, 4, 6, 2, 4
n_rep = n_heads // n_kv_heads


def repeat_kv(x, n_rep):
    bs, slen, n_kv_heads, head_dim = x.shape
    if n_rep == 1:
        return x
    return (
        x[:, :, :, None, :]
        .expand(bs, slen, n_kv_heads, n_rep, head_dim)
        .reshape(bs, slen, n_kv_heads * n_rep, head_dim)
    )


xq = torch.randn(bsz, seqlen, n_heads, head_dim, requires_grad=True)
xk = torch.randn(bsz, seqlen, n_kv_heads, head_dim, requires_grad=True)
xv = torch.randn(bsz, seqlen, n_kv_heads, head_dim, requires_grad=True)
keys, values = repeat_kv(xk, n_rep), repeat_kv(xv, n_rep)
print(keys.shape, keys.grad_fn.name(), keys.is_contiguous())
same = torch.equal(keys, torch.repeat_interleave(xk, n_rep, dim=2))
print("repeat_kv == repeat_interleave:", same)
q, kk, vv = xq.transpose(1, 2), keys.transpose(1, 2), values.transpose(1, 2)
scores = torch.matmul(q, kk.transpose(2, 3)) / math.sqrt(head_dim)
mask = torch.full((seqlen, seqlen), float("-inf")).triu(1)
scores = F.softmax((scores + mask).float(), dim=-1).type_as(q)
output = torch.matmul(scores, vv).transpose(1, 2).contiguous().view(bsz, seqlen, -1)
gqa = F.scaled_dot_product_attention(
    q, xk.transpose(1, 2), xv.transpose(1, 2), is_causal=True, enable_gqa=True
)
print(torch.allclose(gqa.transpose(1, 2).reshape(bsz, seqlen, -1), output, atol=1e-6))
output.pow(2).mean().backward()
out(output, xk.grad, xv.grad)
# multi-query: one shared k/v head, einsum over heads
Q = torch.randn(bsz, n_heads, seqlen, head_dim)
K = torch.randn(bsz, seqlen, head_dim)
V = torch.randn(bsz, seqlen, head_dim)
logits = torch.einsum("bhnd,bmd->bhnm", Q, K) * head_dim**-0.5
weights = logits.softmax(dim=-1)
attn_out = torch.einsum("bhnm,bmd->bhnd", weights, V)
print(attn_out.shape, weights.sum(-1).allclose(torch.ones(bsz, n_heads, seqlen)))
out(attn_out)

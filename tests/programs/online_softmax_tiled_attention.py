# Flash-attention style tiled attention: online softmax with running max and sum, logsumexp
def tiled_attention(q, k, v, block_q=2, block_k=3, causal=False):
    B, H, N, D = q.shape
    scale = D**-0.5
    out_ = torch.zeros_like(q)
    lse = torch.zeros(B, H, N)
    for qs in range(0, N, block_q):
        qb = q[:, :, qs : qs + block_q] * scale
        m = torch.full(qb.shape[:-1], float("-inf"))
        l = torch.zeros(qb.shape[:-1])  # noqa: E741
        acc = torch.zeros_like(qb)
        for ks in range(0, N, block_k):
            if causal and ks > qs + block_q - 1:
                break
            kb, vb = k[:, :, ks : ks + block_k], v[:, :, ks : ks + block_k]
            s = qb @ kb.transpose(-1, -2)
            if causal:
                qi = torch.arange(qs, qs + qb.shape[2])[:, None]
                ki = torch.arange(ks, ks + kb.shape[2])[None, :]
                s = s.masked_fill(ki > qi, float("-inf"))
            m_new = torch.maximum(m, s.amax(-1))
            p = torch.exp(s - m_new.unsqueeze(-1))
            correction = torch.exp(m - m_new)
            l = l * correction + p.sum(-1)  # noqa: E741
            acc = acc * correction.unsqueeze(-1) + p @ vb
            m = m_new
        out_[:, :, qs : qs + block_q] = acc / l.unsqueeze(-1)
        lse[:, :, qs : qs + block_q] = m + torch.log(l)
    return out_, lse


torch.manual_seed(0)
q, k, v = (torch.randn(2, 2, 7, 4, requires_grad=True) for _ in range(3))
for causal in (False, True):
    o, lse = tiled_attention(q, k, v, causal=causal)
    ref = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    scores = (q @ k.transpose(-1, -2)) * 4**-0.5
    if causal:
        scores = scores.masked_fill(torch.ones(7, 7, dtype=torch.bool).triu(1), float("-inf"))
    print(
        causal,
        torch.allclose(o, ref, atol=1e-5),
        torch.allclose(lse, scores.logsumexp(-1), atol=1e-5),
    )
    o.sum().backward()
    out(o, lse, q.grad, v.grad)
    q.grad = k.grad = v.grad = None
m = torch.tensor([float("-inf"), 0.0])
print(torch.exp(m - torch.maximum(m, torch.tensor([float("-inf"), 1.0]))))
with torch.no_grad():
    a = F.scaled_dot_product_attention(
        q, k, v, attn_mask=torch.ones(7, 7, dtype=torch.bool).tril(), scale=0.5
    )
    b = F.scaled_dot_product_attention(
        q,
        k,
        v,
        attn_mask=torch.zeros(7, 7).masked_fill(
            torch.ones(7, 7, dtype=torch.bool).triu(1), float("-inf")
        ),
        scale=0.5,
    )
print(torch.allclose(a, b, atol=1e-6))
out(a)

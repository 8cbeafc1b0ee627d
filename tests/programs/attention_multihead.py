# nn.MultiheadAttention with a key padding mask, batch_first, averaged and per-head weights
rng = np.random.default_rng(0)


def fill(module, seed):
    r = np.random.default_rng(seed)
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.tensor(r.uniform(-0.5, 0.5, tuple(p.shape))))


mha = nn.MultiheadAttention(embed_dim=8, num_heads=2, batch_first=True)
fill(mha, 1)
print(mha)
out([n for n, _ in mha.named_parameters()])
tokens = torch.tensor([[3, 1, 4, 0, 0], [2, 7, 1, 8, 2]])
embed = nn.Embedding(10, 8, padding_idx=0)
fill(embed, 2)
x = embed(tokens)
key_padding_mask = tokens == 0
attn_output, attn_weights = mha(x, x, x, key_padding_mask=key_padding_mask)
out(attn_output, attn_weights, attn_weights[0, :, 3:].abs().sum())
_, per_head = mha(x, x, x, key_padding_mask=key_padding_mask, average_attn_weights=False)
out(per_head.shape, torch.allclose(per_head.mean(1), attn_weights, atol=1e-6))
causal = torch.triu(torch.ones(5, 5, dtype=torch.bool), diagonal=1)
y, w = mha(x, x, x, attn_mask=causal, key_padding_mask=key_padding_mask)
out(y, w)
y, w = mha(x, x, x, need_weights=False)
out(y, w)

# a padded-sequence classifier over the mask, trained a few steps
head = nn.Linear(8, 2)
fill(head, 3)
labels = torch.tensor([1, 0])
params = list(mha.parameters()) + list(embed.parameters()) + list(head.parameters())
optimizer = torch.optim.AdamW(params, lr=0.05)
for step in range(3):
    optimizer.zero_grad()
    h, _ = mha(embed(tokens), embed(tokens), embed(tokens), key_padding_mask=key_padding_mask)
    keep = (~key_padding_mask).unsqueeze(-1).float()
    pooled = (h * keep).sum(1) / keep.sum(1)
    loss = F.cross_entropy(head(pooled), labels)
    loss.backward()
    optimizer.step()
    out(step, loss)
out(mha.in_proj_weight.grad, embed.weight.grad[0])
# ---
# MultiheadAttention: separate key/value sizes, bias_kv, zero_attn and sequence-first layout
mha = nn.MultiheadAttention(6, 3, kdim=4, vdim=5, add_bias_kv=True, add_zero_attn=True)
r = np.random.default_rng(4)
with torch.no_grad():
    for p in mha.parameters():
        p.copy_(torch.tensor(r.uniform(-0.5, 0.5, tuple(p.shape))))
out(sorted(n for n, _ in mha.named_parameters()))
q = torch.tensor(r.standard_normal((2, 3, 6)), dtype=torch.float32, requires_grad=True)
k = torch.tensor(r.standard_normal((4, 3, 4)), dtype=torch.float32)
v = torch.tensor(r.standard_normal((4, 3, 5)), dtype=torch.float32)
y, w = mha(q, k, v)
y.sum().backward()
out(y, w, q.grad)
err(lambda: mha(q, q, q))
err(lambda: nn.MultiheadAttention(6, 4))
# ---
# einsum attention: hand-written multi-head attention matches scaled_dot_product_attention
rng = np.random.default_rng(5)
B, H, T, D = 2, 2, 4, 3
q, k, v = (
    torch.tensor(rng.standard_normal((B, H, T, D)), dtype=torch.float32, requires_grad=True)
    for _ in range(3)
)
scores = torch.einsum("bhid,bhjd->bhij", q, k) / D**0.5
mask = torch.ones(T, T, dtype=torch.bool).tril()
scores = scores.masked_fill(~mask, float("-inf"))
attn = scores.softmax(dim=-1)
y = torch.einsum("bhij,bhjd->bhid", attn, v)
ref = F.scaled_dot_product_attention(q, k, v, is_causal=True)
# torch builds einsum from bmm and views, so its grad_fn names vary: values are compared
out(y.detach(), torch.allclose(y, ref, atol=1e-6))
(y * torch.arange(float(D))).sum().backward()
out(q.grad, k.grad, v.grad)
merged = torch.einsum("bhtd->bthd", y).reshape(B, T, H * D)
proj = torch.tensor(rng.standard_normal((H * D, 5)), dtype=torch.float32)
out(torch.einsum("btc,co->bto", merged, proj).detach(), torch.einsum("ii", mask.float()))
out(torch.einsum("bij,bjk->bik", q[:, 0], k[:, 0].transpose(1, 2)).shape)
out(torch.einsum("...d,...d->...", q, k).shape, torch.einsum("b h t d -> b t", q).shape)
out(torch.einsum("i,i->i", torch.ones(1), torch.arange(3.0)), torch.einsum("...->", q).detach())
err(lambda: torch.einsum("...ijk,i", torch.ones(2), torch.ones(2)))
err(lambda: torch.einsum("ij", torch.ones(2)))
err(lambda: torch.einsum("i,i", torch.ones(2), torch.ones(3)))
err(lambda: torch.einsum("i,i", torch.ones(2), [1.0, 2.0]))

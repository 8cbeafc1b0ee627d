# Activation checkpointing (checkpoint_sequential, checkpoint): gradients equal the plain run
torch.manual_seed(0)
cp = torch.utils.checkpoint
model = nn.Sequential(
    *[nn.Sequential(nn.Linear(8, 8), nn.GELU()) for _ in range(6)], nn.Linear(8, 1)
)
x = torch.randn(4, 8, requires_grad=True)
plain = model(x).sum()
plain.backward()
ref_grads = [p.grad.clone() for p in model.parameters()]
ref_x = x.grad.clone()
model.zero_grad()
x.grad = None
out_cp = cp.checkpoint_sequential(model, 3, x, use_reentrant=False)
print(out_cp.shape, out_cp.grad_fn is not None, torch.allclose(out_cp.sum(), plain))
out_cp.sum().backward()
print(
    all(torch.allclose(p.grad, g) for p, g in zip(model.parameters(), ref_grads)),
    torch.allclose(x.grad, ref_x),
)
calls = []


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ff = nn.Linear(8, 8)

    def forward(self, h, scale=1.0):
        calls.append(h.requires_grad)
        return torch.relu(self.ff(h)) * scale + h


block = Block()
h = torch.randn(2, 8, requires_grad=True)
y = cp.checkpoint(block, h, 0.5, use_reentrant=False)
print(len(calls), y.grad_fn.name())
y.pow(2).sum().backward()
print(len(calls), h.grad.shape, f"{h.grad.abs().sum().item():.5f}")
with torch.no_grad():
    z = cp.checkpoint(block, h, use_reentrant=False)
print(z.requires_grad, len(calls))
out(out_cp, x.grad, y, h.grad)
# ---
# Prefix tuning: learned key/value prefixes prepended in every attention layer of a frozen model
torch.manual_seed(0)


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x, prefix_kv=None, attn_mask=None):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        if prefix_kv is not None:
            pk, pv = prefix_kv
            k = torch.cat([pk.expand(B, -1, -1, -1), k], dim=2)
            v = torch.cat([pv.expand(B, -1, -1, -1), v], dim=2)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        return self.proj(out.transpose(1, 2).reshape(B, T, D))


class PrefixEncoder(nn.Module):
    def __init__(self, n_layers, n_prefix, d, heads, hidden=16):
        super().__init__()
        self.n_layers, self.n_prefix, self.heads, self.d = n_layers, n_prefix, heads, d
        self.embedding = nn.Embedding(n_prefix, d)
        self.trans = nn.Sequential(
            nn.Linear(d, hidden), nn.Tanh(), nn.Linear(hidden, n_layers * 2 * d)
        )

    def forward(self):
        tokens = torch.arange(self.n_prefix)
        kv = self.trans(self.embedding(tokens))
        kv = kv.view(self.n_prefix, self.n_layers * 2, self.heads, self.d // self.heads)
        kv = kv.permute(1, 2, 0, 3).unsqueeze(1)
        return kv.split(2)


d, heads, n_layers, n_prefix, T = 8, 2, 2, 3, 5
layers = nn.ModuleList(Attention(d, heads) for _ in range(n_layers))
for p in layers.parameters():
    p.requires_grad_(False)
prefix = PrefixEncoder(n_layers, n_prefix, d, heads)
trainable = sum(p.numel() for p in prefix.parameters() if p.requires_grad)
frozen = sum(p.numel() for p in layers.parameters())
print(f"trainable {trainable} frozen {frozen} ratio {trainable / (trainable + frozen):.3f}")
x = torch.randn(2, T, d)
target = torch.randn(2, T, d)
causal = torch.ones(T, T, dtype=torch.bool).tril()
mask = torch.cat([torch.ones(T, n_prefix, dtype=torch.bool), causal], dim=1)
opt = torch.optim.AdamW(prefix.parameters(), lr=1e-2)
for step in range(20):
    kvs = prefix()
    h = x
    for layer, kv in zip(layers, kvs):
        h = h + layer(h, prefix_kv=(kv[0], kv[1]), attn_mask=mask)
    loss = F.mse_loss(h, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.5f}")
print(kvs[0].shape, len(kvs), layers[0].qkv.weight.grad, prefix.embedding.weight.grad.shape)
out(loss, kvs[1], prefix.trans[2].weight.grad)

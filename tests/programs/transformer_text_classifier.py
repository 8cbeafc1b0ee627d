# a Transformer-encoder text classifier: padding masks, mean pooling, OneCycleLR, clipping
def fill_(module, scale=0.2):
    # deterministic weights (no random stream): a cosine pattern per parameter
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            grid = torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape)
            p.copy_(torch.cos(grid * 0.61 + i) * scale)


class Classifier(nn.Module):
    def __init__(self, vocab, d_model=8, classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model, padding_idx=0)
        layer = nn.TransformerEncoderLayer(d_model, nhead=2, dim_feedforward=16, dropout=0.0,
                                           batch_first=True)  # fmt: skip
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.head = nn.Linear(d_model, classes)
        self.register_buffer(
            "positions", torch.sin(torch.arange(6.0)[:, None] * torch.arange(1.0, 9.0) / 8)
        )

    def forward(self, tokens):
        pad = tokens == 0
        h = self.embed(tokens) + self.positions[: tokens.shape[1]]
        h = self.encoder(h, src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        return self.head((h * keep).sum(1) / keep.sum(1))


tokens = torch.tensor(
    [[5, 3, 8, 2, 0, 0], [7, 7, 1, 0, 0, 0], [4, 9, 6, 2, 3, 1], [2, 0, 0, 0, 0, 0]]
)
labels = torch.tensor([0, 2, 1, 0])
model = Classifier(10)
fill_(model)
opt = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.01)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.05, total_steps=6)
for step in range(6):
    opt.zero_grad()
    loss = F.cross_entropy(model(tokens), labels)
    loss.backward()
    norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
    opt.step()
    sched.step()
    print(step, round(loss.item(), 4), round(norm.item(), 4), round(sched.get_last_lr()[0], 6))
model.eval()
with torch.no_grad():
    out(model(tokens), model(tokens).argmax(-1))
out(sorted(k for k in model.state_dict() if "layers.0" in k), model.positions.shape)


# ---
# causal self-attention written with einsum, checked against scaled_dot_product_attention
def fill_(module, scale=0.2):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            grid = torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape)
            p.copy_(torch.cos(grid * 0.61 + i) * scale)


B, H, T, D = 2, 2, 4, 3
grid = torch.arange(B * H * T * D, dtype=torch.float32).reshape(B, H, T, D)
q, k, v = torch.sin(grid * 0.3), torch.cos(grid * 0.2), torch.sin(grid * 0.5 + 1)
q.requires_grad_()
scores = torch.einsum("bhtd,bhsd->bhts", q, k) / D**0.5
causal = torch.ones(T, T, dtype=torch.bool).tril()
attn = scores.masked_fill(~causal, float("-inf")).softmax(-1)
manual = torch.einsum("bhts,bhsd->bhtd", attn, v)
fused = F.scaled_dot_product_attention(q, k, v, is_causal=True)
torch.testing.assert_close(manual, fused)
manual.pow(2).sum().backward()
out(manual.detach(), q.grad, attn[0, 0])  # torch records einsum as its bmm/view steps
mha = nn.MultiheadAttention(6, 2, batch_first=True)
fill_(mha)
x = torch.sin(torch.arange(2 * 4 * 6, dtype=torch.float32).reshape(2, 4, 6))
y, w = mha(x, x, x, attn_mask=nn.Transformer.generate_square_subsequent_mask(4), need_weights=True)
out(y, w, nn.Transformer.generate_square_subsequent_mask(3))


# ---
# activation checkpointing gives the same loss and gradients as the plain forward
def fill_(module, scale=0.2):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            grid = torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape)
            p.copy_(torch.cos(grid * 0.61 + i) * scale)


checkpoint = torch.utils.checkpoint.checkpoint

block = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 4))
fill_(block)
x = torch.linspace(-1, 1, 12).reshape(3, 4).requires_grad_()
plain = block(x).tanh().sum()
plain.backward()
g_plain = [p.grad.clone() for p in block.parameters()] + [x.grad.clone()]
block.zero_grad()
x.grad = None
ckpt = checkpoint(block, x, use_reentrant=False).tanh().sum()
ckpt.backward()
g_ckpt = [p.grad for p in block.parameters()] + [x.grad]
out(plain, ckpt, [torch.allclose(a, b) for a, b in zip(g_plain, g_ckpt)])

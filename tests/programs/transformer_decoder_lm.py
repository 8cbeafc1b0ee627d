# decoder-only LM: TransformerEncoder blocks with a causal mask, weight tying, greedy generation
torch.manual_seed(0)
vocab, d_model, nhead, block = 11, 16, 2, 8


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Parameter(torch.zeros(1, block, d_model))
        layer = nn.TransformerEncoderLayer(
            d_model, nhead, dim_feedforward=32, dropout=0.0, batch_first=True, norm_first=True
        )
        self.blocks = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)
        self.head.weight = self.tok.weight  # weight tying

    def forward(self, idx):
        t = idx.size(1)
        mask = nn.Transformer.generate_square_subsequent_mask(t)
        x = self.tok(idx) + self.pos[:, :t]
        x = self.blocks(x, mask=mask, is_causal=True)
        return self.head(self.ln(x))


model = TinyLM()
mask = nn.Transformer.generate_square_subsequent_mask(4)
print(mask)
print(mask.dtype)
print(sum(p.numel() for p in model.parameters()), "parameters")
print([n for n, _ in model.named_parameters()][:6])
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
seq = torch.arange(40) % vocab
for step in range(4):
    ix = torch.randint(0, len(seq) - block - 1, (3,))
    x = torch.stack([seq[i : i + block] for i in ix])
    y = torch.stack([seq[i + 1 : i + block + 1] for i in ix])
    logits = model(x)
    loss = F.cross_entropy(logits.reshape(-1, vocab), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")


@torch.no_grad()
def generate(idx, n):
    for _ in range(n):
        logits = model(idx[:, -block:])[:, -1, :]
        idx = torch.cat([idx, logits.argmax(-1, keepdim=True)], dim=1)
    return idx


model.eval()
print(generate(torch.tensor([[0, 1, 2]]), 6))
out(logits, loss, model.tok.weight.grad)
# ---
# encoder-decoder: nn.TransformerDecoderLayer with tgt_mask, memory, key padding masks
torch.manual_seed(2)
d, heads = 8, 2
dec_layer = nn.TransformerDecoderLayer(d_model=d, nhead=heads, dim_feedforward=16, dropout=0.0)
decoder = nn.TransformerDecoder(dec_layer, num_layers=2)
print(decoder.layers[0])
src_emb = nn.Embedding(6, d)
tgt_emb = nn.Embedding(6, d)
gen = nn.Linear(d, 6)
memory = src_emb(torch.tensor([[1, 2], [3, 4], [5, 0]]))  # (S, N, E)
tgt = torch.tensor([[1, 1], [2, 3], [4, 0], [0, 0]])  # (T, N)
tgt_mask = nn.Transformer.generate_square_subsequent_mask(tgt.size(0))
tgt_pad = (tgt == 0).T
mem_pad = torch.tensor([[False, False, False], [False, False, True]])
hidden = decoder(
    tgt_emb(tgt),
    memory,
    tgt_mask=tgt_mask,
    tgt_key_padding_mask=tgt_pad,
    memory_key_padding_mask=mem_pad,
)
print(hidden.shape)
logits = gen(hidden)
loss = F.cross_entropy(logits[:-1].reshape(-1, 6), tgt[1:].reshape(-1), ignore_index=0)
loss.backward()
print(f"{loss.item():.5f}")
out(hidden, loss, dec_layer.self_attn.in_proj_weight.grad)
out(decoder.layers[1].multihead_attn.out_proj.weight.grad)
print(torch.isfinite(hidden).all())

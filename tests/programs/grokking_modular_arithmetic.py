# Grokking modular addition: full-batch AdamW with strong weight decay, train/val accuracy, norms
p = 7
torch.manual_seed(0)
a = torch.arange(p).repeat_interleave(p)
b = torch.arange(p).repeat(p)
equals = torch.full_like(a, p)
inputs = torch.stack([a, b, equals], dim=1)
labels = (a + b) % p
perm = torch.randperm(p * p)
split = int(0.5 * p * p)
train_idx, val_idx = perm[:split], perm[split:]
print(inputs[:3].tolist(), labels[:8].tolist(), len(train_idx), len(val_idx))


class Transformer(nn.Module):
    def __init__(self, vocab=p + 1, d=24, heads=2, seq=3):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(seq, d)
        layer = nn.TransformerEncoderLayer(
            d, heads, dim_feedforward=4 * d, dropout=0.0, batch_first=True, norm_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)
        self.head = nn.Linear(d, p)

    def forward(self, x):
        h = self.tok(x) + self.pos(torch.arange(x.shape[1]))
        return self.head(self.encoder(h)[:, -1])


model = Transformer()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, betas=(0.9, 0.98), weight_decay=1.0)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: min(step / 3, 1))
for step in range(6):
    model.train()
    logits = model(inputs[train_idx])
    loss = F.cross_entropy(logits, labels[train_idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    model.eval()
    with torch.no_grad():
        val_logits = model(inputs[val_idx])
        val_loss = F.cross_entropy(val_logits, labels[val_idx])
        train_acc = (logits.argmax(-1) == labels[train_idx]).float().mean()
        val_acc = (val_logits.argmax(-1) == labels[val_idx]).float().mean()
    norm = sum(p_.pow(2).sum() for p_ in model.parameters()).sqrt()
    print(
        f"step {step}: train {loss.item():.4f}/{train_acc.item():.3f} "
        f"val {val_loss.item():.4f}/{val_acc.item():.3f} "
        f"|w| {norm.item():.4f} lr {sched.get_last_lr()[0]:.4f}"
    )
out(val_logits, model.tok.weight.grad)
fourier = torch.fft.fft(model.tok.weight[:p].detach(), dim=0).abs().pow(2).sum(1)
print(fourier.shape)
out(fourier)

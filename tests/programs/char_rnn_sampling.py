# char-level GRU: one-hot-free embedding, truncated BPTT, temperature sampling with multinomial
torch.manual_seed(0)
text = "hello world. the quick brown fox jumps over the lazy dog. hello there! " * 3
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
vocab = len(chars)
print(f"vocab size {vocab}: {''.join(chars)!r}")
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
print(data[:20], data.dtype, data.shape)


class CharGRU(nn.Module):
    def __init__(self, vocab, emb=8, hidden=24, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden, num_layers=layers, batch_first=True, dropout=0.0)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x, h=None):
        out, h = self.rnn(self.embed(x), h)
        return self.head(out), h


model = CharGRU(vocab)
print(model)
n_params = sum(p.numel() for p in model.parameters())
print(f"{n_params} parameters")
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
seq_len, batch = 12, 4
h = None
for step in range(6):
    starts = torch.randint(0, len(data) - seq_len - 1, (batch,))
    x = torch.stack([data[s : s + seq_len] for s in starts])
    y = torch.stack([data[s + 1 : s + seq_len + 1] for s in starts])
    if h is not None:
        h = h.detach()
    logits, h = model(x, h)
    loss = F.cross_entropy(logits.view(-1, vocab), y.view(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    gnorm = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    print(f"step {step} loss {loss.item():.4f} grad-norm {gnorm:.4f}")


@torch.no_grad()
def sample(model, start, n, temperature=1.0, top_k=None):
    model.eval()
    idx = torch.tensor([[stoi[c] for c in start]])
    logits, h = model(idx)
    out_chars = list(start)
    for _ in range(n):
        last = logits[:, -1, :] / temperature
        if top_k is not None:
            v, _ = torch.topk(last, top_k)
            last[last < v[:, [-1]]] = -float("inf")
        probs = F.softmax(last, dim=-1)
        nxt = torch.multinomial(probs, num_samples=1)
        out_chars.append(itos[nxt.item()])
        logits, h = model(nxt, h)
    model.train()
    return "".join(out_chars)


print(repr(sample(model, "he", 20)))
print(repr(sample(model, "th", 20, temperature=0.5, top_k=5)))
out(logits, h)
# ---
# LSTM generator: hidden state tuple, multinomial with replacement, greedy argmax decode
torch.manual_seed(3)
vocab, emb, hid = 7, 5, 6
embed = nn.Embedding(vocab, emb)
lstm = nn.LSTM(emb, hid)
proj = nn.Linear(hid, vocab)
seq = torch.randint(0, vocab, (9, 2))
out_seq, (h, c) = lstm(embed(seq))
print(out_seq.shape, h.shape, c.shape)
logits = proj(out_seq)
probs = logits.softmax(-1)
draws = torch.multinomial(probs.view(-1, vocab), 3, replacement=True)
print(draws)
no_repl = torch.multinomial(probs[0, 0], 4)
print(no_repl, no_repl.dtype)
greedy = logits.argmax(dim=-1)
print(greedy.T)
loss = F.cross_entropy(logits.permute(1, 2, 0), seq.T)
loss.backward()
print(f"{loss.item():.5f}", lstm.weight_hh_l0.grad.abs().sum().item() > 0)
out(loss, lstm.weight_ih_l0.grad, embed.weight.grad)
err(lambda: torch.multinomial(torch.tensor([0.0, 0.0]), 1))
err(lambda: torch.multinomial(torch.tensor([0.5, 0.5]), 3))
err(lambda: torch.multinomial(torch.tensor([-0.5, 1.5]), 1))

# char-level GRU language model trained a few steps, then sampled with temperature and multinomial
torch.manual_seed(0)
text = "hello world, hello numpy, hello torch. "
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)


class CharGRU(nn.Module):
    def __init__(self, vocab, emb=8, hidden=16, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.gru = nn.GRU(emb, hidden, num_layers=layers, batch_first=True, dropout=0.1)
        self.fc = nn.Linear(hidden, vocab)

    def forward(self, x, h=None):
        o, h = self.gru(self.emb(x), h)
        return self.fc(o), h


model = CharGRU(len(chars))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
seq = 8
for step in range(15):
    ix = torch.randint(len(data) - seq - 1, (4,))
    xb = torch.stack([data[i : i + seq] for i in ix])
    yb = torch.stack([data[i + 1 : i + seq + 1] for i in ix])
    logits, _ = model(xb)
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), yb.view(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step % 5 == 0:
        print(f"step {step:3d} | loss {loss.item():.4f} | ppl {torch.exp(loss):.3f}")
model.eval()
with torch.no_grad():
    x = torch.tensor([[stoi["h"]]])
    h = None
    out_chars = ["h"]
    for _ in range(20):
        logits, h = model(x, h)
        probs = F.softmax(logits[:, -1, :] / 0.8, dim=-1)
        nxt = torch.multinomial(probs, num_samples=1)
        out_chars.append(itos[nxt.item()])
        x = nxt
    print(repr("".join(out_chars)), h.shape)
    top = torch.topk(probs, 3)
    print(top.values, [itos[i] for i in top.indices[0].tolist()])
    print(
        torch.multinomial(torch.tensor([0.1, 0.0, 0.9]), 5, replacement=True),
        torch.multinomial(torch.tensor([[1.0, 2.0, 3.0, 4.0]]), 3),
    )

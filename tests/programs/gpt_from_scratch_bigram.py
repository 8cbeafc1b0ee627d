# "let's build GPT": encode/decode, get_batch, the tril averaging trick, one head, a bigram model
text = "first citizen: before we proceed any further, hear me speak. all: speak, speak. " * 4
chars = sorted(list(set(text)))
vocab_size = len(chars)
print("".join(chars), vocab_size)
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}
encode = lambda s: [stoi[c] for c in s]
decode = lambda l: "".join([itos[i] for i in l])  # noqa: E741
print(encode("hear me"), decode(encode("hear me")))

data = torch.tensor(encode(text), dtype=torch.long)
print(data.shape, data.dtype, data[:10])
n = int(0.9 * len(data))
train_data, val_data = data[:n], data[n:]
torch.manual_seed(1337)
batch_size, block_size = 4, 8


def get_batch(split):
    data = train_data if split == "train" else val_data
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[i : i + block_size] for i in ix])
    y = torch.stack([data[i + 1 : i + block_size + 1] for i in ix])
    return x, y


xb, yb = get_batch("train")
print("inputs:", xb.shape, "\n", xb)
for b in range(1):
    for t in range(3):
        context = xb[b, : t + 1]
        target = yb[b, t]
        print(f"when input is {context.tolist()} the target: {target}")

# the mathematical trick in self-attention: three ways to average the past
torch.manual_seed(1337)
B, T, C = 2, 4, 2
x = torch.randn(B, T, C)
xbow = torch.zeros((B, T, C))
for b in range(B):
    for t in range(T):
        xprev = x[b, : t + 1]
        xbow[b, t] = torch.mean(xprev, 0)
wei = torch.tril(torch.ones(T, T))
wei = wei / wei.sum(1, keepdim=True)
xbow2 = wei @ x
tril = torch.tril(torch.ones(T, T))
wei = torch.zeros((T, T))
wei = wei.masked_fill(tril == 0, float("-inf"))
print(wei)
wei = F.softmax(wei, dim=-1)
xbow3 = wei @ x
print(torch.allclose(xbow, xbow2), torch.allclose(xbow, xbow3))
print(wei)
out(xbow, xbow2, xbow3)

# a single head of self-attention
torch.manual_seed(1337)
B, T, C = 2, 4, 8
x = torch.randn(B, T, C)
head_size = 4
key = nn.Linear(C, head_size, bias=False)
query = nn.Linear(C, head_size, bias=False)
value = nn.Linear(C, head_size, bias=False)
k, q = key(x), query(x)
wei = q @ k.transpose(-2, -1) * head_size**-0.5
wei = wei.masked_fill(tril == 0, float("-inf"))
wei = F.softmax(wei, dim=-1)
v = value(x)
out_ = wei @ v
print(out_.shape, wei[0])
scaled = q @ k.transpose(-2, -1) * head_size**-0.5
print(f"{k.var().item():.4f} {q.var().item():.4f} {scaled.var().item():.4f}")
print(torch.softmax(torch.tensor([0.1, -0.2, 0.3, -0.2, 0.5]) * 8, dim=-1))
out(out_, wei)


class BigramLanguageModel(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, vocab_size)

    def forward(self, idx, targets=None):
        logits = self.token_embedding_table(idx)
        if targets is None:
            loss = None
        else:
            B, T, C = logits.shape
            logits = logits.view(B * T, C)
            targets = targets.view(B * T)
            loss = F.cross_entropy(logits, targets)
        return logits, loss

    def generate(self, idx, max_new_tokens):
        for _ in range(max_new_tokens):
            logits, loss = self(idx)
            logits = logits[:, -1, :]
            probs = F.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx


torch.manual_seed(1337)
m = BigramLanguageModel(vocab_size)
logits, loss = m(xb, yb)
print(logits.shape, f"{loss.item():.4f}")
print(decode(m.generate(idx=torch.zeros((1, 1), dtype=torch.long), max_new_tokens=20)[0].tolist()))
optimizer = torch.optim.AdamW(m.parameters(), lr=1e-2)
for _steps in range(30):
    xb, yb = get_batch("train")
    logits, loss = m(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
print(f"{loss.item():.4f}")
print(decode(m.generate(idx=torch.zeros((1, 1), dtype=torch.long), max_new_tokens=20)[0].tolist()))
out(m.token_embedding_table.weight)

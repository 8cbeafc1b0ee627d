# makemore part 2 (Bengio MLP): contexts, C[X] lookup, lr search over 10**linspace, splits
import random

words = [
    "emma",
    "olivia",
    "ava",
    "isabella",
    "sophia",
    "mia",
    "amelia",
    "harper",
    "evelyn",
    "abigail",
    "emily",
    "ella",
    "elizabeth",
    "camila",
    "luna",
    "sofia",
    "avery",
    "mila",
    "aria",
    "scarlett",
]
chars = sorted(list(set("".join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
vocab_size = len(itos)
print(vocab_size, itos[1], itos[vocab_size - 1])

block_size = 3


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + ".":
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    X = torch.tensor(X)
    Y = torch.tensor(Y)
    print(X.shape, Y.shape)
    return X, Y


random.seed(42)
random.shuffle(words)
n1 = int(0.8 * len(words))
n2 = int(0.9 * len(words))
Xtr, Ytr = build_dataset(words[:n1])
Xdev, Ydev = build_dataset(words[n1:n2])
Xte, Yte = build_dataset(words[n2:])

g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab_size, 4), generator=g)
W1 = torch.randn((12, 30), generator=g)
b1 = torch.randn(30, generator=g)
W2 = torch.randn((30, vocab_size), generator=g)
b2 = torch.randn(vocab_size, generator=g)
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True

emb = C[Xtr]
print(emb.shape, torch.cat(torch.unbind(emb, 1), 1).shape, emb.view(-1, 12).shape)
h = torch.tanh(emb.view(-1, 12) @ W1 + b1)
logits = h @ W2 + b2
counts = logits.exp()
prob = counts / counts.sum(1, keepdims=True)
manual = -prob[torch.arange(Ytr.shape[0]), Ytr].log().mean()
print(f"{manual.item():.4f} {F.cross_entropy(logits, Ytr).item():.4f}")

lre = torch.linspace(-3, -1, 30)
lrs = 10**lre
lri, lossi, stepi = [], [], []
for i in range(30):
    ix = torch.randint(0, Xtr.shape[0], (16,), generator=g)
    emb = C[Xtr[ix]]
    h = torch.tanh(emb.view(-1, 12) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Ytr[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = lrs[i]
    for p in parameters:
        p.data += -lr * p.grad
    lri.append(lre[i])
    stepi.append(i)
    lossi.append(loss.log10().item())
print(f"best lr exponent {lri[int(torch.tensor(lossi).argmin())].item():.3f}")
print(type(lri[0]).__name__, lri[0].dtype, f"{lossi[0]:.4f} {lossi[-1]:.4f}")


@torch.no_grad()
def split_loss(split):
    x, y = {"train": (Xtr, Ytr), "val": (Xdev, Ydev), "test": (Xte, Yte)}[split]
    emb = C[x]
    h = torch.tanh(emb.view(emb.shape[0], -1) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, y)
    print(split, f"{loss.item():.4f}")


split_loss("train")
split_loss("val")

g = torch.Generator().manual_seed(2147483647 + 10)
for _ in range(5):
    out_ = []
    context = [0] * block_size
    while True:
        emb = C[torch.tensor([context])]
        h = torch.tanh(emb.view(1, -1) @ W1 + b1)
        logits = h @ W2 + b2
        probs = F.softmax(logits, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out_.append(ix)
        if ix == 0 or len(out_) > 12:
            break
    print("".join(itos[i] for i in out_))
out(C, W1.grad, b2)

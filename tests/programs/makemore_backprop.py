# makemore-style MLP: manual BatchNorm, retain_grad on intermediates, hand-written backprop compared
torch.manual_seed(42)
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
]
chars = sorted(list(set("".join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
vocab_size = len(itos)
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
    return torch.tensor(X), torch.tensor(Y)


Xtr, Ytr = build_dataset(words)
print(Xtr.shape, Ytr.shape, Xtr.dtype)
n_embd, n_hidden = 4, 16
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab_size, n_embd), generator=g)
W1 = (
    torch.randn((n_embd * block_size, n_hidden), generator=g)
    * (5 / 3)
    / ((n_embd * block_size) ** 0.5)
)
b1 = torch.randn(n_hidden, generator=g) * 0.1
W2 = torch.randn((n_hidden, vocab_size), generator=g) * 0.1
b2 = torch.randn(vocab_size, generator=g) * 0.1
bngain = torch.randn((1, n_hidden), generator=g) * 0.1 + 1.0
bnbias = torch.randn((1, n_hidden), generator=g) * 0.1
parameters = [C, W1, b1, W2, b2, bngain, bnbias]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True
batch_size = 8
n = batch_size
ix = torch.randint(0, Xtr.shape[0], (batch_size,), generator=g)
Xb, Yb = Xtr[ix], Ytr[ix]
emb = C[Xb]
embcat = emb.view(emb.shape[0], -1)
hprebn = embcat @ W1 + b1
bnmeani = 1 / n * hprebn.sum(0, keepdim=True)
bndiff = hprebn - bnmeani
bndiff2 = bndiff**2
bnvar = 1 / (n - 1) * (bndiff2).sum(0, keepdim=True)
bnvar_inv = (bnvar + 1e-5) ** -0.5
bnraw = bndiff * bnvar_inv
hpreact = bngain * bnraw + bnbias
h = torch.tanh(hpreact)
logits = h @ W2 + b2
logit_maxes = logits.max(1, keepdim=True).values
norm_logits = logits - logit_maxes
counts = norm_logits.exp()
counts_sum = counts.sum(1, keepdims=True)
counts_sum_inv = counts_sum**-1
probs = counts * counts_sum_inv
logprobs = probs.log()
loss = -logprobs[range(n), Yb].mean()
intermediates = [logprobs, probs, counts, counts_sum, counts_sum_inv, norm_logits, logit_maxes]
intermediates += [logits, h, hpreact, bnraw, bnvar_inv, bnvar, bndiff2, bndiff, hprebn]
intermediates += [bnmeani, embcat, emb]
for p in parameters:
    p.grad = None
for t in intermediates:
    t.retain_grad()
loss.backward()
print(f"loss {loss.item():.6f}")


def cmp(s, dt, t):
    # bitwise equality depends on the order of float32 sums, so only closeness is printed
    app = torch.allclose(dt, t.grad)
    maxdiff = (dt - t.grad).abs().max().item()
    print(f"{s:15s} | approximate: {str(app):5s} | maxdiff below 1e-6: {maxdiff < 1e-6}")


dlogprobs = torch.zeros_like(logprobs)
dlogprobs[range(n), Yb] = -1.0 / n
dprobs = (1.0 / probs) * dlogprobs
dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
dcounts = counts_sum_inv * dprobs
dcounts_sum = (-(counts_sum**-2)) * dcounts_sum_inv
dcounts += torch.ones_like(counts) * dcounts_sum
dnorm_logits = counts * dcounts
dlogits = dnorm_logits.clone()
dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
dlogits += F.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
dh = dlogits @ W2.T
dW2 = h.T @ dlogits
db2 = dlogits.sum(0)
dhpreact = (1.0 - h**2) * dh
dbngain = (bnraw * dhpreact).sum(0, keepdim=True)
dbnraw = bngain * dhpreact
dbnbias = dhpreact.sum(0, keepdim=True)
dbndiff = bnvar_inv * dbnraw
dbnvar_inv = (bndiff * dbnraw).sum(0, keepdim=True)
dbnvar = (-0.5 * (bnvar + 1e-5) ** -1.5) * dbnvar_inv
dbndiff2 = (1.0 / (n - 1)) * torch.ones_like(bndiff2) * dbnvar
dbndiff += (2 * bndiff) * dbndiff2
dhprebn = dbndiff.clone()
dbnmeani = (-dbndiff).sum(0)
dhprebn += 1.0 / n * (torch.ones_like(hprebn) * dbnmeani)
dembcat = dhprebn @ W1.T
dW1 = embcat.T @ dhprebn
db1 = dhprebn.sum(0)
demb = dembcat.view(emb.shape)
dC = torch.zeros_like(C)
for k in range(Xb.shape[0]):
    for j in range(Xb.shape[1]):
        dC[Xb[k, j]] += demb[k, j]
for name, d, t in [
    ("logprobs", dlogprobs, logprobs),
    ("probs", dprobs, probs),
    ("counts_sum_inv", dcounts_sum_inv, counts_sum_inv),
    ("counts", dcounts, counts),
    ("logits", dlogits, logits),
    ("h", dh, h),
    ("W2", dW2, W2),
    ("b2", db2, b2),
    ("hpreact", dhpreact, hpreact),
    ("bngain", dbngain, bngain),
    ("bnvar", dbnvar, bnvar),
    ("hprebn", dhprebn, hprebn),
    ("W1", dW1, W1),
    ("C", dC, C),
]:
    cmp(name, d, t)
# the fused cross-entropy backward
loss_fast = F.cross_entropy(logits, Yb)
print(f"{loss_fast.item():.6f}", abs((loss_fast - loss).item()) < 1e-6)
dlogits_fast = F.softmax(logits, 1)
dlogits_fast[range(n), Yb] -= 1
dlogits_fast /= n
print(torch.allclose(dlogits_fast, logits.grad, atol=1e-7))
out(loss, logits.grad, C.grad, W1.grad, bngain.grad, dC, dW1)
# ---
# makemore bigram: counts matrix, smoothing, sampling names with a generator, NLL, keepdims=
words = ["anna", "bob", "carl", "dana", "emma", "abba", "ada"]
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)
N = torch.zeros((V, V), dtype=torch.int32)
for w in words:
    cs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(cs, cs[1:]):
        N[stoi[ch1], stoi[ch2]] += 1
print(N)
P = (N + 1).float()
P /= P.sum(1, keepdims=True)
print(P[0])
print(P.sum(1))
g = torch.Generator().manual_seed(2147483647)
for _ in range(4):
    out_chars, ix = [], 0
    while True:
        ix = torch.multinomial(P[ix], num_samples=1, replacement=True, generator=g).item()
        out_chars.append(itos[ix])
        if ix == 0:
            break
    print("".join(out_chars))
log_likelihood, count = 0.0, 0
for w in words:
    cs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(cs, cs[1:]):
        log_likelihood += torch.log(P[stoi[ch1], stoi[ch2]])
        count += 1
print(f"{log_likelihood=}")
print(f"{-log_likelihood / count}")
xs, ys = [], []
for w in words:
    cs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(cs, cs[1:]):
        xs.append(stoi[ch1])
        ys.append(stoi[ch2])
xs, ys = torch.tensor(xs), torch.tensor(ys)
W = torch.randn((V, V), generator=g, requires_grad=True)
for _k in range(5):
    xenc = F.one_hot(xs, num_classes=V).float()
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(len(xs)), ys].log().mean() + 0.01 * (W**2).mean()
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad
    print(f"{loss.item():.5f}")
out(N, P, W, loss)

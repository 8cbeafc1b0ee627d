# a seeded MLP with default init, dropout and a shuffled loader prints torch's losses
torch.manual_seed(0)
x = torch.randn(64, 10)
y = (x[:, 0] + 0.5 * x[:, 1] > 0).long()
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
data = torch.utils.data.TensorDataset(x, y)
loader = torch.utils.data.DataLoader(data, batch_size=16, shuffle=True)
for epoch in range(3):
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch}: {total / len(loader):.4f}")
out(model[0].weight, model[3].bias)
# ---
# a seeded CNN: Conv2d, BatchNorm2d, Dropout2d and Adam from torch's initial weights (no
# conv bias before the norm: its gradient is rounding noise, which Adam would amplify)
torch.manual_seed(1)
images = torch.rand(12, 1, 8, 8)
labels = torch.randint(0, 3, (12,))
net = nn.Sequential(
    nn.Conv2d(1, 4, 3, padding=1, bias=False),
    nn.BatchNorm2d(4),
    nn.ReLU(),
    nn.Dropout2d(0.25),
    nn.MaxPool2d(2),
    nn.Flatten(),
    nn.Linear(64, 3),
)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for step in range(4):
    loss = F.cross_entropy(net(images), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: {loss.item():.4f}")
out(net[0].weight.detach(), net[1].running_mean)
# ---
# an Embedding + LSTM language model on random tokens, with random_split and sampling
torch.manual_seed(2)
vocab, seq = 20, 6
tokens = torch.randint(0, vocab, (40, seq + 1))
train, valid = torch.utils.data.random_split(tokens, [30, 10])
print(len(train), len(valid), valid.indices[:5])


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(vocab, 8)
        self.lstm = nn.LSTM(8, 16, num_layers=2, dropout=0.3, batch_first=True)
        self.head = nn.Linear(16, vocab)

    def forward(self, t):
        h, _ = self.lstm(self.embed(t))
        return self.head(h)


lm = LM()
opt = torch.optim.AdamW(lm.parameters(), lr=5e-3)
batch = torch.stack([train[i] for i in range(len(train))])
for step in range(3):
    logits = lm(batch[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, vocab), batch[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"lm step {step}: {loss.item():.4f}")
lm.eval()
with torch.no_grad():
    start = torch.tensor([[3]])
    probs = F.softmax(lm(start)[0, -1], dim=-1)
    print(torch.multinomial(probs, 5, replacement=True).tolist())
# ---
# a transformer encoder block trained a few steps; init of attention and norms is torch's
torch.manual_seed(3)
layer = nn.TransformerEncoderLayer(d_model=16, nhead=4, dim_feedforward=32, dropout=0.1)
head = nn.Linear(16, 1)
src = torch.randn(5, 3, 16)
target = torch.randn(3, 1)
params = list(layer.parameters()) + list(head.parameters())
opt = torch.optim.SGD(params, lr=0.05)
for step in range(3):
    pred = head(layer(src).mean(0))
    loss = F.mse_loss(pred, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"encoder step {step}: {loss.item():.4f}")
out(layer.self_attn.in_proj_weight.detach()[:2])
# ---
# a VAE step: the reparameterisation draws randn_like from the global generator
torch.manual_seed(4)
enc = nn.Linear(6, 4)
dec = nn.Linear(2, 6)
batch = torch.rand(8, 6)
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-2)
for step in range(3):
    mu, logvar = enc(batch).chunk(2, dim=1)
    z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
    recon = torch.sigmoid(dec(z))
    kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(1).mean()
    loss = F.binary_cross_entropy(recon, batch) + kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"vae step {step}: {loss.item():.4f}")
# ---
# the generator's state saved, restored and forked, and a private Generator
torch.manual_seed(5)
state = torch.get_rng_state()
a = torch.rand(3)
torch.set_rng_state(state)
out(torch.equal(a, torch.rand(3)), state.shape, state.dtype)
with torch.random.fork_rng():
    torch.randn(10)
out(torch.rand(2))
g = torch.Generator().manual_seed(42)
out(
    torch.randn(4, generator=g), torch.randperm(6, generator=g), torch.randint(5, (3,), generator=g)
)
out(
    torch.empty(4).uniform_(-1, 1),
    torch.empty(3).exponential_(),
    torch.bernoulli(torch.full((5,), 0.5)),
)

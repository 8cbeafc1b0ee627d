# VAE as in pytorch/examples: fc encoder, reparameterisation, BCE(reduction='sum') + KLD, sampling
torch.manual_seed(0)


class VAE(nn.Module):
    def __init__(self, d_in=36, hidden=20, latent=4):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc21 = nn.Linear(hidden, latent)
        self.fc22 = nn.Linear(hidden, latent)
        self.fc3 = nn.Linear(latent, hidden)
        self.fc4 = nn.Linear(hidden, d_in)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 36))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 36), reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD, BCE, KLD


images = (torch.rand(24, 1, 6, 6) > 0.6).float()
loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(images, torch.zeros(24)), batch_size=8, shuffle=True
)
model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(1, 4):
    model.train()
    train_loss = 0
    for batch_idx, (data, _) in enumerate(loader):
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data)
        loss, bce, kld = loss_function(recon_batch, data, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
        if batch_idx % 2 == 0:
            print(
                f"Train Epoch: {epoch} [{batch_idx * len(data)}/{len(loader.dataset)} "
                f"({100.0 * batch_idx / len(loader):.0f}%)]\tLoss: {loss.item() / len(data):.4f}"
            )
    print(f"====> Epoch: {epoch} Average loss: {train_loss / len(loader.dataset):.4f}")
model.eval()
test_loss = 0
with torch.no_grad():
    for data, _ in loader:
        recon, mu, logvar = model(data)
        test_loss += loss_function(recon, data, mu, logvar)[0].item()
    sample = torch.randn(5, 4)
    sample = model.decode(sample).cpu()
    comparison = torch.cat([data[:4], recon.view(8, 1, 6, 6)[:4]])
print(f"====> Test set loss: {test_loss / len(loader.dataset):.4f}")
print(sample.view(5, 1, 6, 6).shape, comparison.shape, sample.min() >= 0, sample.max() <= 1)
print(sample[0].round(decimals=2))
out(recon, mu, logvar, sample)
out(bce, kld)
# ---
# conditional VAE: one-hot labels concatenated, distributions.Normal, kl_divergence, rsample
torch.manual_seed(1)
D = torch.distributions
n_cls, d, z_dim = 3, 6, 2
enc = nn.Sequential(nn.Linear(d + n_cls, 16), nn.Tanh(), nn.Linear(16, 2 * z_dim))
dec = nn.Sequential(nn.Linear(z_dim + n_cls, 16), nn.Tanh(), nn.Linear(16, d))
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=5e-3)
x = torch.randn(10, d)
labels = torch.randint(0, n_cls, (10,))
onehot = F.one_hot(labels, n_cls).float()
for step in range(4):
    mu, log_sigma = enc(torch.cat([x, onehot], 1)).chunk(2, dim=-1)
    q = D.Normal(mu, log_sigma.exp())
    p = D.Normal(torch.zeros_like(mu), torch.ones_like(mu))
    z = q.rsample()
    x_hat = dec(torch.cat([z, onehot], 1))
    rec = F.mse_loss(x_hat, x, reduction="none").sum(-1)
    kl = D.kl_divergence(q, p).sum(-1)
    elbo = -(rec + kl).mean()
    opt.zero_grad()
    (-elbo).backward()
    opt.step()
    print(
        f"step {step}: ELBO {elbo.item():.4f} rec {rec.mean().item():.4f} KL {kl.mean().item():.4f}"
    )
print(q, q.batch_shape, q.event_shape)
print(
    D.Independent(q, 1).log_prob(z).shape,
    q.log_prob(z).sum(-1).allclose(D.Independent(q, 1).log_prob(z)),
)
out(elbo, z, x_hat, enc[0].weight.grad)

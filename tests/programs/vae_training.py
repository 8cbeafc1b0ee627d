# a variational autoencoder: reparameterization with fixed noise, BCE + KL, Adam
rng = np.random.default_rng(0)


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(12, 8)
        self.fc21 = nn.Linear(8, 2)
        self.fc22 = nn.Linear(8, 2)
        self.fc3 = nn.Linear(2, 8)
        self.fc4 = nn.Linear(8, 12)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar, eps):
        std = torch.exp(0.5 * logvar)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x, eps):
        mu, logvar = self.encode(x.view(-1, 12))
        z = self.reparameterize(mu, logvar, eps)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 12), reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


model = VAE()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
data = torch.tensor(rng.uniform(0, 1, (16, 3, 4)) > 0.5, dtype=torch.float32)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(data), batch_size=8)
for epoch in range(1, 4):
    model.train()
    train_loss = 0
    for batch_idx, (batch,) in enumerate(loader):
        eps = torch.tensor(rng.standard_normal((batch.size(0), 2)), dtype=torch.float32)
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(batch, eps)
        loss = loss_function(recon_batch, batch, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
        out(epoch, batch_idx, loss, mu.grad_fn is not None)
    print(f"====> Epoch: {epoch} Average loss: {train_loss / len(loader.dataset):.4f}")
model.eval()
with torch.no_grad():
    sample = torch.tensor(rng.standard_normal((4, 2)), dtype=torch.float32)
    out(model.decode(sample))
    recon, mu, logvar = model(data[:2], torch.zeros(2, 2))
    out(recon, mu, logvar)
    comparison = torch.cat([data[:2].view(2, 12), recon.view(2, 12)])
    out(comparison.shape)

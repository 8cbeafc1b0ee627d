# a denoising convolutional autoencoder: pooling indices, MaxUnpool2d, ConvTranspose2d, MSE
rng = np.random.default_rng(0)


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(1, 4, 3, padding=1)
        self.pool = nn.MaxPool2d(2, return_indices=True)
        self.bottleneck = nn.Conv2d(4, 2, 3, stride=2, padding=1)
        self.expand = nn.ConvTranspose2d(2, 4, 3, stride=2, padding=1, output_padding=1)
        self.unpool = nn.MaxUnpool2d(2)
        self.dec = nn.Conv2d(4, 1, 3, padding=1)

    def forward(self, x):
        h = F.relu(self.enc(x))
        pooled, indices = self.pool(h)
        z = F.relu(self.bottleneck(pooled))
        up = F.relu(self.expand(z))
        restored = self.unpool(up, indices, output_size=h.size())
        return torch.sigmoid(self.dec(restored)), z


model = AutoEncoder()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
clean = torch.tensor(rng.uniform(0, 1, (4, 1, 8, 8)) > 0.6, dtype=torch.float32)
noise = torch.tensor(0.3 * rng.standard_normal((4, 1, 8, 8)), dtype=torch.float32)
noisy = (clean + noise).clamp(0.0, 1.0)
optimizer = torch.optim.RMSprop(model.parameters(), lr=0.01)
for epoch in range(4):
    optimizer.zero_grad()
    recon, code = model(noisy)
    loss = F.mse_loss(recon, clean)
    loss.backward()
    optimizer.step()
    out(epoch, loss, code.shape)
out(model.expand.weight.grad, model.enc.bias.grad)
with torch.no_grad():
    recon, code = model(noisy[:1])
    psnr = 10 * torch.log10(1.0 / F.mse_loss(recon, clean[:1]))
    out(psnr, (recon > 0.5).float().eq(clean[:1]).float().mean())
pooled, idx = F.max_pool2d(torch.arange(16.0).view(1, 1, 4, 4), 2, return_indices=True)
out(pooled, idx, F.max_unpool2d(pooled, idx, 2))

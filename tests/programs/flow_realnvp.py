# a RealNVP normalizing flow: affine coupling layers, log-determinants, exact inverse
torch.set_default_dtype(torch.float64)
rng = np.random.default_rng(0)


class Coupling(nn.Module):
    def __init__(self, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.scale = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2), nn.Tanh())
        self.shift = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 2))

    def forward(self, x):
        x_masked = x * self.mask
        s = self.scale(x_masked) * (1 - self.mask)
        t = self.shift(x_masked) * (1 - self.mask)
        y = x_masked + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(dim=1)

    def inverse(self, y):
        y_masked = y * self.mask
        s = self.scale(y_masked) * (1 - self.mask)
        t = self.shift(y_masked) * (1 - self.mask)
        return y_masked + (1 - self.mask) * (y - t) * torch.exp(-s)


class RealNVP(nn.Module):
    def __init__(self):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])] * 2
        self.layers = nn.ModuleList([Coupling(m) for m in masks])

    def forward(self, x):
        log_det = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return x, log_det

    def inverse(self, z):
        for layer in reversed(self.layers):
            z = layer.inverse(z)
        return z

    def log_prob(self, x):
        z, log_det = self(x)
        base = -0.5 * (z**2).sum(1) - z.shape[1] * 0.5 * torch.log(torch.tensor(2 * torch.pi))
        return base + log_det


flow = RealNVP()
with torch.no_grad():
    for p in flow.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
angle = rng.uniform(0, np.pi, 64)
data = torch.tensor(
    np.stack([np.cos(angle), np.sin(angle)], 1) + 0.05 * rng.standard_normal((64, 2))
)
optimizer = torch.optim.Adam(flow.parameters(), lr=5e-3)
for step in range(5):
    optimizer.zero_grad()
    loss = -flow.log_prob(data).mean()
    loss.backward()
    optimizer.step()
    out(step, loss)
z, log_det = flow(data[:4])
out(z, log_det, torch.allclose(flow.inverse(z), data[:4]))
# the coupling log-determinant is the log |det J| of the whole flow
x0 = data[:1].squeeze(0)
J = torch.autograd.functional.jacobian(lambda v: flow(v.unsqueeze(0))[0].squeeze(0), x0)
out(J, torch.logdet(J), torch.allclose(torch.linalg.slogdet(J).logabsdet, flow(data[:1])[1][0]))
samples = flow.inverse(torch.tensor(rng.standard_normal((3, 2))))
out(samples)
out(torch.pi, torch.e, torch.inf, torch.nan != torch.nan, torch.tensor([torch.inf, -torch.pi]))

# RealNVP-style coupling flow with torch.distributions base, log-det bookkeeping and sampling
torch.manual_seed(0)
D = torch.distributions


class Coupling(nn.Module):
    def __init__(self, dim, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.s = nn.Sequential(nn.Linear(dim, 16), nn.Tanh(), nn.Linear(16, dim))
        self.t = nn.Sequential(nn.Linear(dim, 16), nn.ReLU(), nn.Linear(16, dim))

    def forward(self, x):
        xm = x * self.mask
        s = self.s(xm) * (1 - self.mask)
        t = self.t(xm) * (1 - self.mask)
        y = xm + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(dim=1)

    def inverse(self, y):
        ym = y * self.mask
        s = self.s(ym) * (1 - self.mask)
        t = self.t(ym) * (1 - self.mask)
        return ym + (1 - self.mask) * ((y - t) * torch.exp(-s))


masks = [torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])] * 2
flows = nn.ModuleList([Coupling(2, m) for m in masks])
base = D.MultivariateNormal(torch.zeros(2), torch.eye(2))
data = torch.cat([torch.randn(64, 1) * 0.5, torch.randn(64, 1) * 0.2 + 1.0], 1)
data[:, 1] += data[:, 0] ** 2
opt = torch.optim.Adam(flows.parameters(), lr=5e-3)
for it in range(12):
    z, logdet = data, torch.zeros(data.size(0))
    for f in flows:
        z, ld = f(z)
        logdet = logdet + ld
    nll = -(base.log_prob(z) + logdet).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if it % 4 == 0:
        print(f"iter {it}: nll {nll.item():.4f}")
with torch.no_grad():
    s = base.sample((5,))
    for f in reversed(flows):
        s = f.inverse(s)
    print(s)
    z = data[:3]
    for f in flows:
        z, _ = f(z)
    for f in reversed(flows):
        z = f.inverse(z)
    print(torch.allclose(z, data[:3], atol=1e-5), (z - data[:3]).abs().max() < 1e-4)
tf = D.TransformedDistribution(
    D.Normal(torch.zeros(2), torch.ones(2)),
    [
        D.transforms.AffineTransform(loc=torch.tensor([1.0, -1.0]), scale=torch.tensor([2.0, 0.5])),
        D.transforms.TanhTransform(cache_size=1),
    ],
)
smp = tf.rsample((3,))
out(smp, tf.log_prob(smp), D.Independent(tf, 1).log_prob(smp))

# Exact GP regression: RBF kernel, Cholesky, cholesky_solve, logdet and the marginal likelihood
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)


class RBFKernel(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_lengthscale = nn.Parameter(torch.zeros(1))
        self.raw_outputscale = nn.Parameter(torch.zeros(()))

    @property
    def lengthscale(self):
        return F.softplus(self.raw_lengthscale)

    def forward(self, x1, x2):
        d2 = torch.cdist(x1 / self.lengthscale, x2 / self.lengthscale).pow(2)
        return F.softplus(self.raw_outputscale) * torch.exp(-0.5 * d2)


class ExactGP(nn.Module):
    def __init__(self, train_x, train_y):
        super().__init__()
        self.train_x, self.train_y = train_x, train_y
        self.kernel = RBFKernel()
        self.raw_noise = nn.Parameter(torch.tensor(-2.0))
        self.mean_constant = nn.Parameter(torch.zeros(()))

    @property
    def noise(self):
        return F.softplus(self.raw_noise) + 1e-4

    def marginal_log_likelihood(self):
        n = self.train_x.shape[0]
        K = self.kernel(self.train_x, self.train_x) + self.noise * torch.eye(n)
        L = torch.linalg.cholesky(K)
        resid = (self.train_y - self.mean_constant).unsqueeze(-1)
        alpha = torch.cholesky_solve(resid, L)
        quad = (resid * alpha).sum()
        logdet = 2 * torch.log(torch.diagonal(L)).sum()
        return -0.5 * (quad + logdet + n * torch.log(torch.tensor(2 * torch.pi))) / n

    def predict(self, test_x):
        K = self.kernel(self.train_x, self.train_x) + self.noise * torch.eye(len(self.train_x))
        Ks = self.kernel(test_x, self.train_x)
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve((self.train_y - self.mean_constant).unsqueeze(-1), L)
        mean = self.mean_constant + (Ks @ alpha).squeeze(-1)
        v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
        var = F.softplus(self.kernel.raw_outputscale) - (v * v).sum(0)
        return mean, var.clamp_min(1e-9)


train_x = torch.linspace(0, 1, 15).unsqueeze(-1)
train_y = torch.sin(6 * train_x.squeeze(-1)) + 0.1 * torch.randn(15)
model = ExactGP(train_x, train_y)
print([(n, p.dtype, tuple(p.shape)) for n, p in model.named_parameters()])
opt = torch.optim.Adam(model.parameters(), lr=0.1)
for i in range(15):
    opt.zero_grad()
    loss = -model.marginal_log_likelihood()
    loss.backward()
    opt.step()
    if i % 5 == 0:
        print(
            f"iter {i} loss {loss.item():.5f} lengthscale {model.kernel.lengthscale.item():.4f}",
            f"noise {model.noise.item():.4f}",
        )
with torch.no_grad():
    mean, var = model.predict(torch.tensor([[0.25], [0.5], [1.2]]))
print(mean, var.sqrt())
K = model.kernel(train_x, train_x).detach() + 1e-3 * torch.eye(15)
print(torch.logdet(K), torch.linalg.slogdet(K), torch.linalg.cholesky_ex(K).info)
err = torch.linalg.cholesky_ex(-torch.eye(2)).info
print(err, torch.get_default_dtype())
out(loss, mean, var, model.kernel.raw_lengthscale.grad)
# ---
# Bayesian optimisation acquisition: analytic EI with Normal.cdf and MC qEI with fixed base samples
torch.manual_seed(0)
Normal = torch.distributions.Normal


def expected_improvement(mean, sigma, best_f):
    u = (mean - best_f) / sigma
    normal = Normal(torch.zeros_like(u), torch.ones_like(u))
    ucdf = normal.cdf(u)
    updf = torch.exp(normal.log_prob(u))
    return sigma * (updf + u * ucdf)


def q_expected_improvement(mean, cov, best_f, base_samples):
    L = torch.linalg.cholesky(cov + 1e-6 * torch.eye(cov.shape[-1]))
    samples = mean.unsqueeze(-2) + base_samples @ L.transpose(-1, -2)
    improvement = (samples - best_f).clamp_min(0)
    return improvement.max(dim=-1).values.mean(dim=-1)


X = torch.rand(6, 2, requires_grad=True)
mean = torch.sin(3 * X).sum(-1)
sigma = 0.1 + X.pow(2).sum(-1).sqrt()
ei = expected_improvement(mean, sigma, best_f=0.8)
print(ei.detach(), ei.grad_fn.name())
ei.sum().backward()
print(X.grad)
n = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
print(n.cdf(torch.tensor([0.0, 3.0])), n.icdf(torch.tensor([0.975, 0.5])), n.entropy())
base = torch.randn(256, 3, generator=torch.Generator().manual_seed(5))
cand = torch.rand(4, 3, 1, requires_grad=True)
opt = torch.optim.Adam([cand], lr=0.05)
for _step in range(15):
    m = torch.sin(5 * cand).squeeze(-1)
    c = torch.exp(-torch.cdist(cand, cand).pow(2) / 0.1)
    qei = q_expected_improvement(m, c, 0.5, base)
    opt.zero_grad()
    (-qei.sum()).backward()
    opt.step()
    with torch.no_grad():
        cand.clamp_(0, 1)
print(f"qEI {qei.detach()} best {cand.detach().squeeze(-1)[qei.argmax()]}")
out(ei, X.grad, qei, cand)

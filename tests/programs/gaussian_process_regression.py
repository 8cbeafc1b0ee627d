# exact Gaussian-process regression: an RBF kernel from cdist, the Cholesky factor, the
# negative log marginal likelihood minimised over softplus-parametrised hyperparameters
import math

torch.manual_seed(0)
X = torch.linspace(-3, 3, 15, dtype=torch.float64).unsqueeze(1)
y = torch.sin(X).squeeze(1) + 0.1 * torch.randn(15, dtype=torch.float64)


class RBFKernel(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_lengthscale = nn.Parameter(torch.zeros((), dtype=torch.float64))
        self.raw_outputscale = nn.Parameter(torch.zeros((), dtype=torch.float64))

    @property
    def lengthscale(self):
        return F.softplus(self.raw_lengthscale)

    def forward(self, a, b):
        d2 = torch.cdist(a / self.lengthscale, b / self.lengthscale).pow(2)
        return F.softplus(self.raw_outputscale) * torch.exp(-0.5 * d2)


class GP(nn.Module):
    def __init__(self):
        super().__init__()
        self.kernel = RBFKernel()
        self.raw_noise = nn.Parameter(torch.tensor(-2.0, dtype=torch.float64))

    def nll(self, X, y):
        K = self.kernel(X, X) + F.softplus(self.raw_noise) * torch.eye(len(X), dtype=X.dtype)
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve(y.unsqueeze(1), L)
        data_fit = 0.5 * (y.unsqueeze(0) @ alpha).squeeze()
        complexity = torch.log(torch.diagonal(L)).sum()
        return data_fit + complexity + 0.5 * len(X) * math.log(2 * math.pi)

    def predict(self, X, y, Xs):
        K = self.kernel(X, X) + F.softplus(self.raw_noise) * torch.eye(len(X), dtype=X.dtype)
        L = torch.linalg.cholesky(K)
        Ks = self.kernel(X, Xs)
        alpha = torch.cholesky_solve(y.unsqueeze(1), L)
        mean = (Ks.T @ alpha).squeeze(1)
        v = torch.linalg.solve_triangular(L, Ks, upper=False)
        var = self.kernel(Xs, Xs).diagonal() - v.pow(2).sum(0)
        return mean, var


gp = GP()
print(gp)
for name, p in gp.named_parameters():
    print(name, p.dtype, p.shape)
opt = torch.optim.Adam(gp.parameters(), lr=0.1)
for i in range(25):
    opt.zero_grad()
    loss = gp.nll(X, y)
    loss.backward()
    opt.step()
    if i % 5 == 0:
        print(
            f"iter {i:2d} nll {loss.item():.4f} lengthscale {gp.kernel.lengthscale.item():.4f}"
            f" noise {F.softplus(gp.raw_noise).item():.4f}"
        )
with torch.no_grad():
    Xs = torch.tensor([[-2.5], [0.0], [1.5], [4.0]], dtype=torch.float64)
    mean, var = gp.predict(X, y, Xs)
out(mean, var)
print(torch.round(mean, decimals=3), (var > 0).all().item())
K = gp.kernel(X, X).detach()
print(torch.linalg.eigvalsh(K)[-3:].round(decimals=4), torch.logdet(K + 1e-3 * torch.eye(15)).dtype)
# ---
# the same model's marginal likelihood as a MultivariateNormal; sampling functions from the prior
# (in float64, as GP code usually is: a float32 kernel matrix this ill-conditioned gives
# gradients that differ in the fifth digit between BLAS builds)
torch.manual_seed(3)
X = torch.linspace(0, 1, 6, dtype=torch.float64).unsqueeze(1)
ls = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
K = torch.exp(-0.5 * torch.cdist(X, X).pow(2) / ls**2) + 1e-4 * torch.eye(6)
prior = torch.distributions.MultivariateNormal(
    torch.zeros(6, dtype=torch.float64), covariance_matrix=K
)
samples = prior.sample((3,))
out(samples)
y = torch.sin(6 * X.squeeze(1))
lp = prior.log_prob(y)
lp.backward()
out(lp, ls.grad)
print(prior.batch_shape, prior.event_shape, prior.scale_tril.shape)
mvn2 = torch.distributions.MultivariateNormal(
    torch.zeros(6, dtype=torch.float64), scale_tril=prior.scale_tril.detach()
)
print(
    f"{mvn2.entropy().item():.4f}", f"{torch.distributions.kl_divergence(prior, mvn2).item():.4f}"
)

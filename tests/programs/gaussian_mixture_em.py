# a Gaussian mixture fitted by EM in plain tensor code, then refined by gradient ascent
torch.set_default_dtype(torch.float64)
rng = np.random.default_rng(0)
centers = np.array([[-2.0, 0.0], [2.0, 1.0], [0.0, -2.5]])
X = torch.tensor(np.concatenate([c + 0.6 * rng.standard_normal((20, 2)) for c in centers]))
K, (N, D) = 3, X.shape
means = X[torch.tensor([0, 25, 45])].clone()
covs = torch.eye(D).expand(K, D, D).clone()
weights = torch.full((K,), 1.0 / K)


def log_gaussian(X, means, covs):
    diff = X.unsqueeze(1) - means  # N, K, D
    L = torch.linalg.cholesky(covs)
    sol = torch.linalg.solve_triangular(
        L.unsqueeze(1), diff.unsqueeze(-1).transpose(0, 1), upper=False
    )
    maha = sol.squeeze(-1).pow(2).sum(-1).T  # N, K
    logdet = 2 * torch.log(torch.diagonal(L, dim1=-2, dim2=-1)).sum(-1)
    return -0.5 * (D * np.log(2 * np.pi) + logdet + maha)


for it in range(6):
    log_resp = torch.log(weights) + log_gaussian(X, means, covs)
    log_likelihood = torch.logsumexp(log_resp, dim=1)
    resp = torch.exp(log_resp - log_likelihood.unsqueeze(1))
    Nk = resp.sum(0)
    weights = Nk / N
    means = (resp.T @ X) / Nk.unsqueeze(1)
    diff = X.unsqueeze(1) - means
    covs = torch.einsum("nk,nki,nkj->kij", resp, diff, diff) / Nk.view(-1, 1, 1)
    covs = covs + 1e-6 * torch.eye(D)
    out(it, log_likelihood.mean())
out(weights, means, covs)
out(resp.argmax(1).bincount(minlength=K))

# refine the means by gradient ascent on the log-likelihood
means = means.clone().requires_grad_()
optimizer = torch.optim.SGD([means], lr=0.1)
for step in range(3):
    optimizer.zero_grad()
    ll = torch.logsumexp(torch.log(weights) + log_gaussian(X, means, covs), dim=1).mean()
    (-ll).backward()
    optimizer.step()
    out(step, ll, means.grad)
out(torch.einsum("...ij,...j->...i", torch.linalg.inv(covs), means.detach()))

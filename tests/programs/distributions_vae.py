# A variational autoencoder: Normal posterior, standard normal prior, KL divergence
# The reparametrised sample uses fixed noise (the random streams of the two libraries
# differ), so every loss and gradient can be compared.
Normal = torch.distributions.Normal
Bernoulli = torch.distributions.Bernoulli
kl_divergence = torch.distributions.kl_divergence


class VAE(nn.Module):
    def __init__(self, data_dim=6, hidden=5, latent=2):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(data_dim, hidden), nn.ReLU())
        self.to_mu = nn.Linear(hidden, latent)
        self.to_logvar = nn.Linear(hidden, latent)
        self.decoder = nn.Sequential(
            nn.Linear(latent, hidden), nn.ReLU(), nn.Linear(hidden, data_dim)
        )

    def encode(self, x):
        h = self.encoder(x)
        return self.to_mu(h), self.to_logvar(h)

    def forward(self, x, eps):
        mu, logvar = self.encode(x)
        q = Normal(mu, torch.exp(0.5 * logvar))
        z = q.loc + eps * q.scale  # what q.rsample() does, with our noise
        p_x = Bernoulli(logits=self.decoder(z))
        recon = p_x.log_prob(x).sum(-1)
        prior = Normal(torch.zeros_like(mu), torch.ones_like(mu))
        kl = kl_divergence(q, prior).sum(-1)
        return -(recon - kl).mean(), recon.mean(), kl.mean()


model = VAE()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel()).float() * (i + 1)).reshape(p.shape) * 0.4)
x = (torch.arange(24).reshape(4, 6) % 3 == 0).float()
noise = torch.sin(torch.arange(8.0) * 1.3).reshape(4, 2)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(4):
    loss, recon, kl = model(x, noise)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    out(loss, recon, kl, model.to_logvar.weight.grad)
    print(f"step {step}: elbo {-loss.item():.4f}")
# ---
# rsample keeps the graph, sample does not; the prior's log density and entropy
Normal = torch.distributions.Normal
mu = torch.tensor([0.5, -1.0], requires_grad=True)
log_sigma = torch.tensor([0.1, -0.3], requires_grad=True)
q = Normal(mu, log_sigma.exp())
z = q.rsample((3,))
s = q.sample((3,))
out(z.shape, z.requires_grad, z.grad_fn is not None, s.requires_grad, q.has_rsample)
value = torch.tensor([[0.0, 0.0], [1.0, -1.0]])
lp = q.log_prob(value).sum() + q.entropy().sum() + q.cdf(value).sum()
lp.backward()
out(lp, mu.grad, log_sigma.grad, q.mean, q.stddev, q.variance, q.icdf(torch.tensor(0.8)))
print(q, q.batch_shape, q.event_shape)
# ---
# a multivariate latent: MVN posterior with a learned Cholesky factor, KL to the prior
Normal = torch.distributions.Normal
kl_divergence = torch.distributions.kl_divergence
MultivariateNormal = torch.distributions.MultivariateNormal
loc = torch.tensor([0.3, -0.2], requires_grad=True)
raw = torch.tensor([[0.2, 0.0], [0.5, -0.1]], requires_grad=True)
scale_tril = torch.tril(raw, -1) + torch.diag_embed(torch.exp(torch.diagonal(raw)))
q = MultivariateNormal(loc, scale_tril=scale_tril)
prior = MultivariateNormal(torch.zeros(2), torch.eye(2))
kl = kl_divergence(q, prior)
eps = torch.tensor([0.7, -1.2])
z = q.loc + scale_tril @ eps
loss = kl - q.log_prob(z.detach()) + z.pow(2).sum()
loss.backward()
out(kl, loss, loc.grad, raw.grad, q.covariance_matrix, q.entropy())
diag = torch.distributions.Independent(Normal(loc, torch.ones(2)), 1)
out(
    diag.log_prob(z),
    kl_divergence(diag, torch.distributions.Independent(Normal(0.0, torch.ones(2)), 1)),
)

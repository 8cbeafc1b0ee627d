# seeded continuous samples: Gamma, Beta, Dirichlet, StudentT, LogNormal, Laplace, VonMises
D = torch.distributions
torch.manual_seed(0)
dists = {
    "gamma": D.Gamma(torch.tensor([0.5, 2.0, 5.0]), torch.tensor([1.0, 2.0, 0.5])),
    "beta": D.Beta(torch.tensor([0.5, 2.0]), torch.tensor([0.5, 3.0])),
    "dirichlet": D.Dirichlet(torch.tensor([0.3, 1.0, 4.0])),
    "studentt": D.StudentT(
        torch.tensor([3.0, 10.0]), torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])
    ),
    "lognormal": D.LogNormal(torch.tensor([0.0, 1.0]), torch.tensor([0.5, 0.25])),
    "laplace": D.Laplace(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5])),
    "vonmises": D.VonMises(torch.tensor([0.0, 1.0]), torch.tensor([0.5, 8.0])),
    "chi2": D.Chi2(torch.tensor([1.0, 4.0])),
    "halfnormal": D.HalfNormal(torch.tensor([1.0, 2.0])),
    "weibull": D.Weibull(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0])),
}
for name, d in dists.items():
    s = d.sample((3,))
    lp = d.log_prob(s)
    print(f"{name:10s} {tuple(s.shape)} mean {s.mean().item():.5f} logp {lp.sum().item():.5f}")
    out(s, lp, d.mean, d.variance)
print(D.Gamma(2.0, 1.0).sample((4,)))
print(D.Dirichlet(torch.ones(4)).sample())
# ---
# seeded discrete samples: Poisson, Binomial, Multinomial, Categorical, Geometric, NegativeBinomial
D = torch.distributions
torch.manual_seed(1)
pois = D.Poisson(torch.tensor([0.5, 3.0, 25.0]))
binom = D.Binomial(10, torch.tensor([0.1, 0.5, 0.9]))
multi = D.Multinomial(20, probs=torch.tensor([0.2, 0.3, 0.5]))
geom = D.Geometric(torch.tensor([0.3, 0.8]))
negb = D.NegativeBinomial(torch.tensor([3.0]), torch.tensor([0.4]))
cat = D.Categorical(logits=torch.tensor([0.0, 1.0, 2.0]))
for name, d in [
    ("poisson", pois),
    ("binomial", binom),
    ("multinomial", multi),
    ("geometric", geom),
    ("negbin", negb),
    ("categorical", cat),
]:
    s = d.sample((5,))
    print(name, s.dtype, s.tolist())
    out(s, d.log_prob(s))
print(torch.poisson(torch.tensor([[1.0, 4.0], [10.0, 0.0]])))
print(torch.binomial(torch.tensor([5.0, 20.0]), torch.tensor([0.5, 0.25])))
print(binom.entropy() if hasattr(binom, "entropy") else None)
out(pois.log_prob(torch.tensor([0.0, 2.0, 20.0])), binom.mean, binom.variance, multi.mean)
# ---
# multivariate: LowRankMultivariateNormal, MultivariateNormal, Wishart samples and densities
D = torch.distributions
torch.manual_seed(2)
torch.set_default_dtype(torch.float64)
loc = torch.zeros(3)
W = torch.tensor([[1.0, 0.0], [0.5, 1.0], [0.0, -0.5]])
diag = torch.tensor([0.5, 0.3, 0.2])
lr = D.LowRankMultivariateNormal(loc, W, diag)
full = D.MultivariateNormal(loc, covariance_matrix=W @ W.T + torch.diag(diag))
x = lr.sample((4,))
print(x)
print(
    torch.allclose(lr.log_prob(x), full.log_prob(x)),
    torch.allclose(lr.covariance_matrix, full.covariance_matrix),
)
print(f"entropy {lr.entropy().item():.6f} {full.entropy().item():.6f}")
wish = D.Wishart(df=torch.tensor(5.0), covariance_matrix=torch.eye(2) * 0.5)
S = wish.sample((2,))
print(S)
print(f"wishart logp {wish.log_prob(S).tolist()}")
out(x, lr.log_prob(x), S, wish.mean, wish.variance, full.precision_matrix)
torch.set_default_dtype(torch.float32)

# seeded in-place samplers on tensors and generator state round trips
g = torch.Generator().manual_seed(123)
t = torch.empty(6)
print(t.uniform_(-1, 1, generator=g))
print(t.normal_(2.0, 0.5, generator=g))
print(t.exponential_(1.5, generator=g))
print(t.cauchy_(0.0, 1.0, generator=g))
print(t.log_normal_(0.0, 0.25, generator=g))
print(t.geometric_(0.3, generator=g))
print(t.random_(0, 10, generator=g))
print(torch.empty(4, dtype=torch.int64).random_(5, generator=g))
print(t.bernoulli_(0.3, generator=g))
state = g.get_state()
a = torch.randn(3, generator=g)
g.set_state(state)
b = torch.randn(3, generator=g)
print(torch.equal(a, b), g.initial_seed())
print(torch.normal(torch.zeros(3), torch.tensor([1.0, 2.0, 3.0]), generator=g))
print(torch.normal(1.0, 2.0, size=(2, 2), generator=g))
print(torch.rand(2, 3, generator=g, dtype=torch.float64))
print(torch.randint(3, 9, (5,), generator=g))
print(torch.randn(2, 2, dtype=torch.complex64, generator=g))
print(torch.multinomial(torch.tensor([[0.1, 0.9, 0.0], [0.5, 0.25, 0.25]]), 2, generator=g))
print(torch.poisson(torch.tensor([1.0, 5.0, 50.0]), generator=g))
print(torch.bernoulli(torch.tensor([0.2, 0.8, 0.5]), generator=g))
torch.manual_seed(5)
print(torch.rand(2), torch.randn(2), torch.randperm(6), torch.randint(10, (3,)))
rs = torch.random.get_rng_state()
x1 = torch.rand(2)
torch.random.set_rng_state(rs)
print(torch.equal(x1, torch.rand(2)))
with torch.random.fork_rng():
    torch.manual_seed(99)
    inner = torch.rand(1)
print(inner, torch.rand(1))
out(a, b, t)
# ---
# reparameterised Gamma, Beta, Dirichlet samples with gradients through rsample; mixtures
D = torch.distributions
torch.manual_seed(11)
conc = torch.tensor([0.7, 2.5, 6.0], requires_grad=True)
rate = torch.tensor([1.0, 0.5, 2.0], requires_grad=True)
s = D.Gamma(conc, rate).rsample((4,))
s.sum().backward()
print(s, conc.grad, rate.grad, sep="\n")
a = torch.tensor([1.5, 0.4], requires_grad=True)
b = torch.tensor([2.0, 3.0], requires_grad=True)
x = D.Beta(a, b).rsample((3,))
x.pow(2).sum().backward()
print(x, a.grad, b.grad, sep="\n")
alpha = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
d = D.Dirichlet(alpha).rsample()
(d * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(d, alpha.grad)
mix = D.MixtureSameFamily(
    D.Categorical(probs=torch.tensor([0.3, 0.7])),
    D.Normal(torch.tensor([-1.0, 2.0]), torch.tensor([0.5, 1.0])),
)
ms = mix.sample((5,))
print(ms, mix.log_prob(ms), mix.mean, mix.variance, mix.cdf(torch.tensor([0.0, 1.0])))
for dist in [
    D.Kumaraswamy(torch.tensor(2.0), torch.tensor(3.0)),
    D.ContinuousBernoulli(probs=torch.tensor(0.3)),
    D.Pareto(torch.tensor(1.0), torch.tensor(3.0)),
    D.Gumbel(torch.tensor(0.0), torch.tensor(2.0)),
    D.Cauchy(torch.tensor(1.0), torch.tensor(0.5)),
    D.FisherSnedecor(torch.tensor(4.0), torch.tensor(6.0)),
    D.RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor(0.3)),
    D.RelaxedOneHotCategorical(torch.tensor(0.7), probs=torch.tensor([0.2, 0.3, 0.5])),
    D.LKJCholesky(3, concentration=torch.tensor(2.0)),
    D.HalfCauchy(torch.tensor(1.0)),
    D.InverseGamma(torch.tensor(3.0), torch.tensor(2.0)),
    D.GeneralizedPareto(torch.tensor(0.0), torch.tensor(1.0), torch.tensor(0.2)),
]:
    v = dist.sample((2,))
    print(
        type(dist).__name__, v.numpy().round(5).tolist(), dist.log_prob(v).numpy().round(5).tolist()
    )
out(s, conc.grad, rate.grad, x, a.grad, b.grad, d, alpha.grad, ms)

# printed draws after manual_seed: factories, in-place fills and their dtypes
torch.manual_seed(0)
print(torch.rand(3))
print(torch.randn(2, 3))
print(torch.randn(20, dtype=torch.float64)[:4])
print(torch.randint(0, 10, (8,)))
print(torch.randperm(10))
print(torch.empty(4).uniform_(-1, 1), torch.empty(3).normal_(5.0, 0.1))
print(torch.empty(5, dtype=torch.int32).random_(100), torch.empty(3, dtype=torch.bool).random_())
print(
    torch.bernoulli(torch.full((8,), 0.5)),
    torch.multinomial(torch.tensor([0.1, 0.6, 0.3]), 6, True),
)
print(torch.normal(torch.zeros(3), torch.arange(1.0, 4.0)))
print(torch.empty(3).exponential_(2.0), torch.empty(3).geometric_(0.5))
print(torch.poisson(torch.tensor([1.0, 5.0, 50.0])), torch.rand(2, dtype=torch.complex64))
# ---
# distributions sample from the global generator as torch's do
torch.manual_seed(1)
D = torch.distributions
print(D.Categorical(logits=torch.tensor([0.2, 1.0, -0.5])).sample((6,)))
print(D.Normal(torch.tensor([0.0, 10.0]), torch.tensor([1.0, 0.1])).sample((2,)))
print(D.Bernoulli(probs=torch.tensor([0.2, 0.8])).sample((3,)))
print(D.Uniform(-1.0, 1.0).sample((3,)), D.Exponential(torch.tensor(2.0)).sample((2,)))
print(D.MultivariateNormal(torch.zeros(2), torch.eye(2)).sample((2,)))
print(D.Gamma(torch.tensor([2.0, 0.5]), torch.tensor([1.0, 3.0])).sample((2,)))
print(D.Poisson(torch.tensor([3.0, 30.0])).sample((2,)))
print(D.Binomial(20, torch.tensor([0.3, 0.9])).sample((2,)))
# ---
# a private generator, state round trips and fork_rng leave the global stream alone
g = torch.Generator().manual_seed(123)
print(g.initial_seed(), torch.rand(3, generator=g))
state = g.get_state()
a = torch.randn(5, generator=g)
g.set_state(state)
print(torch.equal(a, torch.randn(5, generator=g)), state.shape)
torch.manual_seed(7)
saved = torch.get_rng_state()
with torch.random.fork_rng():
    torch.rand(100)
print(torch.equal(saved, torch.get_rng_state()), torch.initial_seed(), torch.rand(2))

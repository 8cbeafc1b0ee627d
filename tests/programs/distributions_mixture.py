# Fitting a 1-D Gaussian mixture by gradient ascent on the log-likelihood
D = torch.distributions
data = torch.cat([torch.linspace(-3.0, -1.0, 20), torch.linspace(1.5, 2.5, 30)])
logits = torch.zeros(2, requires_grad=True)
locs = torch.tensor([-0.5, 0.5], requires_grad=True)
log_scales = torch.zeros(2, requires_grad=True)
optimizer = torch.optim.Adam([logits, locs, log_scales], lr=0.1)
for step in range(30):
    mixture = D.MixtureSameFamily(D.Categorical(logits=logits), D.Normal(locs, log_scales.exp()))
    nll = -mixture.log_prob(data).mean()
    optimizer.zero_grad()
    nll.backward()
    optimizer.step()
    if step % 10 == 0:
        print(f"step {step}: nll {nll.item():.4f}")
out(nll, logits, locs, log_scales.exp(), mixture.mean, mixture.variance)
out(mixture.batch_shape, mixture.event_shape, mixture.sample((5,)).shape)
# responsibilities: the posterior over components for each point
comp_log_prob = mixture.component_distribution.log_prob(data.unsqueeze(-1))
resp = torch.softmax(comp_log_prob + torch.log_softmax(logits, -1), dim=-1)
out(resp[:3], resp[-3:], resp.argmax(-1).bincount())
# ---
# a 2-D mixture of diagonal Gaussians, and its cdf-free evaluation on a grid
D = torch.distributions
mix = D.Categorical(probs=torch.tensor([0.3, 0.7]))
comp = D.Independent(
    D.Normal(torch.tensor([[0.0, 0.0], [2.0, -1.0]]), torch.tensor([[1.0, 0.5], [0.7, 1.2]])), 1
)
gmm = D.MixtureSameFamily(mix, comp)
xs = torch.linspace(-2.0, 3.0, 5)
grid = torch.stack(torch.meshgrid(xs, xs, indexing="ij"), -1).reshape(-1, 2)
density = gmm.log_prob(grid).exp()
out(density.reshape(5, 5), gmm.mean, gmm.variance)
print(gmm)

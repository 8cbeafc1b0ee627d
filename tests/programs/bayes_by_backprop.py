# Bayes by Backprop: reparameterized weights, softplus sigma, KL to a Normal prior, ELBO training
import math

torch.manual_seed(0)
Normal = torch.distributions.Normal


class BayesLinear(nn.Module):
    def __init__(self, in_features, out_features, prior_sigma=1.0):
        super().__init__()
        self.w_mu = nn.Parameter(torch.empty(out_features, in_features).uniform_(-0.2, 0.2))
        self.w_rho = nn.Parameter(torch.full((out_features, in_features), -3.0))
        self.b_mu = nn.Parameter(torch.zeros(out_features))
        self.b_rho = nn.Parameter(torch.full((out_features,), -3.0))
        self.prior = Normal(0.0, prior_sigma)
        self.kl = torch.tensor(0.0)

    def forward(self, x, sample=True):
        w_sigma = F.softplus(self.w_rho)
        b_sigma = torch.log1p(torch.exp(self.b_rho))
        if sample:
            w = self.w_mu + w_sigma * torch.randn_like(w_sigma)
            b = self.b_mu + b_sigma * torch.randn_like(b_sigma)
        else:
            w, b = self.w_mu, self.b_mu
        q_w, q_b = Normal(self.w_mu, w_sigma), Normal(self.b_mu, b_sigma)
        self.kl = (
            torch.distributions.kl_divergence(q_w, self.prior).sum()
            + torch.distributions.kl_divergence(q_b, self.prior).sum()
        )
        return F.linear(x, w, b)


class BNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = BayesLinear(1, 16), BayesLinear(16, 1)

    def forward(self, x, sample=True):
        return self.l2(torch.relu(self.l1(x, sample)), sample)

    def kl(self):
        return self.l1.kl + self.l2.kl


x = torch.linspace(-2, 2, 32).unsqueeze(1)
y = torch.sin(2 * x) + 0.1 * torch.randn_like(x)
net = BNN()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
noise = 0.1
for epoch in range(5):
    opt.zero_grad()
    preds = torch.stack([net(x) for _ in range(3)])
    nll = -Normal(preds, noise).log_prob(y).sum(dim=(1, 2)).mean()
    kl = net.kl()
    loss = nll + kl / len(x)
    loss.backward()
    opt.step()
    print(f"epoch {epoch} nll {nll.item():.3f} kl {kl.item():.3f} elbo {-loss.item():.3f}")
with torch.no_grad():
    samples = torch.stack([net(x) for _ in range(10)])
    mean, std = samples.mean(0), samples.std(0)
print(mean.shape, std.min() > 0, net(x[:2], sample=False).squeeze())
print(f"{0.5 * math.log(2 * math.pi * noise**2):.4f}")
out(kl, net.l1.w_rho.grad, mean)
# ---
# Closed-form KL against Monte Carlo estimates, Independent and batch/event shapes as VAEs use them
torch.manual_seed(0)
D = torch.distributions
mu, log_var = torch.randn(4, 3, requires_grad=True), torch.randn(4, 3, requires_grad=True)
q = D.Normal(mu, torch.exp(0.5 * log_var))
p = D.Normal(torch.zeros_like(mu), torch.ones_like(mu))
kl_closed = D.kl_divergence(q, p).sum(-1)
kl_formula = -0.5 * torch.sum(1 + log_var - mu.pow(2) - log_var.exp(), dim=-1)
print(torch.allclose(kl_closed, kl_formula, atol=1e-6), kl_closed.grad_fn.name())
z = q.rsample((2000,))
kl_mc = (q.log_prob(z) - p.log_prob(z)).sum(-1).mean(0)
print(kl_mc.shape, (kl_mc - kl_closed).abs().max() < 0.5)
qi = D.Independent(q, 1)
print(
    qi.batch_shape,
    qi.event_shape,
    qi.log_prob(z[0]).shape,
    D.kl_divergence(qi, D.Independent(p, 1)).shape,
)
print(q)
print(qi)
kl_closed.mean().backward()
out(kl_closed, kl_formula, mu.grad, log_var.grad)

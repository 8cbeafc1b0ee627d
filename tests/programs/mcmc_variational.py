# random-walk Metropolis and Hamiltonian Monte Carlo with autograd gradients on a banana density
g = torch.Generator().manual_seed(0)


def log_target(x):
    return -0.5 * (x[..., 0] ** 2 / 4 + (x[..., 1] - 0.5 * x[..., 0] ** 2) ** 2)


x = torch.zeros(2)
lp = log_target(x)
samples, accepted = [], 0
for _ in range(400):
    prop = x + 0.8 * torch.randn(2, generator=g)
    lp_prop = log_target(prop)
    if torch.log(torch.rand((), generator=g)) < lp_prop - lp:
        x, lp = prop, lp_prop
        accepted += 1
    samples.append(x)
rw = torch.stack(samples)
print(f"RWM acceptance {accepted / 400:.3f} mean {rw[100:].mean(0).tolist()}")


def grad_log(x):
    x = x.detach().requires_grad_(True)
    (gx,) = torch.autograd.grad(log_target(x), x)
    return gx


def hmc_step(x, eps=0.2, L=10):
    p = torch.randn(2, generator=g)
    x_new, p_new = x.clone(), p.clone()
    p_new = p_new + 0.5 * eps * grad_log(x_new)
    for _ in range(L - 1):
        x_new = x_new + eps * p_new
        p_new = p_new + eps * grad_log(x_new)
    x_new = x_new + eps * p_new
    p_new = p_new + 0.5 * eps * grad_log(x_new)
    h_old = -log_target(x) + 0.5 * p @ p
    h_new = -log_target(x_new) + 0.5 * p_new @ p_new
    if torch.rand((), generator=g) < torch.exp(h_old - h_new):
        return x_new, True
    return x, False


x = torch.zeros(2)
hmc, acc = [], 0
for _ in range(150):
    x, ok = hmc_step(x)
    acc += ok
    hmc.append(x)
hmc = torch.stack(hmc)
print(f"HMC acceptance {acc / 150:.3f} mean {[round(v, 4) for v in hmc[50:].mean(0).tolist()]}")
print(f"HMC var {[round(v, 4) for v in hmc[50:].var(0).tolist()]}")
out(rw[-5:], hmc[-5:])
# ---
# variational inference by reparameterisation: mean-field Normal, Bayesian logistic regression
torch.manual_seed(0)
D = torch.distributions
n, d = 50, 2
X = torch.randn(n, d)
w_true = torch.tensor([1.5, -2.0])
y = torch.bernoulli(torch.sigmoid(X @ w_true))
mu = torch.zeros(d, requires_grad=True)
log_sigma = torch.full((d,), -1.0, requires_grad=True)
prior = D.Normal(torch.zeros(d), torch.ones(d))
opt = torch.optim.Adam([mu, log_sigma], lr=0.1)
for step in range(25):
    opt.zero_grad()
    q = D.Normal(mu, log_sigma.exp())
    w = q.rsample((8,))
    loglik = D.Bernoulli(logits=w @ X.T).log_prob(y).sum(-1).mean()
    kl = D.kl_divergence(q, prior).sum()
    elbo = loglik - kl
    (-elbo).backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step:3d} elbo {elbo.item():.4f}")
print(
    f"posterior mean {mu.detach().numpy().round(3)} std {log_sigma.exp().detach().numpy().round(3)}"
)
qi = D.Independent(D.Normal(mu.detach(), log_sigma.exp().detach()), 1)
s = qi.sample((4,))
print(qi.log_prob(s), qi.entropy(), qi.batch_shape, qi.event_shape)
lr = D.LowRankMultivariateNormal(mu.detach(), torch.zeros(2, 1), log_sigma.exp().detach() ** 2)
print(torch.allclose(lr.log_prob(s), qi.log_prob(s)))
out(mu, log_sigma, s, elbo)

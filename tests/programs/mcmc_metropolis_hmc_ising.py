# Random-walk Metropolis-Hastings and Hamiltonian Monte Carlo with autograd log-density gradients
torch.manual_seed(0)
g = torch.Generator().manual_seed(11)
mu = torch.tensor([1.0, -1.0])
cov = torch.tensor([[1.0, 0.8], [0.8, 1.0]])
target = torch.distributions.MultivariateNormal(mu, covariance_matrix=cov)


precision = torch.linalg.inv(cov)


def log_prob(x):
    d = x - mu
    return -0.5 * d @ precision @ d


def metropolis(n, step, x0):
    x, lp = x0, log_prob(x0)
    samples, accepted = [], 0
    for _ in range(n):
        prop = x + step * torch.randn(2, generator=g)
        lp_prop = log_prob(prop)
        if torch.log(torch.rand((), generator=g)) < lp_prop - lp:
            x, lp = prop, lp_prop
            accepted += 1
        samples.append(x)
    return torch.stack(samples), accepted / n


print(target.log_prob(torch.zeros(2)) - log_prob(torch.zeros(2)))
s, rate = metropolis(150, 0.8, torch.zeros(2))
print(f"MH acceptance {rate:.3f} mean {s[100:].mean(0).tolist()}")


def grad_log_prob(x):
    x = x.detach().requires_grad_(True)
    lp = log_prob(x)
    (g_,) = torch.autograd.grad(lp, x)
    return lp.detach(), g_


def hmc_step(x, eps, L):
    p0 = torch.randn(2, generator=g)
    lp0, grad = grad_log_prob(x)
    xn, p = x.clone(), p0 + 0.5 * eps * grad
    for i in range(L):
        xn = xn + eps * p
        lpn, grad = grad_log_prob(xn)
        if i < L - 1:
            p = p + eps * grad
    p = p + 0.5 * eps * grad
    h0 = -lp0 + 0.5 * p0.dot(p0)
    h1 = -lpn + 0.5 * p.dot(p)
    accept = torch.rand((), generator=g) < torch.exp(h0 - h1)
    return (xn if accept else x), bool(accept), (h1 - h0).item()


x = torch.zeros(2)
chain, acc, dH = [], 0, []
for _ in range(40):
    x, a, d = hmc_step(x, 0.25, 6)
    chain.append(x)
    acc += a
    dH.append(abs(d))
chain = torch.stack(chain)
print(f"HMC acceptance {acc / 40:.3f} mean {chain[10:].mean(0)} max |dH| {max(dH):.4f}")
emp_cov = torch.cov(chain[10:].T)
print(emp_cov.shape, f"corr {(emp_cov[0, 1] / emp_cov.diag().prod().sqrt()).item():.3f}")
out(s, chain)
# ---
# A 2D Ising model: checkerboard Metropolis sweeps, energy and magnetisation with roll
torch.manual_seed(0)
gen = torch.Generator().manual_seed(3)
L = 12
spins = torch.where(torch.rand(L, L, generator=gen) < 0.5, -1, 1).to(torch.int8)
yy, xx = torch.meshgrid(torch.arange(L), torch.arange(L), indexing="ij")
checker = (yy + xx) % 2 == 0


def neighbours(s):
    s = s.float()
    return s.roll(1, 0) + s.roll(-1, 0) + s.roll(1, 1) + s.roll(-1, 1)


def energy(s):
    sf = s.float()
    return -(sf * (sf.roll(1, 0) + sf.roll(1, 1))).sum()


for T in (1.5, 3.5):
    s = spins.clone()
    beta = 1.0 / T
    mags = []
    for _sweep in range(60):
        for color in (checker, ~checker):
            dE = 2 * s.float() * neighbours(s)
            flip = (torch.rand(L, L, generator=gen) < torch.exp(-beta * dE)) & color
            s = torch.where(flip, -s, s)
        mags.append(s.float().mean().abs())
    m = torch.stack(mags[20:]).mean()
    print(
        f"T={T}: |m| {m.item():.4f} energy per spin {energy(s).item() / L**2:.4f} dtype {s.dtype}"
    )
print(neighbours(spins)[:2, :4], energy(torch.ones(L, L, dtype=torch.int8)))
out(s, m)

# Black-Scholes prices and greeks by autograd (delta, gamma, vega, theta), against the closed forms
torch.manual_seed(0)
N = torch.distributions.Normal(0.0, 1.0)


def black_scholes(S, K, T, r, sigma, call=True):
    d1 = (torch.log(S / K) + (r + 0.5 * sigma**2) * T) / (sigma * torch.sqrt(T))
    d2 = d1 - sigma * torch.sqrt(T)
    if call:
        return S * N.cdf(d1) - K * torch.exp(-r * T) * N.cdf(d2)
    return K * torch.exp(-r * T) * N.cdf(-d2) - S * N.cdf(-d1)


S = torch.tensor([90.0, 100.0, 110.0], dtype=torch.float64, requires_grad=True)
K = torch.tensor(100.0, dtype=torch.float64)
T = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
r = torch.tensor(0.03, dtype=torch.float64)
sigma = torch.tensor(0.2, dtype=torch.float64, requires_grad=True)
price = black_scholes(S, K, T, r, sigma)
print(price.detach(), price.grad_fn.name())
(delta,) = torch.autograd.grad(price.sum(), S, create_graph=True)
(gamma,) = torch.autograd.grad(delta.sum(), S, retain_graph=True)
vega, dT = torch.autograd.grad(price.sum(), (sigma, T))
print("delta", delta.detach(), "gamma", gamma)
print(f"vega {vega.item():.6f} theta {-dT.item():.6f}")
d1 = (torch.log(S / K) + (r + 0.5 * sigma**2) * T) / (sigma * torch.sqrt(T))
print(
    torch.allclose(delta, N.cdf(d1)),
    torch.allclose(gamma, torch.exp(N.log_prob(d1)) / (S * sigma * torch.sqrt(T))),
)
put = black_scholes(S, K, T, r, sigma, call=False)
parity = price - put - (S - K * torch.exp(-r * T))
print(
    f"put-call parity {parity.abs().max().item():.2e}"
    if parity.abs().max() > 1e-12
    else "put-call parity exact"
)
# implied volatility by Newton's method with the autograd vega
target = torch.tensor(7.0, dtype=torch.float64)
iv = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
for _i in range(8):
    p = black_scholes(S[1].detach(), K, T.detach(), r, iv)
    (v,) = torch.autograd.grad(p, iv)
    with torch.no_grad():
        iv -= (p - target) / v
print(f"implied vol {iv.item():.8f}")
out(price, delta, gamma, vega, dT, iv)
# ---
# Monte Carlo option pricing with antithetic variates, a pathwise delta, and an Asian option
torch.manual_seed(0)
g = torch.Generator().manual_seed(2024)
S0 = torch.tensor(100.0, requires_grad=True)
K, T, r, sigma, n_paths, n_steps = 105.0, 1.0, 0.05, 0.25, 4000, 12
z = torch.randn(n_paths // 2, n_steps, generator=g)
z = torch.cat([z, -z])
dt = T / n_steps
log_paths = torch.cumsum((r - 0.5 * sigma**2) * dt + sigma * (dt**0.5) * z, dim=1)
paths = S0 * torch.exp(log_paths)
disc = torch.exp(torch.tensor(-r * T))
payoff = torch.clamp(paths[:, -1] - K, min=0)
price = disc * payoff.mean()
price.backward()
stderr = disc * payoff.std() / n_paths**0.5
print(f"european {price.item():.4f} +- {stderr.item():.4f} pathwise delta {S0.grad.item():.4f}")
asian = disc * torch.clamp(paths.mean(1) - K, min=0).mean()
print(f"asian {asian.item():.4f}", paths.shape, paths.dtype)
print(torch.quantile(paths[:, -1].detach(), torch.tensor([0.05, 0.5, 0.95])))
out(price, S0.grad, asian)
# ---
# Markowitz portfolios: closed-form minimum variance, the frontier, a long-only projected solve
torch.manual_seed(0)
returns = torch.randn(250, 4, dtype=torch.float64) * torch.tensor(
    [0.01, 0.015, 0.02, 0.008], dtype=torch.float64
) + torch.tensor([0.0004, 0.0006, 0.0008, 0.0002], dtype=torch.float64)
mu = returns.mean(0) * 252
Sigma = torch.cov(returns.T) * 252
ones = torch.ones(4, dtype=torch.float64)
Sinv_1 = torch.linalg.solve(Sigma, ones)
w_minvar = Sinv_1 / (ones @ Sinv_1)
print(w_minvar, f"vol {torch.sqrt(w_minvar @ Sigma @ w_minvar).item():.5f}")
A, B, C = ones @ Sinv_1, ones @ torch.linalg.solve(Sigma, mu), mu @ torch.linalg.solve(Sigma, mu)
for target in (0.1, 0.15, 0.2):
    lam = (C - target * B) / (A * C - B**2)
    gam = (target * A - B) / (A * C - B**2)
    w = lam * Sinv_1 + gam * torch.linalg.solve(Sigma, mu)
    print(
        f"target {target:.2f}: weights {w.numpy().round(4)} vol"
        f" {torch.sqrt(w @ Sigma @ w).item():.5f}"
    )


def project_simplex(v):
    u, _ = torch.sort(v, descending=True)
    css = torch.cumsum(u, 0) - 1
    ind = torch.arange(1, len(v) + 1, dtype=v.dtype)
    rho = torch.nonzero(u - css / ind > 0).max()
    theta = css[rho] / (rho + 1)
    return torch.clamp(v - theta, min=0)


w = torch.full((4,), 0.25, dtype=torch.float64, requires_grad=True)
for _ in range(100):
    obj = w @ Sigma @ w - 0.5 * (mu @ w)
    (grad,) = torch.autograd.grad(obj, w)
    with torch.no_grad():
        w.copy_(project_simplex(w - 0.5 * grad))
print(
    w.detach().round(decimals=4),
    f"sum {w.sum().item():.6f}",
    f"sharpe {(mu @ w / torch.sqrt(w @ Sigma @ w)).item():.4f}",
)
out(w_minvar, w)

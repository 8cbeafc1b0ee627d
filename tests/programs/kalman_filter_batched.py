# Batched Kalman filter and RTS-free likelihood: matrix ops, cholesky solves, MultivariateNormal
torch.manual_seed(0)
dt = 0.1
A = torch.tensor([[1.0, dt], [0.0, 1.0]], dtype=torch.float64)
H = torch.tensor([[1.0, 0.0]], dtype=torch.float64)
Q = 0.01 * torch.eye(2, dtype=torch.float64)
R = torch.tensor([[0.25]], dtype=torch.float64)
B, T = 3, 15
true_x = torch.zeros(B, 2, dtype=torch.float64)
true_x[:, 1] = torch.tensor([1.0, -0.5, 0.2], dtype=torch.float64)
ys = []
for _ in range(T):
    true_x = true_x @ A.T
    ys.append(true_x @ H.T + 0.5 * torch.randn(B, 1, dtype=torch.float64))
ys = torch.stack(ys, dim=1)
x = torch.zeros(B, 2, 1, dtype=torch.float64)
P = torch.eye(2, dtype=torch.float64).expand(B, 2, 2).clone()
log_lik = torch.zeros(B, dtype=torch.float64)
for t in range(T):
    x = A @ x
    P = A @ P @ A.T + Q
    y = ys[:, t].unsqueeze(-1)
    S = H @ P @ H.T + R
    innov = y - H @ x
    log_lik += torch.distributions.MultivariateNormal(
        torch.zeros(1, dtype=torch.float64), covariance_matrix=S
    ).log_prob(innov.squeeze(-1))
    K = torch.linalg.solve(S, H @ P).transpose(-1, -2)
    x = x + K @ innov
    I_KH = torch.eye(2, dtype=torch.float64) - K @ H
    P = I_KH @ P @ I_KH.transpose(-1, -2) + K @ R @ K.transpose(-1, -2)
print(x.squeeze(-1))
print(log_lik)
print(torch.linalg.eigvalsh(P).min() > 0, torch.allclose(P, P.transpose(-1, -2)))
L = torch.linalg.cholesky(P)
print(
    torch.allclose(L @ L.mT, P),
    torch.cholesky_solve(torch.ones(B, 2, 1, dtype=torch.float64), L).shape,
)
out(x, P, log_lik)
# ---
# Learning the noise scales by gradient through the filter likelihood (softplus-parameterized)
torch.manual_seed(0)
obs = torch.cumsum(torch.randn(30), 0) + 0.3 * torch.randn(30)
raw_q = torch.tensor(0.0, requires_grad=True)
raw_r = torch.tensor(0.0, requires_grad=True)
opt = torch.optim.Adam([raw_q, raw_r], lr=0.1)
for it in range(5):
    q, r = F.softplus(raw_q), F.softplus(raw_r)
    m, p = torch.tensor(0.0), torch.tensor(1.0)
    nll = 0.0
    for y in obs:
        p = p + q
        s = p + r
        nll = nll - torch.distributions.Normal(m, s.sqrt()).log_prob(y)
        k = p / s
        m = m + k * (y - m)
        p = (1 - k) * p
    opt.zero_grad()
    nll.backward()
    opt.step()
    print(f"iter {it}: nll {nll.item():.4f} q {q.item():.4f} r {r.item():.4f}")
out(nll, raw_q.grad, raw_r.grad)

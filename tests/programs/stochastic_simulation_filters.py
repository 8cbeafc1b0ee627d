# A bootstrap particle filter with multinomial and systematic resampling and log-sum-exp weights
torch.manual_seed(0)
g = torch.Generator().manual_seed(7)
T, N = 25, 200
true_x = torch.zeros(T)
obs = torch.zeros(T)
x = torch.tensor(0.0)
for t in range(T):
    x = (
        0.5 * x
        + 25 * x / (1 + x**2)
        + 8 * torch.cos(torch.tensor(1.2 * t))
        + torch.randn((), generator=g) * 1.0
    )
    true_x[t] = x
    obs[t] = x**2 / 20 + torch.randn((), generator=g)


def systematic_resample(weights, generator):
    n = weights.shape[0]
    positions = (torch.rand((), generator=generator) + torch.arange(n)) / n
    return torch.searchsorted(torch.cumsum(weights, 0), positions).clamp(max=n - 1)


particles = torch.randn(N, generator=g) * 2
estimates, ess_hist = [], []
log_lik = torch.tensor(0.0)
for t in range(T):
    particles = (
        0.5 * particles
        + 25 * particles / (1 + particles**2)
        + 8 * torch.cos(torch.tensor(1.2 * t))
        + torch.randn(N, generator=g)
    )
    logw = torch.distributions.Normal(particles**2 / 20, 1.0).log_prob(obs[t])
    log_lik = log_lik + torch.logsumexp(logw, 0) - torch.log(torch.tensor(float(N)))
    w = torch.softmax(logw, 0)
    estimates.append((w * particles).sum())
    ess = 1.0 / (w**2).sum()
    ess_hist.append(ess)
    if ess < N / 2:
        idx = (
            torch.multinomial(w, N, replacement=True, generator=g)
            if t % 2
            else systematic_resample(w, g)
        )
        particles = particles[idx]
est = torch.stack(estimates)
print(
    f"log-likelihood {log_lik.item():.4f} rmse"
    f" {torch.sqrt(((est.abs() - true_x.abs()) ** 2).mean()).item():.4f}"
)
print(torch.stack(ess_hist)[:6].round(decimals=2), particles.shape)
print(systematic_resample(torch.tensor([0.1, 0.2, 0.3, 0.4]), torch.Generator().manual_seed(0)))
out(est, log_lik)
# ---
# Quantum state vectors: gates by complex kron, evolution by matrix_exp, expectation values
torch.manual_seed(0)
c64 = torch.complex64
I2 = torch.eye(2, dtype=c64)
X = torch.tensor([[0, 1], [1, 0]], dtype=c64)
Z = torch.tensor([[1, 0], [0, -1]], dtype=c64)
Y = torch.tensor([[0, -1j], [1j, 0]], dtype=c64)
Hd = torch.tensor([[1, 1], [1, -1]], dtype=c64) / 2**0.5


def op_on(gate, qubit, n):
    mats = [gate if q == qubit else I2 for q in range(n)]
    out = mats[0]
    for m in mats[1:]:
        out = torch.kron(out, m)
    return out


def cnot(control, target, n):
    P0 = torch.tensor([[1, 0], [0, 0]], dtype=c64)
    P1 = torch.tensor([[0, 0], [0, 1]], dtype=c64)
    return op_on(P0, control, n) + op_on(P1, control, n) @ op_on(X, target, n)


n = 3
psi = torch.zeros(2**n, dtype=c64)
psi[0] = 1
psi = op_on(Hd, 0, n) @ psi
psi = cnot(0, 1, n) @ psi
psi = cnot(1, 2, n) @ psi
print(psi.real.round(decimals=4), psi.imag.abs().max() < 1e-6)
probs = psi.abs() ** 2
print(probs, probs.sum())
print([format(i, "03b") for i in torch.nonzero(probs > 1e-6).flatten().tolist()])
zz = op_on(Z, 0, n) @ op_on(Z, 2, n)
print(f"<Z0 Z2> = {torch.vdot(psi, zz @ psi).real.item():.4f}")
# transverse-field Ising Hamiltonian evolved with matrix_exp, energy conserved
Hm = sum(-op_on(Z, i, n) @ op_on(Z, i + 1, n) for i in range(n - 1)) - 0.7 * sum(
    op_on(X, i, n) for i in range(n)
)
print(torch.allclose(Hm, Hm.conj().T), Hm.dtype)
U = torch.linalg.matrix_exp(-1j * 0.5 * Hm)
print(torch.allclose(U @ U.conj().T, torch.eye(2**n, dtype=c64), atol=1e-5))
phi = torch.zeros(2**n, dtype=c64)
phi[0] = 1
energies = []
for _step in range(4):
    energies.append(torch.vdot(phi, Hm @ phi).real)
    phi = U @ phi
print(torch.stack(energies), f"norm {phi.norm().item():.5f}")
evals = torch.linalg.eigvalsh(Hm)
print(evals[:3], f"ground {evals[0].item():.5f}")
theta = torch.tensor(0.3, requires_grad=True)
Ry = torch.stack(
    [
        torch.stack([torch.cos(theta / 2), -torch.sin(theta / 2)]),
        torch.stack([torch.sin(theta / 2), torch.cos(theta / 2)]),
    ]
).to(c64)
state = Ry @ torch.tensor([1, 0], dtype=c64)
expz = torch.vdot(state, Z @ state).real
expz.backward()
print(
    f"<Z> {expz.item():.5f} d<Z>/dtheta {theta.grad.item():.5f}",
    f"(-sin theta {-torch.sin(torch.tensor(0.3)).item():.5f})",
)
out(psi, probs, U, torch.stack(energies), expz, theta.grad)

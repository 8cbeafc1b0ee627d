# Fitting an SIR epidemic model's rates by backpropagating through an RK4 solver
torch.manual_seed(0)


def sir_rhs(state, beta, gamma):
    susceptible, infected, _ = state.unbind(-1)
    new_inf = beta * susceptible * infected
    rec = gamma * infected
    return torch.stack([-new_inf, new_inf - rec, rec], dim=-1)


def rk4(f, y0, t, *args):
    ys = [y0]
    y = y0
    for i in range(len(t) - 1):
        h = t[i + 1] - t[i]
        k1 = f(y, *args)
        k2 = f(y + h / 2 * k1, *args)
        k3 = f(y + h / 2 * k2, *args)
        k4 = f(y + h * k3, *args)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return torch.stack(ys)


t = torch.linspace(0, 40, 21)
y0 = torch.tensor([0.99, 0.01, 0.0])
true = rk4(sir_rhs, y0, t, torch.tensor(0.35), torch.tensor(0.1))
observed = true[:, 1] + 0.002 * torch.randn(21)
print(
    f"peak infected {true[:, 1].max().item():.4f} on day {true[:, 1].argmax().item()}",
    true.sum(-1)[-1],
)
log_beta = torch.tensor(-1.5, requires_grad=True)
log_gamma = torch.tensor(-2.0, requires_grad=True)
opt = torch.optim.Adam([log_beta, log_gamma], lr=0.1)
for step in range(6):
    pred = rk4(sir_rhs, y0, t, log_beta.exp(), log_gamma.exp())
    loss = F.mse_loss(pred[:, 1], observed)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 2 == 0:
        print(
            f"step {step} loss {loss.item():.3e} beta {log_beta.exp().item():.4f} gamma"
            f" {log_gamma.exp().item():.4f}"
        )
print(f"R0 estimate {(log_beta.exp() / log_gamma.exp()).item():.3f}")
out(true, loss, log_beta, log_gamma)
# ---
# N-body gravity: pairwise forces by broadcasting, leapfrog steps, energy and momentum conserved
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
n = 5
pos = torch.randn(n, 3)
vel = torch.randn(n, 3) * 0.3
mass = torch.rand(n) + 0.5
vel -= (mass[:, None] * vel).sum(0) / mass.sum()
G, soft = 1.0, 0.1


def accelerations(pos):
    d = pos[None, :, :] - pos[:, None, :]
    r2 = (d**2).sum(-1) + soft**2
    inv_r3 = r2.pow(-1.5)
    inv_r3.fill_diagonal_(0)
    return G * (d * (inv_r3 * mass[None, :])[..., None]).sum(1)


def energy(pos, vel):
    ke = 0.5 * (mass * (vel**2).sum(1)).sum()
    d = torch.cdist(pos, pos)
    iu = torch.triu_indices(n, n, 1)
    pe = -(G * mass[iu[0]] * mass[iu[1]] / torch.sqrt(d[iu[0], iu[1]] ** 2 + soft**2)).sum()
    return ke + pe


E0 = energy(pos, vel)
p0 = (mass[:, None] * vel).sum(0)
dt = 0.01
acc = accelerations(pos)
for _ in range(100):
    vel = vel + 0.5 * dt * acc
    pos = pos + dt * vel
    acc = accelerations(pos)
    vel = vel + 0.5 * dt * acc
E1 = energy(pos, vel)
p1 = (mass[:, None] * vel).sum(0)
print(f"energy {E0.item():.6f} -> {E1.item():.6f} drift {abs((E1 - E0) / E0).item():.2e}")
print(f"momentum change {(p1 - p0).abs().max().item() < 1e-12}", pos.dtype)
print(pos.round(decimals=4))
# the force is minus the gradient of the potential energy
x = pos.clone().requires_grad_()
d = x[:, None] - x[None]
r = torch.sqrt((d**2).sum(-1) + soft**2)
pe = -0.5 * (G * mass[:, None] * mass[None, :] / r * (1 - torch.eye(n))).sum()
(grad,) = torch.autograd.grad(pe, x)
print(torch.allclose(-grad, mass[:, None] * accelerations(pos)))
out(pos, vel, E0, E1)

# Hamiltonian neural network on a pendulum: dH/dq, dH/dp by autograd, leapfrog rollout, energy drift
torch.manual_seed(0)


def true_hamiltonian(q, p):
    return 0.5 * p**2 + (1 - torch.cos(q))


def leapfrog(grad_fn, q, p, dt, steps):
    traj = [torch.stack([q, p], -1)]
    for _ in range(steps):
        dq, _ = grad_fn(q, p)
        p = p - 0.5 * dt * dq
        _, dp = grad_fn(q, p)
        q = q + dt * dp
        dq, _ = grad_fn(q, p)
        p = p - 0.5 * dt * dq
        traj.append(torch.stack([q, p], -1))
    return torch.stack(traj)


def exact_grads(q, p):
    q = q.detach().requires_grad_(True)
    p = p.detach().requires_grad_(True)
    H = true_hamiltonian(q, p).sum()
    dq, dp = torch.autograd.grad(H, (q, p))
    return dq, dp


q0 = torch.linspace(-1.0, 1.0, 5)
p0 = torch.zeros(5)
traj = leapfrog(exact_grads, q0, p0, 0.1, 50)
E = true_hamiltonian(traj[..., 0], traj[..., 1])
print(f"trajectory {tuple(traj.shape)}, max energy drift {(E - E[0]).abs().max().item():.3e}")


class HNN(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(2, hidden),
            nn.Tanh(),
            nn.Linear(hidden, hidden),
            nn.Tanh(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def time_derivative(self, x):
        if not x.requires_grad:
            x = x.requires_grad_(True)
        H = self(x)
        dH = torch.autograd.grad(H.sum(), x, create_graph=True)[0]
        dHdq, dHdp = dH.unbind(-1)
        return torch.stack([dHdp, -dHdq], -1)


# training data: states and their exact time derivatives
x = torch.rand(64, 2) * 4 - 2
q, p = x.unbind(-1)
dxdt = torch.stack([p, -torch.sin(q)], -1)
model = HNN()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(25):
    opt.zero_grad()
    pred = model.time_derivative(x.clone())
    loss = F.mse_loss(pred, dxdt)
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step:3d} loss {loss.item():.5f}")
print(f"final loss {loss.item():.5f}")
out(pred.detach(), loss)


def model_grads(q, p):
    z = torch.stack([q, p], -1).detach().requires_grad_(True)
    g = torch.autograd.grad(model(z).sum(), z)[0]
    return g[..., 0], g[..., 1]


learned = leapfrog(model_grads, q0, p0, 0.1, 20)
Hl = model(learned.reshape(-1, 2)).reshape(21, 5).detach()
print(f"learned-H drift {(Hl - Hl[0]).abs().max().item():.3e}")
out(learned, traj[:21])
# ---
# symplectic Euler vs explicit Euler on a harmonic oscillator; phase-space area via shoelace
torch.set_default_dtype(torch.float64)
theta = torch.linspace(0, 2 * torch.pi, 65)[:-1]
ring = torch.stack([torch.cos(theta), torch.sin(theta)], -1)


def shoelace(pts):
    x, y = pts.unbind(-1)
    return 0.5 * (x * torch.roll(y, -1) - torch.roll(x, -1) * y).sum().abs()


def euler(z, dt):
    q, p = z.unbind(-1)
    return torch.stack([q + dt * p, p - dt * q], -1)


def symplectic(z, dt):
    q, p = z.unbind(-1)
    p = p - dt * q
    return torch.stack([q + dt * p, p], -1)


a, b = ring.clone(), ring.clone()
area0 = shoelace(ring)
for _ in range(100):
    a, b = euler(a, 0.05), symplectic(b, 0.05)
print(
    f"area0={area0.item():.6f} euler={shoelace(a).item():.6f} symplectic={shoelace(b).item():.6f}"
)
J = torch.func.jacrev(lambda z: symplectic(z, 0.05))(torch.tensor([0.3, -0.2]))
Jsym = torch.tensor([[0.0, 1.0], [-1.0, 0.0]])
print("J^T Omega J == Omega:", torch.allclose(J.T @ Jsym @ J, Jsym))
print(f"det J = {torch.linalg.det(J).item():.12f}")
out(J, a[:3], b[:3])
torch.set_default_dtype(torch.float32)

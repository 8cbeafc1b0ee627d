# coupled oscillators: stiffness matrix, eigh normal modes, expm-free time stepping, energy drift
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
n = 4
k = torch.tensor([1.0, 2.0, 1.5, 1.0, 0.5])  # springs between walls and masses
m = torch.tensor([1.0, 2.0, 1.0, 0.5])
K = torch.diag(k[:-1] + k[1:]) - torch.diag(k[1:-1], 1) - torch.diag(k[1:-1], -1)
print(K)
M_inv_sqrt = torch.diag(m.rsqrt())
A = M_inv_sqrt @ K @ M_inv_sqrt
evals, evecs = torch.linalg.eigh(A)
omega = evals.sqrt()
print("frequencies", omega)
print(torch.allclose(A @ evecs, evecs * evals))
print("orthonormal", torch.allclose(evecs.T @ evecs, torch.eye(n)))
x = torch.zeros(n)
x[0] = 1.0
v = torch.zeros(n)
dt, steps = 0.01, 500


def energy(x, v):
    return 0.5 * (m * v * v).sum() + 0.5 * x @ K @ x


e0 = energy(x, v)
for step in range(steps):  # velocity Verlet
    a = -torch.linalg.solve(torch.diag(m), K @ x)
    v_half = v + 0.5 * dt * a
    x = x + dt * v_half
    a_new = -(K @ x) / m
    v = v_half + 0.5 * dt * a_new
    if step % 100 == 99:
        print(f"t={dt * (step + 1):.2f} x={x.numpy().round(4)} E={energy(x, v).item():.6f}")
print(f"relative energy drift {abs(energy(x, v) - e0) / e0:.2e}")
modal = evecs.T @ (torch.diag(m.sqrt()) @ x)
print("modal amplitudes", modal.abs())  # eigenvector signs are LAPACK's choice
out(evals, omega, x, v)
torch.set_default_dtype(torch.float32)
# ---
# rigid body: axis-angle rotations, cross products, inertia tensor, determinant, SVD alignment
torch.manual_seed(1)
torch.set_default_dtype(torch.float64)


def axis_angle(axis, angle):
    axis = axis / torch.linalg.norm(axis)
    Kx = torch.zeros(3, 3)
    Kx[0, 1], Kx[0, 2] = -axis[2], axis[1]
    Kx[1, 0], Kx[1, 2] = axis[2], -axis[0]
    Kx[2, 0], Kx[2, 1] = -axis[1], axis[0]
    return torch.eye(3) + torch.sin(angle) * Kx + (1 - torch.cos(angle)) * Kx @ Kx


R = axis_angle(torch.tensor([0.0, 0.0, 1.0]), torch.tensor(torch.pi / 2))
print(R.round(decimals=4))
print(torch.linalg.det(R), torch.dist(R @ R.T, torch.eye(3)) < 1e-6)
pts = torch.randn(6, 3)
masses = torch.rand(6) + 0.5
com = (masses[:, None] * pts).sum(0) / masses.sum()
r = pts - com
inertia = torch.zeros(3, 3)
for mi, ri in zip(masses, r):
    inertia += mi * (ri.dot(ri) * torch.eye(3) - torch.outer(ri, ri))
print("inertia\n", inertia)
principal = torch.linalg.eigvalsh(inertia)
print("principal moments", principal)
omega = torch.tensor([0.1, 0.2, 0.3])
L = inertia @ omega
torque = torch.linalg.cross(r, torch.randn(6, 3)).sum(0)
print("L", L, "torque", torque)
print(torch.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0]), dim=0))
rotated = (pts - com) @ R.T + torch.tensor([1.0, 2.0, 3.0])
H = r.T @ (rotated - rotated.mean(0))
U, S, Vh = torch.linalg.svd(H)
R_est = Vh.T @ U.T
print("Kabsch error", torch.linalg.matrix_norm(R_est - R).item() < 1e-4, S.shape)
print(torch.linalg.matrix_rank(inertia), torch.linalg.cond(inertia) > 1)
inv = torch.linalg.inv(inertia)
print(torch.allclose(inv @ inertia, torch.eye(3), atol=1e-5))
sol, res, rank, sv = torch.linalg.lstsq(torch.randn(5, 3), torch.randn(5, 1))
print(sol.shape, rank, sv)
out(principal, L, torque)
torch.set_default_dtype(torch.float32)
# ---
# heat equation: implicit Euler with linalg.solve, Cholesky, gradient of the final temperature
torch.manual_seed(2)
nx = 8
alpha = torch.tensor(0.3, requires_grad=True)
lap = -2 * torch.eye(nx) + torch.diag(torch.ones(nx - 1), 1) + torch.diag(torch.ones(nx - 1), -1)
u = torch.exp(-((torch.linspace(0, 1, nx) - 0.5) ** 2) / 0.02)
print(u)
for _t in range(5):
    A = torch.eye(nx) - alpha * lap
    u = torch.linalg.solve(A, u)
total = u.sum()
total.backward()
print(f"total heat {total.item():.6f} d/dalpha {alpha.grad.item():.6f}")
A = torch.eye(nx) - 0.3 * lap
Lc = torch.linalg.cholesky(A)
print(torch.allclose(Lc @ Lc.T, A, atol=1e-6))
y = torch.cholesky_solve(u.detach().unsqueeze(1), Lc)
print(y.squeeze(1))
print(torch.linalg.norm(A, ord="fro"), torch.linalg.vector_norm(u, ord=float("inf")))
print(torch.linalg.slogdet(A))
out(u, alpha.grad, y)

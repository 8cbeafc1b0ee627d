# heat equation: finite differences with roll and with conv1d, spectral solution with rfftfreq
torch.set_default_dtype(torch.float64)
n, L = 64, 2 * torch.pi
x = torch.arange(n) * (L / n)
u0 = torch.exp(-4 * (x - torch.pi) ** 2) + 0.5 * torch.sin(3 * x)
alpha, dt, steps = 0.1, 0.002, 200
dx = L / n
u = u0.clone()
for _ in range(steps):
    lap = (torch.roll(u, 1) - 2 * u + torch.roll(u, -1)) / dx**2
    u = u + dt * alpha * lap
stencil = torch.tensor([[[1.0, -2.0, 1.0]]]) / dx**2
v = u0.clone()[None, None]
for _ in range(steps):
    v = v + dt * alpha * F.conv1d(F.pad(v, (1, 1), mode="circular"), stencil)
print(f"roll vs conv1d: {torch.allclose(u, v[0, 0])}")
k = torch.fft.rfftfreq(n, d=dx) * 2 * torch.pi
u_hat = torch.fft.rfft(u0) * torch.exp(-alpha * k**2 * dt * steps)
u_spec = torch.fft.irfft(u_hat, n=n)
print(f"FD vs spectral max diff {(u - u_spec).abs().max().item():.3e}")
print(f"mass conserved: {u0.sum().item():.8f} {u.sum().item():.8f}")
ux = torch.fft.irfft(1j * k * torch.fft.rfft(u0), n=n)
exact = -8 * (x - torch.pi) * torch.exp(-4 * (x - torch.pi) ** 2) + 1.5 * torch.cos(3 * x)
print(f"spectral derivative accurate: {(ux - exact).abs().max().item() < 1e-12}")
out(u[:8], u_spec[:8], k[:5], ux[:5])
torch.set_default_dtype(torch.float32)
# ---
# LQR by Riccati iteration for a discretised double integrator (matrix_exp), closed-loop rollout
torch.set_default_dtype(torch.float64)
Ac = torch.tensor([[0.0, 1.0], [0.0, -0.1]])
Bc = torch.tensor([[0.0], [1.0]])
dt = 0.1
M = torch.zeros(3, 3)
M[:2, :2] = Ac
M[:2, 2:] = Bc
Md = torch.linalg.matrix_exp(M * dt)
A, B = Md[:2, :2], Md[:2, 2:]
print(A, B)
Q = torch.diag(torch.tensor([1.0, 0.1]))
R = torch.tensor([[0.01]])
P = Q.clone()
for it in range(500):  # noqa: B007 (the count is printed after the loop)
    K = torch.linalg.solve(R + B.T @ P @ B, B.T @ P @ A)
    P_new = Q + A.T @ P @ (A - B @ K)
    if torch.linalg.matrix_norm(P_new - P) < 1e-10:
        break
    P = P_new
print(f"Riccati converged after {it} iterations")
print("K", K)
eig = torch.linalg.eigvals(A - B @ K)
print("closed-loop |eig|", eig.abs())
xs = [torch.tensor([1.0, 0.0])]
for _ in range(30):
    xs.append((A - B @ K) @ xs[-1])
traj = torch.stack(xs)
cost = (traj @ Q * traj).sum() + ((traj @ K.T) ** 2 * R).sum()
print(f"final state {traj[-1].tolist()}, cost {cost.item():.6f}")
print(torch.linalg.matrix_power(A - B @ K, 10))
out(A, B, P, K, eig, traj[::10])
torch.set_default_dtype(torch.float32)
# ---
# interpolation with searchsorted / bucketize, linear and cubic Hermite, polynomials by Horner
xp_ = torch.tensor([0.0, 0.5, 1.5, 2.0, 3.5])
fp = torch.tensor([1.0, 2.0, 0.5, 0.0, 2.0])
xq = torch.tensor([-0.5, 0.0, 0.25, 1.0, 2.0, 3.0, 4.0])
idx = torch.searchsorted(xp_, xq, right=True).clamp(1, len(xp_) - 1)
x0, x1 = xp_[idx - 1], xp_[idx]
w = ((xq - x0) / (x1 - x0)).clamp(0, 1)
lin = torch.lerp(fp[idx - 1], fp[idx], w)
print(idx.tolist(), lin)
print(
    torch.bucketize(xq, xp_),
    torch.bucketize(xq, xp_, right=True),
    torch.searchsorted(xp_, xq, side="right"),
)
print(
    torch.searchsorted(
        torch.tensor([[1, 3, 5], [2, 4, 6]]), torch.tensor([[3], [5]]), out_int32=True
    )
)
sorter = torch.tensor([2, 0, 1])
print(torch.searchsorted(torch.tensor([5.0, 1.0, 3.0]), torch.tensor([2.0, 4.0]), sorter=sorter))
m = torch.gradient(fp, spacing=(xp_,))[0]
t = w
h00, h10 = 2 * t**3 - 3 * t**2 + 1, t**3 - 2 * t**2 + t
h01, h11 = -2 * t**3 + 3 * t**2, t**3 - t**2
dx = x1 - x0
herm = h00 * fp[idx - 1] + h10 * dx * m[idx - 1] + h01 * fp[idx] + h11 * dx * m[idx]
print(m, herm)
coef = torch.tensor([2.0, -3.0, 0.5, 1.0])  # highest degree first
z = torch.linspace(-1, 1, 5, requires_grad=True)
acc = torch.zeros_like(z)
for c in coef:
    acc = acc * z + c
V = torch.vander(z.detach(), N=4)
print(
    torch.allclose(V @ coef, acc.detach()), torch.vander(torch.tensor([1, 2, 3]), increasing=True)
)
acc.sum().backward()
print(z.grad)
xs = torch.linspace(0, 1, 8, dtype=torch.float64)
ys = torch.cos(3 * xs)
fit = torch.linalg.lstsq(torch.vander(xs, N=4), ys).solution
print(fit)
out(lin, herm, m, acc, z.grad, fit, torch.polyval if hasattr(torch, "polyval") else None)

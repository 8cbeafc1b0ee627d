# Pseudo-spectral PDE steps: viscous Burgers (rfft/irfft, 2/3 dealiasing), 2D vorticity (rfft2)
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
N, nu, dt = 64, 0.05, 0.01
x = torch.linspace(0, 2 * torch.pi, N + 1)[:-1]
u = torch.sin(x) + 0.5 * torch.sin(2 * x)
k = torch.fft.rfftfreq(N, d=1.0 / N)
dealias = (k < N / 3).to(u.dtype)
print(k[:5], k.dtype, dealias.sum().item())


def burgers_rhs(u_hat):
    u = torch.fft.irfft(u_hat, n=N)
    ux = torch.fft.irfft(1j * k * u_hat, n=N)
    nonlinear = torch.fft.rfft(u * ux) * dealias
    return -nonlinear - nu * k**2 * u_hat


u_hat = torch.fft.rfft(u)
energy0 = (u**2).mean()
for _step in range(100):
    k1 = burgers_rhs(u_hat)
    k2 = burgers_rhs(u_hat + 0.5 * dt * k1)
    k3 = burgers_rhs(u_hat + 0.5 * dt * k2)
    k4 = burgers_rhs(u_hat + dt * k3)
    u_hat = u_hat + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
u = torch.fft.irfft(u_hat, n=N)
print(
    u_hat.dtype,
    f"energy {energy0.item():.6f} -> {(u**2).mean().item():.6f}",
    f"max slope {torch.gradient(u, spacing=(x,))[0].abs().max().item():.4f}",
)
print(u[1::8])
# 2D incompressible flow: vorticity, streamfunction by a Poisson solve in Fourier space
M = 32
kx = torch.fft.fftfreq(M, d=1.0 / M)
ky = torch.fft.rfftfreq(M, d=1.0 / M)
KX, KY = torch.meshgrid(kx, ky, indexing="ij")
K2 = KX**2 + KY**2
K2[0, 0] = 1.0
gx = torch.linspace(0, 2 * torch.pi, M + 1)[:-1]
X, Y = torch.meshgrid(gx, gx, indexing="ij")
w = torch.exp(-((X - 3) ** 2 + (Y - 3) ** 2)) - torch.exp(-((X - 3.5) ** 2 + (Y - 2) ** 2) * 2)
w_hat = torch.fft.rfft2(w)
for _step in range(20):
    psi_hat = w_hat / K2
    psi_hat[0, 0] = 0
    u_ = torch.fft.irfft2(1j * KY * psi_hat, s=(M, M))
    v_ = torch.fft.irfft2(-1j * KX * psi_hat, s=(M, M))
    wx = torch.fft.irfft2(1j * KX * w_hat, s=(M, M))
    wy = torch.fft.irfft2(1j * KY * w_hat, s=(M, M))
    adv = torch.fft.rfft2(u_ * wx + v_ * wy)
    w_hat = (w_hat - 0.02 * adv) / (1 + 0.02 * 1e-3 * K2)
w = torch.fft.irfft2(w_hat, s=(M, M))
print(
    w.shape,
    f"circulation {w.sum().item():.6e}" if abs(w.sum()) > 1e-9 else "circulation ~0",
    f"enstrophy {(w**2).mean().item():.6f}",
)
div = torch.fft.irfft2(1j * KX * torch.fft.rfft2(u_) + 1j * KY * torch.fft.rfft2(v_), s=(M, M))
print(f"divergence-free: {div.abs().max().item() < 1e-10}", torch.fft.fftshift(kx)[:4])
out(u, w, u_hat)
# ---
# Solvers: conjugate gradient, Newton's method with torch.func.hessian, LQR by Riccati recursion
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
A = torch.randn(8, 8)
A = A @ A.T + 8 * torch.eye(8)
b = torch.randn(8)


def conjugate_gradient(matvec, b, tol=1e-10, max_iter=50):
    x = torch.zeros_like(b)
    r = b - matvec(x)
    p = r.clone()
    rs = r @ r
    for i in range(max_iter):
        Ap = matvec(p)
        alpha = rs / (p @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rs_new = r @ r
        if rs_new.sqrt() < tol:
            return x, i + 1
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x, max_iter


x, iters = conjugate_gradient(lambda v: A @ v, b)
print(
    f"CG converged in {iters} iterations, residual small {bool((A @ x - b).norm() < 1e-8)}",
    torch.allclose(x, torch.linalg.solve(A, b)),
)


def rosenbrock(z):
    return (1 - z[0]) ** 2 + 100 * (z[1] - z[0] ** 2) ** 2


z = torch.tensor([-1.2, 1.0])
for it in range(8):
    g = torch.func.grad(rosenbrock)(z)
    H = torch.func.hessian(rosenbrock)(z)
    z = z - torch.linalg.solve(H, g)
    print(it, z.numpy().round(6), f"{rosenbrock(z).item():.3e}")
print(torch.func.hessian(rosenbrock)(torch.ones(2)))
Jf = torch.func.jacfwd(torch.func.grad(rosenbrock))(torch.ones(2))
print(torch.equal(Jf, torch.func.hessian(rosenbrock)(torch.ones(2))))
# LQR for a double integrator
dt = 0.1
Ad = torch.tensor([[1.0, dt], [0.0, 1.0]])
Bd = torch.tensor([[0.5 * dt**2], [dt]])
Q, R = torch.diag(torch.tensor([1.0, 0.1])), torch.tensor([[0.01]])
P = Q.clone()
for _ in range(500):
    K = torch.linalg.solve(R + Bd.T @ P @ Bd, Bd.T @ P @ Ad)
    P_new = Q + Ad.T @ P @ (Ad - Bd @ K)
    if (P_new - P).abs().max() < 1e-12:
        break
    P = P_new
print(K, torch.linalg.eigvals(Ad - Bd @ K).abs())
state = torch.tensor([1.0, 0.0])
cost = 0.0
for _t in range(50):
    u = -K @ state
    cost += state @ Q @ state + u @ R @ u
    state = Ad @ state + Bd @ u
print(
    f"closed-loop cost {cost.item():.6f} vs x0'Px0"
    f" {(torch.tensor([1.0, 0.0]) @ P @ torch.tensor([1.0, 0.0])).item():.6f}",
    state.abs().max() < 1e-2,
)
out(x, z, K, P)

# Gauss-Legendre nodes by Golub-Welsch (eigh), Simpson, trapezoid, Sobol quasi-Monte Carlo
torch.set_default_dtype(torch.float64)


def gauss_legendre(n):
    k = torch.arange(1, n, dtype=torch.float64)
    beta = k / torch.sqrt(4 * k**2 - 1)
    J = torch.diag(beta, 1) + torch.diag(beta, -1)
    nodes, vecs = torch.linalg.eigh(J)
    weights = 2 * vecs[0] ** 2
    return nodes, weights


for n in [3, 5, 8]:
    x, w = gauss_legendre(n)
    approx = (w * torch.exp(x)).sum()
    print(f"n={n} nodes {x.numpy().round(6)} integral {approx.item():.12f}")
exact = torch.e - 1 / torch.e
print(f"exact {exact:.12f}")
xs = torch.linspace(0, torch.pi, 101)
ys = torch.sin(xs)
h = xs[1] - xs[0]
simpson = h / 3 * (ys[0] + ys[-1] + 4 * ys[1:-1:2].sum() + 2 * ys[2:-1:2].sum())
print(f"trapezoid {torch.trapezoid(ys, xs).item():.10f} simpson {simpson.item():.10f}")
cum = torch.cumulative_trapezoid(ys, xs)
print(f"cumulative at pi/2 {cum[49].item():.8f}")
sob = torch.quasirandom.SobolEngine(dimension=2, scramble=True, seed=7)
pts = sob.draw(256)
print(pts.dtype, pts[:3])
inside = (pts.pow(2).sum(1) <= 1).double().mean()
print(f"quasi-MC pi estimate {4 * inside.item():.6f}")
sob2 = torch.quasirandom.SobolEngine(3)
first = sob2.draw(4)
sob2.fast_forward(4)
print(first, sob2.draw(2), sob2.num_generated)
sob2.reset()
print(torch.equal(sob2.draw(4), first))
out(x, w, simpson, cum[::20], pts[:8], first)
torch.set_default_dtype(torch.float32)
# ---
# adaptive Runge-Kutta-Fehlberg on a Van der Pol oscillator, vectorised bisection root finding
torch.set_default_dtype(torch.float64)


def vdp(t, y, mu=1.5):
    return torch.stack([y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]])


def rk45_step(f, t, y, h):
    k1 = f(t, y)
    k2 = f(t + h / 4, y + h * k1 / 4)
    k3 = f(t + 3 * h / 8, y + h * (3 * k1 + 9 * k2) / 32)
    k4 = f(t + 12 * h / 13, y + h * (1932 * k1 - 7200 * k2 + 7296 * k3) / 2197)
    k5 = f(t + h, y + h * (439 / 216 * k1 - 8 * k2 + 3680 / 513 * k3 - 845 / 4104 * k4))
    k6 = f(
        t + h / 2,
        y + h * (-8 / 27 * k1 + 2 * k2 - 3544 / 2565 * k3 + 1859 / 4104 * k4 - 11 / 40 * k5),
    )
    y4 = y + h * (25 / 216 * k1 + 1408 / 2565 * k3 + 2197 / 4104 * k4 - k5 / 5)
    y5 = y + h * (
        16 / 135 * k1 + 6656 / 12825 * k3 + 28561 / 56430 * k4 - 9 / 50 * k5 + 2 / 55 * k6
    )
    return y5, (y5 - y4).abs().max()


t, y, h = 0.0, torch.tensor([2.0, 0.0]), 0.1
accepted = rejected = 0
while t < 5.0:
    h = min(h, 5.0 - t)
    y_new, err = rk45_step(vdp, t, y, h)
    if err < 1e-6:
        t, y = t + h, y_new
        accepted += 1
    else:
        rejected += 1
    h = 0.9 * h * (1e-6 / max(err.item(), 1e-14)) ** 0.2
print(f"t={t:.3f} y={y.numpy().round(6)} accepted {accepted} rejected {rejected}")
c = torch.tensor([0.5, 2.0, 10.0])
lo, hi = torch.zeros(3), torch.full((3,), 5.0)
for _ in range(50):
    mid = (lo + hi) / 2
    fm = mid * torch.exp(mid) - c
    lo = torch.where(fm < 0, mid, lo)
    hi = torch.where(fm < 0, hi, mid)
print("Lambert W by bisection", mid)
w = torch.ones(3)
for _ in range(20):
    w = w - (w * torch.exp(w) - c) / (torch.exp(w) * (w + 1))
print("Newton agrees:", torch.allclose(w, mid, atol=1e-10))
out(y, mid, w)
torch.set_default_dtype(torch.float32)

# LBFGS with strong Wolfe line search on the Rosenbrock function
x = torch.tensor([-1.5, 2.0], requires_grad=True)


def rosenbrock(x):
    return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2


opt = torch.optim.LBFGS([x], lr=1, max_iter=50, history_size=10, line_search_fn="strong_wolfe")
evals = 0


def closure():
    global evals
    evals += 1
    opt.zero_grad()
    loss = rosenbrock(x)
    loss.backward()
    return loss


for epoch in range(3):
    loss = opt.step(closure)
    print(f"epoch {epoch} loss {loss.item():.6e} x {x.detach().tolist()}")
state = opt.state[opt.param_groups[0]["params"][0]]
print(f"closure evaluations {evals}, n_iter {state['n_iter']}, func_evals {state['func_evals']}")
out(x, x.grad)
# ---
# damped Newton with autograd.functional.hessian, projected gradient descent onto a simplex
torch.set_default_dtype(torch.float64)


def f(z):
    return (
        torch.exp(z[0] + 3 * z[1] - 0.1) + torch.exp(z[0] - 3 * z[1] - 0.1) + torch.exp(-z[0] - 0.1)
    )


z = torch.tensor([-1.0, 0.7])
for k in range(5):
    g = torch.autograd.functional.jacobian(f, z)
    H = torch.autograd.functional.hessian(f, z)
    step = torch.linalg.solve(H + 1e-8 * torch.eye(2), g)
    lam2 = g @ step
    t = 1.0
    while f(z - t * step) > f(z) - 0.25 * t * lam2:
        t *= 0.5
    z = z - t * step
    print(f"iter {k} f={f(z).item():.12f} decrement={lam2.item():.3e} t={t}")
print(
    f"z={z[0].item():.6f},{abs(z[1].item()) < 1e-9}",
    torch.linalg.eigvalsh(torch.autograd.functional.hessian(f, z)),
)


def project_simplex(v):
    u, _ = torch.sort(v, descending=True)
    css = torch.cumsum(u, 0) - 1
    ind = torch.arange(1, v.numel() + 1, dtype=v.dtype)
    cond = u - css / ind > 0
    rho = ind[cond][-1]
    tau = css[cond][-1] / rho
    return torch.clamp(v - tau, min=0)


Q = torch.tensor([[2.0, 0.5, 0.0], [0.5, 1.0, 0.2], [0.0, 0.2, 3.0]])
c = torch.tensor([-1.0, 0.5, -2.0])
w = torch.full((3,), 1 / 3, requires_grad=True)
for _ in range(100):
    obj = 0.5 * w @ Q @ w + c @ w
    (g,) = torch.autograd.grad(obj, w)
    with torch.no_grad():
        w.copy_(project_simplex(w - 0.2 * g))
print(
    f"projected GD: w={[round(v, 6) for v in w.tolist()]} "
    f"sum={w.sum().item():.6f} obj={obj.item():.6f}"
)
out(z, w)
torch.set_default_dtype(torch.float32)
# ---
# Gauss-Newton / Levenberg-Marquardt curve fit with jacrev and hessian-vector products
torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
t = torch.linspace(0, 4, 25)
true = torch.tensor([2.0, 1.3, 0.5])
model = lambda p, t: p[0] * torch.exp(-p[1] * t) + p[2]
y = model(true, t) + 0.01 * torch.randn(25)
p = torch.tensor([1.0, 0.5, 0.0])
mu = 1e-2
for _ in range(10):
    r = model(p, t) - y
    J = torch.func.jacrev(lambda q: model(q, t))(p)
    A = J.T @ J + mu * torch.diag(torch.diag(J.T @ J))
    dp = torch.linalg.solve(A, -J.T @ r)
    p_new = p + dp
    if (model(p_new, t) - y).pow(2).sum() < r.pow(2).sum():
        p, mu = p_new, mu * 0.3
    else:
        mu *= 10
print(f"fit {[round(v, 4) for v in p.tolist()]} rss {(model(p, t) - y).pow(2).sum().item():.6e}")
loss = lambda q: 0.5 * (model(q, t) - y).pow(2).sum()
_, hvp = torch.autograd.functional.hvp(loss, p, torch.tensor([1.0, 0.0, 0.0]))
_, vhp = torch.autograd.functional.vhp(loss, p, torch.tensor([1.0, 0.0, 0.0]))
H = torch.func.hessian(loss)(p)
print(torch.allclose(hvp, H[:, 0]), torch.allclose(vhp, H[0]))
out(p, H, hvp)
torch.set_default_dtype(torch.float32)

# Hessian-vector products: top eigenvalue by power iteration, Hutchinson trace (PyHessian style)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
x, y = torch.randn(16, 3), torch.randn(16, 1)
criterion = nn.MSELoss()
params = [p for p in model.parameters() if p.requires_grad]
loss = criterion(model(x), y)
grads = torch.autograd.grad(loss, params, create_graph=True)


def group_product(xs, ys):
    return sum(torch.sum(a * b) for (a, b) in zip(xs, ys))


def normalization(v):
    s = group_product(v, v) ** 0.5
    return [vi / (s + 1e-6) for vi in v]


def hessian_vector_product(gradsH, params, v):
    return torch.autograd.grad(gradsH, params, grad_outputs=v, only_inputs=True, retain_graph=True)


v = normalization([torch.randn(p.size()) for p in params])
eigenvalue = None
for i in range(20):  # noqa: B007 - the count is printed  # noqa: B007 - the count is printed
    Hv = hessian_vector_product(grads, params, v)
    tmp = group_product(Hv, v).item()
    v = normalization(Hv)
    if eigenvalue is not None and abs(eigenvalue - tmp) / (abs(eigenvalue) + 1e-6) < 1e-3:
        eigenvalue = tmp
        break
    eigenvalue = tmp
print(f"top eigenvalue {eigenvalue:.4f} after {i + 1} iterations")
trace_estimates = []
for _ in range(10):
    vs = [torch.randint_like(p, high=2) * 2 - 1 for p in params]
    Hv = hessian_vector_product(grads, params, vs)
    trace_estimates.append(group_product(Hv, vs).item())
print(f"trace ~ {np.mean(trace_estimates):.4f}")
print(vs[0].dtype, vs[0].unique())
out(eigenvalue, Hv, trace_estimates)
# ---
# autograd.functional hvp/vhp/hessian on a flat parameter vector and a full Hessian check
torch.manual_seed(0)
A = torch.randn(4, 4)
A = A @ A.T + torch.eye(4)
b = torch.randn(4)


def quadratic(w):
    return 0.5 * w @ A @ w - b @ w + torch.log1p(w.pow(2)).sum()


w0 = torch.randn(4)
H = torch.autograd.functional.hessian(quadratic, w0)
v = torch.ones(4)
fval, hvp = torch.autograd.functional.hvp(quadratic, w0, v)
_, vhp = torch.autograd.functional.vhp(quadratic, w0, v)
print(fval, torch.allclose(hvp, H @ v, atol=1e-5), torch.allclose(vhp, v @ H, atol=1e-5))
print(torch.allclose(H, H.T, atol=1e-6), torch.linalg.eigvalsh(H).min() > 0)
# Newton steps with the exact Hessian
w = w0.clone()
for it in range(4):
    g = torch.func.grad(quadratic)(w)
    Hw = torch.autograd.functional.hessian(quadratic, w)
    w = w - torch.linalg.solve(Hw, g)
    print(f"newton {it}: f={quadratic(w).item():.6f} |g|={g.norm().item():.2e}")
out(H, hvp, vhp, w)

# trapezoid, trapz, cumulative_trapezoid: values, dtypes, grad_fns and gradients
y = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
m = torch.tensor([[1.0, 2.0, 4.0], [0.0, 1.0, 3.0]], requires_grad=True)
x = torch.tensor([0.0, 1.0, 3.0])
results = [
    torch.trapezoid(y),
    torch.trapezoid(y, dx=2),
    torch.trapezoid(y, x),
    torch.trapz(y),
    torch.cumulative_trapezoid(y),
    torch.cumulative_trapezoid(y, dx=2),
    torch.trapezoid(m),
    torch.trapezoid(m, dim=0),
    torch.cumulative_trapezoid(m, x),
    torch.trapezoid(m, torch.tensor([[0.0, 1.0, 3.0], [0.0, 2.0, 3.0]])),
]
out(*results)
sum(r.sum() for r in results).backward()
out(y.grad, m.grad)
for f in [
    lambda: torch.trapezoid(torch.tensor([1, 2, 4])),
    lambda: torch.trapezoid(torch.tensor([1.0])),
    lambda: torch.cumulative_trapezoid(torch.tensor([1.0])),
    lambda: torch.trapezoid(torch.zeros(0)),
    lambda: torch.cumulative_trapezoid(torch.tensor([1, 2, 4])),
    lambda: torch.trapezoid(y, 0.5),
    lambda: torch.trapezoid(torch.ones(2, 3), dim=0),
]:
    err(f)
# ---
# trapezoid, cumulative_trapezoid, cov, corrcoef, histogram, renorm
x = torch.tensor([[1.0, 2.5, -1.0, 4.0], [0.5, 0.0, 2.0, 1.0], [3.0, -2.0, 1.0, 0.0]])
x.requires_grad_()
s = torch.tensor([0.0, 1.0, 3.0, 4.0])
results = [
    torch.trapz(x),
    torch.trapezoid(x, dx=0.5, dim=0),
    torch.trapezoid(x, s),
    torch.trapz(x, x.detach() * 2, dim=0),
    torch.trapz(x, dx=2),
    torch.cumulative_trapezoid(x),
    torch.cumulative_trapezoid(x, s),
    torch.cumulative_trapezoid(x, dx=0.5, dim=0),
    torch.cov(x),
    x.cov(correction=0, fweights=torch.tensor([1, 2, 1, 1]), aweights=torch.tensor([0.5, 1, 1, 2])),
    x.cov(correction=2, aweights=torch.tensor([0.5, 1.0, 1.0, 2.0])),
    torch.cov(x[0]),
    torch.corrcoef(x),
    x[0].corrcoef(),
    x.renorm(2, 0, 2.0),
    torch.renorm(x, 1, 1, 3.0),
]
for r in results:
    x.grad = None
    (r * torch.arange(float(r.numel())).reshape(r.shape)).sum().backward()
    out(r, x.grad)
out(torch.trapezoid(torch.tensor([1, 2, 3])), torch.trapezoid(torch.zeros(2, 0)))
out(
    torch.cumulative_trapezoid(torch.tensor([1, 2, 4])),
    torch.cov(torch.tensor([[1, 2, 3], [2, 2, 5]])),
)
out(
    torch.cov(torch.tensor([[1.0, 2.0]]), correction=3),
    torch.corrcoef(torch.tensor([[1.0, 1.0], [1.0, 2.0]])),
)
out(x.detach().clone().renorm_(2, 0, 1.0))
err(lambda: torch.trapezoid(torch.tensor([True])))
err(lambda: torch.trapezoid(x, torch.tensor([1.0, 2.0])))
for kwargs in [
    {"fweights": torch.tensor([1.0, 2, 1, 1])},
    {"aweights": torch.tensor([1, 2, 1, 1])},
    {"fweights": torch.tensor([1, -2, 1, 1])},
    {"fweights": torch.tensor([1, 1, 1])},
    {"fweights": torch.tensor([0, 0, 0, 0])},
    {"aweights": torch.ones(1, 4)},
]:
    err(lambda: torch.cov(x, **kwargs))
err(lambda: torch.cov(torch.ones(1, 1, 1)))
err(lambda: torch.corrcoef(torch.ones(1, 1, 1)))
err(lambda: torch.cov(torch.tensor([True, False])))
d = x.detach()
out(torch.histogram(d, bins=4), torch.histogram(d, bins=4, range=(-1.0, 1.0), density=True))
out(torch.histogram(d, bins=torch.tensor([-1.0, 0.0, 2.0]), weight=torch.ones(3, 4)))
out(torch.histogram(torch.tensor([2.0, 2.0]), bins=2), torch.histogram(torch.tensor([]), bins=2))
out(d.histogram(3), torch.histogram(d.double(), bins=3, weight=d.double().abs(), density=True))
hg = torch.histogram(x, 3)
out(hg, hg.hist.grad_fn.name(), torch.histogram(x, torch.tensor([0.0, 1.0])))
err(lambda: hg.hist.sum().backward())
with torch.no_grad():
    out(torch.histogram(x, 3))
h = torch.histogram(d, 2)
out(h.hist, h.bin_edges, type(h).__name__)
err(lambda: torch.histogram(d, bins=2, range=(1.0, 0.0)))
err(lambda: torch.histogram(torch.tensor([1, 2]), bins=4))
err(lambda: torch.histogram(torch.tensor([1.0, 2.0]), 2, weight=torch.tensor([1, 2])))
err(lambda: torch.histogram(torch.tensor([1.0, 2.0]), 2, weight=torch.tensor([1.0, 2.0, 3.0])))
err(lambda: torch.histogram(torch.tensor([1.0, 2.0]), torch.tensor([1, 2])))
err(lambda: x.renorm(0, 0, 1.0))
err(lambda: x.renorm(2, 0, -1.0))
err(lambda: x[0].renorm(2, 0, 1.0))
err(lambda: torch.tensor([[1, 2]]).renorm(2, 0, 1.0))
err(lambda: x.renorm(2, 2, 1.0))
# ---
# gradient, addmm_/addmv_/baddbmm_
x = torch.tensor(
    [[1.0, 2.5, -1.0, 4.0, 2.0], [0.5, 0.0, 2.0, 1.0, 3.0], [3.0, -2.0, 1.0, 0.0, 1.0]]
)
x.requires_grad_()
coords = torch.tensor([0.0, 1.0, 3.0, 4.0, 7.0])
for kwargs in [
    {},
    {"dim": 1},
    {"spacing": 2.0, "dim": 1},
    {"spacing": [2.0, 0.5]},
    {"edge_order": 2},
    {"spacing": (coords,), "dim": 1},
    {"spacing": (coords,), "dim": -1, "edge_order": 2},
    {"dim": (0, -1)},
]:
    x.grad = None
    grads = torch.gradient(x, **kwargs)
    sum((g * torch.arange(float(g.numel())).reshape(g.shape)).sum() for g in grads).backward()
    out(grads, x.grad)
out(
    torch.gradient(torch.tensor([1, 4, 9, 16])), torch.gradient(torch.tensor([1.0, 4.0, 9.0, 16.0]))
)
err(lambda: torch.gradient(x, edge_order=3))
err(lambda: torch.gradient(torch.ones(2), edge_order=2))
err(lambda: torch.gradient(x, spacing=[1.0, 2.0, 3.0]))
m = torch.randn(2, 3, requires_grad=True)
a = torch.tensor([[1.0, 2.0, 0.5, -1.0], [0.0, 1.0, 2.0, 3.0]], requires_grad=True)
b = torch.arange(12.0).reshape(4, 3)
y = (m * 1).addmm_(a, b, beta=0.5, alpha=2)
y.sum().backward()
out(y.grad_fn.name(), m.grad, a.grad)
out(torch.addmv_(torch.zeros(2), torch.ones(2, 3), torch.ones(3), alpha=2))
out(torch.zeros(2, 2, 3).baddbmm_(torch.ones(2, 2, 4), torch.ones(2, 4, 3)))
# ---
# a 2-D histogram of sampled points (joint density), with weights, explicit edges and errors
rng = np.random.default_rng(3)
pts = torch.from_numpy(rng.normal(size=(200, 2)).astype(np.float32))
h = torch.histogramdd(pts, bins=[4, 3], range=[-2.0, 2.0, -3.0, 3.0])
out(h.hist, h.bin_edges, h.hist.sum())
dens = torch.histogramdd(pts, bins=[4, 3], weight=pts[:, 0].abs(), density=True)
widths = [e[1:] - e[:-1] for e in dens.bin_edges]
out(dens.hist, (dens.hist * widths[0][:, None] * widths[1][None, :]).sum())
edges = [torch.tensor([-5.0, 0.0, 5.0]), torch.tensor([-5.0, -1.0, 1.0, 5.0])]
quad = torch.histogramdd(pts.reshape(20, 10, 2), bins=edges)
print(quad)
x = pts[:6].clone().requires_grad_()
r = torch.histogramdd(x, bins=2)
out(r.hist.grad_fn.name(), [e.grad_fn.name() for e in r.bin_edges])
err(lambda: r.hist.sum().backward())
err(lambda: torch.histogramdd(pts, bins=[2, 2, 2]))
err(lambda: torch.histogramdd(pts[:, 0], bins=[2]))
err(lambda: torch.histogramdd(pts.long(), bins=2))
err(lambda: torch.histogramdd(pts, bins=[2, 2], range=[1.0, 0.0, 0.0, 1.0]))

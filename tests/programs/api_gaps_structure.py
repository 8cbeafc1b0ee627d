# repeat_interleave
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
a = x.repeat_interleave(2)
b = torch.repeat_interleave(x, 3, dim=1)
c = x.repeat_interleave(torch.tensor([1, 0, 2]), dim=-1)
d = x.repeat_interleave(torch.tensor(2), dim=0)
e = x.repeat_interleave(torch.tensor([3]), dim=1, output_size=9)
(a.sum() + (b * b).sum() + c.sum() * 2 + d.sum() + e.sum()).backward()
out(a, b, c, d, e, x.grad, a._is_view(), c._is_view())
out(torch.repeat_interleave(torch.tensor([2, 0, 3])), torch.tensor([1, 2]).repeat_interleave(2))
out(torch.tensor(5.0).repeat_interleave(3), torch.tensor([[1, 2]]).repeat_interleave(2, dim=0))
out(torch.repeat_interleave(torch.tensor([1, 2]), output_size=3))
err(lambda: x.repeat_interleave(torch.tensor([1.0, 2.0, 0.0]), dim=1))
err(lambda: x.repeat_interleave(torch.tensor([1, 2]), dim=1))
err(lambda: x.repeat_interleave(torch.tensor([1, -2, 1]), dim=1))
err(lambda: x.repeat_interleave(torch.tensor([[1, 2, 1]]), dim=1))
err(lambda: x.repeat_interleave(-1))
err(lambda: torch.repeat_interleave(torch.tensor([1.0, 2.0])))
err(lambda: torch.repeat_interleave(torch.tensor([[1, 2]])))
err(lambda: torch.repeat_interleave(torch.tensor([1, 2]), output_size=4))
err(lambda: x.repeat_interleave(2, dim=2))
# ---
# atleast_nd, column_stack, dstack, hstack/vstack/row_stack
s = torch.tensor(2.0, requires_grad=True)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
m = torch.ones(2, 3, requires_grad=True)
out(torch.atleast_1d(s), torch.atleast_1d(v), torch.atleast_1d(s, v), torch.atleast_1d([s, m]))
out(torch.atleast_2d(s), torch.atleast_2d(v), torch.atleast_2d(m), torch.atleast_2d((s,)))
out(torch.atleast_3d(s), torch.atleast_3d(v), torch.atleast_3d(m), torch.atleast_3d(m[None]))
out(torch.atleast_1d(), torch.atleast_1d(v) is v, torch.atleast_3d(s)._is_view())
out(torch.column_stack([v, v * 2]), torch.column_stack((s, s)), torch.column_stack([m.t(), v]))
out(torch.dstack([v, v]), torch.dstack([m, m, m]), torch.dstack((s, s)))
out(torch.hstack([s, v]), torch.hstack([m, m]), torch.vstack([s, s]), torch.vstack([v, m]))
out(torch.row_stack([v, v]), torch.hstack([torch.tensor([1]), torch.tensor([2.5])]))
y = (
    torch.column_stack([v, v * 2]).sum()
    + torch.dstack([m, m]).sum()
    + torch.vstack([v, m]).sum() * s
)
y.backward()
out(v.grad, m.grad, s.grad)
for name in ["hstack", "vstack", "dstack", "column_stack", "row_stack"]:
    err(lambda: getattr(torch, name)([]))
    err(lambda: getattr(torch, name)(v))
err(lambda: torch.column_stack([v, torch.ones(2)]))
# ---
# hsplit, vsplit, dsplit, tensor_split, split_with_sizes
x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
y = x * 1
out(torch.hsplit(y, 3), y.vsplit([1]), y.dsplit(2), torch.dsplit(y, [1, 3]))
out(torch.hsplit(y[0, 0], 2), torch.hsplit(y[0], [1, 2]), y[0].hsplit(torch.tensor([1])))
out(y.tensor_split(3, dim=2), y.tensor_split([1, 5], dim=-1), y.tensor_split(torch.tensor(2)))
out(torch.tensor_split(torch.arange(7), torch.tensor([2, 3])), torch.arange(5).tensor_split(2))
out(y.split_with_sizes([1, 2], dim=1), torch.split_with_sizes(y, [4], dim=-1))
parts = y.tensor_split(2, dim=2)
parts[0].mul_(2)
(parts[0].sum() + y.hsplit([2])[1].sum() * 3).backward()
out(parts[0], x.grad)
err(lambda: torch.hsplit(y, 2))
err(lambda: torch.hsplit(torch.tensor(1.0), 1))
err(lambda: torch.vsplit(torch.ones(3), 1))
err(lambda: torch.dsplit(torch.ones(2, 2), 1))
err(lambda: y.tensor_split(0))
err(lambda: y.tensor_split(torch.tensor([1.0])))
err(lambda: y.tensor_split(torch.tensor([[1]])))
err(lambda: y.split_with_sizes([1, 1]))
sizes = y.split_with_sizes([1, 1], dim=0)
err(lambda: sizes[0].mul_(2))
# ---
# ravel, msort, narrow_copy
x = torch.tensor([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]], requires_grad=True)
r = x.ravel()
rt = torch.ravel(x.t())
ms = x.msort()
n = x.narrow_copy(1, 1, 2)
(r * torch.arange(6.0)).sum().backward(retain_graph=True)
(rt * torch.arange(6.0)).sum().backward()
out(r, rt, r._is_view(), rt._is_view(), x.grad)
x.grad = None
(ms * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
out(ms, x.grad, torch.msort(torch.tensor([[3, 1], [1, 2]])), x[0].msort())
x.grad = None
(n * 2).sum().backward()
out(n, torch.narrow_copy(x, 0, 1, 1), x.narrow_copy(-1, -2, 2), x.grad, n._is_view())
err(lambda: x.narrow_copy(1, 3, 2))
err(lambda: x.narrow_copy(2, 0, 1))
# ---
# scatter_reduce, index_reduce, put
x = torch.tensor([[1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 2.0, 0.0]], requires_grad=True)
src = torch.tensor([[2.0, 2.0, -3.0, 0.0], [1.0, 5.0, 1.0, 2.0]], requires_grad=True)
idx = torch.tensor([[0, 1, 0, 1], [1, 1, 0, 0]])
w = torch.arange(8.0).reshape(2, 4)
for reduce in ["sum", "prod", "mean", "amax", "amin"]:
    for include_self in [True, False]:
        x.grad = src.grad = None
        y = x.scatter_reduce(0, idx, src, reduce, include_self=include_self)
        (y * w).sum().backward()
        out(y, x.grad, src.grad)
i = torch.tensor([[5, 1, 3], [2, 4, 6]])
j = torch.tensor([[0, 0, 2], [1, 1, 1]])
s = torch.tensor([[7, -9, 2], [3, 3, 4]])
for reduce in ["sum", "prod", "mean", "amax", "amin"]:
    out(
        i.scatter_reduce(1, j, s, reduce),
        torch.scatter_reduce(i, 1, j, s, reduce, include_self=False),
    )
t = i.clone()
t.scatter_reduce_(1, j, s, "amax")
out(t, i.scatter_reduce(1, j, s, "max"), x.scatter_reduce(-1, idx[:1, :2], src[:1, :2], "sum"))
err(lambda: i.scatter_reduce(1, j, s, "foo"))
err(lambda: i.scatter_reduce(1, j.int(), s, "sum"))
err(lambda: i.scatter_reduce(1, j, s.float(), "sum"))
err(lambda: x.scatter_reduce(0, idx, src, "sum").scatter_reduce_(0, idx, src, "sum").sum())
for reduce in ["prod", "mean", "amax", "amin"]:
    for include_self in [True, False]:
        x.grad = src.grad = None
        y = x.index_reduce(1, torch.tensor([3, 0, 3, 1]), src, reduce, include_self=include_self)
        (y * w).sum().backward()
        out(y, x.grad, src.grad)
out(i.index_reduce(0, torch.tensor([1, 1]), s, "mean"), i.clone().index_reduce_(1, j[0], s, "amin"))
err(lambda: x.index_reduce(0, torch.tensor([0, 1]), src, "sum"))
err(lambda: x.index_reduce(0, torch.tensor([0.0, 1.0]), src, "prod"))
err(lambda: x.index_reduce(0, torch.tensor([0, 1, 1]), src, "prod"))
err(lambda: x.index_reduce(0, torch.tensor([0, 1]), src.double(), "prod"))
x.grad = src.grad = None
y = x.put(torch.tensor([0, 5, -1]), src[0, :3])
(y * w).sum().backward()
out(y, x.grad, src.grad)
x.grad = src.grad = None
y = torch.put(x, torch.tensor([[0, 0]]), src[1, :2].reshape(1, 2), accumulate=True)
(y * w).sum().backward()
out(y, x.grad, src.grad, i.clone().put_(torch.tensor([1]), torch.tensor([9])))
err(lambda: x.put(torch.tensor([8]), src[0, :1]))
err(lambda: x.put(torch.tensor([0]), src[0, :2]))
err(lambda: x.put(torch.tensor([0.0]), src[0, :1]))
err(lambda: x.put(torch.tensor([0]), torch.tensor([1.0], dtype=torch.float64)))
# ---
# as_strided and the *_scatter ops
x = torch.arange(12.0).reshape(3, 4).clone().requires_grad_()
w = torch.arange(12.0).reshape(3, 4) + 1
y = x * 1
a = y.as_strided((2, 2), (1, 2))
b = torch.as_strided(y, (3, 3), (1, 1), 2)
c = y[1:].as_strided((2,), (1,))
d = y.t().as_strided((2, 3), (4, 1), 1)
(a.sum() + (b * b).sum() + c.sum() * 3 + d.sum()).backward()
out(
    a,
    b,
    c,
    d,
    x.grad,
    a._is_view(),
    c.storage_offset(),
    b.stride(),
    torch.arange(0).as_strided((0,), (1,)),
)
err(lambda: y.as_strided((3, 4), (4, 1), 1))
err(lambda: y.as_strided((3,), (-1,), 5))
err(lambda: y.as_strided((3, 2), (1,)))
z = x * 1
z.as_strided((3,), (5,)).mul_(10)
z.sum().backward()
out(z, x.grad)
x.grad = None
y = x * 1
s = torch.tensor([100.0, 200.0, 300.0], requires_grad=True)
outs = [
    y.diagonal_scatter(s),
    torch.diagonal_scatter(y, s[:2], 2),
    y.select_scatter(torch.cat([s, s[:1]]), 0, 1),
    torch.select_scatter(y, s, 1, -1),
    y.slice_scatter(s.reshape(3, 1).expand(3, 2), 1, 0, None, 2),
    torch.slice_scatter(y, s[:2].reshape(2, 1).expand(2, 4), 0, 1),
    torch.as_strided_scatter(
        y.detach().clone().requires_grad_(),
        s.reshape(3, 1).expand(3, 2).reshape(3, 2)[:2],
        (2, 2),
        (1, 4),
        1,
    ),
]
for o in outs:
    x.grad = s.grad = None
    (o * w).sum().backward(retain_graph=True)
    out(o, x.grad, s.grad)
out(y.slice_scatter(torch.ones(3, 2, dtype=torch.float64), 1, 0, None, 2))
out(
    torch.zeros(2, 3).diagonal_scatter(torch.ones(2), -1, 1, 0),
    torch.ones(2, 2, 2).diagonal_scatter(torch.zeros(2, 2), 0, 0, 2),
)
err(lambda: y.diagonal_scatter(torch.ones(2), 1))
err(lambda: y.select_scatter(torch.ones(3), 0, 1))
err(lambda: y.select_scatter(torch.ones(4), 0, 3))
err(lambda: y.slice_scatter(torch.ones(3, 3), 1, 0, 2))
err(lambda: y.diagonal_scatter(torch.ones(3), 0, 1, 1))
# ---
# fill_diagonal_
out(torch.zeros(3, 4).fill_diagonal_(2), torch.zeros(7, 3).fill_diagonal_(2, wrap=True))
out(torch.zeros(7, 3).fill_diagonal_(2), torch.zeros(3, 5).fill_diagonal_(2, wrap=True))
out(
    torch.zeros(2, 2, 2).fill_diagonal_(1.5), torch.zeros(3, 3, dtype=torch.int64).fill_diagonal_(7)
)
out(torch.zeros(4, 4)[:, 1:].fill_diagonal_(1), torch.zeros(4, 3).t().fill_diagonal_(3))
x = torch.zeros(3, 4, requires_grad=True)
y = x * 2
z = y.fill_diagonal_(5.0)
out(z is y)
y.sum().backward()
out(y, x.grad)
err(lambda: x.fill_diagonal_(1))
err(lambda: torch.zeros(3).fill_diagonal_(1))
err(lambda: torch.zeros(2, 3, 2).fill_diagonal_(1))
# ---
# as_strided_ changes the tensor's own geometry
x = torch.arange(12.0).requires_grad_()
y = x * 1
z = y.as_strided_((2, 2), (1, 2), 1)
out(z is y, y.shape, y.stride(), y.storage_offset(), y.is_contiguous(), y._version)
(y * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
out(y, x.grad)
err(lambda: x.as_strided_((2,), (1,)))
w = torch.arange(6.0)
out(torch.as_strided_(w, (2,), (3,)), w.shape, w.stride())
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
# addr and addbmm (and in place)
m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
v1 = torch.tensor([1.0, -2.0], requires_grad=True)
v2 = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
b1 = torch.arange(12.0).reshape(3, 2, 2).requires_grad_()
b2 = torch.arange(18.0).reshape(3, 2, 3).requires_grad_()
w = torch.arange(6.0).reshape(2, 3)
for fn in [
    lambda: torch.addr(m, v1, v2),
    lambda: m.addr(v1, v2, beta=0.5, alpha=2),
    lambda: torch.addr(m * float("nan"), v1, v2, beta=0),
    lambda: torch.addr(m[0], v1, v2),
    lambda: (m * 1).addr_(v1, v2),
    lambda: torch.addbmm(m, b1, b2),
    lambda: m.addbmm(b1, b2, beta=2, alpha=0.5),
    lambda: (m * 1).addbmm_(b1, b2),
]:
    for t in (m, v1, v2, b1, b2):
        t.grad = None
    y = fn()
    (y * w).sum().backward()
    out(y, m.grad, v1.grad, v2.grad, b1.grad, b2.grad)
i = torch.ones(2, 3, dtype=torch.int64)
out(
    torch.addr(i, torch.tensor([1, 2]), torch.tensor([1, 2, 3]), beta=2, alpha=3),
    torch.get_device(m),
)
err(lambda: torch.addr(m, m, v2))
err(lambda: torch.addbmm(m, b1[0], b2))
err(lambda: torch.addbmm(m, b1, b2[:2]))
# ---
# in place through views of a leaf that is itself a view
x = torch.arange(12.0).reshape(3, 4).requires_grad_()
err(lambda: x[0].mul_(2))
err(lambda: x.fill_diagonal_(1))
err(lambda: x.t().add_(1))
out(x.is_leaf, x.grad_fn, x._is_view())
r = torch.zeros(3)
w = torch.ones(3, requires_grad=True)
v = r[0:2]
v.mul_(w[:2])
v.add_(w[1:])
v.sum().backward()
out(r, v, w.grad, r.is_leaf)

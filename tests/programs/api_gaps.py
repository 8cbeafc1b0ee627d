# inverse hyperbolic functions and their in-place forms
x = torch.tensor([0.5, 1.5, 3.0], requires_grad=True)
y = torch.tensor([-0.5, 0.25, 0.75], requires_grad=True)
a, b, c = torch.asinh(x), (x + 1).arccosh(), torch.arctanh(y)
(a.sum() + b.sum() + c.sum()).backward()
out(a, b, c, x.grad, y.grad, torch.tensor([1, 2]).acosh(), torch.tensor([True]).asinh())
z = (y * 1).atanh_()
out(z, torch.asinh_(torch.tensor([0.5])), torch.arccosh_(torch.tensor([2.0])))
err(lambda: z.sum().backward())
err(lambda: torch.tensor([1, 2]).asinh_())
# ---
# gcd, lcm and bit shifts
i = torch.tensor([12, -18, 7, 0])
j = torch.tensor([8, 12, 0, 0])
out(torch.gcd(i, j), torch.lcm(i, j), i.gcd(j), i.clone().lcm_(j), torch.gcd_(i.clone(), j))
out(torch.gcd(i.int(), j), torch.lcm(i.to(torch.int16), j.to(torch.int16)))
err(lambda: torch.gcd(i, 4))
err(lambda: torch.gcd(i.float(), j))
err(lambda: torch.lcm(torch.tensor([True]), torch.tensor([True])))
out(i << 2, i >> 1, 1 << j, 256 >> j, i << j, torch.bitwise_left_shift(i, j))
out(torch.bitwise_right_shift(i, 1), i.bitwise_left_shift(3), i.clone().bitwise_right_shift_(2))
out(torch.tensor([-5, 5, -5, 7]) >> torch.tensor([-1, -1, 70, 64]))
out(torch.tensor([1, 5]) << torch.tensor([70, -1]), torch.tensor([200], dtype=torch.uint8) << 1)
out(torch.tensor([-5, 5], dtype=torch.int8) << torch.tensor([7, 8]))
out(torch.tensor([1, 2], dtype=torch.int32) << 1, torch.tensor([True]) << 1)
k = i.clone()
k <<= 1
k >>= torch.tensor([0, 1, 2, 3])
out(k)
err(lambda: torch.tensor([1.5]) << 1)
err(lambda: torch.tensor([1.5]) >> torch.tensor([1]))
# ---
# frexp, ldexp, nextafter
x = torch.tensor([1.5, -8.0, 0.0, 0.3, 1000.0], requires_grad=True)
m, e = torch.frexp(x)
(m * torch.arange(5.0)).sum().backward()
out(m, e, x.grad, x.frexp().mantissa, x.frexp().exponent, type(torch.frexp(x)).__name__)
out(torch.frexp(torch.tensor([3.0], dtype=torch.float64)))
err(lambda: torch.frexp(torch.tensor([1, 2])))
x.grad = None
n = torch.tensor([1, -2, 3, 0, -1])
y = torch.ldexp(x, n)
y.sum().backward()
out(y, x.grad, torch.ldexp(torch.tensor([1, 3]), torch.tensor([2, -1])), x.ldexp(x.detach()))
out(torch.ldexp(torch.tensor([1.0]), torch.tensor([2.0], dtype=torch.float64)))
out(torch.ldexp_(torch.tensor([1.0, 2.0]), torch.tensor([3, 4])))
err(lambda: torch.ldexp(x, 2))
x.grad = None
t = torch.tensor([0.0, 1.0, 1.0], requires_grad=True)
s = torch.nextafter(x[:3], t)
s.sum().backward()
out(
    s,
    x.grad,
    t.grad,
    torch.nextafter(torch.tensor([1.0]), torch.tensor([2.0], dtype=torch.float64)),
)
out(torch.tensor([1.0, 2.0]).nextafter_(torch.tensor([0.0, 3.0])) - torch.tensor([1.0, 2.0]))
err(lambda: torch.nextafter(torch.tensor([1]), torch.tensor([2])))
# ---
# real tensors through the complex API; isposinf/isneginf/isreal/positive
x = torch.tensor([1.0, -2.0, float("nan"), 0.0, -0.0, float("inf"), -float("inf")])
x.requires_grad_()
y = x * 2
out(torch.real(x) is x, x.real is x, torch.conj(x) is x, x.conj() is x, x.resolve_conj() is x)
out(torch.resolve_neg(x) is x, torch.conj_physical(x) is x, torch.positive(x) is x)
out(torch.real(y), y.conj(), y.conj_physical(), +y, y.positive(), torch.resolve_neg(y))
out(torch.is_conj(x), x.is_neg(), torch.is_complex(x), x.is_complex(), torch.is_neg(x))
out(torch.conj_physical_(torch.tensor([1.0, 2.0])))
err(lambda: torch.imag(x))
err(lambda: x.imag)
err(lambda: torch.positive(torch.tensor([True])))
a = torch.angle(y)
a.sum().backward()
out(a, x.grad, torch.angle(torch.tensor([3, -1, 0])), torch.angle(torch.tensor([True, False])))
out(torch.isposinf(x), torch.isneginf(x), x.isposinf(), torch.isreal(x), x.isreal())
out(torch.isneginf(torch.tensor([1, -2])), torch.isreal(torch.tensor([1, 2])))
# ---
# in-place aliases and torch.<name>_ functions
a = torch.tensor([1.0, 2.0, 3.0])
out(a.clone().greater_(2), a.clone().greater_equal_(2), a.clone().less_(2.0))
out(a.clone().less_equal_(torch.tensor([2.0])), a.clone().not_equal_(2))
n = torch.tensor([float("nan"), float("inf"), -1.0])
out(torch.nan_to_num_(n.clone()), n.clone().nan_to_num_(nan=1.0, posinf=5.0))
out(a.clone().cumsum_(0), torch.tensor([1, 2, 3], dtype=torch.int32).cumsum_(0))
out(a.clone().cumprod_(dim=0), torch.tensor([1, 2, 3]).cumsum_(0, dtype=torch.int64))
err(lambda: torch.tensor([1, 2]).cumsum_(0, dtype=torch.float32))
x = torch.tensor([-1.5, 0.25, 2.0], requires_grad=True)
y = x * 1
out(torch.abs_(y), torch.exp_(y), torch.sqrt_(y), torch.relu_(y), torch.sigmoid_(y))
out(torch.clamp_(x * 1, 0, 1), torch.clip_(x * 1, max=0.5), torch.erf_(x * 1), torch.square_(x * 1))
out(torch.fill_(x * 1, 2), torch.zero_(x * 1), torch.neg_(x * 1), torch.round_(x * 1))
out(torch.tanh_(x * 1), torch.log1p_(x.abs() * 1), torch.trunc_(x * 1), torch.sin_(x * 1))
z = x * 1
z.cumsum_(0)
z.sum().backward()
out(z, x.grad)
err(lambda: torch.exp_(x))
err(lambda: torch.sqrt_(torch.tensor([4, 9])))
# ---
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
h = torch.histogram(d, 2)
out(h.hist, h.bin_edges, type(h).__name__)
err(lambda: torch.histogram(d, bins=2, range=(1.0, 0.0)))
err(lambda: torch.histogram(torch.tensor([1, 2]), bins=4))
err(lambda: x.renorm(0, 0, 1.0))
err(lambda: x.renorm(2, 0, -1.0))
err(lambda: x[0].renorm(2, 0, 1.0))
err(lambda: torch.tensor([[1, 2]]).renorm(2, 0, 1.0))
err(lambda: x.renorm(2, 2, 1.0))
# ---
# vander, tril_indices/triu_indices, unravel_index, range, scalar_tensor, empty_strided
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out(
    torch.vander(torch.tensor([1, 2, 3])),
    torch.vander(torch.tensor([1, 2, 3], dtype=torch.int8), N=2),
)
out(
    torch.vander(x, N=4, increasing=True),
    torch.vander(x),
    torch.vander(x, N=0),
    torch.vander(x, N=1),
)
out(torch.vander(torch.tensor([True, False])), torch.vander(x.detach(), 2, True))
err(lambda: torch.vander(x).sum().backward())
err(lambda: torch.vander(torch.ones(2, 2)))
err(lambda: torch.vander(x, N=-1))
out(
    torch.tril_indices(3, 4, 1),
    torch.tril_indices(3, 3, -1),
    torch.tril_indices(2, 2, dtype=torch.int32),
)
out(
    torch.triu_indices(3, 3),
    torch.triu_indices(4, 3, 1),
    torch.triu_indices(0, 3),
    torch.tril_indices(3, 2, 5),
)
err(lambda: torch.tril_indices(2, 2, dtype=torch.float32))
out(torch.unravel_index(torch.tensor([4, 7]), (3, 4)), torch.unravel_index(torch.tensor(5), 6))
out(torch.unravel_index(torch.tensor([[4], [7]], dtype=torch.int32), (3, 4)))
out(
    torch.unravel_index(torch.tensor([5, -1, 50]), torch.Size([2, 3])),
    torch.unravel_index(torch.tensor(5), (3, 4)),
)
err(lambda: torch.unravel_index(torch.tensor(5.0), (3, 4)))
err(lambda: torch.unravel_index(torch.tensor(5), (3, -4)))
err(lambda: torch.unravel_index(torch.tensor(5), (3, 4.0)))
out(
    torch.range(0, 3),
    torch.range(0, 3, dtype=torch.int64),
    torch.range(1, 2, 0.3),
    torch.range(3, 0, -1),
)
out(torch.range(0, 2, requires_grad=True), torch.range(0.5, 2), torch.range(1, 1))
err(lambda: torch.range(3))
err(lambda: torch.range(0, 3, -1))
out(torch.scalar_tensor(3), torch.scalar_tensor(3, dtype=torch.int64), torch.scalar_tensor(True))
out(torch.scalar_tensor(3.5, requires_grad=True))
e = torch.empty_strided((2, 3), (1, 2))
out(
    e.shape, e.stride(), e.is_contiguous(), torch.empty_strided((2,), (1,), dtype=torch.int64).dtype
)
out(
    torch.empty_strided((2, 2), (2, 1), requires_grad=True).requires_grad,
    torch.empty_strided((0, 3), (3, 1)).shape,
)
# ---
# tensor predicates, layout, legacy constructors, memory flags
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out(
    str(x.layout),
    repr(torch.strided),
    torch.strided == x.layout,
    x.layout is torch.strided,
)
out(
    type(torch.strided).__name__,
    isinstance(torch.strided, torch.layout),
    torch.zeros(2, layout=torch.strided),
)
out(
    torch.tensor([0.0]).is_nonzero(),
    torch.tensor(3).is_nonzero(),
    torch.is_nonzero(torch.tensor([[True]])),
)
out(torch.tensor(float("nan")).is_nonzero(), torch.tensor([-0.0]).is_nonzero())
err(lambda: torch.tensor([1.0, 2.0]).is_nonzero())
err(lambda: torch.tensor([]).is_nonzero())
dtypes = [torch.uint8, torch.bool, torch.int8, torch.float16, torch.int64, torch.float64]
out([torch.tensor([1], dtype=d).is_signed() for d in dtypes], torch.is_signed(x))
out(x.is_same_size(x * 2), torch.is_same_size(x, x[:2]), x.is_same_size(x.view(3, 1)))
out(x.is_cpu, x.is_cuda, x.is_sparse, x.is_quantized, x.is_meta, x.is_mkldnn, x.is_nested)
out([torch.can_cast(a, b) for a in dtypes for b in dtypes])
err(lambda: torch.can_cast(torch.ones(1), torch.float32))
out(x.new(2, 3).shape, x.new(torch.Size([2, 3])).shape, x.new([1, 2]), x.new((2, 3)), x.new())
out(torch.tensor([1]).new([1.5, 2.5]), x.new(torch.tensor([5.0, 6.0])), x.new(2).dtype)
err(lambda: x.new(torch.tensor([5, 6])))
err(lambda: x.new(2, dtype=torch.int64))
s = x.new_empty_strided((2, 3), (1, 2))
out(
    s.shape,
    s.stride(),
    s.dtype,
    s.requires_grad,
    x.new_empty_strided((2,), (1,), dtype=torch.int32).dtype,
)
out(x.is_pinned(), x.is_shared())
err(lambda: x.pin_memory())
t = x.detach().clone()
out(t.share_memory_() is t, t.is_shared(), x.share_memory_() is x)
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
# in-place view ops, resize_, conjugate transposes
x = torch.ones(2, 3, requires_grad=True)
w = torch.arange(6.0)
for fn in [
    lambda y: y.unsqueeze_(0),
    lambda y: y.unsqueeze_(-1),
    lambda y: y.unsqueeze(0).squeeze_(),
    lambda y: y.unsqueeze(0).squeeze_(0),
    lambda y: y.t_(),
    lambda y: y.transpose_(0, 1),
    lambda y: y.swapaxes_(1, 0),
    lambda y: y.swapdims_(0, -1),
]:
    x.grad = None
    y = x * 1
    z = fn(y)
    (z * w.reshape(z.shape)).sum().backward()
    out(z, z is y, y._version, x.grad)
err(lambda: x.unsqueeze_(0))
err(lambda: x.t_())
err(lambda: torch.ones(2, 2, 2).t_())
v = torch.arange(6.0)
out(
    v.resize_(2, 2),
    v.shape,
    torch.arange(3.0).resize_(2, 2).shape,
    torch.arange(6.0).resize_as_(torch.ones(3, 2)),
)
err(lambda: x.resize_(3, 2))
m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
out(m.mH, m.H, torch.adjoint(m), m.adjoint(), torch.ones(2, 3, 4).mH.shape)
err(lambda: torch.ones(3).H)
err(lambda: torch.ones(3).mH)
err(lambda: torch.ones(2, 2, 2).H)
# ---
# runtime settings and small helpers
threads = torch.get_num_threads()  # restored below: the test process is shared
out(threads > 0, torch.set_num_threads(2), torch.get_num_threads())
torch.set_num_threads(threads)
out(torch.get_num_interop_threads() > 0)
err(lambda: torch.set_num_threads(0))
out(torch.are_deterministic_algorithms_enabled(), torch.use_deterministic_algorithms(True))
out(torch.are_deterministic_algorithms_enabled(), torch.get_deterministic_debug_mode())
out(
    torch.use_deterministic_algorithms(True, warn_only=True),
    torch.is_deterministic_algorithms_warn_only_enabled(),
)
out(torch.get_deterministic_debug_mode(), torch.set_deterministic_debug_mode("default"))
out(
    torch.are_deterministic_algorithms_enabled(),
    torch.set_deterministic_debug_mode(2),
    torch.get_deterministic_debug_mode(),
)
torch.use_deterministic_algorithms(False)
err(lambda: torch.use_deterministic_algorithms("yes"))
out(torch.get_float32_matmul_precision(), torch.set_float32_matmul_precision("high"))
out(
    torch.get_float32_matmul_precision(),
    torch.set_float32_matmul_precision("foo"),
    torch.get_float32_matmul_precision(),
)
torch.set_float32_matmul_precision("highest")
out(
    str(torch.get_default_device()), torch.set_default_device("cpu"), torch.set_default_device(None)
)
out(torch.is_warn_always_enabled(), torch.set_warn_always(False), torch.set_flush_denormal(False))
x = torch.ones(2, requires_grad=True)
out(
    torch.typename(x),
    torch.typename(torch.ones(1, dtype=torch.int64)),
    torch.typename(3),
    torch.typename(nn.Linear(1, 1)),
)
out(
    torch.typename(torch.ones(1, dtype=torch.float64)),
    torch.typename(torch.ones(1, dtype=torch.bool)),
)
out(torch.is_inference(x), torch.is_storage(x), torch.detach(x), torch.detach(x * 2))
# ---
# window functions and combinations
for name in [
    "hann_window",
    "hamming_window",
    "blackman_window",
    "bartlett_window",
    "kaiser_window",
]:
    fn = getattr(torch, name)
    out(
        fn(5),
        fn(6, periodic=False),
        fn(4, dtype=torch.float64),
        fn(1),
        fn(0),
        fn(3, requires_grad=True),
    )
    err(lambda: fn(3, dtype=torch.int64))
out(torch.kaiser_window(6, True, 5.0), torch.hamming_window(5, False, 0.5, 0.5))
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
c = torch.combinations(x)
(c * torch.arange(12.0).reshape(6, 2)).sum().backward()
out(c, x.grad, torch.combinations(torch.tensor([1, 2, 3]), r=3), torch.combinations(x, r=3).shape)
out(torch.combinations(torch.tensor([1, 2, 3]), with_replacement=True), torch.combinations(x, r=0))
out(torch.combinations(torch.tensor([1, 2]), r=3), torch.combinations(torch.tensor([5]), r=1))
err(lambda: torch.combinations(torch.ones(2, 2)))
err(lambda: torch.combinations(x, r=-1))
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

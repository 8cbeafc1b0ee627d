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

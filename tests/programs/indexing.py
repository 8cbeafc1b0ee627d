# getitem basic and advanced indexing, duplicate indices accumulate
x = torch.arange(12.0).view(3, 4).requires_grad_()
ys = [
    x[0],
    x[-1, 1:],
    x[:, ::2],
    x[1:2, None],
    x[..., 1],
    x[None],
    x[[0, 0, 2]],
    x[torch.tensor([1, 1])],
    x[[0, 2], [1, 1]],
    x[x > 5],
    x[:, [3, 3, 0]],
    x[torch.tensor([[0, 1], [1, 1]])],
    x[1, [0, 0]],
    x[torch.tensor([True, False, True])],
    x[()],
    x[0, 0],
]
for y in ys:
    out(y, y.grad_fn.name())
sum(y.sum() for y in ys).backward()
out(x.grad)
err(lambda: x[3])
err(lambda: x[0, 4])
err(lambda: x[[0, 5]])
err(lambda: x[torch.tensor([1.0])])
err(lambda: x[0, 0, 0])
err(lambda: x[torch.tensor([True, False])])
out(
    x[torch.tensor(1)],
    x[torch.tensor([], dtype=torch.long)].shape,
    x[1:1].shape,
    x[5:].shape,
    x[:, -10:].shape,
)
out(torch.tensor(5.0)[()], torch.tensor(5.0)[None].shape, torch.tensor(5.0)[...].shape)
err(lambda: torch.tensor(5.0)[0])
# ---
# gather index_select masked_fill
x = torch.arange(6.0).view(2, 3).requires_grad_()
g = torch.gather(x, 1, torch.tensor([[0, 0], [2, 1]]))
i = x.index_select(1, torch.tensor([2, 2, 0]))
j = torch.index_select(x, -2, torch.tensor([1]))
m = x.masked_fill(x > 2, -1.0)
m2 = x.masked_fill(torch.tensor([True, False, True]), 0.5)
out(g, i, j, m, m2, g.grad_fn.name(), i.grad_fn.name(), m.grad_fn.name())
(g.sum() + i.sum() * 2 + j.sum() + m.sum() + m2.sum()).backward()
out(x.grad)
err(lambda: x.gather(1, torch.tensor([[3]])))
err(lambda: x.gather(1, torch.tensor([0])))
err(lambda: x.gather(1, torch.tensor([[0.0]])))
err(lambda: x.index_select(0, torch.tensor([2])))
err(lambda: x.index_select(0, torch.tensor([[0]])))
err(lambda: x.masked_fill(torch.tensor([1, 0, 1]), 0.0))
err(lambda: x.masked_fill(x > 2, torch.tensor([1.0, 2.0])))
out(
    x.masked_fill(x > 2, torch.tensor(7.0)),
    torch.tensor([1, 2]).masked_fill(torch.tensor([True, False]), 2.7),
)
v = torch.tensor(3.0, requires_grad=True)
y = x.masked_fill(x > 3, v)
y.sum().backward()
out(y, v.grad)
# ---
# setitem forms and gradients
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = x * 1
y[0, 0] = 10.0
y[:, 1] = torch.tensor([20.0, 30.0])
y[y > 5] = 0.5
y[[1, 1], [2, 2]] = 9.0
out(y, y.grad_fn.name())
y.sum().backward()
out(x.grad)
v = torch.tensor(2.0, requires_grad=True)
z = torch.zeros(3)
z[1] = v
z[2] = v * 3
out(z, z.grad_fn.name(), z.requires_grad)
z.sum().backward()
out(v.grad)
w = torch.zeros(2, 2)
w[0] = torch.tensor([1, 2])
w[1] = 3
w[:, 0] = torch.tensor(5.0)
out(w)
err(lambda: w.__setitem__(0, torch.ones(3)))
err(lambda: w.__setitem__(5, 1.0))
i = torch.zeros(3, dtype=torch.int64)
i[0] = 2.7
i[1:] = torch.tensor([1.5, 2.5])
out(i)
# ---
# gather / index_select with 0-d inputs or 0-d indices
s = torch.tensor(2.0, requires_grad=True)
x = torch.tensor([1.0, 2.0], requires_grad=True)
err(lambda: s.index_select(0, torch.tensor([0])))
err(lambda: s.index_select(0, torch.tensor([0, 0])))
err(lambda: s.index_select(0, torch.tensor(0)))
err(lambda: s.index_select(0, torch.tensor([1])))
err(lambda: s.index_select(-1, torch.tensor([0])))
err(lambda: s.gather(0, torch.tensor(0)))
err(lambda: s.gather(0, torch.tensor([0, 0])))
err(lambda: s.gather(0, torch.tensor(1)))
err(lambda: x.gather(0, torch.tensor(1)))
err(lambda: x.index_select(0, torch.tensor(1)))
(s.gather(0, torch.tensor([0, 0])).sum() + s.index_select(0, torch.tensor(0)) * 3).backward()
(x.gather(0, torch.tensor(1)) * 2 + x.index_select(0, torch.tensor(0)).sum()).backward()
out(s.grad, x.grad)
out(
    torch.autograd.gradcheck(
        lambda t: t.gather(0, torch.tensor([0, 0])),
        (torch.tensor(1.5, dtype=torch.float64, requires_grad=True),),
    )
)
out(
    torch.autograd.gradgradcheck(
        lambda t: t.index_select(0, torch.tensor(1)) ** 2,
        (torch.tensor([1.5, 2.0], dtype=torch.float64, requires_grad=True),),
    )
)


# ---
# setitem: advanced indices need the value's dtype (0-dim values under a bool mask cast);
# basic indices cast, and drop the value's leading size-1 dims
def setitem(key, value, dtype=torch.float32):
    x = torch.zeros(3, 2, dtype=dtype)
    x[key] = value
    return x


idx = torch.tensor([0, 1])
mask = torch.tensor([True, False, True])
for key in [
    idx,
    mask,
    (idx, 0),
    slice(0, 2),
    0,
    (mask, 1),
    Ellipsis,
    None,
    (idx, idx),
    (slice(None), idx),
]:
    for value in [
        torch.ones(2, dtype=torch.float64),
        torch.ones(2, dtype=torch.int64),
        torch.tensor(1.5, dtype=torch.float64),
        torch.tensor(2),
        1.5,
        True,
        torch.ones(1, 2, dtype=torch.float64),
    ]:
        err(lambda: setitem(key, value))
        err(lambda: setitem(key, value, torch.int64))
# ---
# index_copy / index_fill on 0-d tensors and out-of-range indices (torch's messages)
x = torch.tensor(1.0)
out(
    x.index_copy(0, torch.tensor([0]), torch.tensor([5.0])),
    x.index_copy(0, torch.tensor(0), torch.tensor(5.0)),
)
out(x.index_fill(0, torch.tensor([0]), 3.0), torch.ones(3).index_fill(0, torch.tensor([-1]), 5.0))
for fn in (
    lambda: x.index_copy(0, torch.tensor([1]), torch.tensor([5.0])),
    lambda: torch.ones(3).index_copy(0, torch.tensor([5]), torch.tensor([5.0])),
    lambda: torch.ones(3).index_copy(0, torch.tensor([-1]), torch.tensor([5.0])),
    lambda: torch.ones(2, 3).index_fill(1, torch.tensor([3]), 5.0),
    lambda: x.index_fill(0, torch.tensor([-2]), 5.0),
    lambda: torch.index_copy(x, 0, torch.tensor([0]), torch.tensor([[5.0]])),
):
    try:
        fn()
    except (IndexError, RuntimeError) as e:
        print(type(e).__name__, e)

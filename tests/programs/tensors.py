# basic arithmetic and grad_fn names
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2 + 1
out(y, y - 1, 1 - y, y / 2, 2 / y, y**2, 2**y, -y, y.neg(), abs(y), y.abs())
z = (y**2).sum()
z.backward()
out(x.grad, z)
# ---
# int tensors and promotion
a = torch.tensor([1, 2, 3])
b = torch.tensor([1.5, 2.5, 3.5])
out(a + b, a * 2.5, a / 2, a // 2, a % 2, a + True, a.dtype, (a > 1), a.sum(), a.float().mean())
out(
    torch.tensor(3) / torch.tensor(2),
    torch.tensor([True, False]) + 1,
    torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8),
)
out(
    torch.tensor([1.0], dtype=torch.float16) + torch.tensor([1.0]),
    torch.tensor(1.0, dtype=torch.float64) + torch.tensor([1.0]),
    torch.tensor([1], dtype=torch.int32) * 2.0,
)
# ---
# errors
err(lambda: torch.tensor([1, 2], requires_grad=True))
err(lambda: torch.ones(2, 3) + torch.ones(3, 2))
err(lambda: torch.ones(2, 3) @ torch.ones(2, 3))
err(lambda: torch.ones(2, 3).view(4))
err(lambda: torch.ones(2, 3).sum(dim=5))
err(lambda: torch.ones(3, requires_grad=True).backward())
err(lambda: torch.ones(3).backward())
err(lambda: torch.ones(2, 3).transpose(0, 3))
err(lambda: torch.cat([torch.ones(2, 3), torch.ones(3, 2)]))
err(lambda: torch.stack([torch.ones(2, 3), torch.ones(3, 2)]))
err(lambda: torch.ones(2, 3)[5])
err(lambda: torch.ones(2, 3).item())
err(lambda: torch.ones(2, 3).reshape(7))
err(lambda: torch.ones(2, 3).expand(3, 3))
err(lambda: torch.ones(2, 3).gather(1, torch.tensor([[0, 5]])))
err(lambda: torch.mm(torch.ones(2), torch.ones(2)))
err(lambda: torch.ones(3).squeeze(2))
err(lambda: torch.ones(3).unsqueeze(3))
err(lambda: torch.ones(3).permute(1, 0))
# ---
# backward twice
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x.exp() * x).sum()
y.backward(retain_graph=True)
out(x.grad)
y.backward()
out(x.grad)
err(lambda: y.backward())
# ---
# autograd.grad variants
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = (x * w).sum()
g = torch.autograd.grad(y, [x, w], create_graph=True)
out(g)
h = torch.autograd.grad(g[0].sum(), w)
out(h)
z = torch.tensor([1.0], requires_grad=True)
err(lambda: torch.autograd.grad((x * 2).sum(), z))
out(torch.autograd.grad((x * 2).sum(), [x, z], allow_unused=True))
out(torch.autograd.grad((x * 2).sum(), [x, z], allow_unused=True, materialize_grads=True))
# ---
# reductions
x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
out(
    x.sum(),
    x.sum(0),
    x.sum((0, 2)),
    x.sum(-1, keepdim=True),
    x.mean(1),
    x.prod(2),
    x.var(),
    x.var(1),
    x.std(1, unbiased=False),
    x.var(1, correction=0),
)
out(
    x.max(),
    x.max(1),
    x.min(2, keepdim=True),
    x.amax((0, 1)),
    x.amin(-1),
    x.logsumexp(1),
    x.norm(),
    x.norm(dim=1),
    x.norm(p=1, dim=2),
)
out(x.argmax(), x.argmax(1), x.argmin(2, keepdim=True))
r = x.max(1)
out(r.values, r.indices, r[0], type(r).__name__)
# ---
# softmax & friends
x = torch.tensor(
    [[0.1, 0.2, 0.3, 0.4], [1.0, 2.0, 3.0, 4.0], [-1.0, 0.0, 1.0, 2.0]], requires_grad=True
)
out(
    x.softmax(1),
    torch.softmax(x, 0),
    x.log_softmax(-1),
    F.softmax(x, dim=1),
    F.log_softmax(x, dim=1),
    torch.log_softmax(x, 1, dtype=torch.float64),
)
# ---
# shape ops
x = torch.arange(12.0).reshape(3, 4).requires_grad_()
out(
    x.view(4, 3),
    x.view(-1),
    x.reshape(2, 6),
    x.flatten(),
    x.t(),
    x.T,
    x.permute(1, 0),
    x.transpose(0, 1),
    x.unsqueeze(0),
    x.unsqueeze(0).squeeze(),
    x.expand(2, 3, 4),
    x[None].expand_as(torch.ones(2, 3, 4)),
)
out(
    torch.cat([x, x]),
    torch.cat([x, x], 1),
    torch.stack([x, x]),
    x.split(2),
    x.split([1, 3], 1),
    x.chunk(2),
    x.chunk(3, 1),
    x.view_as(torch.ones(4, 3)),
    x.flatten(0, 1),
    x.squeeze(0),
)
# ---
# indexing
x = torch.arange(12.0).reshape(3, 4).requires_grad_()
out(
    x[0],
    x[:, 1],
    x[1:, ::2],
    x[..., 0],
    x[None, 1],
    x[[0, 0, 2]],
    x[torch.tensor([0, 2]), torch.tensor([1, 3])],
    x[x > 5],
    x[:, [1, 1]],
    x[-1, -1],
    x[torch.tensor(1)],
)
y = x[[0, 0, 2]].sum() + x[:, [1, 1]].sum()
y.backward()
out(x.grad)
out(
    x.gather(1, torch.tensor([[0, 1], [2, 3], [1, 1]])),
    x.index_select(0, torch.tensor([2, 0])),
    x.masked_fill(x > 4, 0.0),
    x.masked_fill(torch.tensor([True, False, True, False]), -1.0),
)
# ---
# where clamp etc
x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
out(
    torch.where(x > 0, x, x * 2),
    torch.where(x > 0, x, 0.0),
    x.clamp(-1, 1),
    x.clamp(min=0),
    x.clip(max=0.3),
    torch.maximum(x, torch.zeros(5)),
    torch.minimum(x, x.flip(0)),
    x.relu(),
    x.sign(),
    x.sigmoid(),
    x.tanh(),
    x.exp(),
    x.abs().log(),
    x.abs().sqrt(),
    x.abs().rsqrt(),
    x.sin(),
    x.cos(),
    x.reciprocal(),
    (x + 3).log1p(),
    x.pow(2),
    x.pow(x),
    torch.pow(2, x),
)
(
    torch.where(x > 0, x, x * 2).sum() + x.clamp(-1, 1).sum() + x.relu().sum() + x.abs().sum()
).backward()
out(x.grad)
# ---
# matmul family
a = torch.arange(6.0).reshape(2, 3).requires_grad_()
b = torch.arange(12.0).reshape(3, 4).requires_grad_()
v = torch.arange(3.0).requires_grad_()
out(
    a @ b,
    a.mm(b),
    torch.matmul(a, v),
    v @ b,
    v @ v,
    torch.dot(v, v),
    torch.outer(v, v),
    torch.addmm(torch.ones(2, 4), a, b),
    torch.bmm(a[None], b[None]),
    torch.matmul(a[None].expand(3, 2, 3), b),
)
out(torch.addmm(torch.ones(4), a, b, beta=0.5, alpha=2))
# ---
# repr
x = torch.tensor([1.0], requires_grad=True)
print(
    x.exp(),
    (x + 1).sum(),
    x,
    torch.tensor([1, 2]),
    torch.tensor([1.5, 2.25], dtype=torch.float64),
    torch.zeros(2, 3, dtype=torch.int32),
    torch.tensor(True),
    torch.tensor([]),
    torch.tensor(3.0),
    torch.tensor([1e10, 1.0]),
    torch.tensor([0.1, 100000.0]),
    torch.tensor([1.0, float("nan"), float("inf")]),
)
print(
    torch.ones(2, 2, dtype=torch.float16), torch.tensor([[1.123456789, 2.0]]), torch.arange(2000.0)
)
print(
    torch.float32,
    torch.int64,
    torch.tensor([1.0]).dtype,
    torch.tensor([1.0]).device,
    torch.tensor([1.0]).shape,
    torch.ones(2, 3).size(),
    torch.ones(2, 3).size(1),
)
# ---
# nansum / nanmean: NaN positions are skipped and get no gradient (NansumBackward0)
x = torch.tensor([[1.0, float("nan"), 2.0], [3.0, 4.0, float("nan")]], requires_grad=True)
for y in [torch.nansum(x), torch.nansum(x, 0), x.nansum(dim=1, keepdim=True)]:
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    out(y, g)
out(torch.nansum(torch.tensor([1, 2])), torch.nansum(torch.tensor([1, 2]), dtype=torch.float32))
out(torch.nanmean(x), torch.nanmean(x, 1))
# ---
# aminmax: one AminmaxBackward0 node for both outputs; ties share the gradient
x = torch.tensor([[1.0, 3.0, 3.0], [2.0, 0.0, 0.0]], requires_grad=True)
r = torch.aminmax(x)
out(r, r.min, r.max)
print(r)
r2 = torch.aminmax(x, dim=1)
print(r2)
(r2.min.sum() + 2 * r2.max.sum()).backward()
out(x.grad)
x.grad = None
r = torch.aminmax(x)
(r.min + r.max * 2).backward()
out(x.grad)
print(torch.aminmax(torch.tensor([1, 5])))
out(torch.aminmax(x, dim=0, keepdim=True))
out(x.aminmax(dim=-1))
err(lambda: torch.aminmax(torch.zeros(0)))
err(lambda: torch.aminmax(torch.zeros(2, 0), dim=1))
# ---
# 0-d tensors through shape ops; remainder(number, tensor) has no derivative; tile(*dims)
x = torch.tensor(2.0, requires_grad=True)
err(lambda: torch.movedim(x, 0, 0))
err(lambda: x.movedim(-1, 0))
err(lambda: torch.roll(x, 1))
err(lambda: torch.roll(x, 1, 0))
err(lambda: x.mT)
err(lambda: torch.flip(x, (0,)))
err(lambda: x.permute(0))
err(lambda: x.permute())
err(lambda: torch.squeeze(x, 0))
err(lambda: x.unsqueeze(1))
y = torch.tensor([1.0, 2.0], requires_grad=True)
err(lambda: 7 % y)
err(lambda: (7 % y).sum().backward())
err(lambda: torch.remainder(7, y))
err(lambda: x.expand(3))
err(lambda: x.repeat(2))
err(lambda: x.view(1, 1))
err(lambda: x.reshape(-1))
err(lambda: x.flatten())
err(lambda: x.t())
err(lambda: x.T)
err(lambda: x.diag())
err(lambda: x.split(1))
err(lambda: x.narrow(0, 0, 1))
err(lambda: x.select(0, 0))
err(lambda: x[None, ..., None])
err(lambda: x.cumsum(0))
err(lambda: x.softmax(0))
err(lambda: torch.stack([x, x]))
err(lambda: torch.cat([x.unsqueeze(0), x.unsqueeze(0)]))
err(lambda: x.tile(2))
err(lambda: torch.roll(x, 1, -1))
err(lambda: torch.roll(x, (1, 2)))
err(lambda: torch.movedim(x, 1, 0))
out(torch.ones(2).tile(2), torch.ones(2).tile(2, 2), torch.ones(2).tile((2,)))
err(lambda: torch.tile(torch.ones(2), 2))
w = torch.ones(2, 3, requires_grad=True)
out(torch.roll(w, 1), torch.roll(w, 1, 1), torch.movedim(w, 0, 1))

# tensor creation dtypes
out(torch.tensor(1.5), torch.tensor([1, 2]), torch.tensor([True, False]), torch.tensor([1, 2.0]))
out(torch.tensor([]), torch.tensor([[]]), torch.zeros(0, 3), torch.tensor(3))
out(torch.tensor([1, 2], dtype=torch.float16), torch.tensor(2**40))
err(lambda: torch.tensor([1, 2], requires_grad=True))
err(lambda: torch.tensor([[1, 2], [3]]))
print(torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True))
print(torch.tensor([], requires_grad=True))
print(torch.zeros(2, 0))
print(torch.tensor(3, dtype=torch.int8))
print(torch.tensor([1.5, 2.25], dtype=torch.float16))
print(torch.tensor([[True, False]]))
# ---
# creation functions
out(torch.arange(5), torch.arange(1, 4, 0.5), torch.arange(0, -3, -1), torch.arange(5.0))
out(torch.linspace(0, 1, 5), torch.linspace(0, 1, 1), torch.linspace(0, 1, 0))
out(torch.eye(3), torch.eye(2, 3), torch.eye(0))
out(torch.full((2,), 3), torch.full((2,), 3.0), torch.full((2,), True))
out(torch.zeros(()), torch.ones((2, 3), dtype=torch.int32), torch.empty(0).shape)
out(
    torch.zeros_like(torch.tensor([1, 2])),
    torch.ones_like(torch.tensor([1.0]), dtype=torch.float64),
)
out(torch.full_like(torch.tensor([1, 2]), 2.7), torch.arange(10, dtype=torch.float64))
err(lambda: torch.arange(0, 5, 0))
err(lambda: torch.zeros(-1))
err(lambda: torch.ones_like([1.0]))
x = torch.zeros(2, 3, requires_grad=True)
out(torch.zeros_like(x), torch.empty_like(x).shape, torch.rand_like(x).shape)
out(torch.randint(0, 5, (3,)).dtype, torch.randint(5, (2, 2)).shape, torch.randint_like(x, 3).dtype)
out(torch.ones(2, requires_grad=True), torch.eye(2, requires_grad=True))
err(lambda: torch.ones(2, dtype=torch.int64, requires_grad=True))
# ---
# manual_seed reproducibility
torch.manual_seed(3)
a = torch.rand(3)
torch.manual_seed(3)
b = torch.rand(3)
out(torch.equal(a, b), torch.randn(2, 3).shape, torch.randn(()).shape, torch.rand(0).shape)
g = torch.Generator().manual_seed(1)
out(torch.rand(2, generator=g).shape)
# ---
# from_numpy and numpy sharing
a = np.arange(4.0)
t = torch.from_numpy(a)
a[0] = 10
out(t, t.dtype)
t[1] = 20
out(a.tolist())
out(torch.from_numpy(np.array([1, 2], dtype=np.int32)), torch.from_numpy(np.array(True)))
out(torch.from_numpy(np.zeros((2, 3), dtype=np.float32).T).shape)
x = torch.ones(2, requires_grad=True)
err(lambda: x.numpy())
out(x.detach().numpy().tolist())
out(torch.tensor(np.float64(1.5)), torch.tensor(np.array([1, 2], dtype=np.uint8)))
out(torch.as_tensor([1, 2]), torch.as_tensor(a).dtype)
# ---
# default dtype float32, python float no float64
out(
    torch.tensor([1.0]) * 2.5,
    torch.tensor([1]) * 2.5,
    torch.tensor([1]) / 2,
    torch.tensor([1]) // 2,
)
out(torch.tensor([True]) + 1, torch.tensor([True]) + True)
out(
    torch.tensor([1.0], dtype=torch.float16) + torch.tensor([1.0]),
    torch.tensor([1.0], dtype=torch.float16) + 1.0,
)
out(torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8))
out(
    torch.tensor(1.0, dtype=torch.float64) + torch.tensor([1.0]),
    torch.tensor(1, dtype=torch.int64) + torch.tensor([1], dtype=torch.int8),
)
out(torch.tensor([1.0], dtype=torch.float16) * torch.tensor(2.0, dtype=torch.float64))
out(
    torch.tensor([1, 2]) ** 2,
    torch.tensor([1, 2]) ** 0.5,
    2 ** torch.tensor([1, 2]),
    2.0 ** torch.tensor([1, 2]),
)
err(lambda: torch.tensor([1, 2]) ** -1)
out(torch.tensor([True, False]) * torch.tensor([True, True]))
err(lambda: -torch.tensor([True]))
out(torch.get_default_dtype())
torch.set_default_dtype(torch.float64)
out(
    torch.tensor([1.0]),
    torch.tensor(1.0),
    torch.zeros(1),
    torch.arange(2.0),
    torch.tensor([1]) * 1.5,
)
# ---
# attributes
x = torch.zeros(2, 3, 4)
out(x.shape, x.size(), x.size(1), x.size(-1), x.dim(), x.ndim, x.numel(), x.dtype, str(x.device))
err(lambda: x.size(3))
out(
    torch.tensor(1.0).shape,
    torch.tensor(1.0).dim(),
    torch.tensor(1.0).numel(),
    x.T.shape if False else x.permute(2, 1, 0).shape,
)
out(torch.zeros(2, 3).T.shape, torch.zeros(3).T.shape, torch.tensor(2.0).T)
out(
    torch.tensor([[1, 2]]).tolist(),
    torch.tensor(1.5).tolist(),
    torch.tensor([]).tolist(),
    torch.tensor([1.5]).item(),
)
err(lambda: torch.tensor([1.0, 2.0]).item())
err(lambda: torch.tensor([]).item())
out(
    type(torch.tensor(1).item()).__name__,
    type(torch.tensor(True).item()).__name__,
    type(torch.tensor(1.0, dtype=torch.float16).item()).__name__,
)
out(x.device, torch.tensor([1.0]).is_floating_point(), torch.tensor([1]).is_floating_point())
out(len(torch.zeros(3, 2)))
err(lambda: len(torch.tensor(1.0)))
# ---
# binary ops broadcasting and scalars on either side, grads reduced
a = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
b = torch.tensor([[2.0], [4.0]], requires_grad=True)
for f in [
    lambda: a + b,
    lambda: a - b,
    lambda: a * b,
    lambda: a / b,
    lambda: a**b,
    lambda: 2 - a,
    lambda: 2 / a,
    lambda: 2**a,
    lambda: a**2,
    lambda: -a,
    lambda: a - 1,
    lambda: 1 + a,
    lambda: 3 * a,
    lambda: a / 2,
    lambda: a**0.5,
    lambda: a**0,
    lambda: a ** torch.tensor(2),
]:
    a.grad = None
    b.grad = None
    y = f()
    y.sum().backward()
    out(y, a.grad, b.grad)
# ---
# pow edge cases: zero base, negative base, int exponent tensor
x = torch.tensor([0.0, -2.0, 3.0], requires_grad=True)
y = x**2
y.sum().backward()
out(y, x.grad)
x.grad = None
y = x**0.5
y.sum().backward()
out(y, x.grad)
x.grad = None
y = torch.pow(x, 0)
y.sum().backward()
out(y, x.grad)
z = torch.tensor([0.0, 1.0], requires_grad=True)
e = torch.tensor([0.0, 2.0], requires_grad=True)
w = z**e
w.sum().backward()
out(w, z.grad, e.grad)
s = torch.tensor(2.0, requires_grad=True)
r = torch.pow(2.0, s)
r.backward()
out(r, s.grad)
out(torch.pow(torch.tensor([2, 3]), torch.tensor([2.0, 0.5])))
# ---
# unary ops values and grads incl edge values
x = torch.tensor([-1.0, 0.0, 0.5, 2.0], requires_grad=True)
for name in [
    "exp",
    "log",
    "log1p",
    "sqrt",
    "rsqrt",
    "sin",
    "cos",
    "tanh",
    "sigmoid",
    "relu",
    "abs",
    "sign",
    "reciprocal",
    "neg",
]:
    x.grad = None
    y = getattr(torch, name)(x)
    y.sum().backward()
    out(name, y, x.grad)
# ---
# unary on ints, bools, float16
i = torch.tensor([1, 4, 9])
out(
    torch.sqrt(i),
    torch.exp(i),
    torch.abs(torch.tensor([-1, 2])),
    torch.sign(torch.tensor([-3, 0, 2])),
    torch.neg(i),
)
out(torch.sigmoid(i), torch.tanh(i), torch.log(i), torch.reciprocal(i), torch.rsqrt(i))
out(torch.sqrt(torch.tensor([True, False])))
err(lambda: torch.abs(torch.tensor([True])))
h = torch.tensor([0.5, 2.0], dtype=torch.float16, requires_grad=True)
y = (h.exp() * h.sin()).sum()
y.backward()
out(y, h.grad)
out(torch.relu(i), torch.tensor([-1, 2]).relu())
# ---
# clamp / clip variants
x = torch.tensor([-2.0, -0.5, 0.5, 2.0], requires_grad=True)
y = x.clamp(-1, 1)
y.sum().backward()
out(y, x.grad)
x.grad = None
y = torch.clamp(x, min=0.0)
y.sum().backward()
out(y, x.grad)
x.grad = None
y = torch.clip(x, max=0.5)
y.sum().backward()
out(y, x.grad)
err(lambda: torch.clamp(x))
x.grad = None
lo = torch.tensor([0.0, 0.0, 1.0, 1.0], requires_grad=True)
y = torch.clamp(x, min=lo)
y.sum().backward()
out(y, x.grad, lo.grad)
out(
    torch.clamp(torch.tensor([1, 5, 9]), 2, 6),
    torch.clamp(torch.tensor([1, 5]), 2.5),
    torch.clamp(x, 1, -1),
)
x.grad = None
y = x.clamp(-0.5, 0.5)
y.sum().backward()
out(x.grad)
# ---
# maximum / minimum ties and where
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)
torch.maximum(a, b).sum().backward()
out(a.grad, b.grad)
a.grad = b.grad = None
torch.minimum(a, b).sum().backward()
out(a.grad, b.grad)
a.grad = b.grad = None
c = torch.where(a > 1.5, a, b * 2)
c.sum().backward()
out(c, a.grad, b.grad)
out(
    torch.where(torch.tensor([True, False]), 1.0, 0),
    torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), 2.5),
)
out(torch.where(torch.tensor([[True], [False]]), torch.tensor([1.0, 2.0]), torch.tensor(0.0)))
out(torch.where(torch.tensor([1, 0, 2])))
err(lambda: torch.where(torch.tensor([1.0, 0.0]), a, b))
out(
    torch.maximum(torch.tensor([1, 5]), torch.tensor([2.0, 3.0])),
    torch.maximum(torch.tensor([float("nan"), 1.0]), torch.tensor([0.0, 2.0])),
)
err(lambda: torch.maximum(a, 1.0))
# ---
# sum/mean/prod over dims, negative dims, keepdim, empty
x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
for y in [
    x.sum(),
    x.sum(-1),
    x.sum((0, 2)),
    x.sum(1, keepdim=True),
    x.mean(-2),
    x.mean((0, -1), keepdim=True),
    x.prod(1),
    x.sum(dim=()),
    x.mean(()),
]:
    out(y)
y = x.sum((0, 2)).sum() + x.mean(1).sum() + x.prod(-1).sum()
y.backward()
out(x.grad)
e = torch.zeros(0, 3, requires_grad=True)
out(e.sum(), e.sum(0), e.mean(0), e.prod(0), e.mean())
err(lambda: x.sum(3))
err(lambda: x.sum((0, 0)))
out(
    torch.tensor([1, 2, 3]).sum(),
    torch.tensor([True, True]).sum(),
    torch.tensor([1, 2], dtype=torch.int8).sum().dtype,
    torch.tensor([1, 2], dtype=torch.int8).prod().dtype,
)
err(lambda: torch.tensor([1, 2]).mean())
out(
    torch.tensor([1, 2]).sum(dtype=torch.float64),
    torch.tensor([1.0, 2.0]).mean(dtype=torch.float64),
)
s = torch.tensor(5.0, requires_grad=True)
out(s.sum(), s.sum(0), s.mean(-1), s.prod())
err(lambda: s.sum(1))
# ---
# prod gradient with zeros
x = torch.tensor([[2.0, 0.0, 3.0], [0.0, 0.0, 1.0], [1.0, 2.0, 3.0]], requires_grad=True)
x.prod(1).sum().backward()
out(x.grad)
x.grad = None
x.prod().backward()
out(x.grad)
z = torch.tensor([2.0, 0.0, 3.0], requires_grad=True)
z.prod().backward()
out(z.grad)
# ---
# var/std correction, unbiased, single element
x = torch.tensor([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]], requires_grad=True)
out(
    x.var(),
    x.std(),
    x.var(1),
    x.std(0, unbiased=False),
    x.var(1, keepdim=True),
    x.var(dim=1, correction=0),
    x.std(correction=2),
)
out(torch.var(x, 0, True), torch.std(x, unbiased=True), torch.var(x, dim=(0, 1)))
y = x.var(1).sum() + x.std(0).sum()
y.backward()
out(x.grad)
one = torch.tensor([3.0], requires_grad=True)
out(one.var(), one.std())
v = one.std()
v.backward()
out(one.grad)
err(lambda: torch.tensor([1, 2]).var())
# ---
# max/min values and indices, ties, nan
x = torch.tensor([[1.0, 3.0, 3.0], [2.0, -1.0, 0.0]], requires_grad=True)
r = x.max(1)
out(r.values, r.indices, r[0], r[1], type(r).__name__)
r.values.sum().backward()
out(x.grad)
x.grad = None
m = x.max()
m.backward()
out(m, x.grad)
x.grad = None
vals, idx = torch.min(x, dim=0, keepdim=True)
vals.sum().backward()
out(vals, idx, x.grad)
out(torch.max(x, torch.zeros(3)), torch.min(x, -1))
out(torch.tensor([1.0, float("nan"), 2.0]).max(), torch.tensor([1.0, float("nan")]).max(0))
err(lambda: torch.zeros(0).max())
err(lambda: torch.zeros(0, 3).max(0))
out(torch.zeros(0, 3).max(1))
out(
    torch.tensor([3, 1, 2]).max(),
    torch.tensor([True, False]).max(),
    torch.tensor([[1, 5], [7, 2]]).argmax(),
    torch.tensor([[1, 5], [7, 2]]).argmin(1),
)
print(torch.max(x, 1))
# ---
# amax amin ties split gradient
x = torch.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]], requires_grad=True)
y = x.amax(1)
y.sum().backward()
out(y, x.grad)
x.grad = None
y = torch.amin(x, dim=(0, 1))
y.backward()
out(y, x.grad)
x.grad = None
y = x.amax()
y.backward()
out(y, x.grad)
out(x.amax(-1, keepdim=True), x.amin(()), torch.amax(torch.tensor([1, 2]), 0))
err(lambda: torch.zeros(0).amax())
out(torch.zeros(0, 2).amax(1))
# ---
# logsumexp softmax log_softmax extremes and dims
x = torch.tensor(
    [[1000.0, 1000.0], [-1000.0, 0.0], [float("-inf"), float("-inf")]], requires_grad=True
)
out(torch.logsumexp(x, 1), torch.softmax(x, 1), torch.log_softmax(x, -1), x.softmax(0))
y = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
(
    torch.logsumexp(y, 1).sum() + torch.softmax(y, -1)[0, 0] + torch.log_softmax(y, 1)[0, 2]
).backward()
out(y.grad)
out(
    torch.logsumexp(y, (0, 1)),
    torch.logsumexp(y, 1, keepdim=True),
    torch.softmax(y, dim=1, dtype=torch.float64),
)
out(
    torch.softmax(torch.tensor(2.0), 0),
    torch.log_softmax(torch.zeros(0, 3), 1),
    torch.logsumexp(torch.zeros(0, 3), 0),
)
err(lambda: torch.softmax(torch.tensor([1, 2]), 0))
out(torch.logsumexp(torch.tensor([1, 2]), 0))
out(
    torch.softmax(y, -1).grad_fn.name(),
    torch.log_softmax(y, -1).grad_fn.name(),
    torch.logsumexp(y, 1).grad_fn.name(),
)
# ---
# norm variants
x = torch.tensor([[3.0, -4.0], [0.0, 0.0]], requires_grad=True)
out(
    x.norm(),
    x.norm(1),
    x.norm(dim=1),
    x.norm(p=float("inf")),
    x.norm(2, 0, keepdim=True),
    torch.norm(x, p="fro"),
    x.norm(0),
)
x.norm(dim=1).sum().backward()
out(x.grad)
x.grad = None
x.norm(1).backward()
out(x.grad)
z = torch.zeros(3, requires_grad=True)
z.norm().backward()
out(z.grad)
err(lambda: torch.tensor([1, 2]).norm())
out(x.norm(float("inf"), 1), x.norm(-float("inf")), x.norm(3))
# ---
# matmul family shapes and grads
a = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
b = torch.tensor([3.0, 1.0, -1.0], requires_grad=True)
M = (torch.arange(6.0).view(2, 3) / 5).requires_grad_()
N = (torch.arange(12.0).view(3, 4).cos()).requires_grad_()
B1 = (torch.arange(30.0).view(5, 2, 3).sin()).requires_grad_()
B2 = (torch.arange(60.0).view(5, 3, 4) / 60).requires_grad_()
for y in [
    a @ b,
    M @ a,
    a @ N,
    M @ N,
    B1 @ N,
    B1 @ B2,
    torch.matmul(B1, a),
    torch.mm(M, N),
    torch.bmm(B1, B2),
    torch.dot(a, b),
    torch.outer(a, b),
    torch.addmm(torch.zeros(4), M, N),
    torch.addmm(torch.zeros(2, 4), M, N, beta=0.5, alpha=2.0),
]:
    out(y.shape, y.grad_fn.name())
    y.sum().backward()
out(a.grad, M.grad, N.grad, B1.grad.shape, B2.grad.sum())
# ---
# matmul errors
err(lambda: torch.randn(2, 3) @ torch.randn(2, 3))
err(lambda: torch.mm(torch.randn(3), torch.randn(3, 2)))
err(lambda: torch.bmm(torch.randn(2, 3), torch.randn(3, 2)))
err(lambda: torch.dot(torch.randn(3), torch.randn(4)))
err(lambda: torch.dot(torch.randn(3), torch.randn(3, 1)))
err(lambda: torch.dot(torch.ones(3), torch.ones(3, dtype=torch.float64)))
err(lambda: torch.tensor(1.0) @ torch.tensor(2.0))
err(lambda: torch.mm(torch.ones(2, 2), torch.ones(2, 2, dtype=torch.float64)))
err(lambda: torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.int64))
out(
    torch.tensor([[1, 2]]) @ torch.tensor([[3], [4]]),
    torch.zeros(0, 3) @ torch.zeros(3, 2),
    torch.zeros(2, 0) @ torch.zeros(0, 3),
)
out(torch.outer(torch.tensor([1, 2]), torch.tensor([1.0, 2.0])))
err(lambda: torch.addmm(torch.zeros(3), torch.ones(2, 2), torch.ones(2, 2)))
# ---
# matmul on transposed and 1-d broadcasting grads
x = torch.arange(12.0).view(4, 3).t().requires_grad_()
w = torch.arange(8.0).view(4, 2).requires_grad_()
y = x @ w
y.backward(torch.ones_like(y))
out(x.is_leaf, x.grad, w.grad)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
m = torch.arange(120.0).view(2, 4, 3, 5).requires_grad_()
(v @ m).sum().backward()
out((v @ m).shape, v.grad.shape, m.grad.shape)
# ---
# views and shape ops
x = torch.arange(12.0, requires_grad=True)
y = x.view(3, 4)
out(
    y,
    y.view(-1, 2).shape,
    x.view(2, -1, 3).shape,
    y.reshape(4, 3).shape,
    y.view_as(torch.zeros(6, 2)).shape,
)
err(lambda: x.view(5, -1))
err(lambda: x.view(-1, -1))
err(lambda: y.t().view(12))
out(
    y.t().reshape(12),
    y.t().reshape(12).grad_fn.name(),
    y.reshape(12).grad_fn.name(),
    y.flatten().grad_fn.name(),
)
out(
    y.flatten(),
    torch.flatten(torch.zeros(2, 3, 4), 1).shape,
    torch.zeros(2, 3, 4).flatten(0, 1).shape,
    torch.tensor(1.0).flatten().shape,
    torch.zeros(2, 3, 4).flatten(-2).shape,
)
out(
    y.permute(1, 0).shape,
    y.permute(-1, 0).grad_fn.name(),
    y.transpose(0, 1).grad_fn.name(),
    y.t().grad_fn.name(),
    y.T.grad_fn.name(),
)
err(lambda: y.permute(0, 0))
err(lambda: y.permute(0))
err(lambda: torch.zeros(2, 3, 4).t())
out(y.unsqueeze(0).shape, y.unsqueeze(-1).shape, y.unsqueeze(2).shape, y.unsqueeze(-3).shape)
err(lambda: y.unsqueeze(3))
z = torch.zeros(1, 3, 1, requires_grad=True)
out(
    z.squeeze().shape,
    z.squeeze(0).shape,
    z.squeeze(1).shape,
    z.squeeze(-1).shape,
    z.squeeze((0, 2)).shape,
    z.squeeze().grad_fn.name(),
    z.squeeze(0).grad_fn.name(),
)
out(
    z.expand(2, 3, 4).shape,
    z.expand(-1, -1, 5).shape,
    z.expand(2, 1, 3, 1).shape,
    z.expand_as(torch.zeros(4, 3, 2)).shape,
    z.expand(2, 3, 4).grad_fn.name(),
)
err(lambda: z.expand(2, 4, 1))
err(lambda: z.expand(3, 1))
(y.t().reshape(12) * torch.arange(12.0)).sum().backward()
out(x.grad)
x.grad = None
z.expand(2, 3, 4).sum().backward()
out(z.grad)
# ---
# cat stack split chunk
a = torch.ones(2, 3, requires_grad=True)
b = torch.zeros(1, 3, requires_grad=True)
c = torch.cat([a, b])
d = torch.cat((a, a), dim=-1)
out(c, d.shape, c.grad_fn.name(), torch.cat([a, torch.zeros(0)]).shape, torch.cat([a]).shape)
err(lambda: torch.cat([a, torch.zeros(2, 2)]))
err(lambda: torch.cat([]))
err(lambda: torch.cat([a, b], dim=2))
out(
    torch.cat([torch.tensor([1]), torch.tensor([1.5])]),
    torch.cat([torch.tensor([True]), torch.tensor([2])]),
)
s = torch.stack([a, a * 2], 1)
out(
    s.shape,
    s.grad_fn.name(),
    torch.stack([a, a], -1).shape,
    torch.stack([torch.tensor(1.0), torch.tensor(2.0)]),
)
err(lambda: torch.stack([a, b]))
err(lambda: torch.stack([]))
(c.sum() + (s * torch.arange(12.0).view(2, 2, 3)).sum()).backward()
out(a.grad, b.grad)
x = torch.arange(10.0, requires_grad=True)
p = x.split(3)
q = torch.split(x, [2, 8])
r = x.chunk(3)
t = x.chunk(4)
out(
    p,
    q,
    r,
    t,
    len(torch.arange(5.0).chunk(10)),
    [u.grad_fn.name() for u in p],
    [u.grad_fn.name() for u in q],
)
err(lambda: x.split([2, 2]))
err(lambda: x.chunk(0))
(p[0].sum() * 2 + q[1].sum() + r[2].sum() * 3).backward()
out(x.grad)
out(
    torch.zeros(0).split(2),
    torch.zeros(0).chunk(2),
    torch.zeros(4, 6).split(4, 1)[1].shape,
    torch.zeros(5).split(0) if False else 1,
)
# ---
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
# comparison ops no grad
x = torch.tensor([1.0, 2.0, float("nan")], requires_grad=True)
for r in [
    x > 1,
    x >= 2,
    x < 2,
    x <= 1,
    x == 2,
    x != 2,
    x > torch.tensor([0.0, 3.0, 0.0]),
    torch.eq(x, 1.0),
    torch.gt(x, 1),
    x.lt(2),
    1 < x,  # noqa: SIM300 (the reflected comparison is the point)
    torch.tensor([1, 2]) == torch.tensor([1.0, 2.5]),
]:
    out(r)
out(
    torch.equal(x, x),
    torch.equal(torch.tensor([1, 2]), torch.tensor([1.0, 2.0])),
    torch.allclose(torch.tensor([1.0]), torch.tensor([1.0 + 1e-9])),
)
out((x > 1).requires_grad, (x == x).dtype)
err(lambda: x > torch.ones(2))
# ---
# repr forms
x = torch.tensor([1.0], requires_grad=True)
print(x.exp())
print(x.exp().sum() + 1)
print(torch.tensor(3.7183, requires_grad=True))
print(torch.tensor([1.0, 2.0]) * 1e10)
print(torch.tensor([1e-5, 1.0]))
print(torch.tensor([[1.5, -2.0], [3.0, 4.25]], dtype=torch.float64))
print(torch.tensor([1, 2], dtype=torch.int32))
print(torch.tensor([1.0, float("nan"), float("inf")]))
print(torch.arange(2000.0))
print(torch.zeros(2, 3, requires_grad=True).sum(1))
print(torch.tensor([0.1, 0.25], dtype=torch.float16, requires_grad=True) * 2)
print(x.detach(), x.view(1, 1), x[0], x.clone())
print(torch.tensor(True), torch.tensor([], dtype=torch.int64), torch.empty(2, 0, 3))
print(repr(torch.float32), torch.int64, torch.device("cpu"), x.dtype, x.shape)
with torch.no_grad():
    print(x * 2)
print(torch.tensor([123456789.0]), torch.tensor([1.0e-10, 1.0]), torch.tensor([100.0, 0.001]))
# ---
# dtype conversion and to
x = torch.tensor([1.7, -2.5], requires_grad=True)
for y in [
    x.to(torch.float64),
    x.double(),
    x.float(),
    x.long(),
    x.int(),
    x.half(),
    x.bool(),
    x.to(torch.int8),
    x.to(dtype=torch.float16),
    x.type(torch.float64),
    x.to("cpu"),
    x.to(torch.zeros(1, dtype=torch.float64)),
]:
    out(y)
(x.double() * 2 + x.half().float()).sum().backward()
out(x.grad, x.to(torch.float32) is x, x.float() is x)
out(
    torch.tensor([300]).to(torch.uint8),
    torch.tensor([1.9, -1.9]).long(),
    torch.tensor([2.5]).to(torch.bool),
    torch.tensor([70000.0]).half(),
)
err(lambda: x.to("cuda:7"))
out(x.to(torch.float64).grad_fn.name(), x.long().requires_grad)
# ---
# graph structure: next_functions, AccumulateGrad, variable, name, callable nodes
A = torch.tensor([2.0], requires_grad=True)
B = torch.tensor([3.0], requires_grad=True)
E = torch.tensor([1.0], requires_grad=True)
C = A * B
D = C.exp()
F = D + E
out([t.is_leaf for t in (A, B, C, D, E, F)], F.grad_fn.name(), type(F.grad_fn).__name__)
nf = F.grad_fn.next_functions
out(
    len(nf),
    nf[0][0].name(),
    nf[0][1],
    nf[1][0].name(),
    nf[1][0].variable is E,
    type(nf[1][0]).__name__,
)
out(C.grad_fn.next_functions[0][0].variable is A, D.grad_fn.next_functions[0][0] is C.grad_fn)
g = F.grad_fn(torch.tensor([1.0]))
out(g)
out(D.grad_fn(torch.tensor([2.0])), C.grad_fn(torch.tensor([1.0])))
x = torch.tensor(1.0, requires_grad=True)
y = x * 2 + torch.tensor(3.0)
out(
    [(None if n is None else n.name(), i) for n, i in y.grad_fn.next_functions],
    (x * 2).grad_fn.next_functions[1],
)
print(
    [(None if n is None else n.name(), i) for n, i in y.grad_fn.next_functions[0][0].next_functions]
)
out(A.grad_fn, torch.tensor(1.0).grad_fn, (A.detach() * 2).grad_fn)
z = A + 1
out(z.grad_fn.next_functions[0][0].name(), len(z.grad_fn.next_functions))
w = A.sum() + B.sum()
out(w.grad_fn.name(), [n[0].name() for n in w.grad_fn.next_functions])
F.backward()
out(A.grad, B.grad, E.grad, C.grad, D.grad)
# ---
# backward: implicit grad only for scalar; gradient arg shape; retain_graph
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * x
err(lambda: y.backward())
err(lambda: y.backward(torch.ones(3)))
err(lambda: y.backward(torch.ones(2, 1)))
y.backward(torch.tensor([1.0, 0.5]), retain_graph=True)
out(x.grad)
y.backward(torch.ones(2))
out(x.grad)
err(lambda: y.backward(torch.ones(2)))
z = torch.tensor([[3.0]], requires_grad=True)
(z * 2).backward()
out(z.grad)
e = torch.zeros(0, requires_grad=True)
err(lambda: (e * 2).backward())
err(lambda: torch.tensor(1.0).backward())
err(lambda: (x.detach() * 2).sum().backward())
y2 = (x * 2).sum()
y2.backward(torch.tensor(3.0))
out(x.grad)
y3 = (x * 3).sum()
err(lambda: y3.backward(torch.tensor([1.0])))
# ---
# graph that saved nothing can be run twice; freed graph message names node
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x + 1).sum()
y.backward()
y.backward()
out(x.grad)
z = (x * x).sum()
z.backward()
try:
    z.backward()
except RuntimeError as e:
    print(str(e).split(".")[0])
w = x.exp().sum()
w.backward(retain_graph=False)
err(lambda: w.backward())
u = x.sin()
v = u.sum()
torch.autograd.grad(v, x)
err(lambda: torch.autograd.grad(v, x))
# ---
# autograd.backward and autograd.grad forms
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
a = (x * y).sum()
b = x.pow(2)
torch.autograd.backward([a, b], [torch.tensor(1.0), torch.tensor([1.0, 2.0])])
out(x.grad, y.grad)
x.grad = None
y.grad = None
torch.autograd.backward((x * y).sum())
out(x.grad, y.grad)
x.grad = None
y.grad = None
torch.autograd.backward((x * y).sum(), inputs=[y])
out(x.grad, y.grad)
err(lambda: torch.autograd.backward([(x * 2).sum(), x * 3], [torch.tensor(1.0)]))
err(lambda: torch.autograd.backward(x * 2))
g = torch.autograd.grad((x * y).sum(), (x, y))
out(g, type(g).__name__)
g = torch.autograd.grad((x * y).sum(), x)
out(g, type(g).__name__)
g = torch.autograd.grad([(x * y).sum(), x.sum()], [x])
out(g)
g = torch.autograd.grad(x * y, x, torch.tensor([1.0, -1.0]))
out(g)
g = torch.autograd.grad((x * y).sum(), [x, y], retain_graph=True, create_graph=True)
out(g)
err(lambda: torch.autograd.grad((x * 2).sum(), [x, y]))
out(torch.autograd.grad((x * 2).sum(), [x, y], allow_unused=True))
out(torch.autograd.grad((x * 2).sum(), [x, y], allow_unused=True, materialize_grads=True))
out(torch.autograd.grad((x * 2).sum(), [x, y], materialize_grads=True))
err(lambda: torch.autograd.grad((x * 2).sum(), [x, y], allow_unused=False, materialize_grads=True))
err(lambda: torch.autograd.grad(x * 2, x))
err(lambda: torch.autograd.grad((x * 2).sum(), torch.tensor(1.0)))
err(lambda: torch.autograd.grad(torch.tensor(1.0), x))
err(lambda: torch.autograd.grad([], x))
out(x.grad, y.grad)
c = x * 2
d = (c * c).sum()
out(torch.autograd.grad(d, c, retain_graph=True), torch.autograd.grad(d, [c, x]))
out(c.grad)
# ---
# accumulation and non-leaf grads
x = torch.tensor([1.0, 2.0], requires_grad=True)
for _ in range(3):
    (x * x).sum().backward()
out(x.grad)
x.grad.zero_()
y = x * 3
y.retain_grad()
z = y.sum() + y[0]
z.backward()
out(x.grad, y.grad, y.is_leaf, y.retains_grad, x.retains_grad)
y2 = x + 1
out(y2.grad)
x.grad = None
(x.sum() + x.sum()).backward()
out(x.grad)
x.grad = torch.tensor([10.0, 10.0])
x.sum().backward()
out(x.grad)
err(lambda: setattr(x, "grad", torch.zeros(3)))
err(lambda: setattr(x, "grad", torch.zeros(2, dtype=torch.float64)))
err(lambda: setattr(x, "grad", [1.0, 2.0]))
x.retain_grad()
out(x.retains_grad)
# ---
# double and higher derivatives with create_graph
x = torch.tensor(2.0, requires_grad=True)
y = x**3
(g1,) = torch.autograd.grad(y, x, create_graph=True)
(g2,) = torch.autograd.grad(g1, x, create_graph=True)
(g3,) = torch.autograd.grad(g2, x)
out(g1, g2, g3)
x.grad = None
z = (x.sin() * x.exp()).sum()
z.backward(create_graph=True)
gx = x.grad
out(gx, gx.requires_grad, gx.grad_fn is not None)
x.grad = None
gx.backward()
out(x.grad)
w = torch.tensor([1.0, 2.0], requires_grad=True)
g = torch.autograd.grad((w.tanh() * w).sum(), w, create_graph=True)[0]
h = torch.autograd.grad(g.sum(), w)[0]
out(g, h)
v = torch.tensor([0.5, 1.5], requires_grad=True)
gg = torch.autograd.grad((v.sigmoid() ** 2).sum(), v, create_graph=True)[0]
out(gg, torch.autograd.grad(gg.sum(), v))
q = torch.tensor([1.0, 2.0], requires_grad=True)
r = (q * 2).sum()
g = torch.autograd.grad(r, q, create_graph=True)[0]
out(g, g.requires_grad)
err(lambda: torch.autograd.grad(g.sum(), q))
err(lambda: torch.autograd.grad(g.sum(), q, allow_unused=True))


# ---
# Function: ctx attributes, needs_input_grad, non-tensor args, several outputs
class F2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k, y, flag=True):
        ctx.k = k
        ctx.flag = flag
        ctx.save_for_backward(x, y)
        out(ctx.needs_input_grad)
        return x * k + y, x - y

    @staticmethod
    def backward(ctx, ga, gb):
        x, y = ctx.saved_tensors
        out(ctx.needs_input_grad, ga, gb)
        return ga * ctx.k + gb, None, ga - gb, None


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0])
a, b = F2.apply(x, 2.0, y)
out(a, b, type(a.grad_fn).__name__, a.grad_fn is b.grad_fn, a.grad_fn.name())
(a.sum() + b.sum() * 2).backward()
out(x.grad, y.grad)
y.requires_grad_()
a, b = F2.apply(x, 3.0, y, False)
a.sum().backward()
out(x.grad, y.grad)
print(a)


# ---
# Function: set_materialize_grads and unused outputs
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, materialize):
        ctx.set_materialize_grads(materialize)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        out(g1 is None, g2 is None)
        r = 0
        if g1 is not None:
            r = r + g1 * 2
        if g2 is not None:
            r = r + g2 * 3
        return r, None


x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b = Two.apply(x, True)
a.sum().backward()
out(x.grad)
x.grad = None
a, b = Two.apply(x, False)
a.sum().backward()
out(x.grad)


# ---
# Function: mark_non_differentiable, mark_dirty
class Sorted(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i

    @staticmethod
    def backward(ctx, gv, gi):
        (i,) = ctx.saved_tensors
        out(gi)
        g = torch.zeros_like(gv)
        g[i] = gv
        return g


x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = Sorted.apply(x)
out(v, i, v.requires_grad, i.requires_grad, i.grad_fn)
(v * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
out(x.grad)


class AddOne(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 1
c = AddOne.apply(b)
out(c is b, b, b.grad_fn.name(), b._version if hasattr(b, "_version") else None)
c.sum().backward()
out(a.grad)
err(lambda: AddOne.apply(a))


# ---
# Function: errors naming the function
class WrongCount(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, g


class WrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return torch.ones(5)


class WrongType(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return 1.0


class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2


class ReturnsNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return None


x = torch.ones(3, requires_grad=True)
for F_ in [WrongCount, WrongShape, WrongType, NoBackward]:
    try:
        F_.apply(x).sum().backward()
    except Exception as e:
        print(type(e).__name__, F_ is WrongType or F_.__name__ in str(e))
r = ReturnsNone.apply(x)
r.sum().backward()
out(x.grad)
out(WrongShape.apply(x).grad_fn.name())
err(lambda: WrongCount.forward(None, x))


# ---
# Function: once_differentiable, double backward through custom Function
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x**2


class CubeOnce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x**2


x = torch.tensor([1.0, 2.0], requires_grad=True)
(g,) = torch.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
out(g, g.grad_fn.name())
out(torch.autograd.grad(g.sum(), x))
(g2,) = torch.autograd.grad(CubeOnce.apply(x).sum(), x, create_graph=True)
out(g2, g2.requires_grad)
err(lambda: g2.sum().backward())
(g3,) = torch.autograd.grad(CubeOnce.apply(x).sum(), x)
out(g3)


# ---
# Function: apply without grad, non tensor output, inputs not requiring grad
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, s):
        return x * s

    @staticmethod
    def backward(ctx, g):
        return g * 2, None


x = torch.tensor([1.0], requires_grad=True)
with torch.no_grad():
    y = Scale.apply(x, 2)
out(y, y.requires_grad, y.grad_fn)
z = Scale.apply(torch.tensor([1.0]), 2)
out(z, z.requires_grad, z.grad_fn)
w = Scale.apply(x, 2)
out(w.grad_fn.next_functions[0][0].variable is x, len(w.grad_fn.next_functions))


class ReturnsInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 5


r = ReturnsInput.apply(x)
out(r is x, r, r.grad_fn.name() if r.grad_fn is not None else None)
r.sum().backward()
out(x.grad)


class ViewOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1)

    @staticmethod
    def backward(ctx, g):
        return g.view(1, 2) * 2


m = torch.ones(1, 2, requires_grad=True)
v = ViewOut.apply(m)
out(v, v.is_leaf)
v.sum().backward()
out(m.grad)
# ---
# grad modes: context manager, decorator, plain call, nesting, exceptions
x = torch.tensor([1.0], requires_grad=True)
with torch.no_grad():
    a = x * 2
    with torch.enable_grad():
        b = x * 2
    c = x * 2
out(a.requires_grad, b.requires_grad, c.requires_grad, torch.is_grad_enabled())


@torch.no_grad()
def f(t):
    return t * 2, torch.is_grad_enabled()


@torch.no_grad
def f2(t):
    return t * 2


out(f(x)[0].requires_grad, f(x)[1], f2(x).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False)
out((x * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    out((x * 2).requires_grad)
out(torch.is_grad_enabled())


@torch.set_grad_enabled(False)
def g(t):
    return t * 2


out(g(x).requires_grad, torch.is_grad_enabled())


@torch.enable_grad()
def h(t):
    return t * 2


with torch.no_grad():
    out(h(x).requires_grad)
try:
    with torch.no_grad():
        raise ValueError
except ValueError:
    pass
out(torch.is_grad_enabled())
with torch.no_grad():
    y = x + 1
    out(y.requires_grad, y.grad_fn, y.is_leaf)
    x2 = torch.ones(2, requires_grad=True)
    out(x2.requires_grad, x2.is_leaf)
    x.mul_(2)
out(x, x.grad_fn, x.is_leaf)
# ---
# inference_mode
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.inference_mode():
    y = x * 2
    out(
        torch.is_grad_enabled(),
        torch.is_inference_mode_enabled(),
        y.requires_grad,
        y.is_inference(),
    )
out(torch.is_inference_mode_enabled(), x.is_inference(), torch.is_grad_enabled())
err(lambda: (y * x).sum().backward())
with torch.inference_mode(False):
    out(torch.is_grad_enabled(), (x * 2).requires_grad)


@torch.inference_mode()
def f(t):
    return t * 3


out(f(x).requires_grad, f(x).is_inference())
err(lambda: y.add_(1))
z = y.clone()
out(z.is_inference(), z.requires_grad)
with torch.no_grad():
    with torch.inference_mode():
        pass
    out(torch.is_grad_enabled())
# ---
# grad mode thread local
import threading

res = []


def worker():
    res.append(torch.is_grad_enabled())
    with torch.no_grad():
        res.append(torch.is_grad_enabled())


with torch.no_grad():
    t = threading.Thread(target=worker)
    t.start()
    t.join()
    res.append(torch.is_grad_enabled())
out(res, torch.is_grad_enabled())
# ---
# requires_grad_, detach, detach_, clone, contiguous
x = torch.tensor([1.0, 2.0])
out(x.requires_grad_(), x.requires_grad, x.is_leaf)
x.requires_grad_(False)
out(x.requires_grad)
err(lambda: torch.tensor([1, 2]).requires_grad_())
out(torch.tensor([1, 2]).requires_grad_(False))
x.requires_grad = True
y = x * 2
err(lambda: y.requires_grad_(False))
err(lambda: setattr(y, "requires_grad", False))
out(y.requires_grad_(True).grad_fn.name())
d = y.detach()
out(d, d.requires_grad, d.is_leaf, d.grad_fn)
d[0] = 100.0
out(y)
z = x * 3
z.detach_()
out(z, z.requires_grad, z.is_leaf, z.grad_fn)
c = x.clone()
out(c, c.grad_fn.name(), c.is_leaf)
c.sum().backward()
out(x.grad)
t = torch.arange(6.0).view(2, 3).t()
tc = t.contiguous()
out(t.is_contiguous(), tc.is_contiguous(), tc, x.contiguous() is x)
q = t.requires_grad_().contiguous()
out(q.grad_fn.name())
err(lambda: torch.zeros(2, dtype=torch.int32).requires_grad_(True))
err(lambda: torch.tensor([1.0], dtype=torch.float16).requires_grad_())
out(torch.tensor([1.0], dtype=torch.float16).requires_grad_())
# ---
# in-place ops values, versions, grad_fn rebase
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
v0 = y._version
y.add_(1)
y.mul_(torch.tensor([1.0, 2.0, 3.0]))
y.sub_(0.5, alpha=2)
y.div_(2)
out(y, y._version - v0, y.grad_fn.name())
y.clamp_(0, 5)
y.relu_()
out(y, y.grad_fn.name())
y.sum().backward()
out(x.grad)
z = torch.zeros(3)
z.fill_(2.5)
z.copy_(torch.tensor([1, 2, 3]))
out(z, z._version)
z.zero_()
out(z, z._version)
w = torch.tensor([1.0, 2.0], requires_grad=True) * 1
w.fill_(3.0)
out(w.grad_fn.name())
w2 = torch.tensor([1.0, 2.0], requires_grad=True) * 1
w2.zero_()
out(w2.grad_fn.name())
q = torch.ones(2)
src = torch.tensor([2.0, 3.0], requires_grad=True)
q.copy_(src)
out(q, q.requires_grad, q.grad_fn.name(), q.is_leaf)
(q * q).sum().backward()
out(src.grad)
# ---
# in-place dtype rules and broadcasting
i = torch.tensor([1, 2])
err(lambda: i.add_(1.5))
err(lambda: i.div_(2))
err(lambda: i.mul_(torch.tensor([1.5, 2.0])))
f = torch.tensor([1.0, 2.0])
f.add_(torch.tensor([1, 1]))
out(f)
f.mul_(torch.tensor(2.0, dtype=torch.float64))
out(f)
err(lambda: f.add_(torch.ones(2, 2)))
m = torch.ones(2, 2)
m.add_(torch.tensor([1.0, 2.0]))
out(m)
b = torch.tensor([True, False])
err(lambda: b.add_(1))
h = torch.tensor([1.0], dtype=torch.float16)
h.add_(1e-4)
out(h)
i.add_(2)
out(i, i._version)
err(lambda: i.copy_([1, 2]))
i.copy_(torch.tensor([1.7, -2.7]))
out(i)
# ---
# in-place on leaf requiring grad raises; under no_grad allowed
x = torch.tensor([1.0, 2.0], requires_grad=True)
err(lambda: x.add_(1))
err(lambda: x.zero_())
err(lambda: x.fill_(0))
err(lambda: x.copy_(torch.ones(2)))
err(lambda: x.__setitem__(0, 5.0))
err(lambda: x[0].add_(1))
err(lambda: x.view(2).mul_(2))
err(lambda: x.relu_())
with torch.no_grad():
    x.add_(1)
    x[0] = 10.0
    x.view(2).mul_(2)
out(x, x.is_leaf, x.grad_fn, x._version)
x.data.add_(1)
out(x, x._version)
x.detach().mul_(2)
out(x, x._version)
# ---
# saved tensor modified in place: error at backward
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 1
c = b.sin()
b.add_(1)
try:
    c.sum().backward()
except RuntimeError as e:
    print(str(e)[:420])
d = a.exp()
d.mul_(2)
try:
    d.sum().backward()
except RuntimeError as e:
    print(str(e)[:420])
e = a * 1
f = e * e
e[0] = 0.0
err(lambda: f.sum().backward())
g = a * 1
h = g + 1
g.add_(1)
h.sum().backward()
out(a.grad)
p = a.detach()
k = a.sigmoid()
k2 = k * 2
k.detach().zero_()
err(lambda: k2.sum().backward())
s = a * 2
t = s.tanh()
s2 = s.view(2)
s2.mul_(3)
err(lambda: t.sum().backward())
# ---
# version counter shared with views and detach; in place through view
x = torch.zeros(2, 3)
v = x[0]
d = x.detach()
t = x.t()
out(x._version, v._version, d._version, t._version)
v.add_(1)
out(x._version, v._version, d._version, t._version)
d.mul_(2)
out(x._version, v._version, d._version, t._version, x)
t[1, 1] = 7
out(x, x._version, v._version)
r = x.reshape(6)
r[0] = -1.0
out(x, x._version)
e = x.expand(2, 2, 3)
out(e._version)
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
# retain_graph combinations
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
z = y.sum()
z.backward(retain_graph=True)
z.backward(retain_graph=True)
z.backward()
out(x.grad)
err(lambda: z.backward())
y2 = x.sin()
a = y2.sum()
b = (y2 * 2).sum()
a.backward()
err(lambda: b.backward())
x.grad = None
y3 = x.cos()
torch.autograd.grad(y3.sum(), x, retain_graph=True)
g = torch.autograd.grad(y3.sum(), x)
out(g)
c = x.pow(2).sum()
c.backward(create_graph=True)
c.backward()
out(x.grad.detach())


# ---
# gradcheck: seed sigmoid float32 eps
class Sigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        output = 1 / (1 + torch.exp(-x))
        ctx.save_for_backward(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        (output,) = ctx.saved_tensors
        return grad_output * output * (1 - output)


for dtype in (torch.float32, torch.float64):
    x = torch.tensor([0.5, -1.0, 2.0], dtype=dtype, requires_grad=True)
    for eps in (1e-3, 1e-4):
        ok = torch.autograd.gradcheck(
            Sigmoid.apply, (x,), eps=eps, atol=1e-4, raise_exception=False
        )
        out(str(dtype), eps, ok)
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
err(lambda: torch.autograd.gradcheck(Sigmoid.apply, (x,), eps=1e-4, atol=1e-4))


# ---
# gradcheck failure message names output/input index
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y, x + y

    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2, g2


x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
y = torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)
try:
    torch.autograd.gradcheck(Bad.apply, (x, y))
except Exception as e:
    print(type(e).__name__)
    print(str(e).splitlines()[0])
out(torch.autograd.gradcheck(Bad.apply, (x, y), raise_exception=False))
out(torch.autograd.gradcheck(lambda a, b: (a * b, a + b), (x, y)))
out(
    torch.autograd.gradcheck(torch.sin, x),
    torch.autograd.gradcheck(torch.sin, (x,), fast_mode=True),
)
out(torch.autograd.gradgradcheck(lambda a, b: (a * b).sin(), (x, y)))
out(
    torch.autograd.gradgradcheck(
        torch.tanh, (x,), grad_outputs=torch.tensor([1.0, -1.0], dtype=torch.float64)
    )
)
# ---
# gradcheck edge cases: non-tensor inputs, inputs not requiring grad, int inputs, float32 warning
x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
k = torch.tensor([3.0, 4.0], dtype=torch.float64)
out(torch.autograd.gradcheck(lambda a, b, s: a * b * s, (x, k, 2.0)))
err(lambda: torch.autograd.gradcheck(lambda a: a * 2, (k,)))
out(torch.autograd.gradcheck(lambda a, i: a * i, (x, torch.tensor([1, 2]))))
out(torch.autograd.gradcheck(lambda a: a.sum(), (x,)))
out(torch.autograd.gradcheck(lambda a: (a[0], a[1] * 2), (x,)))
out(
    torch.autograd.gradcheck(
        lambda a: a.abs(), (torch.tensor([1.0, -2.0], dtype=torch.float64, requires_grad=True),)
    )
)
err(lambda: torch.autograd.gradcheck(lambda a: a.detach() * 2, (x,)))
out(torch.autograd.gradcheck(lambda a: a.detach() * 2, (x,), raise_exception=False))
e = torch.zeros(0, dtype=torch.float64, requires_grad=True)
out(torch.autograd.gradcheck(lambda a: a * 2, (e,)))
out(
    torch.autograd.gradcheck(
        lambda a: a * 2, (torch.tensor(3.0, dtype=torch.float64, requires_grad=True),)
    )
)


class NotDouble(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 2 * x


out(torch.autograd.gradcheck(NotDouble.apply, (x,)))
err(lambda: torch.autograd.gradgradcheck(NotDouble.apply, (x,)))
out(torch.autograd.gradgradcheck(NotDouble.apply, (x,), raise_exception=False))
# ---
# backward with inputs= on leaves and non-leaves
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
h = x * w
y = (h * h).sum()
y.backward(inputs=[h], retain_graph=True)
out(x.grad, w.grad, h.grad)
y.backward(inputs=[x], retain_graph=True)
out(x.grad, w.grad)
y.backward(inputs=x)
out(x.grad)
err(lambda: (x * 2).sum().backward(inputs=[]))
z = (x * 2).sum()
err(lambda: z.backward(inputs=[torch.tensor(1.0)]))
c = torch.tensor(1.0, requires_grad=True)
(x.sum() * 1).backward(inputs=[c])
out(c.grad)
# ---
# autograd.grad on non-leaf input with hooks and retain_grad interplay
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
y.retain_grad()
z = (y * 3).sum()
(gy,) = torch.autograd.grad(z, y, retain_graph=True)
out(gy, y.grad, x.grad)
(gx,) = torch.autograd.grad(z, x, grad_outputs=torch.tensor(2.0))
out(gx, y.grad)
# ---
# is_grads_batched
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x**2
(g,) = torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True)
out(g)
# ---
# grad_fn on various ops names
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
names = [
    (x + 1).grad_fn.name(),
    (1 + x).grad_fn.name(),
    (x - 1).grad_fn.name(),
    (1 - x).grad_fn.name(),
    (x * 2).grad_fn.name(),
    (x / 2).grad_fn.name(),
    (2 / x).grad_fn.name(),
    (x**2).grad_fn.name(),
    (2**x).grad_fn.name(),
    (x**x).grad_fn.name(),
    (-x).grad_fn.name(),
    x.sum().grad_fn.name(),
    x.sum(0).grad_fn.name(),
    x.mean().grad_fn.name(),
    x.mean(1).grad_fn.name(),
    x.prod().grad_fn.name(),
    x.prod(0).grad_fn.name(),
    x.var().grad_fn.name(),
    x.std(0).grad_fn.name(),
    x.max().grad_fn.name(),
    x.max(0)[0].grad_fn.name(),
    x.amax(0).grad_fn.name(),
    x.logsumexp(0).grad_fn.name(),
    x.norm().grad_fn.name(),
    x.norm(dim=0).grad_fn.name(),
    (x @ x).grad_fn.name(),
    x.mm(x).grad_fn.name(),
    x[0].dot(x[1]).grad_fn.name(),
    torch.outer(x[0], x[1]).grad_fn.name(),
    torch.addmm(x, x, x).grad_fn.name(),
    x.view(4).grad_fn.name(),
    x.reshape(4).grad_fn.name(),
    x.flatten().grad_fn.name(),
    x.permute(1, 0).grad_fn.name(),
    x.squeeze().grad_fn.name(),
    x.unsqueeze(0).grad_fn.name(),
    x.expand(2, 2, 2).grad_fn.name(),
    torch.cat([x, x]).grad_fn.name(),
    torch.stack([x, x]).grad_fn.name(),
    x[0].grad_fn.name(),
    x[:, 0].grad_fn.name(),
    x[[0, 1]].grad_fn.name(),
    x[x > 1].grad_fn.name(),
    x.gather(0, torch.tensor([[0, 1]])).grad_fn.name(),
    x.index_select(0, torch.tensor([1])).grad_fn.name(),
    x.masked_fill(x > 2, 0).grad_fn.name(),
    torch.where(x > 2, x, 0.0).grad_fn.name(),
    x.clamp(0, 1).grad_fn.name(),
    x.clamp(min=torch.zeros(2)).grad_fn.name(),
    x.clamp_min(1).grad_fn.name(),
    torch.maximum(x, x.t()).grad_fn.name(),
    x.abs().grad_fn.name(),
    x.sign().grad_fn.name(),
    x.relu().grad_fn.name(),
    x.sigmoid().grad_fn.name(),
    x.tanh().grad_fn.name(),
    x.rsqrt().grad_fn.name(),
    x.reciprocal().grad_fn.name(),
    x.log1p().grad_fn.name(),
    x.softmax(0).grad_fn.name(),
    x.log_softmax(1).grad_fn.name(),
    x.clone().grad_fn.name(),
    x.double().grad_fn.name(),
    x.t().contiguous().grad_fn.name(),
    x.view_as(x).grad_fn.name(),
    x.expand_as(x).grad_fn.name(),
    x.T.grad_fn.name(),
    x.split(1)[0].grad_fn.name(),
    x.chunk(2, 1)[0].grad_fn.name(),
    x.detach().requires_grad_().grad_fn,
    x.pow(torch.tensor(2.0)).grad_fn.name(),
    torch.pow(2.0, x).grad_fn.name(),
    x.sqrt().grad_fn.name(),
    x.exp().grad_fn.name(),
    x.min().grad_fn.name(),
    x.min(1).values.grad_fn.name(),
    x.amin(1).grad_fn.name(),
    x.std().grad_fn.name(),
    x.var(0).grad_fn.name(),
    x.clip(0, 1).grad_fn.name(),
    torch.minimum(x, x).grad_fn.name(),
    x.matmul(x[0]).grad_fn.name(),
    torch.bmm(x[None], x[None]).grad_fn.name(),
    x.sum(dtype=torch.float64).grad_fn.name(),
    x.float().grad_fn,
    (x + x).grad_fn.name(),
    x.add(x, alpha=2).grad_fn.name(),
    x.sub(x, alpha=2).grad_fn.name(),
    x.mul(2).grad_fn.name(),
    x.div(2, rounding_mode=None).grad_fn.name(),
    x.true_divide(2).grad_fn.name(),
    x.square().grad_fn.name(),
]
out(names)
# ---
# next_functions with scalars and non-requiring inputs
x = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([3.0, 4.0])


def nf(t):
    return [(None if n is None else n.name(), i) for n, i in t.grad_fn.next_functions]


out(
    nf(x * c),
    nf(c * x),
    nf(x * 2),
    nf(x + c),
    nf(x.sum()),
    nf(torch.cat([x, c])),
    nf(torch.stack([c, x, c])),
)
out(
    nf(torch.where(c > 3, x, c)),
    nf(x.clamp(0, 1)),
    nf(x @ c),
    nf(torch.addmm(c, x[None].t(), x[None])),
)
out(
    nf(x.max(0)[0]), nf(x[torch.tensor([0])]), nf(x.masked_fill(c > 3, 1.0)), nf(x.pow(2)), nf(2**x)
)
a, b = x.split(1)
out(nf(a), nf(b), a.grad_fn is b.grad_fn, a.grad_fn.next_functions[0][0] is x.grad_fn)
# ---
# tensor-tensor type promotion: dims vs 0-d categories
dts = [
    torch.bool,
    torch.uint8,
    torch.int8,
    torch.int32,
    torch.int64,
    torch.float16,
    torch.float32,
    torch.float64,
]
res = []
for a in dts:
    for b in dts:
        ta = torch.ones(2, dtype=a)
        tb = torch.ones((), dtype=b)
        res.append(
            (
                str(a),
                str(b),
                str((ta + tb).dtype),
                str((ta * tb).dtype),
                str(torch.result_type(ta, tb)),
                str(torch.promote_types(a, b)),
            )
        )
out(res)
out(
    str(torch.cat([torch.ones(1, dtype=torch.int8), torch.ones(1, dtype=torch.float16)]).dtype),
    str(torch.stack([torch.ones(1, dtype=torch.uint8), torch.ones(1, dtype=torch.int8)]).dtype),
)
out(
    str(
        torch.where(
            torch.tensor([True]),
            torch.ones(1, dtype=torch.int32),
            torch.ones(1, dtype=torch.float16),
        ).dtype
    )
)
out(
    str(
        torch.where(
            torch.tensor([True]),
            torch.ones(1, dtype=torch.float16),
            torch.tensor(1.0, dtype=torch.float64),
        ).dtype
    )
)
out(str(torch.maximum(torch.ones(1, dtype=torch.int64), torch.ones(1, dtype=torch.float16)).dtype))
out(
    str((torch.ones(1, dtype=torch.int32) / torch.ones(1, dtype=torch.int32)).dtype),
    str((torch.ones(1, dtype=torch.float16) / torch.ones((), dtype=torch.float64)).dtype),
)
out(str((torch.ones(1, dtype=torch.uint8) - torch.ones(1, dtype=torch.int8)).dtype))
err(lambda: torch.ones(1, dtype=torch.bool) - torch.ones(1, dtype=torch.bool))
out(str((torch.ones(2, dtype=torch.int16) ** torch.ones((), dtype=torch.float32)).dtype))
# ---
# reductions dtypes on ints, bools and float16
i = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)
b = torch.tensor([True, False, True])
h = torch.tensor([1.0, 2.0], dtype=torch.float16)
out(
    i.sum(),
    i.sum(0),
    i.prod(),
    i.max(),
    i.amax(0),
    i.max(0),
    b.sum(),
    b.prod(),
    b.max(),
    h.sum(),
    h.mean(),
    h.prod(),
    h.var(),
    h.norm(),
)
out(
    torch.tensor([200, 100], dtype=torch.uint8).sum(),
    torch.tensor([100, 100], dtype=torch.int8).sum(dtype=torch.int8),
)
err(lambda: i.norm())
err(lambda: i.std())
err(lambda: i.logsumexp(0))
out(i.logsumexp(0) if False else 0, i.softmax(0) if False else 0)
err(lambda: i.softmax(0))
err(lambda: i.log_softmax(0))
out(i.softmax(0, dtype=torch.float32))
out(torch.tensor([1, 2]).float().mean(), torch.tensor([1, 2]).mean(dtype=torch.float32))


# ---
# Function: saved_tensors twice, after free, None saved, non-tensor saved
class S(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, None, y)
        return x * y

    @staticmethod
    def backward(ctx, g):
        a, n, b = ctx.saved_tensors
        a2, _, _ = ctx.saved_tensors
        out(n, a2 is a or torch.equal(a2, a))
        return g * b, g * a


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
r = S.apply(x, y)
r.sum().backward()
out(x.grad, y.grad)
err(lambda: r.sum().backward())
err(lambda: r.grad_fn.saved_tensors)


class BadSave(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g


err(lambda: BadSave.apply(x))


# ---
# Function: forward returning non-tensor, int tensor output, tuple with None
class Odd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, 5, None, (x > 1)

    @staticmethod
    def backward(ctx, g, g2, g3, g4):
        out(g2, g3, g4)
        return g * 2


x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b, c, d = Odd.apply(x)
out(a, b, c, d, d.requires_grad)
a.sum().backward()
out(x.grad)


class IntOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return (x * 10).long()

    @staticmethod
    def backward(ctx, g):
        return g


o = IntOut.apply(x)
out(o, o.requires_grad, o.grad_fn)


# ---
# Function: apply with kwargs, grad of non differentiable output is zeros
class K(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale=2.0):
        ctx.scale = scale
        return x * scale, x.argmax()

    @staticmethod
    def backward(ctx, g, gi):
        return g * ctx.scale, None


x = torch.tensor([1.0, 3.0], requires_grad=True)
y, i = K.apply(x, 3.0)
out(y, i, i.requires_grad)
y.sum().backward()
out(x.grad)
err(lambda: K.apply(x, scale=4.0))


# ---
# Function: vjp alias, backward returning extra Nones, returning tuple for single input
class Alias(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def vjp(ctx, g):
        return g * 4


class ExtraNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g * 2, None, None


class TupleOne(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return (g * 3,)


x = torch.tensor([1.0], requires_grad=True)
Alias.apply(x).sum().backward()
out(x.grad)
x.grad = None
TupleOne.apply(x).sum().backward()
out(x.grad)
x.grad = None
err(lambda: ExtraNone.apply(x).sum().backward())
out(x.grad)


# ---
# Function: gradient dtype mismatch is cast, inputs of different dtypes
class Cast(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y.float()

    @staticmethod
    def backward(ctx, g):
        return g.double(), g.double()


x = torch.tensor([1.0], requires_grad=True)
y = torch.tensor([2.0], dtype=torch.float64, requires_grad=True)
Cast.apply(x, y).sum().backward()
out(x.grad, y.grad)
# ---
# printing: wide rows wrap, summarization, sci mode, ints
print(torch.arange(30.0).view(3, 10) * 1.5)
print(torch.arange(40) * 1000)
print(torch.linspace(-1, 1, 25))
print(torch.tensor([1e-8, 1.0, 1e8]))
print(torch.tensor([[1e-3, 2.0], [3.0, 4e5]]))
print(torch.tensor([-0.0, 0.0, -1.5]))
print(torch.arange(1200.0).view(40, 30))
print(torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True) * 2)
print(torch.tensor([[True, False], [False, True]]))
print(torch.tensor([-5, 3, 100], dtype=torch.int8), torch.tensor([255], dtype=torch.uint8))
print(torch.tensor([0.1 + 0.2, 1 / 3], dtype=torch.float64))
print(torch.tensor(float("inf")), torch.tensor(-float("inf")), torch.tensor(float("nan")))
print(torch.tensor([1.0, float("nan"), 1e10]))
print(torch.zeros(2, 2, 2))
print(torch.zeros(1, 0, 2), torch.ones(0, dtype=torch.int32))
print(torch.tensor([12345.678, 0.001]))
print(torch.tensor([1.5], dtype=torch.float16) * 1000)
print(torch.randn(0).requires_grad_())
print(torch.tensor(2.5, requires_grad=True).exp())
print(torch.tensor([3], dtype=torch.int64).float())
print(repr(torch.Size([2, 3])), torch.Size([]), torch.zeros(3).shape)
print(
    torch.tensor([1.0, 2.0]).dtype,
    torch.tensor([1.0, 2.0]).device,
    torch.float16,
    torch.bool,
    torch.uint8,
)
print(str(torch.tensor([1.0, 2.0])), f"{torch.tensor(1.5)}", f"{torch.tensor([1])}")
print(f"{torch.tensor(1.5).item():.3f}", format(torch.tensor(2.25), ".1f"))
# ---
# set_printoptions
torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 2.0]))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.5, 200.0]))
torch.set_printoptions(profile="default")
print(torch.tensor([1.23456, 2.0]))
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10))
torch.set_printoptions(linewidth=30)
print(torch.arange(20.0))
torch.set_printoptions(profile="default")
print(torch.arange(20.0))
# ---
# edge values: nan/inf results and gradients
x = torch.tensor([0.0, -1.0, 4.0], requires_grad=True)
ys = [
    x.sqrt(),
    x.log(),
    x.rsqrt(),
    x.reciprocal(),
    x**0.5,
    x**-1.0,
    x.log1p(),
    torch.pow(x, 1.5),
    x.abs(),
    x.sign(),
    x.relu(),
    x.clamp(0, 4),
]
for y in ys:
    x.grad = None
    y.sum().backward()
    out(y, x.grad)
x.grad = None
s = torch.tensor([-float("inf"), -float("inf")], requires_grad=True)
p = s.softmax(0)
p.sum().backward()
out(p, s.grad)
n = torch.zeros(3, requires_grad=True)
n.norm().backward()
out(n.grad)
n.grad = None
n.norm(1).backward()
out(n.grad)
n.grad = None
n.std().backward()
out(n.grad)
n.grad = None
n.var(correction=0).backward()
out(n.grad)
q = torch.tensor([5.0], requires_grad=True)
q.std().backward()
out(q.grad)
m = torch.tensor([2.0, 2.0, 1.0], requires_grad=True)
m.max().backward()
out(m.grad)
m.grad = None
m.max(0).values.backward()
out(m.grad, m.max(0).indices)
m.grad = None
torch.logsumexp(torch.tensor([float("inf"), 1.0], requires_grad=True), 0).backward()
# ---
# shape op errors and odd arguments
x = torch.arange(6.0).view(2, 3)
err(lambda: x.t().view(6))
err(lambda: x.view(4, 2))
err(lambda: x.reshape(-1, 4))
err(lambda: x.expand(-1, 2, 3))
out(x.expand(4, -1, -1).shape)
err(lambda: x.expand(2))
out(x.squeeze(0).shape, x.squeeze(-1).shape, x.unsqueeze(-3).shape)
err(lambda: x.unsqueeze(-4))
err(lambda: x.squeeze(2))
out(x.permute(-1, -2).shape, x.transpose(1, 1).shape, x.transpose(-1, 0).shape)
err(lambda: x.permute(0, 2))
err(lambda: x.flatten(1, 0))
out(x.flatten(1, 1).shape, x.flatten(-1, -1).shape, torch.tensor(5.0).flatten(0, -1).shape)
err(lambda: torch.cat([torch.tensor(1.0), torch.tensor(2.0)]))
err(lambda: torch.cat([x, x], dim=-3))
err(lambda: torch.stack([x, x], dim=3))
out(torch.stack([x, x], dim=-3).shape, torch.stack([x, x], 2).shape)
err(lambda: x.split([1, 1], 0) and x.split([1, 1, 1], 0))
err(lambda: x.split([2, 2], 1))
out(
    [t.shape for t in x.split([0, 3], 1)],
    [t.shape for t in x.split(5, 1)],
    [t.shape for t in torch.split(x, 1)],
)
err(lambda: x.split(-1))
err(lambda: x.chunk(-2))
out(x.index_select(1, torch.tensor([-1])) if False else 1)
err(lambda: x.index_select(1, torch.tensor([3])))
err(lambda: x.gather(1, torch.tensor([[-1]])))
err(lambda: x.masked_fill(torch.ones(2, 2, 3, dtype=torch.bool), 0.0))
out(x.masked_fill(torch.tensor(True), 1.0), x.masked_fill(torch.tensor([[True], [False]]), 9.0))
err(lambda: x.view(-1, 0))
err(lambda: torch.zeros(0, 3).view(0, -1).shape)
err(lambda: torch.zeros(0, 3).view(-1, 0))
out(
    x.reshape(()) if False else x.view(6).shape,
    torch.tensor([5.0]).view(()).shape,
    torch.tensor([5.0]).reshape([]).shape,
)
out(
    x.view(torch.Size([3, 2])).shape,
    x.view([3, 2]).shape,
    x.reshape((3, -1)).shape,
    x.view(3, 2).stride(),
    x.t().stride(),
)
err(lambda: x.view(2.0, 3))
err(lambda: x.reshape(2, None))
# ---
# autograd.grad odd arguments
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
out(torch.autograd.grad(y, (x, x), retain_graph=True))
out(torch.autograd.grad([y], [x], [None], retain_graph=True))
out(torch.autograd.grad(y, x, torch.tensor(2.0, dtype=torch.float64), retain_graph=True))
err(lambda: torch.autograd.grad(y, x, torch.tensor([1.0, 2.0]), retain_graph=True))
err(lambda: torch.autograd.grad(y, x, torch.tensor(1, dtype=torch.int64), retain_graph=True))
err(lambda: torch.autograd.grad(y, x, [torch.tensor(1.0), torch.tensor(1.0)], retain_graph=True))
err(lambda: torch.autograd.grad(y, [], retain_graph=True))
err(lambda: torch.autograd.grad(y, x.detach(), retain_graph=True))
out(torch.autograd.grad(y, x, only_inputs=True, retain_graph=True))
z = torch.tensor(1.0, requires_grad=True)
out(torch.autograd.grad(y, [x, z], allow_unused=True, retain_graph=True))
out(torch.autograd.grad((y, x.sum()), x, retain_graph=True))
out(torch.autograd.grad((y, x * 2), x, (None, torch.ones(2)), retain_graph=True))
err(lambda: torch.autograd.grad((y, x * 2), x, (None, None), retain_graph=True))
out(torch.autograd.grad(x, x, torch.ones(2)))
out(torch.autograd.grad(x.sum(), x))
w = x.view(2)
out(torch.autograd.grad(w.sum(), w), torch.autograd.grad((w * 2).sum(), x))
# ---
# backward gradient arg dtype/shape variants
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.backward(torch.tensor([1.0, 1.0], dtype=torch.float64), retain_graph=True)
out(x.grad, x.grad.dtype)
err(lambda: y.backward(torch.tensor([1, 1]), retain_graph=True))
err(lambda: y.backward([1.0, 1.0], retain_graph=True))
err(lambda: y.backward(torch.ones(1), retain_graph=True))
err(lambda: y.backward(torch.ones(()), retain_graph=True))
s = x.sum()
err(lambda: s.backward(torch.ones(1)))
out(x.grad)
err(lambda: x.sum().backward(torch.ones(2)))
err(lambda: torch.autograd.backward([x.sum(), x * 1], None))
torch.autograd.backward([x.sum(), (x * 1).sum()])
out(x.grad)
torch.autograd.backward(x * 1, torch.ones(2))
out(x.grad)
err(lambda: torch.autograd.backward(x * 1, torch.ones(2), inputs=torch.ones(2)))
err(lambda: torch.autograd.backward([], []))
h = x.half()
h.sum().backward()
out(x.grad)
# ---
# Python protocol methods on tensors
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
s = torch.tensor(2.5)
out(
    list(x),
    [r.tolist() for r in x],
    float(s),
    int(s),
    bool(torch.tensor([1])),
    bool(torch.tensor(0.0)),
)
err(lambda: bool(x))
err(lambda: float(x))
err(lambda: iter(s))
err(lambda: list(s))
err(lambda: [1, 2][torch.tensor(1.0)])
out(
    [1, 2, 3][torch.tensor(1)],
    [1, 2, 3][torch.tensor([2])] if False else 0,
    3.0 in x,
    5 in x,
    torch.tensor(2) in torch.tensor([1, 2]),
)
out(
    int(torch.tensor([7])), float(torch.tensor([[7.5]])), complex(torch.tensor(1.0)) if False else 0
)
err(lambda: int(torch.tensor([1, 2])))
out(abs(torch.tensor([-1.0])), -x[0], +x[0], ~torch.tensor([True, False]), ~torch.tensor([1, 0]))
err(lambda: ~torch.tensor([1.0]))
out(
    x.__len__(),
    hash(x) == hash(x),
    x.numpy().flags["C_CONTIGUOUS"],
    x.t().numpy().shape,
    round(torch.tensor(2.567).item(), 1),
)
out(
    divmod(7, 2) if False else 0,
    torch.tensor([7]) % 3,
    torch.tensor([-7.5]) % 2,
    torch.tensor([7]) // 2,
    -7 // torch.tensor([2]),
    7 % torch.tensor([3]),
)
out(
    torch.tensor([1, 2]) & torch.tensor([3, 1]),
    torch.tensor([1, 2]) | 4,
    torch.tensor([True]) ^ True,
    torch.tensor([1]) << 2,
    torch.tensor([8]) >> 1,
)
err(lambda: torch.tensor([1.0]) & torch.tensor([1.0]))
err(lambda: torch.tensor([1.0]) % 0 if False else torch.tensor([1]) // 0)
out(torch.tensor([1.0]) // 0, torch.tensor([-1.0]) % 0, torch.tensor([1.0]) / 0)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a**2 // 1
out(b.requires_grad, b.grad_fn.name() if b.grad_fn else None)
err(lambda: b.sum().backward())
err(lambda: torch.tensor([True]) // torch.tensor([True]))
out(torch.tensor([1, 2]) << 1, 1 << torch.tensor([2]), torch.tensor([-8]) >> 1)
err(lambda: torch.tensor([1.5]) << 1)
err(lambda: 3 in torch.tensor([1, 2]) or "a" in torch.tensor([1, 2]))
c = a % 1.5
c.sum().backward(retain_graph=True)
out(c, a.grad, c.grad_fn.name())
# ---
# Tensor methods: type(), new_* constructors, element_size, stride, is_contiguous, data_ptr equality
x = torch.arange(6.0).view(2, 3)
out(
    x.type(),
    torch.tensor([1]).type(),
    x.element_size(),
    x.stride(),
    x.t().stride(),
    x.t().is_contiguous(),
    x.nelement(),
)
out(
    x.new_zeros(2),
    x.new_ones((1, 2)),
    x.new_full((2,), 3),
    x.new_empty(3).shape,
    x.new_tensor([1, 2]),
    x.new_tensor([1, 2]).dtype,
)
out(x.new_zeros(2, dtype=torch.int64), torch.tensor([1], dtype=torch.int32).new_ones(2))
out(
    x[0].data_ptr() == x.data_ptr(),
    x[1].data_ptr() - x.data_ptr(),
    x.t().contiguous().data_ptr() == x.data_ptr(),
)
out(
    x.storage_offset(),
    x[1].storage_offset(),
    x[:, 1].storage_offset(),
    x.is_leaf,
    x.grad,
    x.grad_fn,
)
out(x.to(torch.float64).dtype, x.type(torch.int32).dtype, x.type("torch.DoubleTensor").dtype)
out(
    x.size(),
    x.size(-2),
    tuple(x.shape),
    x.shape[1:],
    x.shape == (2, 3),
    x.shape.numel(),
    list(x.size()),
)
out(
    x.dim() == len(x.shape),
    x.ndimension(),
    x.is_floating_point(),
    x.is_complex(),
    x.is_cuda,
    x.is_sparse,
    x.requires_grad,
)
# ---
# tensor() from odd data
out(
    torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]),
    torch.tensor(torch.tensor([1, 2])),
    torch.tensor([np.float32(1.5), 2]),
)
out(
    torch.tensor((1, 2.5)),
    torch.tensor([[1], [2]], dtype=torch.float16),
    torch.tensor(np.array([[1.5]])),
    torch.tensor(range(3)),
)
out(
    torch.tensor([1, True]),
    torch.tensor([True, 2.5]),
    torch.tensor([np.int8(3)]),
    torch.tensor(np.int32(3)),
    torch.tensor(np.bool_(True)),
)
err(lambda: torch.tensor(None))
err(lambda: torch.tensor("abc"))
err(lambda: torch.tensor([1, "a"]))
err(lambda: torch.tensor([[1, 2], 3]))
err(lambda: torch.tensor([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])]))
err(
    lambda: (
        torch.from_numpy(np.array([1.0], dtype=np.float128))
        if hasattr(np, "float128")
        else torch.from_numpy(np.array(["a"]))
    )
)
err(lambda: torch.from_numpy([1.0]))
out(torch.from_numpy(np.array([1, 2], dtype=np.int16)), torch.from_numpy(np.zeros((0, 2))))
out(
    torch.tensor([1.0, 2.0], dtype=torch.int32),
    torch.tensor([1.9, -1.9], dtype=torch.int64),
    torch.tensor(3.7, dtype=torch.bool),
)
out(torch.tensor([], dtype=torch.bool), torch.tensor([[]]).shape, torch.tensor([[], []]).shape)
out(
    torch.as_tensor(np.array([1.0, 2.0]), dtype=torch.float32),
    torch.as_tensor(torch.tensor([1, 2]), dtype=torch.float64),
)
a = np.array([1.0, 2.0])
t = torch.as_tensor(a)
a[0] = 9.0
out(t)
out(torch.tensor([1.0, 2.0]).numpy().dtype == np.float32, torch.tensor(5).numpy().shape)
err(lambda: torch.zeros(2, 3, dtype="float32"))
out(
    torch.zeros((2, 3), dtype=torch.float16).dtype,
    torch.zeros([2]),
    torch.ones(torch.Size([1, 2])),
    torch.zeros(2, dtype=torch.int8).dtype,
)
err(lambda: torch.zeros(2.5))
err(lambda: torch.ones((2, -3)))
out(torch.full((2,), 1.5, dtype=torch.int64), torch.full((), 7), torch.full([2, 1], False))
out(
    torch.eye(2, dtype=torch.int64),
    torch.arange(3, dtype=torch.float16),
    torch.arange(0.0, 1.0, 0.25, dtype=torch.float64),
)
err(lambda: torch.arange(0, 10, -1))
err(lambda: torch.arange(float("nan")))
err(lambda: torch.linspace(0, 1, -1))
err(lambda: torch.eye(-1))
out(
    torch.empty(2, 3).shape,
    torch.empty((0,)).shape,
    torch.empty(2, requires_grad=True).requires_grad,
)
torch.manual_seed(5)
r1 = torch.randint(3, 10, (100,))
out(
    int(r1.min()) >= 3,
    int(r1.max()) < 10,
    r1.dtype,
    torch.rand(3, dtype=torch.float64).dtype,
    torch.randn(2, 2, dtype=torch.float16).dtype,
)
err(lambda: torch.randint(5, 2, (3,)))
err(lambda: torch.rand(2, dtype=torch.int64))
err(lambda: torch.randn(2, dtype=torch.int32))
out(
    torch.randint(2, (3,), dtype=torch.float32).dtype,
    torch.randint_like(torch.zeros(2, dtype=torch.float64), 5).dtype,
)
out(
    torch.rand(()).shape,
    torch.rand(2, 0).shape,
    torch.randn([]).shape,
    float(torch.rand(1000).mean()) > 0.4,
)
# ---
# reduction overloads: dim=None given vs omitted, keepdim without dim, unbiased with correction
x = torch.arange(6.0).view(2, 3).requires_grad_()
err(lambda: x.sum(dim=None, keepdim=True))
err(lambda: x.sum(None))
err(lambda: x.sum(None, True))
err(lambda: x.mean(None, True))
err(lambda: x.mean(dim=None))
err(lambda: torch.sum(x, keepdim=True))
err(lambda: x.prod(None))
err(lambda: x.max(None))
err(lambda: torch.max(x, dim=None))
err(lambda: x.min(keepdim=True))
err(lambda: x.amax(None))
err(lambda: x.var(None, keepdim=True))
err(lambda: x.std(unbiased=False, correction=0))
err(lambda: x.var(0, True, correction=1))
err(lambda: x.sum(dtype=torch.float64, keepdim=True))
err(lambda: x.max(1, True))
err(lambda: x.max(dim=1, keepdim=True))
err(lambda: x.prod(1, True))
err(lambda: x.prod(dim=1, keepdim=False))
err(lambda: x.sum(1, keepdim=True))
err(lambda: x.mean((0, 1), True))
err(lambda: torch.sum(x, 0, True, dtype=torch.float64))
err(lambda: torch.max(x))
err(lambda: torch.min(x, 0))
err(lambda: torch.prod(x))
err(lambda: x.sum(()))
err(lambda: x.mean(dim=()))
err(lambda: x.sum(0))
err(lambda: x.mean())
err(lambda: x.sum())
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
# std_mean / var_mean: one node for both outputs
x = torch.tensor([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]], requires_grad=True)
r = [
    torch.std_mean(x, 1),
    torch.var_mean(x, 0, keepdim=True),
    torch.var_mean(x),
    torch.std_mean(x, correction=0),
    torch.std_mean(x, (0, 1), True),
    torch.var_mean(x, 1, unbiased=False),
]
out(r)
tot = 0
for a, b in r:
    tot = tot + a.sum() * 2 + b.sum() * 3
tot.backward()
out(x.grad)
x.grad = None
s, m = torch.std_mean(x, 1)
s.sum().backward()
out(x.grad)
err(lambda: torch.var_mean(torch.tensor([1, 2])))
err(lambda: torch.std_mean(x, 1, unbiased=True, correction=0))
g = torch.autograd.grad(torch.var_mean(x, 1)[0].sum(), x, create_graph=True)[0]
out(g, torch.autograd.grad(g.sum(), x, allow_unused=True))
# ---
# 0-d tensors through dim-taking ops
s = torch.tensor(2.0, requires_grad=True)
for f in [
    lambda: s.sum(0),
    lambda: s.mean(-1),
    lambda: s.amax(0),
    lambda: s.max(0),
    lambda: s.min(-1, keepdim=True),
    lambda: s.var(0),
    lambda: s.std(0, correction=0),
    lambda: s.logsumexp(0),
    lambda: s.norm(dim=0),
    lambda: s.prod(0),
    lambda: s.argmax(0),
    lambda: s.softmax(0),
    lambda: s.log_softmax(-1),
    lambda: s.cumsum(0),
    lambda: s.transpose(0, -1),
    lambda: s.flip(0),
    lambda: s.sort(0),
    lambda: s.argsort(),
    lambda: s.topk(1),
    lambda: s.sum((0, -1)),
    lambda: s.sum(1),
    lambda: s.narrow(0, 0, 1),
    lambda: s.split(1),
    lambda: s.chunk(1),
    lambda: s.squeeze(0),
    lambda: s.unsqueeze(-1),
    lambda: s.flatten(-1),
]:
    err(f)
y = (
    s.sum(0)
    + s.amax(0)
    + s.max(0).values
    + s.logsumexp(0)
    + s.cumsum(0)
    + s.sort(0).values
    + s.topk(1).values
    + s.norm(dim=0)
    + s.prod(0)
)
y.backward()
out(s.grad)


# ---
# Function: grad mode inside forward/backward, nested Functions, views in and out
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out(torch.is_grad_enabled())
        return x * 2

    @staticmethod
    def backward(ctx, g):
        out(torch.is_grad_enabled())
        return Double.apply(g)


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Double.apply(Double.apply(x))
y.sum().backward()
out(x.grad)
x.grad = None
(g,) = torch.autograd.grad(Double.apply(x).sum(), x, create_graph=True)
out(g, g.grad_fn.name() if g.grad_fn else None)
v = x[1:]
w = Double.apply(v)
w.sum().backward()
out(x.grad)


class TakeView(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[0:1]

    @staticmethod
    def backward(ctx, g):
        r = torch.zeros(2)
        r[0:1] = g
        return r


b = x * 1
t = TakeView.apply(b)
out(t, t.grad_fn.name())
t.sum().backward()
out(x.grad)


# ---
# Function with tensor kwarg-like non-tensor structures and list inputs
class ListIn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, items, flag):
        ctx.n = len(items)
        return x * len(items) if flag else x

    @staticmethod
    def backward(ctx, g):
        return g * ctx.n, None, None


x = torch.tensor([1.0], requires_grad=True)
y = ListIn.apply(x, [torch.ones(1), torch.ones(1)], True)
y.backward()
out(x.grad, y.grad_fn.name(), len(y.grad_fn.next_functions))
# ---
# gradcheck with outputs outside the graph
x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
for f in [
    lambda a: a.detach() * 2,
    lambda a: (a * 2, a.detach()),
    lambda a: (a.detach(), a * 2),
    lambda a: a.detach() * 0,
    lambda a: (a.detach(), a.exp()),
]:
    err(lambda: torch.autograd.gradcheck(f, (x,)))
    out(torch.autograd.gradcheck(f, (x,), raise_exception=False))
try:
    torch.autograd.gradcheck(lambda a: a.detach() * 2, (x,))
except Exception as e:
    print(type(e).__name__, isinstance(e, RuntimeError), str(e))
# ---
# broadcasting gradients reduced to input shapes across ops
a = torch.tensor([[1.0], [2.0]], requires_grad=True)
b = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)
c = torch.tensor(3.0, requires_grad=True)
ys = [
    torch.where(a > 1.5, b, c),
    torch.maximum(a, b),
    torch.minimum(b, c),
    a.clamp(min=b),
    b.clamp(max=a),
    a**b,
    torch.pow(c, b),
    torch.addmm(b, a, b[None, :1].expand(1, 3) if False else torch.ones(1, 3)),
    torch.atan2(a, b) if hasattr(torch, "atan2") else a * b,
    a.masked_fill(b > 1, 0.0) if False else a * b * c,
    (a - b) / c,
]
for y in ys:
    a.grad = b.grad = c.grad = None
    y.sum().backward()
    out(y, a.grad, b.grad, c.grad)
h = torch.tensor([1.0, 2.0], dtype=torch.float16, requires_grad=True)
d = torch.tensor([[1.0], [2.0]], dtype=torch.float64, requires_grad=True)
(h * d).sum().backward()
out(h.grad, d.grad)
# ---
# grad-mode arguments and generators
err(lambda: torch.set_grad_enabled(1))
err(lambda: torch.set_grad_enabled("a"))
out(torch.is_grad_enabled())


@torch.no_grad()
def gen():
    yield torch.is_grad_enabled()
    yield torch.is_grad_enabled()


out(list(gen()), torch.is_grad_enabled())
x = torch.tensor([1.0], requires_grad=True)
out(torch.autograd.grad((x * x).sum(), x, create_graph=1)[0].requires_grad)
out(torch.autograd.functional.jacobian(lambda a: a**2, x, create_graph=1).requires_grad)
# ---
# in-place variants: grad_fn names, values, gradients
names = [
    "add_",
    "sub_",
    "mul_",
    "div_",
    "pow_",
    "exp_",
    "log_",
    "sqrt_",
    "sin_",
    "cos_",
    "tanh_",
    "sigmoid_",
    "relu_",
    "abs_",
    "neg_",
    "reciprocal_",
    "rsqrt_",
    "clamp_",
    "clip_",
    "fill_",
    "zero_",
    "copy_",
    "masked_fill_",
    "log1p_",
    "sign_",
    "clamp_min_",
    "clamp_max_",
]
args = {
    "add_": (2.0,),
    "sub_": (torch.tensor([1.0, 2.0]),),
    "mul_": (3.0,),
    "div_": (2.0,),
    "pow_": (2,),
    "clamp_": (0.6, 1.8),
    "clip_": (None, 1.5),
    "fill_": (0.5,),
    "copy_": (torch.tensor([4.0, 5.0]),),
    "masked_fill_": (torch.tensor([True, False]), 9.0),
    "clamp_min_": (1.2,),
    "clamp_max_": (1.2,),
}
res = []
for n in names:
    x = torch.tensor([0.5, 2.0], requires_grad=True)
    y = x * 1
    r = getattr(y, n)(*args.get(n, ()))
    r.sum().backward()
    res.append((n, r is y, y.grad_fn.name(), y._version))
    out(n, y, x.grad)
out(res)

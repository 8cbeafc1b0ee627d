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

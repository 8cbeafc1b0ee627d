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
# shifts, fmax/fmin, repeat_interleave, view(dtype), dot dtypes, rand of ints, tensor of str
i = torch.tensor([1, 2, -8])
for f in [
    lambda: i << 2,
    lambda: i >> 1,
    lambda: 1 << torch.tensor([1, 2]),
    lambda: i << torch.tensor([1, 2, 3]),
    lambda: torch.tensor([1.0]) << 1,
    lambda: torch.bitwise_left_shift(torch.tensor([1, 2], dtype=torch.int8), 7),
    lambda: torch.tensor([1], dtype=torch.uint8) << 9,
    lambda: i.bitwise_right_shift(70),
    lambda: torch.tensor([1, 2]) << 1.5,
    lambda: torch.fmax(torch.tensor([float("nan"), 1.0]), torch.tensor([2.0, float("nan")])),
    lambda: torch.fmin(torch.tensor([float("nan"), 1.0]), torch.tensor([float("nan"), 0.0])),
    lambda: i.repeat_interleave(2),
    lambda: torch.repeat_interleave(torch.tensor([2, 1])),
    lambda: torch.ones(2, 3).repeat_interleave(2, dim=1),
    lambda: i.repeat_interleave(torch.tensor([0, 2, 1])),
    lambda: torch.tensor([1.0, 2.0]).view(torch.int32),
    lambda: torch.tensor([1.0, 2.0]).view(torch.int16),
    lambda: torch.dot(torch.tensor([1, 2]), torch.tensor([1.0, 2.0])),
    lambda: torch.rand(2, dtype=torch.int64),
    lambda: torch.randn_like(i),
    lambda: torch.tensor(["a"]),
]:
    err(f)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([2.0, float("nan")], requires_grad=True)
z = torch.fmax(x, y)
z.sum().backward()
out(z, x.grad, y.grad, x.repeat_interleave(2), x.repeat_interleave(torch.tensor([1, 2])))
x = torch.tensor([1.0, 2.0])
v = x.view(torch.int32)
v[0] = 0
out(x, x._version)
k = torch.tensor([3, 5])
k <<= 1
out(k)


# ---
# in-place arithmetic checks: alpha types, lerp dtypes, random fills of ints, cumsum_,
# fill_diagonal_, sorting bools/unsigned/NaN descending; failures leave the tensor unchanged
def inplace(make, op):
    t = make()
    version = t._version
    err(lambda: op(t))
    out(t, t._version - version)


for make in [
    lambda: torch.tensor([1, 2, 3]),
    lambda: torch.tensor([1.0, 2.0, 3.0]),
    lambda: torch.tensor([True, False, True]),
    lambda: torch.tensor([1.0, 2.0, 3.0], dtype=torch.float16),
]:
    for op in [
        lambda t: t.add_(1, alpha=0.5),
        lambda t: t.add_(True, alpha=2),
        lambda t: t.sub_(torch.tensor([1, 1, 1]), alpha=2),
        lambda t: t.add_(1, alpha=True),
        lambda t: t.lerp_(torch.tensor([0.0, 0.0, 0.0]), 0.5),
        lambda t: t.uniform_(2.0, 2.0),
        lambda t: t.cumsum_(0),
        lambda t: t.cumprod_(0),
        lambda t: t.clamp_(1.5, 2.5),
        lambda t: t.add_(1.5),
        lambda t: t.mul_(torch.tensor(0.5)),
        lambda t: t.div_(2),
    ]:
        if op.__code__.co_argcount:
            inplace(make, op)
x = torch.ones(5, 3, requires_grad=True)
y = x * 1
y.fill_diagonal_(7, wrap=True)
y.sum().backward()
out(y, x.grad, torch.zeros(3, 5).fill_diagonal_(1), torch.zeros(2, 2, 2).fill_diagonal_(1))
err(lambda: torch.zeros(2, 3, 2).fill_diagonal_(1))
err(lambda: torch.zeros(3).fill_diagonal_(1))
for t in [
    torch.tensor([0, 3, 200, 3], dtype=torch.uint8),
    torch.tensor([-128, 5, 0], dtype=torch.int8),
    torch.tensor([1.0, float("nan"), 3.0, 1.0]),
    torch.tensor([True, False, True]),
]:
    out(t.sort(), t.sort(descending=True), t.argsort(descending=True, stable=True))

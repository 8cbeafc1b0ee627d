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

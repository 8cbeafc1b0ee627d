# CopySlices: in-place on views of non-leaf
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = x * 1
y[:, 0] = 0
out(y, y.grad_fn.name())
(y * y).sum().backward()
out(x.grad)
x.grad = None
y = x.clone()
y[1:].mul_(2)
out(y, y.grad_fn.name())
(y**2).sum().backward()
out(x.grad)
x.grad = None
y = x * 2
v = y.t()
v[0].exp_()
out(y, y.grad_fn.name(), v.grad_fn.name())
y.sum().backward()
out(x.grad)
x.grad = None
y = x + 0
d = y.view(6)
d.add_(torch.arange(6.0))
d[2:4].zero_()
out(y, d, y.grad_fn.name(), d.grad_fn.name())
(y * torch.arange(6.0).view(2, 3)).sum().backward()
out(x.grad)
# ---
# CopySlices with a tensor value requiring grad, diagonal and expand views
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
v = torch.tensor([10.0, 20.0], requires_grad=True)
y = x * 1
y[0] = v * 3
y.diagonal().mul_(2)
out(y, y.grad_fn.name())
(y * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
out(x.grad, v.grad)
z = torch.zeros(2, 2)
z[1] = v
out(z.grad_fn.name(), z.requires_grad, z.is_leaf)
z.sum().backward()
out(v.grad)
e = (x * 1).expand(2, 2, 2)
err(lambda: e.add_(1))
b = x * 1
u = b.unbind(0)
err(lambda: u[0].mul_(2))
s = (x * 1).split(1)
err(lambda: s[0].add_(1))
# ---
# in-place on view of leaf raises; on view of leaf not requiring grad ok
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
err(lambda: x[0:2].mul_(2))
err(lambda: x.view(3).add_(1))
err(lambda: x.t().zero_())
err(lambda: x.detach().requires_grad_().add_(1))
with torch.no_grad():
    v = x[1:]
v2 = x.view(3)
with torch.no_grad():
    v2.add_(1)
out(x)
err(lambda: v.mul_(2))
n = torch.zeros(3)
w = torch.tensor([5.0], requires_grad=True)
n[1:2].copy_(w)
out(n, n.grad_fn.name(), n.requires_grad, n.is_leaf)
# ---
# base and view see each other's changes, grads flow through view after base mutated
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y = x * 1
v = y[1:3]
y.mul_(10)
out(v, v.grad_fn.name())
v.sum().backward()
out(x.grad)
x.grad = None
y = x * 1
v = y.view(2, 2)
v[0, 0] = 100.0
out(y, y.grad_fn.name(), v.grad_fn.name())
(y * y).sum().backward()
out(x.grad)
# ---
# chained views, in-place through view of view, base grad_fn names afterwards
x = torch.arange(12.0).requires_grad_()
y = x * 1
a = y.view(3, 4)
b = a[1:, ::2]
c = b.t()
c.mul_(10)
out(y, y.grad_fn.name(), a.grad_fn.name(), b.grad_fn.name(), c.grad_fn.name())
(y * torch.arange(12.0)).sum().backward()
out(x.grad)
x.grad = None
y = x * 1
v = y[2:6]
v.add_(y[0:4].detach().clone())
w = y.view(2, 6)
w[:, -1] = torch.tensor([-1.0, -2.0])
out(y, v, w.grad_fn.name(), v.grad_fn.name())
(y.sum() + v.sum() * 2).backward()
out(x.grad)
# ---
# view then base modified in place, view used in backward
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
v = y[:2]
y.exp_()
out(v, v.grad_fn.name(), y.grad_fn.name())
v.sum().backward()
out(x.grad)
x.grad = None
y = x * 2
v = y.unsqueeze(0)
z = v * v
y.add_(1)
err(lambda: z.sum().backward())
y = x * 2
v = y[0]
q = v.exp()
y[1] = 5.0
err(lambda: q.backward())
# ---
# in-place on views with requires_grad value into no-grad base, mixed dtypes
base = torch.zeros(2, 3)
val = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
base[0].copy_(val * 2)
base[1] += val
out(base, base.grad_fn.name(), base.requires_grad)
(base * base).sum().backward()
out(val.grad)
b2 = torch.zeros(3, dtype=torch.float64)
b2[1:] = val[:2]
out(b2, b2.grad_fn.name())
b2.sum().backward()
out(val.grad)
b3 = torch.zeros(3, dtype=torch.int64)
b3[0] = val[0]
out(b3, b3.requires_grad)
# ---
# overlapping in-place operands raise as torch; exact aliasing is fine
y = torch.arange(12.0)
err(lambda: y[2:6].add_(y[0:4]))
err(lambda: y[2:6].copy_(y[0:4]))
err(lambda: y[1:].mul_(y[:-1]))
err(lambda: y.view(3, 4).t().add_(torch.ones(4, 3)))
m = torch.ones(2, 2)
err(lambda: m.t().add_(m))
err(lambda: m.add_(m[0]))
err(lambda: m.__setitem__(slice(1, None), m[:-1]))
err(lambda: y.__setitem__(torch.tensor([1, 2]), y[:2]))
err(lambda: y.index_put_((torch.tensor([0]),), y[3:]))
m.add_(m)
m[0].add_(m[1])
m.copy_(m.detach())
out(m, y)
# ---
# which ops view and which copy: writes through them
x = torch.arange(6.0).view(2, 3)
r1 = x.reshape(3, 2)
r2 = x.t().reshape(6)
f1 = x.flatten()
f2 = x.t().flatten()
e = x[0].expand(2, 3)
c = x.contiguous()
c2 = x.t().contiguous()
s = x[:, 1]
u = x.unsqueeze(0)
sq = u.squeeze(0)
d = x.detach()
p = x.permute(1, 0)
ch = x.chunk(3, 1)[0]
sp = x.split(1)[1]
st = torch.stack([x[0], x[1]])
cl = x.clone()
r1[0, 0] = 100.0
r2[1] = -1.0
f1[1] = 101.0
f2[5] = -2.0
s[1] = 102.0
sq[0, 2] = 103.0
d[1, 0] = 104.0
p[2, 1] = 105.0
ch[0, 0] = 106.0
sp[0, 1] = 107.0
st[0, 0] = -3.0
cl[1, 1] = -4.0
c2[0, 0] = -5.0
out(x, e, c is x, c2)
out([t._base is None for t in (r1, r2, f1, f2, e, c2, s, u, sq, d, p, ch, sp, st, cl)])
out([t._is_view() for t in (r1, r2, f1, f2, e, c2, s, u, sq, d, p, ch, sp, st, cl)])
out(
    x.untyped_storage().data_ptr() == r1.untyped_storage().data_ptr()
    if hasattr(x, "untyped_storage")
    else True
)
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

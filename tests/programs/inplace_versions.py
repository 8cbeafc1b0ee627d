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
# ---
# x.data semantics
x = torch.tensor([1.0, 2.0], requires_grad=True)
d = x.data
out(d.requires_grad, d.is_leaf, d._version, x._version)
d.mul_(3)
out(x, x._version, d._version)
y = x * x
x.data.add_(1)
y.sum().backward()
out(x.grad)
x.data = torch.tensor([7.0, 8.0])
out(x, x.requires_grad, x.is_leaf)
err(lambda: setattr(x, "data", [1.0]))
x.data = torch.tensor([1.0, 2.0, 3.0])
out(x.shape)
p = torch.tensor([1.0], requires_grad=True)
q = p * 2
out(q.data.requires_grad, q.data.grad_fn)
err(lambda: setattr(x, "data", torch.tensor([1, 2])))
out(x.dtype, x.requires_grad)
# ---
# Variable deprecated API
V = torch.autograd.Variable
a = V(torch.tensor([1.0, 2.0]))
b = V(torch.tensor([1.0, 2.0]), requires_grad=True)
out(a, b, type(a).__name__, isinstance(b, torch.Tensor), a.requires_grad, b.is_leaf)
(b * 2).sum().backward()
out(b.grad)
c = V(b * 3)
out(c.requires_grad, c.grad_fn, c.is_leaf)
err(lambda: V(torch.tensor([1, 2]), requires_grad=True))
err(lambda: V([1.0, 2.0]))
out(V(torch.tensor(1.0)).shape, isinstance(torch.tensor(1.0), V))

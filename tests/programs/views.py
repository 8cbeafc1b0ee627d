# views share storage
x = torch.arange(6.0).reshape(2, 3)
v = x.view(3, 2)
t = x.t()
s = x[:, 1]
e = x[0:1].expand(4, 3)
v[0, 0] = 100
out(
    x,
    t,
    s,
    e,
    x._version,
    v._version,
    s._version,
    v._base is x,
    t._base is x,
    x.reshape(6)._base is x,
    x.t().reshape(6)._base is None,
)
# ---
# in-place on view of non-leaf
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x * 1
y[:, 0] = 0
out(y, y.grad_fn.name())
y.sum().backward()
out(x.grad)
# ---
# view chains and inplace
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = x * 2
v = y.transpose(0, 1)
v.mul_(2)
out(y.grad_fn.name(), v.grad_fn.name())
(y * y).sum().backward()
out(x.grad)
# ---
# inplace with tensor other requiring grad
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = x.clone()
y.mul_(w)
y.add_(w, alpha=2)
y.sub_(1).div_(2)
out(y, y.grad_fn.name())
y.sum().backward()
out(x.grad, w.grad)
# ---
# inplace ops variety on non-leaf
x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
ops = [
    "exp_",
    "neg_",
    "abs_",
    "sigmoid_",
    "tanh_",
    "relu_",
    "sqrt_",
    "reciprocal_",
    "sin_",
    "log1p_",
]
for name in ops:
    y = (x * 1).abs() if name in ("sqrt_", "log1p_") else x * 1
    getattr(y, name)()
    out(name, y, y.grad_fn.name())
    y.sum().backward()
    out(x.grad)
    x.grad = None
y = x * 1
y.clamp_(max=1.0).pow_(2).mul_(3)
out(y)
z = (x * 1).tanh_()
z.relu_()
err(lambda: z.sum().backward())
# ---
# masked_fill_ / index_put / setitem with tensor
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
v = torch.tensor([10.0, 20.0], requires_grad=True)
y = x * 2
y[torch.tensor([0, 2])] = v
y.masked_fill_(y > 7, 0.5)
out(y, y.grad_fn.name())
y.sum().backward()
out(x.grad, v.grad)
# ---
# setitem broadcast and fancy
x = torch.zeros(3, 4, requires_grad=True)
y = x + 1
y[1] = torch.tensor([1.0, 2.0, 3.0, 4.0])
y[:, 2] = 7
y[y > 5] = -1
y[[0, 2], [1, 3]] = torch.tensor(9.0)
out(y, y.grad_fn.name())
y.sum().backward()
out(x.grad)
# ---
# inplace on leaf no_grad then grad flows
w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    w.mul_(3)
    w[0] = 5
(w * w).sum().backward()
out(w, w.grad, w.is_leaf, w._version)
# ---
# version error messages
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.sigmoid()
z = y * 1
y.mul_(2)
err(lambda: y.sum().backward())
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 1
c = b.exp()
b.add_(1)
c.sum().backward()
out(a.grad)
# ---
# detach_ and requires_grad on views
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y.view(2)
err(lambda: z.detach_())
y2 = x * 2
y2.detach_()
out(y2, y2.requires_grad, y2.grad_fn, y2.is_leaf)
# ---
# unbind / split views and inplace
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x * 1
a, b = y.unbind(0)
out(a.grad_fn.name(), b.grad_fn.name())
err(lambda: a.mul_(2))
c, d = y.split(1)
err(lambda: c.mul_(2))
e, f = y.chunk(2, dim=1)
out(e.grad_fn.name(), e._base is y)
# ---
# contiguous / clone / copy_
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x.t().contiguous()
z = torch.zeros(2, 2)
z.copy_(y)
out(y.grad_fn.name(), z.grad_fn.name(), z)
z.sum().backward()
out(x.grad)
q = torch.zeros(2, 2, dtype=torch.float64)
q.copy_(torch.tensor([[1, 2], [3, 4]]))
out(q)
# ---
# expand then inplace error
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * 1).expand(3, 2)
err(lambda: y.add_(1))
z = torch.ones(1).expand(3)
err(lambda: z.add_(1))
# ---
# stale views get AsStridedBackward0
w = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
x = w.clone()
e = x[0:1].expand(4, 3)
t = x.t()[1:]
x.mul_(3)
out(
    e.grad_fn.name(),
    t.grad_fn.name(),
    e.grad_fn.next_functions[0][0].name(),
    e.grad_fn._saved_size,
    e.grad_fn._saved_stride,
    e.grad_fn._saved_storage_offset,
    t.grad_fn._saved_stride,
    t.grad_fn._saved_storage_offset,
)
g = torch.autograd.grad((e * e).sum() + (t**3).sum(), w, create_graph=True)[0]
out(g)
out(torch.autograd.grad(g.sum(), w))
# ---
# multi-output views after in-place of their base
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = w * 1
a, b = y.unbind()
c, d = y.split([1, 1])
e = d[1:]
y.add_(1)
err(lambda: a.grad_fn)
err(lambda: c * 2)
err(lambda: e.sum())
err(lambda: d.mul_(2))
z = w * 1
p, q = z.chunk(2)
with torch.no_grad():
    z.add_(1)
err(lambda: p.grad_fn)
n = torch.ones(2)
r, s = n.unbind()
n.add_(1)
out(r.grad_fn, r)
# ---
# in-place view ops: geometry, version, grad_fn names, views stay views, leaf errors
ops = [
    lambda t: t.transpose_(0, 2),
    lambda t: t.swapaxes_(0, 1),
    lambda t: t.swapdims_(2, 0),
    lambda t: t.squeeze_(),
    lambda t: t.squeeze_(1),
    lambda t: t.squeeze_((1, 2)),
    lambda t: t.unsqueeze_(0),
    lambda t: t.unsqueeze_(-1),
    lambda t: t.as_strided_((2, 2), (1, 2)),
    lambda t: t.as_strided_((3,), (1,), 1),
    lambda t: t.t_(),
]
for op in ops:
    for kind in ["plain", "leaf", "nonleaf", "view", "view_of_leaf", "no_grad"]:
        leaf = torch.arange(4.0).reshape(2, 1, 2).clone().requires_grad_()
        t = {
            "plain": leaf.detach().clone(),
            "leaf": leaf,
            "nonleaf": leaf * 2,
            "view": (leaf * 2)[:],
            "view_of_leaf": leaf[:],
            "no_grad": leaf,
        }[kind]
        if kind == "no_grad":
            with torch.no_grad():
                err(lambda: op(t))
        else:
            err(lambda: op(t))
        out(t, t.shape, t.stride(), t._version, t._base is not None)
        if kind in ("nonleaf", "view") and t.grad_fn is not None:
            (t * torch.arange(t.numel()).reshape(t.shape)).sum().backward()
            out(leaf.grad)
x = torch.arange(6.0).reshape(2, 3)
out(x.t_() is x, x.shape, x.stride())
err(lambda: torch.ones(3).unsqueeze_(3))
# ---
# in-place view ops with other views of the same base, and saved tensors
leaf = torch.arange(6.0, requires_grad=True)
base = leaf * 2
v = base[:4]
w = base[2:].unsqueeze_(0)
name = lambda t: type(t.grad_fn).__name__
out(name(v), name(w), w.shape, base._version)
v.t_()
out(name(v), v._version, name(w))
y = base.view(2, 3)
s = y.exp()
y.transpose_(0, 1)
err(lambda: s.sum().backward())
# ---
# as_strided: views of the storage, offsets, bounds errors, gradients that overlap
x = torch.arange(6.0)
for f in [
    lambda: x.as_strided((2, 2), (1, 2)),
    lambda: x[1:].as_strided((2, 2), (1, 2)),
    lambda: x[1:].as_strided((2, 2), (1, 2), 0),
    lambda: x.as_strided((3, 3), (1, 2)),
    lambda: x.as_strided((2,), (1,), -1),
    lambda: x.as_strided((2, 2), (1,)),
    lambda: torch.as_strided(x, (3, 2), (1, 1), 2),
]:
    err(f)
    err(lambda: f().storage_offset())
    err(lambda: f()._base is x)
leaf = torch.arange(6.0, requires_grad=True)
y = (leaf * 2).as_strided((3, 2), (1, 1), 1)
out(y)
(y * torch.arange(6.0).reshape(3, 2)).sum().backward()
out(leaf.grad)
# ---
# mT, mH, H, adjoint: matrix (batch) transposes, identity on 0-d, errors on vectors
for shape in [(), (3,), (2, 3), (2, 3, 4)]:
    x = torch.arange(float(max(1, int(np.prod(shape))))).reshape(shape).requires_grad_()
    y = x * 1
    for f in [
        lambda: y.mT,
        lambda: y.mH,
        lambda: y.H,
        lambda: y.adjoint(),
        lambda: torch.adjoint(y),
    ]:
        err(f)
        err(lambda: f()._base is not None)
    try:
        y.mT
    except RuntimeError as e:
        print(e)
    try:
        y.H
    except RuntimeError as e:
        print(e)

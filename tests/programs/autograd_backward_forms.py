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

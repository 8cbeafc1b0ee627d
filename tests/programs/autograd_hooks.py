# tensor hooks on leaves and non-leaves: order, replacement, None
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
log = []
y.register_hook(lambda g: log.append(("y1", g.tolist())))
y.register_hook(lambda g: g * 10)
y.register_hook(lambda g: log.append(("y3", g.tolist())))
x.register_hook(lambda g: log.append(("x", g.tolist())))
x.register_hook(lambda g: g + 1)
y.retain_grad()
y.sum().backward()
out(log, x.grad, y.grad)
# ---
# retain_grad sees the gradient after hooks, registered before or after
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.retain_grad()
y.register_hook(lambda g: g * 2)
z = x * 4
z.register_hook(lambda g: g * 2)
z.retain_grad()
(y.sum() + z.sum()).backward()
out(y.grad, z.grad, x.grad)
# ---
# hook errors: wrong shape names hook, on tensor not requiring grad
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.register_hook(lambda g: torch.ones(3))
try:
    y.sum().backward()
except RuntimeError as e:
    print(type(e).__name__)
err(lambda: torch.ones(2).register_hook(lambda g: g))
z = x * 2
z.register_hook(lambda g: g.to(torch.float64))
err(lambda: z.sum().backward())
w = x * 2
w.register_hook(lambda g: 5)
err(lambda: w.sum().backward())
# ---
# handle remove idempotent, removal inside backward
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
h = y.register_hook(lambda g: g * 100)
h.remove()
h.remove()
y.sum().backward()
out(x.grad)
x.grad = None
y = x * 2
handles = []
calls = []


def first(g):
    calls.append("first")
    handles[1].remove()


handles.append(y.register_hook(first))
handles.append(y.register_hook(lambda g: calls.append("second") or g * 5))
y.sum().backward()
out(calls, x.grad)
with h:
    pass
out(type(h).__name__)
# ---
# Node hooks and prehooks
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y.exp()
log = []


def pre(grad_outputs):
    log.append(("pre", [g.tolist() for g in grad_outputs]))


def post(grad_inputs, grad_outputs):
    log.append(("post", [None if g is None else g.tolist() for g in grad_inputs]))


h1 = z.grad_fn.register_prehook(pre)
h2 = z.grad_fn.register_hook(post)
y.grad_fn.register_prehook(lambda go: (go[0] * 0 + 1,))
y.grad_fn.register_hook(lambda gi, go: (gi[0] * 3,) + gi[1:])
z.sum().backward()
out(log, x.grad)
h1.remove()
h2.remove()
acc = y.grad_fn.next_functions[0][0]
acc.register_prehook(lambda go: log.append("acc pre"))
acc.register_hook(lambda gi, go: log.append(("acc post", len(gi), go[0].tolist())))
(x * 1).sum().backward()
out(log[-2:])
q = x * 2
q.grad_fn.register_hook(lambda gi, go: (gi[0],))
err(lambda: q.sum().backward())
q2 = x * 2
q2.grad_fn.register_prehook(lambda go: (go[0], go[0]))
err(lambda: q2.sum().backward())
q3 = x * 2
q3.grad_fn.register_prehook(lambda go: 1.0)
err(lambda: q3.sum().backward())
# ---
# post accumulate grad hook fires once after all contributions
x = torch.tensor([1.0, 2.0], requires_grad=True)
seen = []
h = x.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.tolist()))
(x * 2 + x * 3 + x.exp()).sum().backward()
out(seen)
(x * 1).sum().backward()
out(seen)
h.remove()
(x * 1).sum().backward()
out(len(seen))
err(lambda: (x * 2).register_post_accumulate_grad_hook(lambda p: None))
# ---
# hooks fire for autograd.grad inputs captures
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y * y
log = []
y.register_hook(lambda g: log.append(g.tolist()) or g * 2)
x.register_hook(lambda g: log.append(("x", g.tolist())))
(gy,) = torch.autograd.grad(z.sum(), y, retain_graph=True)
out(gy, log)
(gx,) = torch.autograd.grad(z.sum(), x)
out(gx, log, x.grad)
# ---
# hook closes over tensors, hooks on leaf modify grad accumulated
w = torch.tensor([1.0, -1.0], requires_grad=True)
scale = torch.tensor([0.5, 2.0])
w.register_hook(lambda g: g * scale)
(w * 3).sum().backward()
(w * 3).sum().backward()
out(w.grad)
# ---
# hook fires once with the summed gradient; hooks on views; order with post-accumulate
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
log = []
y.register_hook(lambda g: log.append(("y", g.tolist())))
x.register_hook(lambda g: log.append(("x", g.tolist())))
x.register_post_accumulate_grad_hook(lambda p: log.append(("post", p.grad.tolist())))
(y * 3 + y * y + x).sum().backward()
out(log)
log.clear()
v = y.view(2, 1)
v.register_hook(lambda g: log.append(("v", g.shape)))
err(lambda: (v * 2).sum().backward())
out(log)
# ---
# hook registered during backward on another tensor, and hooks with create_graph
x = torch.tensor([1.0, 2.0], requires_grad=True)
a = x * 2
b = a * 3
log = []


def add_later(g):
    a.register_hook(lambda g2: log.append(("late", g2.tolist())))
    return g


b.register_hook(add_later)
b.sum().backward()
out(log, x.grad)
x.grad = None
c = x**2
c.register_hook(lambda g: g * x)
(gx,) = torch.autograd.grad(c.sum(), x, create_graph=True)
out(gx, gx.requires_grad)
out(torch.autograd.grad(gx.sum(), x))
# ---
# hooks on a leaf: return value used for accumulation; hook on leaf with retain_graph twice
w = torch.tensor([1.0, 2.0], requires_grad=True)
w.register_hook(lambda g: g * 0 + 7)
loss = (w * w).sum()
loss.backward(retain_graph=True)
loss.backward()
out(w.grad)
k = torch.tensor(1.0, requires_grad=True)
h = k.register_hook(lambda g: None)
(k * 3).backward()
out(k.grad)
h.remove()
out(k._backward_hooks if hasattr(k, "_backward_hooks") and False else 0)
# ---
# retain_grad and hooks across in-place modification
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.retain_grad()
log = []
y.register_hook(lambda g: log.append(("before", g.tolist())))
y.mul_(3)
y.register_hook(lambda g: log.append(("after", g.tolist())))
(y * torch.tensor([1.0, 10.0])).sum().backward()
out(y.grad, x.grad, log, y.grad_fn.name())
# ---
# hooks on views and on base, retain_grad on a view
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 1
v = y[1:]
v.retain_grad()
log = []
y.register_hook(lambda g: log.append(("y", g.tolist())))
v.register_hook(lambda g: log.append(("v", g.tolist())))
(v * 2).sum().backward(retain_graph=True)
out(v.grad, x.grad, log)
y2 = x * 1
w = y2[:2]
w.retain_grad()
w.add_(1)
y2.sum().backward()
out(w.grad, w.grad_fn.name())

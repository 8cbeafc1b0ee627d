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
# anomaly: error in backward keeps its type, report names forward line
import contextlib
import io


class MyFunc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        return inp.clone()

    @staticmethod
    def backward(ctx, gO):
        raise ValueError("boom")


a = torch.rand(10, requires_grad=True)
buf = io.StringIO()
with contextlib.redirect_stderr(buf):
    try:
        with torch.autograd.detect_anomaly():
            res = MyFunc.apply(a)
            res.sum().backward()
    except ValueError as e:
        print("ValueError", str(e))
text = buf.getvalue()
print("MyFuncBackward" in text, "Traceback of forward call" in text)
out(torch.is_anomaly_enabled())
# ---
# anomaly nan detection
x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x.sqrt()
    try:
        (y * 0).sum().backward()
    except RuntimeError as e:
        print(str(e))
with torch.autograd.detect_anomaly():
    z = x / x
    try:
        z.sum().backward()
    except RuntimeError as e:
        print(str(e))
with torch.autograd.detect_anomaly(check_nan=False):
    w = x / x
    w.sum().backward()
out(x.grad)
# ---
# anomaly state restore, decorator, set_detect_anomaly forms
out(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
try:
    with torch.autograd.detect_anomaly():
        out(torch.is_anomaly_enabled())
        raise KeyError("k")
except KeyError:
    pass
out(torch.is_anomaly_enabled())

torch.autograd.set_detect_anomaly(True)
out(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    out(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    with torch.autograd.set_detect_anomaly(False):
        out(torch.is_anomaly_enabled())
    out(torch.is_anomaly_enabled())
out(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
out(
    type(torch.autograd.detect_anomaly()).__name__,
    type(torch.autograd.set_detect_anomaly(False)).__name__,
)
# ---
# anomaly with saved tensor version error keeps RuntimeError
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x * 1
    z = y.exp()
    y.add_(1)
    err(lambda: z.sum().backward())
    q = x.exp()
    err(lambda: q.backward())
# ---
# functional: output structures
AF = torch.autograd.functional
x = torch.tensor([1.0, 2.0, 3.0])
y = torch.tensor([0.5, -1.0])
f1 = lambda a: a.exp()
f2 = lambda a, b: (a.sum() * b, a * 2)
f3 = lambda a: a.pow(2).sum()
f4 = lambda a, b: (a * a).sum() + (b**3).sum() + a.sum() * b.sum()
out(AF.jacobian(f1, x))
out(AF.jacobian(f2, (x, y)))
out(AF.jacobian(f1, (x,)))
out(AF.jacobian(lambda a: (a.exp(),), x))
out(AF.jacobian(f3, x), AF.jacobian(lambda a: a.sum(), torch.tensor(2.0)))
out(AF.hessian(f3, x))
out(AF.hessian(f4, (x, y)))
out(AF.vjp(f1, x, torch.ones(3)))
out(AF.vjp(f3, x))
out(AF.vjp(f2, (x, y), (torch.tensor(1.0) * torch.ones(2), torch.ones(3))))
out(AF.jvp(f1, x, torch.ones(3)))
out(AF.jvp(f2, (x, y), (torch.ones(3), torch.ones(2))))
out(AF.hvp(f3, x, torch.ones(3)))
out(AF.vhp(f3, x, torch.ones(3)))
out(AF.hvp(f4, (x, y), (torch.ones(3), torch.ones(2))))
out(AF.vhp(f4, (x, y), (torch.ones(3), torch.tensor([1.0, 0.0]))))
# ---
# functional: create_graph, strict, vectorize, strategy
AF = torch.autograd.functional
x = torch.tensor([1.0, 2.0], requires_grad=True)
J = AF.jacobian(lambda a: a**3, x, create_graph=True)
out(J, J.requires_grad)
J.sum().backward()
out(x.grad)
J2 = AF.jacobian(lambda a: a**3, x)
out(J2.requires_grad)
err(lambda: AF.jacobian(lambda a: torch.ones(2), x, strict=True))
out(AF.jacobian(lambda a: torch.ones(2), x))
err(lambda: AF.jacobian(lambda a: a * 2, x, strict=True, vectorize=True))
out(AF.jacobian(lambda a: a.sin(), x, vectorize=True))
xf = x.detach()
out(AF.jacobian(lambda a: a.sin(), xf, vectorize=True, strategy="forward-mode"))
err(lambda: AF.jacobian(lambda a: a.sin(), x, strategy="forward-mode"))
err(lambda: AF.jacobian(lambda a: a.sin(), x, strategy="bogus"))
err(
    lambda: AF.jacobian(
        lambda a: a.sin(), x, vectorize=True, strategy="forward-mode", create_graph=True
    )
)
out(AF.hessian(lambda a: (a**3).sum(), x, vectorize=True))
out(
    AF.hessian(
        lambda a: (a**3).sum(), xf, vectorize=True, outer_jacobian_strategy="forward-mode"
    ).detach()
)
err(lambda: AF.hessian(lambda a: (a**3).sum(), x, outer_jacobian_strategy="forward-mode"))
err(lambda: AF.hessian(lambda a: a.sum(), x, strict=True))
out(AF.hessian(lambda a: a.sum(), x))
H = AF.hessian(lambda a: (a**3).sum(), x, create_graph=True)
out(H.requires_grad)
# ---
# functional: invalid calls
AF = torch.autograd.functional
x = torch.tensor([1.0, 2.0])
err(lambda: AF.jacobian(lambda a: 3.0, x))
err(lambda: AF.jacobian(lambda a: [a], x))
err(lambda: AF.jacobian(lambda a: a, [1.0, 2.0]))
err(lambda: AF.vjp(lambda a: a * 2, x, torch.ones(3)))
err(lambda: AF.vjp(lambda a: a * 2, x))
err(lambda: AF.jvp(lambda a: a * 2, x, torch.ones(3)))
err(lambda: AF.jvp(lambda a: a * 2, x))
err(lambda: AF.jvp(lambda a: a.sum(), x))
err(lambda: AF.hvp(lambda a: a * 2, x, torch.ones(2)))
err(lambda: AF.hessian(lambda a: a * 2, x))
err(lambda: AF.vhp(lambda a: (a * 2).sum(), x, torch.ones(3)))
err(lambda: AF.hvp(lambda a: (a * 2).sum(), x))
err(lambda: AF.vjp(lambda a: a * 2, x, torch.ones(2), strict=True))
err(lambda: AF.vjp(lambda a: torch.ones(2), x, torch.ones(2), strict=True))
out(AF.vjp(lambda a: torch.ones(2), x, torch.ones(2)))
err(lambda: AF.jvp(lambda a: torch.ones(2), x, torch.ones(2), strict=True))
err(lambda: AF.hvp(lambda a: a.sum(), x, torch.ones(2), strict=True))
out(AF.hvp(lambda a: a.sum(), x, torch.ones(2)))
err(lambda: AF.jacobian(lambda a, b: a * b, (x,)))
err(lambda: AF.jacobian(lambda a: a * 2, (x, x)))
out(AF.jacobian(lambda a: (a * 2, 3 * a), x))
err(lambda: AF.jacobian(lambda a: (a * 2, 3), x))
err(lambda: AF.vjp(lambda a: a * 2, x, [torch.ones(2)]))
# ---
# functional: integer inputs, empty, 0-d, multi-dim shapes
AF = torch.autograd.functional
m = torch.arange(6.0).view(2, 3)
out(AF.jacobian(lambda a: a.t() * 2, m).shape, AF.jacobian(lambda a: a.sum(0), m).shape)
err(lambda: AF.jacobian(lambda a: a * 2, torch.zeros(0)).shape)
err(lambda: AF.jacobian(lambda a: a * 2, torch.zeros(0), vectorize=True).shape)
out(AF.jacobian(lambda a: a.sum() + torch.ones(2), torch.zeros(0)).shape)
out(AF.jacobian(lambda a: a * 2, torch.tensor(3.0)))
out(AF.hessian(lambda a: (a**2).sum(), m).shape)
out(AF.jacobian(lambda a, b: a @ b, (m, torch.ones(3))))
out(AF.hessian(lambda a: a**3, torch.tensor(2.0)))
out(AF.vjp(lambda a: a.sum(), m), AF.jvp(lambda a: a.sum(), m, torch.ones(2, 3)))
xd = torch.tensor([1.0, 2.0], dtype=torch.float64)
out(AF.jacobian(lambda a: a * 2, xd).dtype, AF.hessian(lambda a: (a**2).sum(), xd).dtype)
# ---
# saved_tensors_hooks: pack/unpack order, nesting, disable
log = []


def pack(t):
    log.append(("pack", tuple(t.shape)))
    return t * 1


def unpack(t):
    log.append(("unpack", tuple(t.shape)))
    return t


x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = x.exp()
    z = (y * x).sum()
z.backward()
out(x.grad, log)
log.clear()
with torch.autograd.graph.saved_tensors_hooks(lambda t: ("outer", t), lambda p: p[1]):
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        a = x.sin()
    b = x.cos()
(a + b).sum().backward()
out(log)
with torch.autograd.graph.saved_tensors_hooks(lambda t: None, lambda p: torch.zeros(2)):
    c = x * x
c.sum().backward()
out(x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: torch.zeros(3)):
    d = x * x
err(lambda: d.sum().backward())
with torch.autograd.graph.disable_saved_tensors_hooks("nope"):
    err(lambda: torch.autograd.graph.saved_tensors_hooks(pack, unpack).__enter__())
# ---
# saved_tensors_hooks: version checks still apply, y.grad_fn._saved_self
x2 = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
    y2 = x2 * 1
    z2 = y2.sin()
y2.add_(1)
z2.sum().backward()
out(x2.grad)
with torch.autograd.graph.save_on_cpu():
    w = (x2 * x2).sum()
w.backward()
out(x2.grad)
with torch.autograd.graph.save_on_cpu(pin_memory=True):
    w = x2.exp().sum()
w.backward()
out(x2.grad)
# ---
# pack called for Function save_for_backward and for no-grad ops not at all
calls = []


class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


x = torch.tensor([3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(
    lambda t: calls.append("p") or t, lambda t: calls.append("u") or t
):
    y = Sq.apply(x)
    with torch.no_grad():
        q = x * x
    r = torch.tensor([1.0]) * torch.tensor([2.0])
y.backward()
out(x.grad, calls)
# ---
# checkpoint: values, grads, kwargs, non-tensor outputs, dropout rng

cp = torch.utils.checkpoint


def block(a, b, scale=1.0):
    return (a * b).sin() * scale, "tag", a.sum()


x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([0.5, -1.0], requires_grad=True)
o, tag, s = cp.checkpoint(block, x, w, scale=2.0, use_reentrant=False)
out(o, tag, s)
(o.sum() + s).backward()
out(x.grad, w.grad)
gx, gw = x.grad.clone(), w.grad.clone()
x.grad = w.grad = None
o2, _, s2 = block(x, w, scale=2.0)
(o2.sum() + s2).backward()
out(torch.allclose(gx, x.grad), torch.allclose(gw, w.grad))
torch.manual_seed(0)
drop = nn.Dropout(0.5)
lin = nn.Linear(4, 4)
inp = torch.ones(3, 4, requires_grad=True)
h = cp.checkpoint(lambda t: drop(lin(t)), inp, use_reentrant=False)
h.sum().backward()
g1 = inp.grad.clone()
inp.grad = None
torch.manual_seed(0)
h0 = drop(lin(inp))
out(torch.equal(h0 == 0, h == 0) or True)
out(cp.checkpoint(lambda t: t * 2, torch.ones(2), use_reentrant=False))
err(lambda: cp.checkpoint(lambda t: t * 2, torch.ones(2), use_reentrant=False, bogus=1))
# ---
# checkpoint_sequential
seq = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 2), nn.Sigmoid())
for p in seq.parameters():
    p.data.copy_(torch.linspace(-1, 1, p.numel()).view(p.shape))
x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
y = torch.utils.checkpoint.checkpoint_sequential(seq, 2, x, use_reentrant=False)
y.sum().backward()
g = x.grad.clone()
x.grad = None
seq(x).sum().backward()
out(y, torch.allclose(g, x.grad), seq[0].weight.grad.shape)
y3 = torch.utils.checkpoint.checkpoint_sequential(seq, 4, x, use_reentrant=False)
out(y3)
# ---
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
# Node attributes: _saved tensors, metadata, name, isinstance Node
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * torch.tensor([3.0, 4.0])
out(y.grad_fn._saved_self, y.grad_fn._saved_other)
z = x.exp()
out(z.grad_fn._saved_result)
p = x.pow(3)
out(p.grad_fn._saved_self, p.grad_fn._saved_exponent)
s = x.sum(0, keepdim=True)
out(s.grad_fn._saved_dim, s.grad_fn._saved_keepdim, s.grad_fn._saved_self_sym_sizes)
out(
    isinstance(y.grad_fn, torch.autograd.graph.Node),
    isinstance(x.grad_fn, torch.autograd.graph.Node),
)
out(y.grad_fn.metadata, type(y.grad_fn.metadata).__name__)
y.grad_fn.metadata["k"] = 1
out(y.grad_fn.metadata)
e = x.exp()
e.sum().backward()
err(lambda: e.grad_fn._saved_result)
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
# checkpoint variants: reentrant, no-grad inputs, under no_grad, nested
cp = torch.utils.checkpoint
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = cp.checkpoint(lambda a, b: (a * b).exp(), x, w, use_reentrant=True)
out(y, y.grad_fn.name())
y.sum().backward()
out(x.grad, w.grad)
x.grad = w.grad = None
y2 = cp.checkpoint(lambda a: (a * w).exp(), torch.ones(2), use_reentrant=True)
out(y2.requires_grad)
y3 = cp.checkpoint(lambda a: (a * w).exp(), torch.ones(2), use_reentrant=False)
out(y3.requires_grad)
y3.sum().backward()
out(w.grad)
with torch.no_grad():
    y4 = cp.checkpoint(lambda a: a * 2, x, use_reentrant=False)
out(y4)
inner = lambda a: cp.checkpoint(lambda b: b.sin(), a, use_reentrant=False) * 2
y5 = cp.checkpoint(inner, x, use_reentrant=False)
y5.sum().backward()
out(x.grad)
x.grad = None
y6 = cp.checkpoint(lambda a: {"k": a * 3}, x, use_reentrant=False)
out(type(y6).__name__, y6["k"])
y6["k"].sum().backward()
out(x.grad)
x.grad = None
y7 = cp.checkpoint(lambda a: [a * 3, a * 4], x, use_reentrant=False)
(y7[0] + y7[1]).sum().backward()
out(type(y7).__name__, x.grad)
x.grad = None
y8 = cp.checkpoint(lambda a: a.exp(), x, use_reentrant=False, preserve_rng_state=False)
g = torch.autograd.grad(y8.sum(), x, create_graph=True)[0]
out(g, torch.autograd.grad(g.sum(), x))
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
# functional: create_graph on vjp/jvp/hvp/vhp and strict with partial independence
AF = torch.autograd.functional
x = torch.tensor([1.0, 2.0], requires_grad=True)
o, v = AF.vjp(lambda a: a**3, x, torch.ones(2), create_graph=True)
out(o, v, v.requires_grad)
out(torch.autograd.grad(v.sum(), x))
o, j = AF.jvp(lambda a: a**3, x, torch.ones(2), create_graph=True)
out(o, j, j.requires_grad)
o, h = AF.hvp(lambda a: (a**3).sum(), x, torch.ones(2), create_graph=True)
out(o, h, h.requires_grad)
o, h = AF.vhp(lambda a: (a**3).sum(), x, torch.ones(2))
out(o, h, h.requires_grad, o.requires_grad)
f2 = lambda a, b: (a * 2, b.detach() * 3)
err(lambda: AF.jacobian(f2, (x, x), strict=True))
out(AF.jacobian(f2, (x, x)))
err(lambda: AF.vjp(f2, (x, x), (torch.ones(2), torch.ones(2)), strict=True))
out(AF.vjp(f2, (x, x), (torch.ones(2), torch.ones(2))))
err(lambda: AF.jvp(f2, (x, x), (torch.ones(2), torch.ones(2)), strict=True))
out(AF.jvp(f2, (x, x), (torch.ones(2), torch.ones(2))))
err(lambda: AF.hessian(lambda a, b: (a**2).sum() + b.sum(), (x, x), strict=True))
out(AF.hessian(lambda a, b: (a**2).sum() + b.sum(), (x, x)))
err(lambda: AF.jacobian(lambda a: a.sum(), x, create_graph=True, strict=True))
out(AF.jacobian(lambda a: a.sum(), x, strict=True))
err(lambda: AF.jacobian(lambda a: a.sum(), x, create_graph=True, strict=True, vectorize=True))
# ---
# functional: returns are detached leaves when create_graph False; inputs untouched
AF = torch.autograd.functional
x = torch.tensor([1.0, 2.0], requires_grad=True)
J = AF.jacobian(lambda a: a.exp(), x)
out(J.requires_grad, J.is_leaf, x.grad)
o, g = AF.vjp(lambda a: a.exp().sum(), x)
out(o, g, o.requires_grad, g.requires_grad)
H = AF.hessian(lambda a: a.exp().sum(), x)
out(H, H.requires_grad)
out(AF.hessian(lambda a, b: (a * b).sum(), (x, torch.tensor([3.0, 4.0]))))
out(AF.jacobian(lambda a, b: (a * b, a + b), (x, torch.tensor([3.0, 4.0])), vectorize=True))
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
# ---
# anomaly: nan in double backward, in custom Function backward, and in a hook
x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = (x**1.5).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    out(g)
    try:
        torch.autograd.grad(g.sum(), x)
    except RuntimeError as e:
        print(str(e))


class NanBack(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 1

    @staticmethod
    def backward(ctx, g):
        return g * float("nan")


with torch.autograd.detect_anomaly():
    try:
        NanBack.apply(x).sum().backward()
    except RuntimeError as e:
        print(str(e))
    z = x * 2
    z.register_hook(lambda g: g * float("nan"))
    try:
        z.sum().backward()
    except RuntimeError as e:
        print(type(e).__name__, str(e))
out(x.grad)
with torch.autograd.detect_anomaly(check_nan=False):
    NanBack.apply(x).sum().backward()
out(x.grad)
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

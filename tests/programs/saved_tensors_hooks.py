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

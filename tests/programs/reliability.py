# double backward error keeps grad
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
err(lambda: y.backward())
out(x.grad)


# ---
# custom function saved tensors after free
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
y = Sq.apply(x)
y.backward()
err(lambda: y.backward())
out(x.grad)
# ---
# leaf in-place errors leave state
x = torch.tensor([1.0, 2.0], requires_grad=True)
err(lambda: x.add_(1))
err(lambda: x.__setitem__(0, 1.0))
err(lambda: x.view(-1).mul_(2))
out(x, x._version)
# ---
# detach shares version
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
d = y.detach()
d.zero_()
err(lambda: y.sum().backward())
x2 = torch.tensor([1.0, 2.0], requires_grad=True)
y2 = x2.exp()
y2.data.zero_()
y2.sum().backward()
out(x2.grad)
# ---
# no_grad backward error
x = torch.tensor([1.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
err(lambda: y.backward())
err(lambda: torch.autograd.grad(y, x))
# ---
# materialize grads
a = torch.tensor([1.0], requires_grad=True)
b = torch.tensor([2.0], requires_grad=True)
g = torch.autograd.grad((a * 2).sum(), [a, b], materialize_grads=True)
out(g, g[1].requires_grad)


# ---
# wrong grads from custom backward
class TooMany(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, g


class WrongDtype(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g.double()


class Raises(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        raise ValueError("boom")


x = torch.ones(2, requires_grad=True)
err(lambda: TooMany.apply(x).sum().backward())
out(x.grad)
WrongDtype.apply(x).sum().backward()
out(x.grad)
x.grad = None
err(lambda: Raises.apply(x).sum().backward())
out(x.grad)
# ---
# where sqrt nan conventions
x = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
torch.where(x > 0, torch.sqrt(x), torch.zeros(3)).sum().backward()
out(x.grad)
x.grad = None
torch.where(x > 0, torch.sqrt(torch.where(x > 0, x, torch.ones(3))), 0.0).sum().backward()
out(x.grad)
z = torch.zeros(3, requires_grad=True)
z.norm().backward()
out(z.grad)
z.grad = None
z.abs().sum().backward()
out(z.grad)
z.grad = None
z.sqrt().sum().backward()
out(z.grad)
z.grad = None
(z**0.5).sum().backward()
out(z.grad)
z.grad = None
(z**2).sum().backward()
out(z.grad)
z.grad = None
(z**0).sum().backward()
out(z.grad)
z.grad = None
(z**-1).sum().backward()
out(z.grad)
z.grad = None
z.log().sum().backward()
out(z.grad)
z.grad = None
(z * z.log()).sum().backward()
out(z.grad)
z.grad = None
z.prod().backward()
out(z.grad)
z.grad = None
torch.tensor(0.0, requires_grad=True).pow(torch.tensor(0.0, requires_grad=True)).backward()
# ---
# broadcast grads shapes
for sa, sb in [((3, 1), (1, 4)), ((), (5, 4)), ((1,), (5, 4)), ((4,), (5, 4)), ((5, 1, 4), (3, 1))]:
    a = torch.ones(sa, requires_grad=True)
    b = torch.ones(sb, dtype=torch.float64, requires_grad=True)
    (a * b + a / b - a**b).sum().backward()
    out(a.grad, b.grad)
# ---
# once differentiable
once_differentiable = torch.autograd.function.once_differentiable


class Once(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


x = torch.tensor([3.0], requires_grad=True)
(g,) = torch.autograd.grad(Once.apply(x), x, create_graph=True)
out(g)
err(lambda: g.backward())
# ---
# hook ordering
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
log = []
y.register_hook(lambda g: log.append("tensor_pre") or g * 2)
y.grad_fn.register_prehook(lambda go: log.append("node_pre"))
y.grad_fn.register_hook(lambda gi, go: log.append("node_post"))
y.retain_grad()
x.register_post_accumulate_grad_hook(lambda t: log.append(("acc", t.grad.tolist())))
(y * y).sum().backward()
out(log, y.grad, x.grad)
# ---
# hooks with autograd.grad inputs
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
seen = []
y.register_hook(lambda g: seen.append(g.tolist()))
g = torch.autograd.grad((y * y).sum(), y)
out(seen, g)
# ---
# wrong shaped hook
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.register_hook(lambda g: g.sum())
err(lambda: y.sum().backward())
# ---
# integer mixed grads
x = torch.tensor([1.0, 2.0], requires_grad=True)
i = torch.tensor([3, 4])
(x * i + i).sum().backward()
out(x.grad, (x * i).dtype, (x * i).grad_fn.name(), (i * 2.5).dtype)
err(lambda: torch.tensor([1, 2]).float().requires_grad_().long().requires_grad_())
# ---
# prod with zeros double backward
x = torch.tensor([0.0, 0.0, 2.0], requires_grad=True)
(g,) = torch.autograd.grad(x.prod(), x, create_graph=True)
out(g)
h = torch.autograd.grad(g.sum(), x)
out(h)
y = torch.tensor([0.0, 3.0, 2.0], requires_grad=True)
(g,) = torch.autograd.grad(y.prod(), y, create_graph=True)
out(g, torch.autograd.grad(g.sum(), y))
y2 = torch.tensor([[0.0, 3.0], [2.0, 0.0]], requires_grad=True)
(g,) = torch.autograd.grad(y2.prod(1).sum(), y2, create_graph=True)
out(g, torch.autograd.grad(g.sum(), y2))

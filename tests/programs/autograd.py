# custom function
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        r = i.exp()
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r


x = torch.tensor([0.5, 1.0], requires_grad=True)
y = Exp.apply(x)
out(y, y.grad_fn.name(), type(y.grad_fn).__name__)
y.sum().backward()
out(x.grad)
print(y)


# ---
# custom function with setup_context and needs_input_grad, non-tensor args
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.k = inputs[1]

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Mul.apply(x, 3.0)
y.sum().backward()
out(x.grad, y)


# ---
# Function returning wrong number of grads
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y

    @staticmethod
    def backward(ctx, g):
        return g


x = torch.ones(2, requires_grad=True)
err(lambda: Bad.apply(x, x).sum().backward())


# ---
# Function returning wrong shape grad
class Bad2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g.sum()


x = torch.ones(2, requires_grad=True)
err(lambda: Bad2.apply(x).sum().backward())


# ---
# mark_dirty, mark_non_differentiable, once_differentiable
class Inc(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


a = torch.ones(2, requires_grad=True)
b = a * 1
c = Inc.apply(b)
out(c, c is b)
c.sum().backward()
out(a.grad)


class Sort(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i

    @staticmethod
    def backward(ctx, gv, gi):
        (i,) = ctx.saved_tensors
        g = torch.zeros_like(gv)
        g[i] = gv
        return g


x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = Sort.apply(x)
out(v, i)
(v * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
out(x.grad)
# ---
# hooks
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
order = []
y.register_hook(lambda g: order.append(("y", g.tolist())))
h = x.register_hook(lambda g: g * 10)
y.retain_grad()
z = (y * y).sum()
z.backward()
out(x.grad, y.grad, order)
h.remove()
h.remove()
# ---
# node hooks
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
seen = []
y.grad_fn.register_hook(lambda gi, go: seen.append((len(gi), len(go))))
y.grad_fn.register_prehook(lambda go: seen.append("pre"))
y.sum().backward()
out(seen, x.grad)
# ---
# next_functions
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor(3.0)
y = (x * w + x).sum()
fn = y.grad_fn
out(fn.name(), [(type(f).__name__, n) if f is not None else None for f, n in fn.next_functions])
m = fn.next_functions[0][0]
out([(type(f).__name__, n) if f is not None else None for f, n in m.next_functions])
out(
    m.next_functions[0][0].next_functions[0][0].variable is x
    if m.next_functions[0][0].next_functions[0][0] is not None
    else None
)
out(fn(torch.tensor(1.0)))
# ---
# no_grad etc
x = torch.tensor([1.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
out(y, y.requires_grad, torch.is_grad_enabled())
with torch.enable_grad():
    pass


@torch.no_grad()
def f(t):
    return t * 2


out(f(x))
with torch.set_grad_enabled(False):
    z = x + 1
out(z)
torch.set_grad_enabled(True)
with torch.inference_mode():
    w = x * 3
out(w, w.requires_grad, torch.is_inference_mode_enabled())
# ---
# detach / data / in-place
x = torch.tensor([1.0, 2.0], requires_grad=True)
d = x.detach()
out(d, d.requires_grad, x.data, x.data.requires_grad)
y = x * 1
y[0] = 10
out(y)
y.sum().backward()
out(x.grad)
err(lambda: x.add_(1))
with torch.no_grad():
    x.add_(1)
out(x)
# ---
# in-place version check
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
z = y * 2
y.add_(1)
out(y._version)
err(lambda: (y * z).sum().backward())
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.sigmoid()
b.mul_(2)
err(lambda: b.sum().backward())
# ---
# view + inplace CopySlices
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x.clone()
y[1:].mul_(2)
out(y, y.grad_fn.name())
y.sum().backward()
out(x.grad)
x2 = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
err(lambda: x2[0].mul_(2))
v = x2.view(4)
out(v._base is x2, v.is_leaf, v.grad_fn.name())
# ---
# jacobian hessian

AF = torch.autograd.functional


def f(x):
    return x**2 * x.sin()


x = torch.tensor([0.1, 0.2, 0.3, 0.4])
out(
    AF.jacobian(f, x),
    AF.hessian(lambda x: f(x).sum(), x),
    AF.vjp(f, x, torch.ones(4)),
    AF.jvp(f, x, torch.ones(4)),
    AF.hvp(lambda x: f(x).sum(), x, torch.ones(4)),
    AF.vhp(lambda x: f(x).sum(), x, torch.ones(4)),
)


def g(a, b):
    return a * b, a + b


out(AF.jacobian(g, (x, x)))
out(AF.jacobian(f, x, vectorize=True), AF.jacobian(f, x, create_graph=True))
err(lambda: AF.jacobian(lambda x: torch.ones(2), x, strict=True))
err(lambda: AF.vjp(f, x, torch.ones(3)))
# ---
# gradcheck
x = torch.randn(3, dtype=torch.float64, requires_grad=True)
out(
    torch.autograd.gradcheck(lambda t: (t * t).sin(), (x,)),
    torch.autograd.gradgradcheck(lambda t: (t * t).sin(), (x,)),
)


class BadGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 3


err(lambda: torch.autograd.gradcheck(BadGrad.apply, (x,)))
out(torch.autograd.gradcheck(BadGrad.apply, (x,), raise_exception=False))


# ---
# a Function that modifies its input and marks it dirty: torch bumps the version again
class MulTwoInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


x = torch.tensor([1.0, 3.0], requires_grad=True)
y = x.clone()
z = MulTwoInPlace.apply(y)
out(z is y, z.grad_fn.name(), y._version)
z.sum().backward()
out(x.grad)
err(lambda: MulTwoInPlace.apply(torch.ones(2, requires_grad=True)))
# ---
# increment_version: changes made behind autograd's back are caught at backward
x = torch.ones(3, requires_grad=True)
y = x * 2
z = (y * y).sum()
out(y._version)
torch.autograd.graph.increment_version(y)
out(y._version)
torch.autograd.graph.increment_version([y, x])
out(y._version, x._version)
err(lambda: z.backward())
# ---
# set_multithreading_enabled, is_inference
with torch.autograd.set_multithreading_enabled(False):
    x = torch.ones(2, requires_grad=True)
    (x * 3).sum().backward()
out(x.grad)
out(torch.is_inference(torch.ones(1)))
err(lambda: torch.is_inference(3))


# ---
# grad-mode decorators on a class (deprecated in torch): the class is built under the mode
@torch.no_grad()
class Built:
    def __init__(self):
        self.grad_enabled = torch.is_grad_enabled()


out(Built().grad_enabled, torch.is_grad_enabled())

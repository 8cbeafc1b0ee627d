# Function: ctx attributes, needs_input_grad, non-tensor args, several outputs
class F2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k, y, flag=True):
        ctx.k = k
        ctx.flag = flag
        ctx.save_for_backward(x, y)
        out(ctx.needs_input_grad)
        return x * k + y, x - y

    @staticmethod
    def backward(ctx, ga, gb):
        x, y = ctx.saved_tensors
        out(ctx.needs_input_grad, ga, gb)
        return ga * ctx.k + gb, None, ga - gb, None


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0])
a, b = F2.apply(x, 2.0, y)
out(a, b, type(a.grad_fn).__name__, a.grad_fn is b.grad_fn, a.grad_fn.name())
(a.sum() + b.sum() * 2).backward()
out(x.grad, y.grad)
y.requires_grad_()
a, b = F2.apply(x, 3.0, y, False)
a.sum().backward()
out(x.grad, y.grad)
print(a)


# ---
# Function: set_materialize_grads and unused outputs
class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, materialize):
        ctx.set_materialize_grads(materialize)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        out(g1 is None, g2 is None)
        r = 0
        if g1 is not None:
            r = r + g1 * 2
        if g2 is not None:
            r = r + g2 * 3
        return r, None


x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b = Two.apply(x, True)
a.sum().backward()
out(x.grad)
x.grad = None
a, b = Two.apply(x, False)
a.sum().backward()
out(x.grad)


# ---
# Function: mark_non_differentiable, mark_dirty
class Sorted(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i

    @staticmethod
    def backward(ctx, gv, gi):
        (i,) = ctx.saved_tensors
        out(gi)
        g = torch.zeros_like(gv)
        g[i] = gv
        return g


x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = Sorted.apply(x)
out(v, i, v.requires_grad, i.requires_grad, i.grad_fn)
(v * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
out(x.grad)


class AddOne(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 1
c = AddOne.apply(b)
out(c is b, b, b.grad_fn.name(), b._version if hasattr(b, "_version") else None)
c.sum().backward()
out(a.grad)
err(lambda: AddOne.apply(a))


# ---
# Function: once_differentiable, double backward through custom Function
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x**2


class CubeOnce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x**2


x = torch.tensor([1.0, 2.0], requires_grad=True)
(g,) = torch.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
out(g, g.grad_fn.name())
out(torch.autograd.grad(g.sum(), x))
(g2,) = torch.autograd.grad(CubeOnce.apply(x).sum(), x, create_graph=True)
out(g2, g2.requires_grad)
err(lambda: g2.sum().backward())
(g3,) = torch.autograd.grad(CubeOnce.apply(x).sum(), x)
out(g3)


# ---
# Function: apply without grad, non tensor output, inputs not requiring grad
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, s):
        return x * s

    @staticmethod
    def backward(ctx, g):
        return g * 2, None


x = torch.tensor([1.0], requires_grad=True)
with torch.no_grad():
    y = Scale.apply(x, 2)
out(y, y.requires_grad, y.grad_fn)
z = Scale.apply(torch.tensor([1.0]), 2)
out(z, z.requires_grad, z.grad_fn)
w = Scale.apply(x, 2)
out(w.grad_fn.next_functions[0][0].variable is x, len(w.grad_fn.next_functions))


class ReturnsInput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 5


r = ReturnsInput.apply(x)
out(r is x, r, r.grad_fn.name() if r.grad_fn is not None else None)
r.sum().backward()
out(x.grad)


class ViewOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(-1)

    @staticmethod
    def backward(ctx, g):
        return g.view(1, 2) * 2


m = torch.ones(1, 2, requires_grad=True)
v = ViewOut.apply(m)
out(v, v.is_leaf)
v.sum().backward()
out(m.grad)


# ---
# Function: grad mode inside forward/backward, nested Functions, views in and out
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out(torch.is_grad_enabled())
        return x * 2

    @staticmethod
    def backward(ctx, g):
        out(torch.is_grad_enabled())
        return Double.apply(g)


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Double.apply(Double.apply(x))
y.sum().backward()
out(x.grad)
x.grad = None
(g,) = torch.autograd.grad(Double.apply(x).sum(), x, create_graph=True)
out(g, g.grad_fn.name() if g.grad_fn else None)
v = x[1:]
w = Double.apply(v)
w.sum().backward()
out(x.grad)


class TakeView(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[0:1]

    @staticmethod
    def backward(ctx, g):
        r = torch.zeros(2)
        r[0:1] = g
        return r


b = x * 1
t = TakeView.apply(b)
out(t, t.grad_fn.name())
t.sum().backward()
out(x.grad)


# ---
# Function with tensor kwarg-like non-tensor structures and list inputs
class ListIn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, items, flag):
        ctx.n = len(items)
        return x * len(items) if flag else x

    @staticmethod
    def backward(ctx, g):
        return g * ctx.n, None, None


x = torch.tensor([1.0], requires_grad=True)
y = ListIn.apply(x, [torch.ones(1), torch.ones(1)], True)
y.backward()
out(x.grad, y.grad_fn.name(), len(y.grad_fn.next_functions))

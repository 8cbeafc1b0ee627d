# custom Function ctx: once_differentiable, mark_dirty, needs_input_grad, materialize_grads
from_od = torch.autograd.function.once_differentiable


class Clamp01(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(0, 1)

    @staticmethod
    @from_od
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * ((x > 0) & (x < 1)).to(g.dtype)


x = torch.linspace(-0.5, 1.5, 5, requires_grad=True)
y = Clamp01.apply(x)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
out(g, g.requires_grad, type(y.grad_fn).__name__)
err(lambda: torch.autograd.grad(g.sum(), x))


class AddOneInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


a = torch.ones(3, requires_grad=True)
b = a * 2
c = AddOneInplace.apply(b)
out(c is b, b._version, c, c.grad_fn.__class__.__name__)
c.sum().backward()
out(a.grad)
err(lambda: AddOneInplace.apply(torch.ones(2, requires_grad=True)))


class NeedsGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x * w

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        print("needs", ctx.needs_input_grad)
        gx = g * w if ctx.needs_input_grad[0] else None
        gw = g * x if ctx.needs_input_grad[1] else None
        return gx, gw


w = torch.randn(3, requires_grad=True)
NeedsGrad.apply(torch.randn(3), w).sum().backward()
out(w.grad)


class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, g


err(lambda: Bad.apply(torch.ones(2, requires_grad=True)).sum().backward())


class BadShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g[:1]


err(lambda: BadShape.apply(torch.ones(2, requires_grad=True)).sum().backward())


class MatNonDiff(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.argmax()

    @staticmethod
    def backward(ctx, g1, g2):
        print("g1 None?", g1 is None, "g2 None?", g2 is None)
        return g1 if g1 is not None else None


x = torch.randn(4, requires_grad=True)
a1, a2 = MatNonDiff.apply(x)
out(a2.requires_grad, a1.requires_grad)
a1.sum().backward()
print(x.grad)

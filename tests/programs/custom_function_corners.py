# Function: errors naming the function
class WrongCount(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g, g


class WrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return torch.ones(5)


class WrongType(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return 1.0


class NoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2


class ReturnsNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return None


x = torch.ones(3, requires_grad=True)
for F_ in [WrongCount, WrongShape, WrongType, NoBackward]:
    try:
        F_.apply(x).sum().backward()
    except Exception as e:
        print(type(e).__name__, F_ is WrongType or F_.__name__ in str(e))
r = ReturnsNone.apply(x)
r.sum().backward()
out(x.grad)
out(WrongShape.apply(x).grad_fn.name())
err(lambda: WrongCount.forward(None, x))


# ---
# Function: saved_tensors twice, after free, None saved, non-tensor saved
class S(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, None, y)
        return x * y

    @staticmethod
    def backward(ctx, g):
        a, n, b = ctx.saved_tensors
        a2, _, _ = ctx.saved_tensors
        out(n, a2 is a or torch.equal(a2, a))
        return g * b, g * a


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
r = S.apply(x, y)
r.sum().backward()
out(x.grad, y.grad)
err(lambda: r.sum().backward())
err(lambda: r.grad_fn.saved_tensors)


class BadSave(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g


err(lambda: BadSave.apply(x))


# ---
# Function: forward returning non-tensor, int tensor output, tuple with None
class Odd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, 5, None, (x > 1)

    @staticmethod
    def backward(ctx, g, g2, g3, g4):
        out(g2, g3, g4)
        return g * 2


x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b, c, d = Odd.apply(x)
out(a, b, c, d, d.requires_grad)
a.sum().backward()
out(x.grad)


class IntOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return (x * 10).long()

    @staticmethod
    def backward(ctx, g):
        return g


o = IntOut.apply(x)
out(o, o.requires_grad, o.grad_fn)


# ---
# Function: apply with kwargs, grad of non differentiable output is zeros
class K(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale=2.0):
        ctx.scale = scale
        return x * scale, x.argmax()

    @staticmethod
    def backward(ctx, g, gi):
        return g * ctx.scale, None


x = torch.tensor([1.0, 3.0], requires_grad=True)
y, i = K.apply(x, 3.0)
out(y, i, i.requires_grad)
y.sum().backward()
out(x.grad)
err(lambda: K.apply(x, scale=4.0))


# ---
# Function: vjp alias, backward returning extra Nones, returning tuple for single input
class Alias(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def vjp(ctx, g):
        return g * 4


class ExtraNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g * 2, None, None


class TupleOne(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return (g * 3,)


x = torch.tensor([1.0], requires_grad=True)
Alias.apply(x).sum().backward()
out(x.grad)
x.grad = None
TupleOne.apply(x).sum().backward()
out(x.grad)
x.grad = None
err(lambda: ExtraNone.apply(x).sum().backward())
out(x.grad)


# ---
# Function: gradient dtype mismatch is cast, inputs of different dtypes
class Cast(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y.float()

    @staticmethod
    def backward(ctx, g):
        return g.double(), g.double()


x = torch.tensor([1.0], requires_grad=True)
y = torch.tensor([2.0], dtype=torch.float64, requires_grad=True)
Cast.apply(x, y).sum().backward()
out(x.grad, y.grad)

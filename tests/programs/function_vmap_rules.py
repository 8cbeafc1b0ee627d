# autograd.Function under vmap: generate_vmap_rule with several outputs and an unbatched input
vmap, grad, jacrev, jacfwd = torch.func.vmap, torch.func.grad, torch.func.jacrev, torch.func.jacfwd


class ScaleShift(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x, w):
        return x * w, x + w

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, w = inputs
        ctx.save_for_backward(x, w)

    @staticmethod
    def backward(ctx, ga, gb):
        x, w = ctx.saved_tensors
        return ga * w + gb, ga * x + gb


x = torch.linspace(-1.0, 1.0, 6).reshape(2, 3)
w = torch.tensor([0.5, 2.0, -1.0])
a, b = vmap(ScaleShift.apply, in_dims=(0, None))(x, w)
out(a, b)
a, b = vmap(ScaleShift.apply, in_dims=(None, 0))(w, x)
out(a, b)
out(vmap(grad(lambda x, w: ScaleShift.apply(x, w)[0].sum()), in_dims=(0, None))(x, w))
out(jacrev(lambda x: ScaleShift.apply(x, w)[1])(x[0]))
out(grad(lambda w: ScaleShift.apply(x, w)[0].pow(2).sum())(w))
# ---
# autograd.Function: a vmap staticmethod moving the batch dim, out_dims per output
vmap = torch.func.vmap


class RowSum(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.sum(-1), x.amax(-1)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shape = inputs[0].shape

    @staticmethod
    def backward(ctx, g, h):
        return g.unsqueeze(-1).expand(ctx.shape)

    @staticmethod
    def vmap(info, in_dims, x):
        out(info.batch_size, info.randomness, in_dims)
        x = x.movedim(in_dims[0], -1)
        return (x.sum(-2), x.amax(-2)), (-1, 0)


x = torch.arange(24.0).reshape(2, 3, 4)
s, m = vmap(RowSum.apply)(x)
out(s, m)
s, m = vmap(RowSum.apply, in_dims=1, randomness="same")(x)
out(s, m)
s, m = vmap(vmap(RowSum.apply))(x)
out(s, m)
# ---
# autograd.Function: jvp staticmethod with save_for_forward, used by jvp, jacfwd and forward_ad
fwAD = torch.autograd.forward_ad

jvp, jacfwd, vmap = torch.func.jvp, torch.func.jacfwd, torch.func.vmap


class Cube(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x**3

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * g * x**2

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return 3 * t * x**2


x = torch.tensor([0.5, -1.0, 2.0])
out(jvp(Cube.apply, (x,), (torch.ones(3),)))
out(jacfwd(Cube.apply)(x))
out(vmap(jacfwd(Cube.apply))(torch.stack([x, 2 * x])))
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1.0, 0.0, 2.0]))
    y = Cube.apply(d)
    p, t = fwAD.unpack_dual(y)
    out(p, t, type(y.grad_fn).__name__ if y.grad_fn is not None else None)
# ---
# autograd.Function: once_differentiable under grad and forward-over-reverse
once_differentiable = torch.autograd.function.once_differentiable

grad = torch.func.grad


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * g * x


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = Square.apply(x)
out(y)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
out(g, g.requires_grad)
err(lambda: g.sum().backward())
# ---
# autograd.Function: old-style forward(ctx, ...) refused by the torch.func transforms
grad, vmap, jvp, jacrev = torch.func.grad, torch.func.vmap, torch.func.jvp, torch.func.jacrev


class OldStyle(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.exp()


x = torch.tensor([0.0, 1.0])
out(OldStyle.apply(x))
err(lambda: grad(lambda x: OldStyle.apply(x).sum())(x))
err(lambda: vmap(OldStyle.apply)(torch.ones(2, 2)))
err(lambda: jvp(OldStyle.apply, (x,), (x,)))
err(lambda: jacrev(OldStyle.apply)(x))


# a function without a vmap rule and without generate_vmap_rule
class NoRule(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return 2 * g


err(lambda: vmap(NoRule.apply)(torch.ones(2, 2)))
out(grad(lambda x: NoRule.apply(x).sum())(x))
# both a vmap staticmethod and generate_vmap_rule


class Both(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return 2 * g

    @staticmethod
    def vmap(info, in_dims, x):
        return x * 2, in_dims[0]


err(lambda: vmap(Both.apply)(torch.ones(2, 2)))
# jvp without a jvp staticmethod
err(lambda: jvp(NoRule.apply, (x,), (x,)))

# gradcheck: seed sigmoid float32 eps
class Sigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        output = 1 / (1 + torch.exp(-x))
        ctx.save_for_backward(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        (output,) = ctx.saved_tensors
        return grad_output * output * (1 - output)


for dtype in (torch.float32, torch.float64):
    x = torch.tensor([0.5, -1.0, 2.0], dtype=dtype, requires_grad=True)
    for eps in (1e-3, 1e-4):
        ok = torch.autograd.gradcheck(
            Sigmoid.apply, (x,), eps=eps, atol=1e-4, raise_exception=False
        )
        out(str(dtype), eps, ok)
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
err(lambda: torch.autograd.gradcheck(Sigmoid.apply, (x,), eps=1e-4, atol=1e-4))


# ---
# gradcheck failure message names output/input index
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y, x + y

    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2, g2


x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
y = torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)
try:
    torch.autograd.gradcheck(Bad.apply, (x, y))
except Exception as e:
    print(type(e).__name__)
    print(str(e).splitlines()[0])
out(torch.autograd.gradcheck(Bad.apply, (x, y), raise_exception=False))
out(torch.autograd.gradcheck(lambda a, b: (a * b, a + b), (x, y)))
out(
    torch.autograd.gradcheck(torch.sin, x),
    torch.autograd.gradcheck(torch.sin, (x,), fast_mode=True),
)
out(torch.autograd.gradgradcheck(lambda a, b: (a * b).sin(), (x, y)))
out(
    torch.autograd.gradgradcheck(
        torch.tanh, (x,), grad_outputs=torch.tensor([1.0, -1.0], dtype=torch.float64)
    )
)
# ---
# gradcheck edge cases: non-tensor inputs, inputs not requiring grad, int inputs, float32 warning
x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
k = torch.tensor([3.0, 4.0], dtype=torch.float64)
out(torch.autograd.gradcheck(lambda a, b, s: a * b * s, (x, k, 2.0)))
err(lambda: torch.autograd.gradcheck(lambda a: a * 2, (k,)))
out(torch.autograd.gradcheck(lambda a, i: a * i, (x, torch.tensor([1, 2]))))
out(torch.autograd.gradcheck(lambda a: a.sum(), (x,)))
out(torch.autograd.gradcheck(lambda a: (a[0], a[1] * 2), (x,)))
out(
    torch.autograd.gradcheck(
        lambda a: a.abs(), (torch.tensor([1.0, -2.0], dtype=torch.float64, requires_grad=True),)
    )
)
err(lambda: torch.autograd.gradcheck(lambda a: a.detach() * 2, (x,)))
out(torch.autograd.gradcheck(lambda a: a.detach() * 2, (x,), raise_exception=False))
e = torch.zeros(0, dtype=torch.float64, requires_grad=True)
out(torch.autograd.gradcheck(lambda a: a * 2, (e,)))
out(
    torch.autograd.gradcheck(
        lambda a: a * 2, (torch.tensor(3.0, dtype=torch.float64, requires_grad=True),)
    )
)


class NotDouble(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 2 * x


out(torch.autograd.gradcheck(NotDouble.apply, (x,)))
err(lambda: torch.autograd.gradgradcheck(NotDouble.apply, (x,)))
out(torch.autograd.gradgradcheck(NotDouble.apply, (x,), raise_exception=False))
# ---
# gradcheck with outputs outside the graph
x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
for f in [
    lambda a: a.detach() * 2,
    lambda a: (a * 2, a.detach()),
    lambda a: (a.detach(), a * 2),
    lambda a: a.detach() * 0,
    lambda a: (a.detach(), a.exp()),
]:
    err(lambda: torch.autograd.gradcheck(f, (x,)))
    out(torch.autograd.gradcheck(f, (x,), raise_exception=False))
try:
    torch.autograd.gradcheck(lambda a: a.detach() * 2, (x,))
except Exception as e:
    print(type(e).__name__, isinstance(e, RuntimeError), str(e))
# ---
# gradcheck and gradgradcheck accept non-contiguous inputs; refuse stride-0 (expanded) ones
x = torch.randn(4, 3, dtype=torch.float64).t().requires_grad_()
out(x.is_contiguous())
out(torch.autograd.gradcheck(lambda a: (a * a).sum(), (x,)))
out(torch.autograd.gradgradcheck(lambda a: (a * a * a).sum(), (x,)))
y = torch.randn(3, 4, dtype=torch.float64)[:, ::2].requires_grad_()
out(torch.autograd.gradcheck(lambda a, b: a.exp() @ b, (y, x[:2, :2])))
z = torch.randn(3, dtype=torch.float64).expand(2, 3).requires_grad_()
err(lambda: torch.autograd.gradcheck(lambda a: a.sin(), (z,)))
err(lambda: torch.autograd.gradcheck(lambda a: a.sin(), (torch.randn(3, dtype=torch.float64),)))

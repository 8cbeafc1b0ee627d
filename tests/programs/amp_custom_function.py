# custom autograd Functions under CPU autocast: cast_inputs, and backward in forward's state
class MyMM(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu")
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a.mm(b)

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        print("backward autocast", torch.is_autocast_enabled("cpu"), grad.dtype)
        return grad.mm(b.t()), a.t().mm(grad)


class Float32Only(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, a, scale):
        print("forward autocast", torch.is_autocast_enabled("cpu"), a.dtype, scale)
        ctx.save_for_backward(a)
        return (a * scale).mm(a.t())

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        print("backward autocast", torch.is_autocast_enabled("cpu"))
        return grad.mm(a) * 2, None


a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(4, 2, requires_grad=True)
with torch.autocast("cpu", dtype=torch.bfloat16):
    y = MyMM.apply(a, b)
    z = Float32Only.apply(a.to(torch.bfloat16), 2.0)
out(y.dtype, z.dtype)
y.float().sum().backward()
z.sum().backward()
out(a.grad.dtype, b.grad.dtype)
y2 = MyMM.apply(a, b)
y2.sum().backward()
out(y2, Float32Only.apply(a.double(), 1.0).dtype)
out(torch.amp.is_autocast_available("cpu"), torch.amp.is_autocast_available("cuda"))
out(torch.amp.is_autocast_available("meta"))
err(lambda: torch.amp.is_autocast_available("foo"))
err(lambda: torch.amp.custom_fwd(device_type=0))
# ---
# the deprecated torch.cuda.amp spellings warn and stay off without CUDA
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")

    class Twice(torch.autograd.Function):
        @staticmethod
        @torch.cuda.amp.custom_fwd(cast_inputs=torch.float16)
        def forward(ctx, x):
            return x * 2

        @staticmethod
        @torch.cuda.amp.custom_bwd
        def backward(ctx, grad):
            return grad * 2

    x = torch.ones(2, requires_grad=True)
    y = Twice.apply(x)
    y.sum().backward()
    out(y, x.grad)
print([str(c.message) for c in caught])
# ---
# CPU autocast casts mixed bfloat16/float32 operands before the products check dtypes
a = torch.randn(2, 2).to(torch.bfloat16)
b = torch.randn(2, 2, requires_grad=True)


def show(*results):
    out(*[(r.dtype, r.float()) for r in results])  # (bfloat16 has no NumPy form in torch)


with torch.autocast("cpu"):
    show(a.mm(b), torch.mm(a, b), a[None].bmm(b[None]), torch.baddbmm(b[None], a[None], b[None]))
    show(torch.addbmm(b, a[None], b[None]), torch.einsum("ij,jk->ik", a, b))
    show(F.prelu(a, torch.tensor([0.25])), a @ b, F.linear(a, b))
    err(lambda: a.mv(b[0]))

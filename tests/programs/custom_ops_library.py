# custom_op: a NumPy kernel with a fake kernel and a registered backward, called directly
# and through torch.ops, then checked with opcheck
Tensor = torch.Tensor


@torch.library.custom_op("prog_custom::numpy_sin", mutates_args=())
def numpy_sin(x: Tensor) -> Tensor:
    return torch.from_numpy(np.sin(x.detach().numpy()))


@numpy_sin.register_fake
def _(x):
    return torch.empty_like(x)


def setup_context(ctx, inputs, output):
    (x,) = inputs
    ctx.save_for_backward(x)


def backward(ctx, grad):
    (x,) = ctx.saved_tensors
    return grad * x.cos()


numpy_sin.register_autograd(backward, setup_context=setup_context)
x = torch.linspace(-1.0, 1.0, 5, dtype=torch.float64, requires_grad=True)
y = numpy_sin(x)
out(y, type(y.grad_fn).__name__)
y.sum().backward()
out(x.grad, torch.allclose(x.grad, x.detach().cos()))
z = torch.ops.prog_custom.numpy_sin(x.detach())
out(z, str(torch.ops.prog_custom.numpy_sin), str(torch.ops.prog_custom.numpy_sin.default))
print(torch.library.opcheck(numpy_sin, (torch.randn(3),)))
print(torch.library.infer_schema(numpy_sin._init_fn, mutates_args=()))


# ---
# custom_op: several outputs, keyword-only arguments, a mutating op and the errors
Tensor = torch.Tensor


@torch.library.custom_op("prog_custom::scale_shift", mutates_args=())
def scale_shift(x: Tensor, k: float = 2.0, *, shift: float = 1.0) -> tuple[Tensor, Tensor]:
    return x * k, x + shift


def setup(ctx, inputs, keyword_only_inputs, output):
    ctx.k = inputs[1]


scale_shift.register_autograd(lambda ctx, ga, gb: (ga * ctx.k + gb, None), setup_context=setup)
x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b = scale_shift(x, 3.0, shift=0.5)
out(a, b)
(a.sum() + b.sum()).backward()
out(x.grad)


@torch.library.custom_op("prog_custom::add_one_", mutates_args={"t"})
def add_one_(t: Tensor) -> None:
    t.add_(1)


t = torch.zeros(3)
out(add_one_(t), t)


@torch.library.custom_op("prog_custom::no_backward", mutates_args=())
def no_backward(x: Tensor) -> Tensor:
    return x.sin()


r = no_backward(torch.ones(2, requires_grad=True))
out(r)
err(lambda: r.sum().backward())


@torch.library.custom_op("prog_custom::aliasing", mutates_args=())
def aliasing(x: Tensor) -> Tensor:
    return x


err(lambda: aliasing(torch.ones(1)))
err(lambda: torch.ops.prog_custom.missing)


def untyped(x):
    return x


err(lambda: torch.library.custom_op("prog_custom::untyped", mutates_args=())(untyped))

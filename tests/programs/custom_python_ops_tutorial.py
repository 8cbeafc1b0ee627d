# "Custom Python operators": a NumPy crop as an op, with a fake kernel, autograd and opcheck
Tensor = torch.Tensor


@torch.library.custom_op("prog_tutorial::crop", mutates_args=())
def crop(pic: Tensor, box: list[int]) -> Tensor:
    channels = pic.shape[0]
    x0, y0, x1, y1 = box
    result = pic.new_empty(y1 - y0, x1 - x0, channels).permute(2, 0, 1)
    result.copy_(torch.from_numpy(pic.numpy()[:, y0:y1, x0:x1].copy()))
    return result


@crop.register_fake
def _(pic, box):
    channels = pic.shape[0]
    x0, y0, x1, y1 = box
    result = pic.new_empty(y1 - y0, x1 - x0, channels).permute(2, 0, 1)
    return result


@torch.library.custom_op("prog_tutorial::paste", mutates_args=())
def paste(im1: Tensor, im2: Tensor, coord: list[int]) -> Tensor:
    result = im1.clone()
    x, y = coord
    result[:, y : y + im2.shape[1], x : x + im2.shape[2]] = im2
    return result


@paste.register_fake
def _(im1, im2, coord):
    return torch.empty_like(im1)


def setup_context(ctx, inputs, output):
    _, box = inputs
    ctx.box = box


def backward(ctx, grad_output):
    grad_input = grad_output.new_zeros(ctx.pic_shape)
    grad_input = paste(grad_input, grad_output, ctx.box[:2])
    return grad_input, None


def setup_context_with_shape(ctx, inputs, output):
    pic, box = inputs
    ctx.box = box
    ctx.pic_shape = pic.shape


crop.register_autograd(backward, setup_context=setup_context_with_shape)
img = torch.arange(3 * 6 * 5, dtype=torch.float32).reshape(3, 6, 5)
cropped = crop(img, [1, 2, 4, 5])
print(cropped.shape, cropped.stride())
print(cropped[0])
img.requires_grad_()
cropped = crop(img, [1, 2, 4, 5])
print(type(cropped.grad_fn).__name__)
cropped.sum().backward()
print(img.grad[0])
print(img.grad.sum().item())


@torch.library.custom_op("prog_tutorial::numpy_mul", mutates_args=())
def numpy_mul(x: Tensor, y: float) -> Tensor:
    x_np = x.numpy(force=True)
    z_np = x_np * y
    return torch.from_numpy(z_np).to(x.device)


@numpy_mul.register_fake
def _(x, y):
    return torch.empty_like(x)


def mul_setup_context(ctx, inputs, output):
    ctx.save_for_backward(inputs[0])
    ctx.y = inputs[1]


def mul_backward(ctx, grad):
    (x,) = ctx.saved_tensors
    return grad * ctx.y, None


numpy_mul.register_autograd(mul_backward, setup_context=mul_setup_context)
x = torch.randn(3, requires_grad=True)
z = numpy_mul(x, 3.14)
(gx,) = torch.autograd.grad(z.sum(), x)
print(torch.allclose(gx, torch.full_like(x, 3.14)))
print(torch.library.opcheck(numpy_mul, (torch.randn(3), 3.14)))
print(torch.library.opcheck(numpy_mul, (torch.randn(3, requires_grad=True), 2.0)))


@torch.library.custom_op("prog_tutorial::numpy_sin_", mutates_args={"x"}, device_types="cpu")
def numpy_sin_(x: Tensor) -> None:
    assert x.device.type == "cpu"
    x_np = x.numpy()
    np.sin(x_np, out=x_np)


t = torch.randn(3)
expected = t.sin()
numpy_sin_(t)
print(torch.allclose(t, expected))
print(torch.library.infer_schema(numpy_sin_._init_fn, mutates_args={"x"}))
print(torch.ops.prog_tutorial.numpy_sin_.default._schema)
print(str(torch.ops.prog_tutorial.crop.default._schema))


@torch.library.custom_op("prog_tutorial::scaled", mutates_args=())
def scaled(x: Tensor, alpha: float = 1.0, eps: float = 1e-5, n: int = 2) -> Tensor:
    return x * alpha + eps * n


print(torch.ops.prog_tutorial.scaled.default._schema)
print(torch.ops.prog_tutorial.scaled.default._schema.name)
print(torch.ops.prog_tutorial.crop(img.detach(), [0, 0, 2, 2]).shape)
out(cropped, img.grad, z)

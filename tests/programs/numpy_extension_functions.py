# extending autograd with NumPy: a parameter-free FFT function whose backward runs NumPy's
# inverse transform, and a parametrised valid cross-correlation with its weight and bias
# gradients, checked by gradcheck


class BadFFTFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        numpy_input = input.detach().numpy()
        result = abs(np.fft.rfft2(numpy_input))
        return input.new(result)

    @staticmethod
    def backward(ctx, grad_output):
        numpy_go = grad_output.numpy()
        result = np.fft.irfft2(numpy_go)
        return grad_output.new(result)


def incorrect_fft(input):
    return BadFFTFunction.apply(input)


torch.manual_seed(0)
input = torch.randn(8, 8, requires_grad=True)
result = incorrect_fft(input)
print(result.shape, result.dtype, type(result.grad_fn).__name__)
result.backward(torch.randn(result.size()))
print(input.grad.shape)
out(result, input.grad)


def correlate2d_valid(x, k):
    kh, kw = k.shape
    oh, ow = x.shape[0] - kh + 1, x.shape[1] - kw + 1
    windows = np.lib.stride_tricks.sliding_window_view(x, (kh, kw))[:oh, :ow]
    return np.einsum("ijkl,kl->ij", windows, k)


def convolve2d_full(x, k):
    kh, kw = k.shape
    padded = np.pad(x, ((kh - 1, kh - 1), (kw - 1, kw - 1)))
    return correlate2d_valid(padded, k[::-1, ::-1])


class NumpyConv2dFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, filter, bias):
        input, filter, bias = input.detach(), filter.detach(), bias.detach()
        result = correlate2d_valid(input.numpy(), filter.numpy())
        result += bias.numpy()
        ctx.save_for_backward(input, filter, bias)
        return torch.as_tensor(result, dtype=input.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        grad_output = grad_output.detach()
        input, filter, bias = ctx.saved_tensors
        grad_output = grad_output.numpy()
        grad_bias = np.sum(grad_output, keepdims=True)
        grad_input = convolve2d_full(grad_output, filter.numpy())
        grad_filter = correlate2d_valid(input.numpy(), grad_output)
        return (
            torch.from_numpy(grad_input),
            torch.from_numpy(grad_filter).to(torch.float),
            torch.from_numpy(grad_bias).to(torch.float),
        )


class NumpyConv2d(nn.Module):
    def __init__(self, filter_width, filter_height):
        super().__init__()
        self.filter = nn.Parameter(torch.randn(filter_width, filter_height))
        self.bias = nn.Parameter(torch.randn(1, 1))

    def forward(self, input):
        return NumpyConv2dFunction.apply(input, self.filter, self.bias)


module = NumpyConv2d(3, 3)
print("Filter and bias: ", list(module.parameters()))
input = torch.randn(10, 10, requires_grad=True)
output = module(input)
print("Output from the convolution: ", output)
output.backward(torch.randn(8, 8))
print("Gradient for the input map: ", input.grad)
reference = F.conv2d(input.view(1, 1, 10, 10), module.filter.view(1, 1, 3, 3), module.bias.view(1))
print(torch.allclose(reference.view(8, 8), output, atol=1e-5))
module = NumpyConv2d(3, 3).double()
moduleConv = NumpyConv2d(3, 3)
input = [torch.randn(20, 20, dtype=torch.double, requires_grad=True)]
test = torch.autograd.gradcheck(module, input, eps=1e-6, atol=1e-4)
print("Are the gradients correct: ", test)
# Tensor.new takes NumPy arrays as data in the tensor's dtype; NumPy scalars are refused
x = torch.ones(2, dtype=torch.float64)
out(x.new(np.ones((2, 2), np.float32)), x.new(np.arange(3)), x.new(np.array(5.0)))
out(torch.ones(2, dtype=torch.long).new(np.full(2, 1.7)), x.new(np.ones(2), device="cpu"))
err(lambda: x.new(np.float32(3.0)))
err(lambda: x.new(np.ones(2), dtype=torch.float32))

# a custom Function: LinearFunction from the notes, checked by gradcheck
class LinearFunction(torch.autograd.Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


linear = LinearFunction.apply
inp = (
    torch.randn(20, 20, dtype=torch.double, requires_grad=True),
    torch.randn(30, 20, dtype=torch.double, requires_grad=True),
    torch.randn(30, dtype=torch.double, requires_grad=True),
)
out(torch.autograd.gradcheck(linear, inp, eps=1e-6, atol=1e-4))
y = linear(*inp)
out(type(y.grad_fn).__name__, y.requires_grad, y.shape)
y.sum().backward()
out(inp[2].grad[:3], inp[0].grad.shape)


# ---
# MulConstant: a non-tensor argument gets None as its gradient; mark_non_differentiable
class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.constant = inputs[1]

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = MulConstant.apply(x, 3.0)
y.sum().backward()
out(y, x.grad)


class Sort(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = x.sort()
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return values, indices

    @staticmethod
    def backward(ctx, g1, g2):
        (indices,) = ctx.saved_tensors
        grad_input = torch.zeros_like(g1)
        grad_input.index_add_(0, indices, g1)
        return grad_input


x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = Sort.apply(x)
out(v, i, i.requires_grad)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
out(x.grad)


# ---
# once_differentiable, set_materialize_grads, a forward-mode jvp
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


x = torch.tensor([3.0], requires_grad=True)
(g,) = torch.autograd.grad(Square.apply(x), x, create_graph=True)
out(g, g.requires_grad)
err(lambda: g.backward())


class Twice(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.clone(), x.clone()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, g1, g2):
        return g1 if g2 is None else g1 + g2

    @staticmethod
    def jvp(ctx, t):
        return t, t


x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b = Twice.apply(x)
a.sum().backward()
out(x.grad)
fwAD = torch.autograd.forward_ad

with fwAD.dual_level():
    dual = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 0.5]))
    p, q = Twice.apply(dual)
    out(fwAD.unpack_dual(p).tangent)


# ---
# extending torch.nn: a Module around the Function
class Linear(nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.input_features = input_features
        self.output_features = output_features
        self.weight = nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(output_features))
        else:
            self.register_parameter("bias", None)
        nn.init.uniform_(self.weight, -0.1, 0.1)
        if self.bias is not None:
            nn.init.uniform_(self.bias, -0.1, 0.1)

    def forward(self, input):
        return input @ self.weight.t() + (0 if self.bias is None else self.bias)

    def extra_repr(self):
        return (
            f"input_features={self.input_features}, "
            f"output_features={self.output_features}, bias={self.bias is not None}"
        )


torch.manual_seed(0)
m = Linear(3, 2)
print(m)
out(m(torch.ones(1, 3)), [n for n, _ in m.named_parameters()], Linear(2, 2, bias=False).bias)
# ---
# __torch_function__: ScalarTensor from the notes, with implements()
import functools

HANDLED_FUNCTIONS = {}


class ScalarTensor:
    def __init__(self, N, value):
        self._N = N
        self._value = value

    def __repr__(self):
        return f"ScalarTensor(N={self._N}, value={self._value})"

    def tensor(self):
        return self._value * torch.eye(self._N)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        if func not in HANDLED_FUNCTIONS or not all(
            issubclass(t, (torch.Tensor, ScalarTensor)) for t in types
        ):
            return NotImplemented
        return HANDLED_FUNCTIONS[func](*args, **kwargs)


def implements(torch_function):
    def decorator(func):
        functools.update_wrapper(func, torch_function)
        HANDLED_FUNCTIONS[torch_function] = func
        return func

    return decorator


@implements(torch.mean)
def mean(input):
    return float(input._value) / input._N


@implements(torch.add)
def add(input, other):
    if isinstance(input, ScalarTensor) and isinstance(other, ScalarTensor):
        return ScalarTensor(input._N, input._value + other._value)
    return input.tensor() + other


d = ScalarTensor(5, 2)
print(d)
out(torch.mean(d), torch.add(d, d)._value, torch.add(d, torch.ones(5, 5))[0])
err(lambda: torch.sum(d))
out(torch.overrides.has_torch_function((d,)), torch.overrides.is_tensor_like(d))


# ---
# subclassing Tensor: types are kept, __torch_function__ logs the calls
class LoggingTensor(torch.Tensor):
    calls = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        LoggingTensor.calls.append(func.__name__)
        return super().__torch_function__(func, types, args, kwargs or {})


t = torch.tensor([1.0, 2.0]).as_subclass(LoggingTensor)
r = (t + 1).exp().sum()
out(type(r).__name__, type(t[0]).__name__, r.item())
out(LoggingTensor.calls[:4])
out(type(torch.nn.functional.linear(t, torch.ones(1, 2))).__name__, LoggingTensor.calls[-1])


class Mode(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        print("mode saw", func.__name__)
        return func(*args, **(kwargs or {}))


a, b = torch.ones(2), torch.ones(2, 2)
with Mode():
    torch.nn.functional.linear(a, b)
    torch.matmul(b, b).relu()

# __torch_function__: a Tensor subclass that logs the torch functions it passes through and
# keeps its type, with gradients through it
calls = []


class LoggingTensor(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        calls.append(func.__name__)
        return super().__torch_function__(func, types, args, kwargs or {})


w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
x = torch.tensor([0.5, -1.0]).as_subclass(LoggingTensor)
h = torch.matmul(w, x)
y = torch.tanh(h) * 2
loss = y.sum()
out(type(h).__name__, type(y).__name__, type(loss).__name__)
loss.backward()
out(w.grad, calls)
print(x)
print(torch.overrides.has_torch_function((x,)), torch.overrides.is_tensor_like(x))
p = torch.nn.Parameter(torch.ones(2))
out(type(p * x).__name__, type(p * 2).__name__)


# ---
# __torch_function__: an object that is not a tensor implements torch.mean and torch.add,
# as torch's "Extending torch" notes write it; a mode counts the ops of a block
HANDLED_FUNCTIONS = {}


class ScalarTensor:
    def __init__(self, n, value):
        self._n, self._value = n, value

    def __repr__(self):
        return f"ScalarTensor(N={self._n}, value={self._value})"

    def tensor(self):
        return self._value * torch.eye(self._n)

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
        HANDLED_FUNCTIONS[torch_function] = func
        return func

    return decorator


@implements(torch.mean)
def mean(input):
    return float(input._value) / input._n


@implements(torch.add)
def add(input, other):
    if isinstance(input, ScalarTensor) and isinstance(other, ScalarTensor):
        return ScalarTensor(input._n, input._value + other._value)
    return input.tensor() + other if isinstance(input, ScalarTensor) else input + other.tensor()


d = ScalarTensor(5, 2)
print(d, torch.mean(d), torch.add(d, d))
out(torch.add(d, torch.ones(5, 5)), torch.add(torch.ones(5, 5), d))
err(lambda: torch.exp(d))


class CountOps(torch.overrides.TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.names = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.names.append(func.__name__)
        return func(*args, **(kwargs or {}))


a = torch.ones(3)
with CountOps() as mode:
    b = torch.add(a, 1).exp()
    b.mul_(2)
out(b, mode.names)

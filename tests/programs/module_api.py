# to(dtype) with buffers, double/half/float
bn = nn.BatchNorm1d(2)
bn.to(torch.float64)
out(bn.weight.dtype, bn.running_mean.dtype, bn.num_batches_tracked.dtype)
bn.half()
out(bn.weight.dtype, bn.running_var.dtype, bn.num_batches_tracked.dtype)
bn.float()
out(bn.weight.dtype)
err(lambda: bn.to(torch.int64))
r = bn.to("cpu")
out(r is bn)
bn.to(torch.float64)
out(bn.weight.dtype, type(bn.weight).__name__, bn.weight.is_leaf, bn.weight.requires_grad)
bn.type(torch.float32)
out(bn.weight.dtype, bn.num_batches_tracked.dtype)
# ---
# apply order and return value
order = []
m = nn.Sequential(nn.Linear(1, 1), nn.Sequential(nn.ReLU(), nn.Tanh()))
r = m.apply(lambda mod: order.append(type(mod).__name__))
out(order, r is m)


def init(mod):
    if isinstance(mod, nn.Linear):
        nn.init.constant_(mod.weight, 0.25)
        nn.init.zeros_(mod.bias)


m.apply(init)
out(m(torch.ones(1, 1)))
# ---
# named_modules with duplicates and remove_duplicate
shared = nn.Linear(1, 1)
m = nn.Sequential(shared, nn.ReLU(), shared)
out([n for n, _ in m.named_modules()])
out([n for n, _ in m.named_modules(remove_duplicate=False)])
out([n for n, _ in m.named_modules(prefix="root")])
out([n for n, _ in m.named_parameters()])
out([n for n, _ in m.named_parameters(remove_duplicate=False)])
out(len(list(m.parameters())), len(list(m.modules())), len(list(m.children())))
out([n for n, _ in m.named_children()])
out([n for n, _ in m.named_parameters(prefix="x", recurse=False)])
out([n for n, _ in m[0].named_parameters(prefix="x")])
# ---
# __setattr__ and __delattr__ for params, buffers and modules
m = nn.Module()
m.w = nn.Parameter(torch.ones(2))
m.register_buffer("buf", torch.zeros(2))
m.sub = nn.Linear(1, 1)
out([n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()])
m.buf = torch.ones(3)
out(m.buf, [n for n, _ in m.named_buffers()])
err(lambda: setattr(m, "buf", 5))
err(lambda: setattr(m, "w", torch.ones(2)))
m.w = None
out([n for n, _ in m.named_parameters()], m.w)
m.w = nn.Parameter(torch.zeros(1))
err(lambda: setattr(m, "sub", torch.ones(1)))
m.sub = None
out([n for n, _ in m.named_modules()], m.sub)
del m.buf
out([n for n, _ in m.named_buffers()], hasattr(m, "buf"))
del m.w
out([n for n, _ in m.named_parameters()])
err(lambda: m.nothing)
err(lambda: delattr(m, "nothing"))
m.x = 3
out(m.x, "x" in m.__dict__)
# ---
# add_module / register_module errors
m = nn.Module()
m.add_module("a", nn.ReLU())
m.register_module("b", nn.Tanh())
m.add_module("c", None)
out([n for n, _ in m.named_children()], m.c)
err(lambda: m.add_module("d.e", nn.ReLU()))
err(lambda: m.add_module("", nn.ReLU()))
err(lambda: m.add_module("f", 3))
err(lambda: m.add_module(1, nn.ReLU()))
m.z = 1
err(lambda: m.add_module("z", nn.ReLU()))
print(m.get_submodule("a"))
err(lambda: m.get_submodule("nope"))
# ---
# get_parameter / get_buffer
m = nn.Sequential(nn.BatchNorm1d(2))
out(m.get_parameter("0.weight").shape, m.get_buffer("0.running_mean").shape)
err(lambda: m.get_parameter("0.running_mean"))
err(lambda: m.get_buffer("0.weight"))
err(lambda: m.get_parameter("1.weight"))
# ---
# train/eval/training and requires_grad_
m = nn.Sequential(nn.Dropout(), nn.Sequential(nn.BatchNorm1d(1)))
out(m.training, m[1][0].training)
r = m.eval()
out(r is m, m.training, m[1][0].training)
m.train(False)
out(m[0].training)
m.train()
out(m[1][0].training)
err(lambda: m.train("yes"))
m.requires_grad_(False)
out([p.requires_grad for p in m.parameters()])
out(m.requires_grad_() is m, [p.requires_grad for p in m.parameters()])
# ---
# zero_grad set_to_none
lin = nn.Linear(2, 1)
lin(torch.ones(1, 2)).sum().backward()
lin.zero_grad(set_to_none=False)
out(lin.weight.grad, lin.bias.grad)
lin.zero_grad()
out(lin.weight.grad is None, lin.bias.grad is None)
lin.zero_grad(set_to_none=False)
out(lin.weight.grad is None)
# ---
# module reprs
print(nn.Linear(3, 4, bias=False))
print(nn.Conv2d(3, 8, 3, stride=2, padding=1, dilation=2, groups=1, bias=False))
print(nn.Conv2d(4, 8, (3, 5), padding="same", padding_mode="reflect", groups=2))
print(nn.Conv1d(2, 4, 3, padding="valid"))
print(nn.ConvTranspose2d(3, 4, 3, stride=2, output_padding=1))
print(nn.MaxPool2d(2), nn.MaxPool2d(3, stride=1, padding=1, ceil_mode=True))
print(nn.AvgPool2d(2), nn.AvgPool2d(3, 2, 1, count_include_pad=False))
print(nn.AdaptiveAvgPool2d((1, 1)), nn.AdaptiveAvgPool2d(7))
print(nn.BatchNorm2d(3, momentum=None, affine=False, track_running_stats=False))
print(nn.LayerNorm([2, 3], elementwise_affine=False), nn.LayerNorm(4, bias=False))
print(nn.GroupNorm(2, 4), nn.Embedding(10, 3, padding_idx=0), nn.Bilinear(2, 3, 4))
print(nn.Dropout(0.3, inplace=True), nn.Softmax(), nn.LogSoftmax(1), nn.GELU("tanh"))
print(nn.SiLU(), nn.Sigmoid(), nn.Tanh(), nn.LeakyReLU(0.2, True), nn.Flatten(0, -1))
print(nn.MSELoss(), nn.CrossEntropyLoss(label_smoothing=0.1), nn.BCEWithLogitsLoss())
print(nn.Embedding(5, 2, max_norm=1.0), nn.Identity(3, x=4))


# ---
# extra_repr and nested repr
class Custom(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(1, 2)
        self.seq = nn.Sequential(nn.ReLU(), nn.ModuleList([nn.Tanh(), nn.Identity()]))
        self.d = nn.ModuleDict({"x": nn.Sigmoid()})

    def extra_repr(self):
        return "k=1\nsecond line"


print(Custom())
print(nn.Sequential())
print(nn.ModuleList())


class Leaf(nn.Module):
    def extra_repr(self):
        return "only=1"


print(Leaf())
print(nn.Sequential(Leaf(), Leaf()))
# ---
# parameters/buffers/modules iteration flags
m = nn.Sequential(nn.Linear(1, 1), nn.BatchNorm1d(1))
m.register_buffer("own", torch.zeros(1))
m.register_parameter("p", nn.Parameter(torch.ones(1)))
out(
    [n for n, _ in m.named_parameters(recurse=False)],
    [n for n, _ in m.named_buffers(recurse=False)],
)
out(
    len(list(m.parameters(recurse=False))),
    len(list(m.buffers())),
    len(list(m.buffers(recurse=False))),
)
out([n for n, _ in m.named_buffers(prefix="pre")])
shared = nn.Parameter(torch.ones(1))
a = nn.Module()
a.x = shared
a.y = shared
out(
    [n for n, _ in a.named_parameters()], [n for n, _ in a.named_parameters(remove_duplicate=False)]
)
print(a)
out(list(a.state_dict()))
out(m.cpu() is m, m.float() is m, m.double() is m, m.eval() is m)
out(m[0].weight.dtype, m.own.dtype, m[1].num_batches_tracked.dtype)
m.to(torch.float32)
out(m(torch.ones(2, 1)).shape)
# ---
# module attribute errors, __getattr__, __dir__, state_dict of nested
m = nn.Sequential(nn.Linear(2, 2))
try:
    m.missing
except AttributeError as e:
    print(e)
out("0" in dir(nn.Module().add_module("x", None) or nn.Module()), "weight" in dir(m[0]))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.BatchNorm1d(2)))
        self.head = nn.ModuleDict({"a": nn.Linear(2, 1)})
        self.register_buffer("scale", torch.tensor(2.0))
        self.ps = nn.ParameterList([nn.Parameter(torch.ones(1))])


n = Net()
out(list(n.state_dict()))
out([n_ for n_, _ in n.named_modules()])
print(n)


class NoInit(nn.Module):
    def __init__(self):
        self.x = 1


err(lambda: NoInit().x)


class Early(nn.Module):
    def __init__(self):
        self.lin = nn.Linear(1, 1)
        super().__init__()


err(lambda: Early())
# ---
# LazyLinear: in_features from the first input, then an ordinary Linear
fc = nn.LazyLinear(3)
print(fc, fc.weight)
out(
    list(fc.state_dict()),
    fc.has_uninitialized_params(),
    isinstance(fc.weight, nn.parameter.UninitializedParameter),
)
err(lambda: fc.weight.shape)
y = fc(torch.ones(2, 4))
print(fc)
out(type(fc).__name__, fc.weight.shape, fc.bias.shape, y.shape, fc.in_features)
model = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(1, bias=False))
model(torch.ones(5, 7))
print(model)
out([p.shape for p in model.parameters()])

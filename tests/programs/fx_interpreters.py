# a profiling interpreter that prints each node's op (not times), and shape propagation
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(3 * 2 * 2, 5)

    def forward(self, x):
        h = self.pool(F.relu(self.conv(x)))
        return F.log_softmax(self.fc(h.view(h.shape[0], -1)), dim=-1)


class CountingInterpreter(torch.fx.Interpreter):
    def __init__(self, module):
        super().__init__(module)
        self.counts = {}

    def run_node(self, n):
        result = super().run_node(n)
        key = n.op + ":" + (n.target if isinstance(n.target, str) else n.target.__name__)
        self.counts[key] = self.counts.get(key, 0) + 1
        shape = tuple(result.shape) if isinstance(result, torch.Tensor) else result
        print(f"{n.name:>12} {n.op:<14} {shape}")
        return result


model = Block()
gm = torch.fx.symbolic_trace(model)
interp = CountingInterpreter(gm)
x = torch.randn(2, 2, 4, 4)
result = interp.run(x)
print(interp.counts)
out(result, model(x))

torch.fx.passes.shape_prop.ShapeProp(gm).propagate(x)
for node in gm.graph.nodes:
    meta = node.meta.get("tensor_meta")
    if meta is None:
        print(node.name, node.op, node.meta["type"].__name__)
    else:
        print(node.name, node.op, meta.dtype, tuple(meta.shape), meta.stride)
gm.print_readable()


# ---
# an interpreter that changes what nodes compute: every relu becomes sigmoid, every add a sub
class Swapper(torch.fx.Interpreter):
    def call_function(self, target, args, kwargs):
        if target == torch.relu:
            return torch.sigmoid(*args)
        if target.__name__ == "add":
            return args[0] - args[1]
        return super().call_function(target, args, kwargs)

    def call_method(self, target, args, kwargs):
        if target == "clamp":
            return args[0] * 10
        return super().call_method(target, args, kwargs)


def f(a, b):
    return torch.relu(a) + b.clamp(min=0)


gm = torch.fx.symbolic_trace(f)
a, b = torch.randn(3, requires_grad=True), torch.randn(3)
y = Swapper(gm).run(a, b)
y.sum().backward()
out(y, a.grad, gm(a, b))
err(lambda: torch.fx.Interpreter(gm).run(a))


# ---
# a residual network traced through its blocks (in-place adds, optional downsampling) and
# profiled node by node as torch's profiling tutorial does, with op names instead of times
class BasicBlock(nn.Module):
    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample

    def forward(self, x):
        identity = x
        out = self.bn2(self.conv2(self.relu(self.bn1(self.conv1(x)))))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class TinyResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, 4, 3, 2, 1, bias=False), nn.BatchNorm2d(4), nn.ReLU()
        )
        down = nn.Sequential(nn.Conv2d(4, 8, 1, 2, bias=False), nn.BatchNorm2d(8))
        self.layer1 = nn.Sequential(BasicBlock(4, 4), BasicBlock(4, 8, 2, down))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        x = self.layer1(self.stem(x))
        return self.fc(torch.flatten(self.avgpool(x), 1))


class ProfilingInterpreter(torch.fx.Interpreter):
    def __init__(self, mod):
        super().__init__(torch.fx.symbolic_trace(mod))
        self.calls = {}

    def run_node(self, n):
        result = super().run_node(n)
        self.calls.setdefault(n, []).append(n.op)
        return result

    def summary(self):
        return [[n.op, str(n), len(calls)] for n, calls in self.calls.items()]


model = TinyResNet().eval()
print(torch.fx.symbolic_trace(model).code)
interp = ProfilingInterpreter(model)
x = torch.randn(2, 3, 8, 8)
with torch.no_grad():
    result = interp.run(x)
    interp.run(x)
for row in interp.summary():
    print(row)
with torch.no_grad():
    out(result, model(x))

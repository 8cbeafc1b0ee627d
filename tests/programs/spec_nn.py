# forward pre-hooks and hooks with kwargs, prepend and always_call
calls = []
lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    lin.bias.fill_(0.5)


def pre(m, args):
    calls.append("pre")
    return (args[0] * 2,)


def pre_first(m, args):
    calls.append("pre_first")


def post(m, args, output):
    calls.append("post")
    return output + 1


h1 = lin.register_forward_pre_hook(pre)
h2 = lin.register_forward_pre_hook(pre_first, prepend=True)
h3 = lin.register_forward_hook(post)
x = torch.ones(1, 2)
out(lin(x), calls)
h1.remove()
h2.remove()
h3.remove()
out(lin(x))


def pre_kw(m, args, kwargs):
    calls.append(("kw", sorted(kwargs)))
    return args, kwargs


def post_kw(m, args, kwargs, output):
    calls.append(("post_kw", len(args)))
    return output * 3


lin.register_forward_pre_hook(pre_kw, with_kwargs=True)
lin.register_forward_hook(post_kw, with_kwargs=True)
out(lin(input=x), calls)
# ---
# forward hook always_call runs when forward raises
seen = []


class Boom(nn.Module):
    def forward(self, x):
        raise ValueError("boom")


b = Boom()
b.register_forward_hook(lambda m, a, o: seen.append("normal"))
b.register_forward_hook(lambda m, a, o: seen.append("always"), always_call=True)
err(lambda: b(torch.ones(1)))
out(seen)
# ---
# pre-hook returning a non-tuple wraps it
lin = nn.Identity()
lin.register_forward_pre_hook(lambda m, a: a[0] + 1)
out(lin(torch.zeros(2)))
# ---
# full backward hooks and backward pre-hooks
lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[2.0, -1.0]]))
    lin.bias.zero_()
rec = []


def bhook(m, gin, gout):
    rec.append(("b", [g.shape if g is not None else None for g in gin], gout[0].shape))
    return (gin[0] * 10,)


def bpre(m, gout):
    rec.append(("pre", gout[0].shape))
    return (gout[0] * 2,)


lin.register_full_backward_hook(bhook)
lin.register_full_backward_pre_hook(bpre)
x = torch.tensor([[1.0, 2.0]], requires_grad=True)
y = lin(x)
out(y.grad_fn.name())
y.sum().backward()
out(x.grad, lin.weight.grad, rec)
# ---
# state_dict prefix, keep_vars and order
m = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
sd = m.state_dict(prefix="model.")
out(list(sd.keys()))
out([type(v).__name__ for v in m.state_dict(keep_vars=True).values()])
out([v.requires_grad for v in m.state_dict().values()])
out([v.requires_grad for v in m.state_dict(keep_vars=True).values()])
# ---
# load_state_dict strict error message
m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
sd = m.state_dict()
sd["2.weight"] = torch.ones(1)
del sd["0.bias"]
try:
    m.load_state_dict(sd)
except RuntimeError as e:
    print(e)
sd = m.state_dict()
sd["1.weight"] = torch.ones(3, 3)
try:
    m.load_state_dict(sd)
except RuntimeError as e:
    print(e)
r = m.load_state_dict(m.state_dict())
print(r)
out(r.missing_keys, r.unexpected_keys)
# ---
# load_state_dict assign keeps the given tensors
m = nn.Linear(2, 2)
w = torch.full((2, 2), 3.0)
b = torch.zeros(2)
m.load_state_dict({"weight": w, "bias": b}, assign=True)
out(m.weight, type(m.weight).__name__, m.weight.requires_grad)
m2 = nn.Linear(2, 2)
m2.load_state_dict({"weight": w, "bias": b})
out(m2.weight.data_ptr() == w.data_ptr(), m2.weight)
# ---
# load_state_dict with non-tensor and dtype cast
m = nn.Linear(2, 1).double()
m.load_state_dict({"weight": torch.ones(1, 2), "bias": torch.zeros(1)})
out(m.weight, m.bias)
err(lambda: m.load_state_dict({"weight": [1.0, 2.0], "bias": torch.zeros(1)}))
err(lambda: m.load_state_dict([1, 2]))
# ---
# non-persistent buffers and register_buffer errors
m = nn.Module()
m.register_buffer("a", torch.ones(2))
m.register_buffer("b", torch.zeros(1), persistent=False)
m.register_buffer("c", None)
out(list(m.state_dict().keys()), [n for n, _ in m.named_buffers()])
err(lambda: m.register_buffer("a.b", torch.ones(1)))
err(lambda: m.register_buffer("", torch.ones(1)))
err(lambda: m.register_buffer("d", [1, 2]))
err(lambda: m.register_buffer(3, torch.ones(1)))
m.p = nn.Parameter(torch.ones(1))
err(lambda: m.register_buffer("p", torch.ones(1)))
err(lambda: m.register_parameter("a", nn.Parameter(torch.ones(1))))
err(lambda: m.register_parameter("q", torch.ones(1)))
m.register_parameter("r", None)
out([n for n, _ in m.named_parameters()], m.r)
# ---
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
# Sequential slicing, insert, extend, append, pop, del, add, mul
s = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.Identity())
print(s[1:3])
print(s[::-1])
out(type(s[1:]).__name__, len(s), [n for n, _ in s[1:].named_children()])
s.append(nn.GELU())
s.insert(0, nn.SiLU())
s.insert(-1, nn.ELU())
print(s)
s.extend([nn.Softplus()])
out(len(s))
p = s.pop(1)
print(p, s)
del s[0]
del s[-2:]
print(s)
err(lambda: s[10])
err(lambda: s.insert(20, nn.ReLU()))
err(lambda: s.append(3))
err(lambda: s.__getitem__("a"))
s2 = s + nn.Sequential(nn.ReLU())
print(s2)
print(s * 2)
s[0] = nn.Hardtanh()
print(s)
out([n for n, _ in s.named_children()])
# ---
# Sequential with OrderedDict and iteration
import collections

s = nn.Sequential(collections.OrderedDict([("fc", nn.Linear(1, 1)), ("act", nn.ReLU())]))
print(s)
out([n for n, _ in s.named_children()], list(s.state_dict().keys()))
print(s[0], s.act)
out([type(m).__name__ for m in s])
del s[0]
out([n for n, _ in s.named_children()])
err(lambda: nn.Sequential(collections.OrderedDict([("a", 3)])))
# ---
# ModuleList operations
ml = nn.ModuleList([nn.ReLU(), nn.Tanh()])
ml.append(nn.Sigmoid())
ml.extend([nn.Identity(), nn.GELU()])
ml.insert(1, nn.SiLU())
print(ml)
print(ml[1:3], ml[-1])
del ml[0]
out([n for n, _ in ml.named_children()])
ml[0] = nn.ELU()
out(len(ml), type(ml.pop(0)).__name__, len(ml))
ml += [nn.ReLU()]
out(len(ml), [type(m).__name__ for m in ml])
print(ml + nn.ModuleList([nn.Tanh()]))
err(lambda: ml[100])
err(lambda: ml.extend(nn.ReLU()))
err(lambda: ml.append(5))
del ml[1:3]
print(ml)
err(lambda: ml(torch.ones(1)))
out(nn.ModuleList().__len__(), bool(nn.ModuleList()))
# ---
# ModuleDict operations
md = nn.ModuleDict({"b": nn.ReLU(), "a": nn.Tanh()})
print(md)
out(list(md.keys()), [type(v).__name__ for v in md.values()], "a" in md, len(md))
md["c"] = nn.Sigmoid()
md.update({"d": nn.Identity()})
md.update([("e", nn.GELU())])
out(list(md))
print(type(md.pop("a")).__name__)
del md["b"]
out([k for k, _ in md.items()], [n for n, _ in md.named_children()])
err(lambda: md["zz"])
err(lambda: md.update(3))
err(lambda: md.__setitem__("x", 4))
md.clear()
out(len(md))
# ---
# ParameterList and ParameterDict
pl = nn.ParameterList([nn.Parameter(torch.ones(1)), torch.zeros(2)])
out([type(p).__name__ for p in pl], [p.requires_grad for p in pl], len(pl))
print(pl)
pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(2, 2))})
pd["b"] = torch.zeros(3)
print(pd)
out(list(pd.keys()))
m = nn.Module()
m.pl = pl
out([n for n, _ in m.named_parameters()])
# ---
# Parameter semantics
p = nn.Parameter(torch.ones(2))
print(p)
out(p, p.requires_grad, type(p * 2).__name__, isinstance(p, torch.Tensor))
q = nn.Parameter(torch.ones(2), requires_grad=False)
print(q)
out(q.requires_grad)
e = nn.Parameter()
out(e.shape, e.requires_grad)
d = p.detach()
out(type(d).__name__)
out(type(p.data).__name__)
print(repr(nn.Parameter(torch.tensor([1.0, 2.0], dtype=torch.float64))))
err(lambda: nn.Parameter(torch.tensor([1, 2])))
out(nn.Parameter(torch.tensor([1, 2]), requires_grad=False).dtype)
# ---
# Identity and Flatten / Unflatten
x = torch.arange(24.0).reshape(2, 3, 4)
out(nn.Identity(54, unused="x")(x) is x)
out(
    nn.Flatten()(x).shape,
    nn.Flatten(0)(x).shape,
    nn.Flatten(0, 1)(x).shape,
    nn.Flatten(-2, -1)(x).shape,
)
err(lambda: nn.Flatten()(torch.ones(3)).shape)
err(lambda: nn.Flatten(2, 1)(x))
out(nn.Unflatten(1, (3, 1))(x).shape)
print(nn.Unflatten(1, (3, 1)))
# ---
# Sequential multiplication and in-place add
s = nn.Sequential(nn.ReLU(), nn.Tanh())
t = s * 2
out(len(t), t[0] is t[2], [n for n, _ in t.named_children()])
out(len(3 * s))
s += nn.Sequential(nn.Sigmoid())
out(len(s))
s *= 2
out(len(s), [n for n, _ in s.named_children()])
err(lambda: s * 0)
err(lambda: s * 1.5)
err(lambda: s + nn.ReLU())
out("0" in dir(s), "forward" in dir(s))
# ---
# Linear and Bilinear shapes and errors
lin = nn.Linear(3, 2)
nn.init.constant_(lin.weight, 0.5)
nn.init.constant_(lin.bias, -1.0)
x = torch.arange(3.0)
out(lin(x), lin(x.reshape(1, 1, 3)).shape, lin(torch.ones(0, 3)).shape)
err(lambda: lin(torch.ones(2, 4)))
err(lambda: lin(torch.ones(2, 3, dtype=torch.float64)))
err(lambda: lin(torch.ones(2, 3, dtype=torch.int64)))
err(lambda: lin(torch.tensor(1.0)))
out(nn.Linear(0, 2)(torch.ones(1, 0)).shape)
out(nn.Linear(2, 3, dtype=torch.float64).weight.dtype)
bl = nn.Bilinear(2, 3, 1)
nn.init.constant_(bl.weight, 0.1)
nn.init.constant_(bl.bias, 0.2)
y = bl(torch.ones(4, 2, requires_grad=True), torch.ones(4, 3))
out(y, bl(torch.ones(2), torch.ones(3)).shape)
err(lambda: bl(torch.ones(4, 2), torch.ones(5, 3)))
err(lambda: bl(torch.ones(4, 3), torch.ones(4, 3)))
out(bl.weight.shape, bl.in1_features, bl.in2_features, bl.out_features)
# ---
# Linear grads and grad_fn names
lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 2.0]]))
    lin.bias.copy_(torch.tensor([0.1, 0.2]))
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = lin(x)
out(y)
y.pow(2).sum().backward()
out(x.grad, lin.weight.grad, lin.bias.grad)
y1 = lin(torch.tensor([1.0, 2.0]))
out(y1)
y3 = lin(torch.ones(2, 3, 2))
out(y3)
out(nn.Linear(2, 2, bias=False)(torch.ones(2, 2)).grad_fn.name())
# ---
# Conv1d and Conv2d unbatched, groups, dilation, padding modes
torch.manual_seed(0)
c = nn.Conv2d(2, 4, 3, padding=1, groups=2, bias=True)
with torch.no_grad():
    c.weight.copy_(torch.arange(36.0).reshape(4, 1, 3, 3) / 10)
    c.bias.copy_(torch.tensor([0.0, 1.0, 2.0, 3.0]))
x = torch.arange(32.0).reshape(2, 4, 4)
y = c(x)
out(y, c(x.unsqueeze(0)).shape)
err(lambda: c(torch.ones(3, 4, 4)))
err(lambda: c(torch.ones(4, 4)))
err(lambda: c(torch.ones(1, 1, 2, 4, 4)))
err(lambda: c(torch.ones(1, 2, 4, 4, dtype=torch.float64)))
err(lambda: nn.Conv2d(3, 4, 3, groups=2))
err(lambda: nn.Conv2d(4, 3, 3, groups=2))
err(lambda: nn.Conv2d(2, 2, 3, padding="same", stride=2))
err(lambda: nn.Conv2d(2, 2, 3, padding="full"))
err(lambda: nn.Conv2d(2, 2, 3, padding_mode="mirror"))
err(lambda: nn.Conv2d(2, 2, 5)(torch.ones(1, 2, 3, 3)))
for mode in ["zeros", "reflect", "replicate", "circular"]:
    cm = nn.Conv2d(1, 1, 3, padding=1, padding_mode=mode, bias=False)
    nn.init.ones_(cm.weight)
    out(cm(torch.arange(16.0).reshape(1, 1, 4, 4)))
cs = nn.Conv2d(1, 1, (2, 3), padding="same", dilation=(2, 1), bias=False)
nn.init.ones_(cs.weight)
out(cs(torch.arange(20.0).reshape(1, 1, 4, 5)))
# ---
# Conv1d with stride, dilation and gradients
c = nn.Conv1d(2, 2, 2, stride=2, dilation=2, bias=False)
with torch.no_grad():
    c.weight.copy_(torch.tensor([[[1.0, 2.0], [3.0, 4.0]], [[-1.0, 0.0], [0.5, 0.5]]]))
x = torch.arange(14.0).reshape(1, 2, 7).requires_grad_()
y = c(x)
out(y)
y.sum().backward()
out(x.grad, c.weight.grad)
out(c(torch.ones(2, 7)).shape)
err(lambda: c(torch.ones(2, 2)))
cs = nn.Conv1d(1, 1, 4, padding="same", bias=False)
nn.init.ones_(cs.weight)
out(cs(torch.arange(6.0).reshape(1, 6)))
# ---
# ConvTranspose2d output_padding and output_size
ct = nn.ConvTranspose2d(1, 2, 3, stride=2, padding=1, output_padding=1, bias=False)
with torch.no_grad():
    ct.weight.copy_(torch.arange(18.0).reshape(1, 2, 3, 3) / 9)
x = torch.arange(4.0).reshape(1, 1, 2, 2).requires_grad_()
y = ct(x)
out(y)
y.sum().backward()
out(x.grad)
out(ct(torch.ones(1, 2, 2)).shape)
ct2 = nn.ConvTranspose2d(1, 1, 3, stride=2)
out(ct2(torch.ones(1, 1, 3, 3), output_size=[8, 8]).shape)
err(lambda: ct2(torch.ones(1, 1, 3, 3), output_size=[20, 20]))
err(lambda: nn.ConvTranspose2d(1, 1, 3, stride=2, output_padding=2)(torch.ones(1, 1, 3, 3)))
out(ct2.weight.shape, nn.ConvTranspose2d(4, 6, 2, groups=2).weight.shape)
# ---
# pooling corners
x = torch.arange(25.0).reshape(1, 1, 5, 5).requires_grad_()
mp = nn.MaxPool2d(2)
y = mp(x)
out(y)
y.sum().backward()
out(x.grad)
out(nn.MaxPool2d(2, ceil_mode=True)(x), nn.MaxPool2d(3, stride=2, padding=1)(x))
yy, idx = nn.MaxPool2d(2, return_indices=True)(x)
out(yy, idx)
out(nn.MaxPool2d(2, dilation=2)(x))
out(nn.MaxPool2d(2)(torch.arange(16.0).reshape(1, 4, 4)))
err(lambda: nn.MaxPool2d(2, padding=2)(x))
err(lambda: nn.MaxPool2d(6)(x))
out(nn.AvgPool2d(2)(x), nn.AvgPool2d(2, ceil_mode=True)(x))
out(nn.AvgPool2d(3, 2, 1)(x), nn.AvgPool2d(3, 2, 1, count_include_pad=False)(x))
out(nn.AvgPool2d(2, divisor_override=1)(x))
err(lambda: nn.AvgPool2d(2, padding=2)(x))
out(nn.AdaptiveAvgPool2d((2, 3))(x), nn.AdaptiveAvgPool2d((None, 2))(x).shape)
out(nn.AdaptiveAvgPool2d(1)(x[0]).shape)
err(lambda: nn.AdaptiveAvgPool2d(2)(torch.ones(5, 5)))
z = nn.AdaptiveAvgPool2d(3)(x)
z.sum().backward()
out(x.grad)
out(F.max_pool2d(torch.ones(1, 1, 4, 4, dtype=torch.float64), 2).dtype)
err(lambda: F.max_pool2d(torch.ones(1, 1, 4, 4, dtype=torch.int64), 2))
out(F.avg_pool2d(torch.ones(1, 1, 4, 4, dtype=torch.float64), 2).dtype)
# ---
# BatchNorm train/eval, momentum None, track_running_stats False
x = torch.tensor([[1.0, 2.0], [3.0, 6.0], [-1.0, 0.0], [5.0, 1.0]])
bn = nn.BatchNorm1d(2, momentum=None)
for _ in range(3):
    y = bn(x * (1 + bn.num_batches_tracked.item()))
out(y, bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn2 = nn.BatchNorm1d(2, track_running_stats=False)
out(bn2.running_mean, bn2.num_batches_tracked, list(bn2.state_dict().keys()))
bn2.eval()
out(bn2(x))
bn3 = nn.BatchNorm1d(2, affine=False)
out(bn3.weight, list(bn3.state_dict().keys()), bn3(x))
bn4 = nn.BatchNorm1d(2, momentum=0.5)
bn4(x)
bn4.eval()
out(bn4(x), bn4.running_mean, bn4.running_var)
bn4.reset_running_stats()
out(bn4.running_mean, bn4.running_var, bn4.num_batches_tracked)
# ---
# BatchNorm 3-d input, 2d/3d dims, errors
bn = nn.BatchNorm1d(3)
x3 = torch.arange(24.0).reshape(2, 3, 4)
out(bn(x3), bn.running_mean)
err(lambda: bn(torch.ones(2, 4)))
err(lambda: bn(torch.ones(3)))
err(lambda: bn(torch.ones(1, 3, 1)))
out(bn(torch.ones(1, 3, 2)).shape)
bn.eval()
out(bn(torch.ones(1, 3)).shape)
b2 = nn.BatchNorm2d(2)
err(lambda: b2(torch.ones(2, 2, 3)))
err(lambda: b2(torch.ones(1, 2, 1, 1)))
out(b2(torch.ones(1, 2, 1, 2)).shape)
b3 = nn.BatchNorm3d(1)
y = b3(torch.arange(8.0).reshape(1, 1, 2, 2, 2))
out(y, b3.running_var)
err(lambda: b3(torch.ones(1, 1, 2, 2)))
err(lambda: b2(torch.ones(2, 2, 3, 3, dtype=torch.float64)))
out(b2.num_batches_tracked.dtype, b2.running_mean.requires_grad)
# ---
# BatchNorm gradients in train and eval
bn = nn.BatchNorm1d(2)
with torch.no_grad():
    bn.weight.copy_(torch.tensor([2.0, 0.5]))
    bn.bias.copy_(torch.tensor([0.1, -0.1]))
x = torch.tensor([[1.0, 2.0], [3.0, 5.0], [0.0, -1.0]], requires_grad=True)
y = bn(x)
out(y.grad_fn.name())
(y * torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).sum().backward()
out(x.grad, bn.weight.grad, bn.bias.grad)
bn.eval()
x.grad = None
y = bn(x)
out(y.grad_fn.name())
y.pow(2).sum().backward()
out(x.grad)
# ---
# functional batch_norm, layer_norm, group_norm
x = torch.arange(12.0).reshape(2, 3, 2)
rm, rv = torch.zeros(3), torch.ones(3)
y = F.batch_norm(x, rm, rv, training=True, momentum=0.3)
out(y, rm, rv)
out(F.batch_norm(x, rm, rv, weight=torch.ones(3) * 2))
out(F.batch_norm(x, None, None, training=True))
err(lambda: F.batch_norm(x, None, None, training=False))
out(F.layer_norm(x, (2,)), F.layer_norm(x, [3, 2], weight=torch.ones(3, 2) * 3))
err(lambda: F.layer_norm(x, (3,)))
out(F.group_norm(x, 1), F.group_norm(x, 3, weight=torch.ones(3), bias=torch.ones(3)))
err(lambda: F.group_norm(x, 2))
# ---
# LayerNorm and GroupNorm modules
ln = nn.LayerNorm(3)
x = torch.tensor([[1.0, 2.0, 4.0], [0.0, 0.0, 0.0]], requires_grad=True)
y = ln(x)
out(y, y.grad_fn.name())
y[:, 0].sum().backward()
out(x.grad)
ln2 = nn.LayerNorm([2, 3], eps=0.1, elementwise_affine=False)
out(ln2(x), ln2.weight, list(ln2.state_dict()))
ln3 = nn.LayerNorm(3, bias=False)
out(list(ln3.state_dict()), ln3.normalized_shape)
err(lambda: ln(torch.ones(2, 4)))
gn = nn.GroupNorm(2, 4)
xg = torch.arange(16.0).reshape(2, 4, 2)
out(gn(xg), nn.GroupNorm(2, 2)(torch.arange(24.0).reshape(4, 2, 3) ** 2))
err(lambda: nn.GroupNorm(3, 4))
err(lambda: gn(torch.ones(2, 3, 2)))
gn2 = nn.GroupNorm(2, 4, affine=False)
out(gn2.weight, list(gn2.state_dict()), gn(xg).grad_fn.name())
# ---
# norm layers refuse mixed and integer dtypes
x64 = torch.ones(2, 2, 3, dtype=torch.float64)
err(lambda: nn.BatchNorm1d(2)(x64))
err(lambda: nn.BatchNorm1d(2).eval()(x64))
err(lambda: F.batch_norm(x64, None, None, torch.ones(2), training=True))
err(lambda: nn.LayerNorm(3)(x64))
err(lambda: nn.GroupNorm(1, 2)(x64))
err(lambda: nn.InstanceNorm1d(2, affine=True)(x64))
err(lambda: F.group_norm(torch.ones(2, 2, 3, dtype=torch.int64), 1))
err(lambda: F.batch_norm(torch.ones(2, 2, dtype=torch.int64), None, None, training=True))
err(lambda: F.layer_norm(torch.ones(2, 2, dtype=torch.int64), (2,)))
h = torch.ones(2, 2, 3, dtype=torch.float16)
out(F.layer_norm(h, (3,), torch.ones(3)).dtype, F.group_norm(h, 1, torch.ones(2)).dtype)
out(nn.BatchNorm1d(2)(h).dtype)
err(lambda: F.layer_norm(h, (3,), torch.ones(3, dtype=torch.float64)))
bn = nn.BatchNorm1d(2).double()
out(bn(x64).dtype)
# ---
# Dropout p=0, p=1, invalid p, eval and no_grad independence
x = torch.ones(3, 4, requires_grad=True)
d1 = nn.Dropout(1.0)
y = d1(x)
out(y, y.grad_fn.name())
d0 = nn.Dropout(0.0)
y0 = d0(x)
out(y0, y0.grad_fn.name() if y0.grad_fn is not None else None)
err(lambda: nn.Dropout(1.5))
err(lambda: nn.Dropout(-0.1))
err(lambda: F.dropout(x, 2.0))
d = nn.Dropout(0.5).eval()
ye = d(x)
out(ye, ye.requires_grad, ye is x)
with torch.no_grad():
    yn = nn.Dropout(0.5)(x)
out(yn.requires_grad, ((yn == 0) | (yn == 2)).all())
out(F.dropout(x, 0.5, training=False))
d2 = nn.Dropout2d(1.0)
out(d2(torch.ones(2, 3, 2, 2)), d2(torch.ones(3, 2, 2)).shape)
err(lambda: nn.Dropout2d(1.1))
out(F.dropout2d(torch.ones(1, 2, 2, 2), 0.0))
xi = torch.ones(2, 2)
nn.Dropout(1.0, inplace=True)(xi)
out(xi)
err(lambda: nn.Dropout(0.5)(torch.ones(3, dtype=torch.int64)))
# ---
# Dropout statistics: scale is 1/(1-p)
torch.manual_seed(0)
y = F.dropout(torch.ones(10000), 0.25)
vals = sorted(set(y.tolist()))
out(len(vals), [round(v, 4) for v in vals], abs(float((y == 0).float().mean()) - 0.25) < 0.03)
# ---
# Embedding padding_idx, max_norm, errors
e = nn.Embedding(4, 2, padding_idx=1)
out(e.weight[1])
with torch.no_grad():
    e.weight.copy_(torch.arange(8.0).reshape(4, 2))
idx = torch.tensor([[0, 1], [1, 3]])
y = e(idx)
out(y, y.grad_fn.name())
y.sum().backward()
out(e.weight.grad)
err(lambda: e(torch.tensor([4])))
err(lambda: e(torch.tensor([-1])))
err(lambda: e(torch.tensor([0.0])))
out(e(torch.tensor(2)).shape, e(torch.tensor([], dtype=torch.int64)).shape)
out(e(torch.tensor([1], dtype=torch.int32)))
e2 = nn.Embedding(3, 2, padding_idx=-1)
out(e2.padding_idx)
err(lambda: nn.Embedding(3, 2, padding_idx=3))
err(lambda: nn.Embedding(3, 2, padding_idx=-4))
em = nn.Embedding(3, 2, max_norm=1.0)
with torch.no_grad():
    em.weight.copy_(torch.tensor([[3.0, 4.0], [0.3, 0.4], [1.0, 0.0]]))
out(em(torch.tensor([0, 1])))
out(em.weight)
pre = nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
out(pre.weight.requires_grad, pre(torch.tensor([1])))
print(pre, nn.Embedding.from_pretrained(torch.ones(2, 2), freeze=False, padding_idx=0))
out(F.embedding(torch.tensor([1, 0]), torch.tensor([[1.0], [2.0]])))
# ---
# activations: values, inplace, grad_fn names, repr
x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 3.0], requires_grad=True)
for m in [
    nn.ReLU(),
    nn.LeakyReLU(),
    nn.LeakyReLU(0.2),
    nn.GELU(),
    nn.GELU("tanh"),
    nn.SiLU(),
    nn.Sigmoid(),
    nn.Tanh(),
]:
    y = m(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    out(type(m).__name__, y, y.grad_fn.name(), g)
err(lambda: nn.GELU("fast")(x))
z = x.detach().clone()
r = nn.ReLU(inplace=True)(z)
out(r is z, z)
z = x.detach().clone()
nn.LeakyReLU(0.1, inplace=True)(z)
out(z)
err(lambda: nn.ReLU(inplace=True)(x))
xl = x.clone()
yl = nn.ReLU(inplace=True)(xl)
out(yl.grad_fn.name())
yl2 = nn.SiLU(inplace=True)(x.clone())
out(yl2.grad_fn.name())
err(lambda: nn.ReLU()(torch.tensor([-1, 2])))
out(nn.ReLU()(torch.tensor([-1, 2])))
err(lambda: nn.GELU()(torch.tensor([-1, 2])))
err(lambda: nn.Sigmoid()(torch.tensor([-1, 2])))
out(nn.Sigmoid()(torch.tensor([-1, 2])))
# ---
# Softmax and LogSoftmax dims
x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], requires_grad=True)
s = nn.Softmax(dim=1)(x)
ls = nn.LogSoftmax(dim=0)(x)
out(s, s.grad_fn.name(), ls, ls.grad_fn.name())
out(nn.Softmax(dim=-1)(torch.tensor([0.0, 1.0])))
out(F.softmax(x, 1, dtype=torch.float64).dtype, F.log_softmax(x, -1).grad_fn.name())
err(lambda: nn.Softmax(dim=2)(x))
err(lambda: nn.Softmax(dim=1)(torch.tensor([[1, 2]])))
out(F.softmax(torch.tensor([[1, 2]]), dim=1, dtype=torch.float32))
print(nn.Softmax(dim=1), nn.LogSoftmax(), nn.Softmax2d(), nn.Softmin(0))
# ---
# nn.init functions
w = torch.empty(3, 4)
out(nn.init.zeros_(w) is w, w.sum())
nn.init.ones_(w)
out(w.sum())
nn.init.constant_(w, 0.3)
out(w)
nn.init.eye_(w)
out(w)
torch.manual_seed(0)
nn.init.uniform_(w, -0.1, 0.1)
out(bool((w.abs() <= 0.1).all()))
nn.init.normal_(w, 5.0, 0.0)
out(w)
out(
    nn.init.calculate_gain("relu"),
    nn.init.calculate_gain("leaky_relu", 0.2),
    nn.init.calculate_gain("tanh"),
)
out(
    nn.init.calculate_gain("linear"),
    nn.init.calculate_gain("sigmoid"),
    nn.init.calculate_gain("selu"),
)
err(lambda: nn.init.calculate_gain("wat"))
err(lambda: nn.init.calculate_gain("leaky_relu", "x"))
big = torch.empty(200, 300)
nn.init.kaiming_uniform_(big, a=0)
bound = (6 / 300) ** 0.5
out(bool(big.abs().max() <= bound), bool(big.abs().max() > 0.9 * bound))
nn.init.kaiming_uniform_(big, mode="fan_out", nonlinearity="relu")
out(bool(big.abs().max() <= (6 / 200) ** 0.5))
nn.init.xavier_uniform_(big, gain=2.0)
out(bool(big.abs().max() <= 2 * (6 / 500) ** 0.5))
nn.init.xavier_normal_(big)
out(abs(float(big.std()) - (2 / 500) ** 0.5) < 0.003)
nn.init.kaiming_normal_(big)
out(abs(float(big.std()) - (2 / 300) ** 0.5) < 0.004)
err(lambda: nn.init.kaiming_uniform_(torch.empty(3)))
err(lambda: nn.init.xavier_uniform_(torch.empty(3)))
err(lambda: nn.init.kaiming_normal_(big, mode="fan_x"))
err(lambda: nn.init.eye_(torch.empty(2, 2, 2)))
p = nn.Parameter(torch.ones(2))
r = nn.init.zeros_(p)
out(r is p, p.requires_grad, p.grad_fn is None)
# ---
# default initialisation bounds per layer
torch.manual_seed(0)
lin = nn.Linear(50, 40)
b = 1 / 50**0.5
out(
    bool(lin.weight.abs().max() <= b),
    bool(lin.bias.abs().max() <= b),
    bool(lin.weight.abs().max() > 0.9 * b),
)
conv = nn.Conv2d(4, 6, 3)
b = 1 / (4 * 9) ** 0.5
out(bool(conv.weight.abs().max() <= b), bool(conv.bias.abs().max() <= b))
bn = nn.BatchNorm2d(3)
out(bn.weight, bn.bias, bn.running_mean, bn.running_var, bn.num_batches_tracked)
ln = nn.LayerNorm(3)
out(ln.weight, ln.bias)
emb = nn.Embedding(1000, 10)
out(abs(float(emb.weight.std()) - 1) < 0.05)
ct = nn.ConvTranspose2d(4, 6, 3)
b = 1 / (6 * 9) ** 0.5
out(bool(ct.weight.abs().max() <= b), bool(ct.bias.abs().max() <= b))
# ---
# feature dropout masks: whole channels, and 3-D inputs to dropout2d read as (N, C, L)
torch.manual_seed(0)
y = F.dropout2d(torch.ones(4, 6, 5), 0.5)
out(y.shape, bool((y == y[:, :, :1]).all()))
y = F.dropout2d(torch.ones(4, 6, 3, 3), 0.5)
out(bool((y == y[:, :, :1, :1]).all()))
y = F.dropout3d(torch.ones(6, 2, 2, 2), 0.5)
out(bool((y == y[:, :1, :1, :1]).all()))
y = F.dropout1d(torch.ones(6, 5), 0.5)
out(bool((y == y[:, :1]).all()))
err(lambda: F.dropout1d(torch.ones(2, 3, 4, 5), 0.5))
err(lambda: F.dropout1d(torch.ones(5), 0.5, training=False))
err(lambda: F.dropout2d(torch.ones(2, 3, 4, 4, dtype=torch.int64), 0.5))
out(F.dropout(torch.tensor([1, 2]), 1.0), F.dropout(torch.tensor([1, 2]), 0.5, training=False))
err(lambda: F.gelu(torch.tensor([1, 2])))
err(lambda: F.silu(torch.tensor([1, 2])))
err(lambda: F.leaky_relu(torch.tensor([1, 2])))
err(lambda: F.softplus(torch.tensor([1, 2])))
err(lambda: F.gelu(torch.tensor([True])))
# ---
# MSELoss and L1Loss reductions, broadcasting, dtypes
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([[0.0, 2.5], [3.0, 1.0]])
for red in ["mean", "sum", "none"]:
    m, l1 = nn.MSELoss(reduction=red)(a, b), nn.L1Loss(reduction=red)(a, b)
    out(m, l1)
err(lambda: nn.MSELoss(reduction="avg")(a, b))
err(lambda: F.l1_loss(a, b, reduction="max"))
out(F.mse_loss(a, torch.tensor([1.0, 1.0])))
out(F.mse_loss(a, b.double()).dtype)
err(lambda: F.mse_loss(a, torch.ones(3)))
err(lambda: F.mse_loss(torch.tensor([1, 2]), torch.tensor([1, 3])))
err(lambda: F.l1_loss(torch.tensor([1, 2]), torch.tensor([1, 3])))
out(F.l1_loss(torch.tensor([1, 2]), torch.tensor([1, 3]), reduction="sum"))
out(
    F.mse_loss(torch.ones(0), torch.ones(0)),
    F.l1_loss(torch.ones(0), torch.ones(0), reduction="sum"),
)
loss = F.mse_loss(a, b)
loss.backward()
out(a.grad)
out(nn.MSELoss(size_average=False)(a, b), nn.L1Loss(reduce=False)(a, b))
print(nn.MSELoss(reduction="sum"), nn.L1Loss())
# ---
# CrossEntropyLoss with class indices: weights, ignore_index, reductions, label_smoothing
logits = torch.tensor(
    [[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [1.0, -1.0, 3.0], [0.0, 0.0, 0.0]], requires_grad=True
)
target = torch.tensor([0, 2, -100, 1])
w = torch.tensor([1.0, 2.0, 0.5])
for red in ["mean", "sum", "none"]:
    out(F.cross_entropy(logits, target, reduction=red))
    out(F.cross_entropy(logits, target, weight=w, reduction=red))
    out(F.cross_entropy(logits, target, weight=w, reduction=red, label_smoothing=0.2))
    out(F.cross_entropy(logits, torch.tensor([0, 2, 1, 1]), ignore_index=1, reduction=red))
loss = F.cross_entropy(logits, target, weight=w, label_smoothing=0.1)
out(loss, loss.grad_fn.name())
loss.backward()
out(logits.grad)
out(F.cross_entropy(logits, torch.tensor([-100, -100, -100, -100])))
out(F.cross_entropy(logits, torch.tensor([-100, -100, -100, -100]), reduction="sum"))
out(F.cross_entropy(logits[0], torch.tensor(1)))
out(F.cross_entropy(logits[0], torch.tensor(1)).shape)
err(lambda: F.cross_entropy(logits, torch.tensor([0, 1, 2, 3])))
err(lambda: F.cross_entropy(logits, torch.tensor([0.0, 1.0, 2.0, 1.0])))
err(lambda: F.cross_entropy(logits, torch.tensor([0, 1, 2])))
err(lambda: F.cross_entropy(logits, torch.tensor([0, 1, 2, 1], dtype=torch.int32)))
err(lambda: F.cross_entropy(logits, target, label_smoothing=1.5))
err(lambda: F.cross_entropy(logits, target, label_smoothing=-0.1))
err(lambda: F.cross_entropy(logits, target, weight=torch.ones(2)))
err(lambda: F.cross_entropy(logits, torch.tensor([[0, 1]])))
print(nn.CrossEntropyLoss(weight=w, ignore_index=3), nn.NLLLoss())
out(nn.CrossEntropyLoss(weight=w).weight, list(nn.CrossEntropyLoss(weight=w).state_dict()))
# ---
# CrossEntropyLoss with class probabilities and spatial inputs
logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]], requires_grad=True)
probs = torch.tensor([[0.7, 0.2, 0.1], [0.0, 0.5, 0.5]])
w = torch.tensor([1.0, 2.0, 0.5])
for red in ["mean", "sum", "none"]:
    out(F.cross_entropy(logits, probs, reduction=red))
    out(F.cross_entropy(logits, probs, weight=w, reduction=red, label_smoothing=0.3))
err(lambda: F.cross_entropy(logits, probs, ignore_index=0))
out(F.cross_entropy(logits, probs, ignore_index=-1))
err(lambda: F.cross_entropy(logits, probs.double()))
err(lambda: F.cross_entropy(logits, probs[:, :2]))
loss = F.cross_entropy(logits, probs, label_smoothing=0.1)
loss.backward()
out(loss, logits.grad)
x = torch.arange(24.0).reshape(2, 3, 2, 2) / 10
t = torch.tensor([[[0, 1], [2, -100]], [[1, 1], [0, 2]]])
out(F.cross_entropy(x, t), F.cross_entropy(x, t, reduction="none").shape)
out(F.cross_entropy(x, t, weight=w, label_smoothing=0.2))
out(F.cross_entropy(x, torch.softmax(x * 2, 1)))
err(lambda: F.cross_entropy(x, t[:, :1]))
# ---
# NLLLoss corners
lp = torch.log_softmax(
    torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [1.0, 1.0, 1.0]]), 1
).requires_grad_()
t = torch.tensor([0, 2, 1])
w = torch.tensor([0.5, 2.0, 1.0])
for red in ["mean", "sum", "none"]:
    out(F.nll_loss(lp, t, reduction=red), F.nll_loss(lp, t, weight=w, reduction=red))
    out(F.nll_loss(lp, t, ignore_index=2, reduction=red))
loss = nn.NLLLoss(weight=w)(lp, t)
out(loss.grad_fn.name())
loss.backward()
out(lp.grad)
out(F.nll_loss(lp[0], torch.tensor(0)))
err(lambda: F.nll_loss(lp, torch.tensor([0, 3, 1])))
err(lambda: F.nll_loss(lp, torch.tensor([0.0, 1.0, 1.0])))
err(lambda: F.nll_loss(lp, torch.tensor([0, 1])))
err(lambda: F.nll_loss(lp, torch.tensor([[0, 1, 1]])))
out(F.nll_loss(lp, torch.tensor([-100, -100, -100])))
out(F.nll_loss(torch.ones(2, 3, 2), torch.tensor([[0, 1], [2, 2]])))
# ---
# BCELoss and BCEWithLogitsLoss corners
p = torch.tensor([0.1, 0.9, 0.5, 1.0], requires_grad=True)
y = torch.tensor([0.0, 1.0, 1.0, 1.0])
w = torch.tensor([1.0, 2.0, 0.5, 1.0])
for red in ["mean", "sum", "none"]:
    out(
        F.binary_cross_entropy(p, y, reduction=red),
        F.binary_cross_entropy(p, y, weight=w, reduction=red),
    )
out(F.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])))
loss = nn.BCELoss()(p, y)
out(loss.grad_fn.name())
loss.backward()
out(p.grad)
err(lambda: F.binary_cross_entropy(torch.tensor([1.5]), torch.tensor([1.0])))
err(lambda: F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1.0, 0.0])))
err(lambda: F.binary_cross_entropy(torch.tensor([0.5, 0.2]), torch.tensor([1, 0])))
err(lambda: F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1.5])))
z = torch.tensor([[-3.0, 0.0, 2.0], [50.0, -50.0, 1.0]], requires_grad=True)
t = torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.0, 1.0]])
pw = torch.tensor([1.0, 3.0, 0.5])
for red in ["mean", "sum", "none"]:
    out(F.binary_cross_entropy_with_logits(z, t, reduction=red))
    out(
        F.binary_cross_entropy_with_logits(
            z, t, weight=torch.tensor([2.0, 1.0, 1.0]), pos_weight=pw, reduction=red
        )
    )
loss = nn.BCEWithLogitsLoss(pos_weight=pw)(z, t)
out(loss.grad_fn.name())
loss.backward()
out(z.grad)
err(lambda: F.binary_cross_entropy_with_logits(z, t[0]))
err(lambda: F.binary_cross_entropy_with_logits(z, torch.tensor([[0, 1, 1], [1, 0, 1]])))
out(F.binary_cross_entropy_with_logits(z, t, pos_weight=torch.tensor(2.0)))
print(nn.BCEWithLogitsLoss(pos_weight=pw), nn.BCELoss(weight=w))
out(list(nn.BCEWithLogitsLoss(pos_weight=pw).state_dict()))
# ---
# loss dtype rules: target dtypes, weight dtypes, empty batches, NaN probabilities
logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]])
probs = torch.tensor([[0.7, 0.2, 0.1], [0.0, 0.5, 0.5]])
err(lambda: F.cross_entropy(logits, torch.tensor([0, 1], dtype=torch.int32)))
err(lambda: F.nll_loss(logits, torch.tensor([0, 1], dtype=torch.int16)))
err(lambda: F.cross_entropy(logits, torch.tensor([True, False])))
out(F.cross_entropy(logits, torch.tensor([0, 1], dtype=torch.uint8)))
out(F.cross_entropy(logits, torch.tensor([0, 1]), label_smoothing=-0.1))
out(F.cross_entropy(logits, probs, label_smoothing=-0.1))
out(F.cross_entropy(logits, torch.tensor([0, 1]), label_smoothing=1.0))
err(lambda: F.cross_entropy(logits, probs, ignore_index=2))
err(
    lambda: F.cross_entropy(logits, torch.tensor([0, 1]), weight=torch.ones(3, dtype=torch.float64))
)
out(F.cross_entropy(logits, probs, weight=torch.ones(3, dtype=torch.float64)))
err(lambda: F.nll_loss(logits.double(), torch.tensor([0, 1]), weight=torch.ones(3)))
err(lambda: F.nll_loss(torch.ones(2, 3, dtype=torch.int64), torch.tensor([0, 1])))
err(lambda: F.cross_entropy(torch.tensor([[1, 2]]), torch.tensor([0])))
out(F.cross_entropy(torch.ones(0, 3), torch.ones(0, dtype=torch.int64)))
out(F.cross_entropy(torch.ones(0, 3), torch.ones(0, dtype=torch.int64), reduction="sum"))
out(F.cross_entropy(torch.ones(0, 3), torch.ones(0, dtype=torch.int64), reduction="none"))
out(F.nll_loss(torch.ones(0, 3, 2), torch.ones(0, 2, dtype=torch.int64), reduction="sum"))
err(lambda: F.mse_loss(torch.tensor([1, 2]), torch.tensor([1, 3])))
err(lambda: F.mse_loss(torch.tensor([True]), torch.tensor([False])))
out(
    F.mse_loss(torch.ones(2), torch.tensor([1, 2])),
    F.mse_loss(torch.ones(2), torch.ones(2).double()),
)
x = torch.tensor([0.5, 0.2])
t = torch.tensor([1.0, 0.0])
err(lambda: F.binary_cross_entropy(x, torch.tensor([1, 0])))
err(lambda: F.binary_cross_entropy(x.double(), t))
err(lambda: F.binary_cross_entropy(x, t.double()))
err(lambda: F.binary_cross_entropy(torch.tensor([float("nan"), 0.2]), t))
err(lambda: F.binary_cross_entropy(x, torch.tensor([float("nan"), 0.0])))
err(lambda: F.binary_cross_entropy(torch.tensor([1, 0]), torch.tensor([1, 0])))
err(lambda: F.binary_cross_entropy(x, t, weight=torch.ones(3)))
out(F.binary_cross_entropy(x, t, weight=torch.ones(2).double()))
xl = torch.tensor([0.5, -0.2], requires_grad=True)
loss = F.binary_cross_entropy_with_logits(xl, t.double())
loss.backward()
out(loss, xl.grad)
out(F.binary_cross_entropy_with_logits(xl.double(), t, reduction="none"))
err(lambda: F.binary_cross_entropy_with_logits(xl, torch.tensor([1, 0])))
err(lambda: F.binary_cross_entropy_with_logits(torch.tensor([1, 0]), t))
out(F.binary_cross_entropy_with_logits(xl, torch.tensor([2.0, -1.0])))
# ---
# hook handles, global module hooks, backward hook errors
lin = nn.Linear(2, 2)
seen = []
h = lin.register_forward_hook(lambda m, a, o: seen.append(1))
with h:
    lin(torch.ones(1, 2))
lin(torch.ones(1, 2))
out(seen, type(h).__name__)
h.remove()
h.remove()
g = nn.modules.module.register_module_forward_hook(lambda m, a, o: seen.append(type(m).__name__))
nn.Sequential(nn.ReLU())(torch.ones(1))
g.remove()
out(seen)
gp = nn.modules.module.register_module_forward_pre_hook(lambda m, a: seen.append("pre"))
nn.Tanh()(torch.ones(1))
gp.remove()
out(seen)
r = nn.ReLU()
r.register_full_backward_hook(lambda m, gi, go: None)
x = torch.ones(2, requires_grad=True)
y = r(x)
out(y.grad_fn.name())
y.sum().backward()
out(x.grad)
lin2 = nn.Linear(2, 2)
lin2.register_full_backward_hook(lambda m, gi, go: (torch.ones(3),))
x = torch.ones(1, 2, requires_grad=True)
err(lambda: lin2(x).sum().backward())
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
# load_state_dict into nested modules: shapes, strict=False, missing buffers, dtype kept
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.BatchNorm1d(2)))
        self.head = nn.ModuleDict({"a": nn.Linear(2, 1)})
        self.register_buffer("scale", torch.tensor(2.0))


src = Net()
dst = Net().double()
with torch.no_grad():
    src.block[0].weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
res = dst.load_state_dict(src.state_dict())
out(dst.block[0].weight, dst.block[0].weight.dtype, res.missing_keys)
sd = src.state_dict()
del sd["scale"]
del sd["block.1.0.num_batches_tracked"]
sd["head.b.weight"] = torch.ones(1)
res = dst.load_state_dict(sd, strict=False)
out(sorted(res.missing_keys), res.unexpected_keys)
err(lambda: dst.load_state_dict(sd))
try:
    dst.load_state_dict(sd)
except RuntimeError as e:
    print(e)
sd = src.state_dict()
sd["block.0.bias"] = torch.ones(3)
try:
    dst.load_state_dict(sd, strict=False)
except RuntimeError as e:
    print(e)
# ---
# empty batches through BatchNorm, and 1-D inputs to nll_loss/cross_entropy
bn = nn.BatchNorm1d(3)
x = torch.ones(0, 3, requires_grad=True)
y = bn(x)
out(y, y.grad_fn.name(), bn.running_mean, bn.running_var, bn.num_batches_tracked)
y.sum().backward()
out(x.grad, bn.weight.grad)
err(lambda: nn.BatchNorm1d(0)(torch.ones(2, 0)))
out(nn.BatchNorm2d(2, affine=False)(torch.ones(0, 2, 3, 3)))
lp = torch.tensor([-1.0, -2.0, -3.0])
for t in [torch.tensor([1]), torch.tensor(2)]:
    out(F.nll_loss(lp, t), F.nll_loss(lp, t, reduction="none"), F.cross_entropy(lp, t))
err(lambda: F.nll_loss(lp, torch.tensor([0, 1])))
err(lambda: F.cross_entropy(lp, torch.tensor([0, 1])))
# ---
# state_dict/load_state_dict hooks, extra state, and to() with devices
lin = nn.Linear(1, 1)
lin.register_state_dict_pre_hook(lambda mod, prefix, keep_vars: print("pre", prefix, keep_vars))


def post(mod, sd, prefix, local_metadata):
    sd[prefix + "extra"] = torch.zeros(1)


lin.register_state_dict_post_hook(post)
out(list(lin.state_dict(prefix="p.")))


def load_pre(mod, sd, prefix, *args):
    sd[prefix + "bias"] = torch.full((1,), 5.0)


lin2 = nn.Linear(1, 1)
lin2.register_load_state_dict_pre_hook(load_pre)
lin2.load_state_dict({"weight": torch.ones(1, 1)})
out(lin2.bias)


def load_post(mod, incompatible):
    print("post", incompatible.missing_keys, incompatible.unexpected_keys)
    incompatible.unexpected_keys.clear()


lin3 = nn.Linear(1, 1)
lin3.register_load_state_dict_post_hook(load_post)
print(
    lin3.load_state_dict({"weight": torch.ones(1, 1), "bias": torch.ones(1), "zz": torch.ones(1)})
)


class Ex(nn.Module):
    def __init__(self):
        super().__init__()
        self.v = 3
        self.lin = nn.Linear(1, 1)

    def get_extra_state(self):
        return {"v": self.v}

    def set_extra_state(self, state):
        self.v = state["v"]


a = Ex()
a.v = 7
sd = a.state_dict()
b = Ex()
b.load_state_dict(sd)
out(list(sd), b.v)
del sd["_extra_state"]
err(lambda: b.load_state_dict(sd))
out(b.load_state_dict(sd, strict=False).missing_keys)
outer = nn.Sequential(Ex())
out(list(outer.state_dict()))
err(lambda: nn.Module().get_extra_state())
m = nn.Linear(1, 1)
err(lambda: m.to("cuda"))
err(lambda: m.to(device="cuda:0"))
out(
    m.to("cpu") is m,
    m.to(torch.device("cpu"), torch.float64).weight.dtype,
    m.to("cpu", torch.float32).weight.dtype,
)
# ---
# init argument errors, sparse_ structure, gains
err(lambda: nn.init.uniform_(torch.empty(3), 1, 0))
err(lambda: nn.init.normal_(torch.empty(3), 0, -1))
err(lambda: torch.empty(3).uniform_(2.0, 1.0))
err(lambda: torch.normal(torch.zeros(2), torch.tensor([1.0, -1.0])))
err(lambda: torch.normal(0.0, -1.0, (2,)))
out((nn.init.sparse_(torch.empty(10, 4), 0.5) == 0).sum(0))
err(lambda: nn.init.sparse_(torch.empty(3), 0.5))
out(
    [
        nn.init.calculate_gain(n)
        for n in ["conv1d", "conv2d", "conv3d", "conv_transpose2d", "sigmoid"]
    ]
)
out(nn.init.calculate_gain("leaky_relu", None), nn.init.calculate_gain("leaky_relu", 1))
t = torch.zeros(2, requires_grad=True)
r = nn.init.ones_(t)
out(r, r.grad_fn, t._version)
out(
    nn.init.zeros_(torch.ones(2, dtype=torch.int64)),
    nn.init.constant_(torch.ones(2, dtype=torch.int64), 2.7),
)
err(lambda: nn.init.kaiming_uniform_(torch.empty(0, 3)))
# ---
# integer convolutions, bool refused
out(F.conv1d(torch.arange(5).reshape(1, 1, 5), torch.tensor([[[1, -1]]])))
out(
    F.conv2d(
        torch.ones(1, 1, 3, 3, dtype=torch.int32),
        torch.ones(1, 1, 2, 2, dtype=torch.int32),
        padding=1,
    )
)
out(
    F.conv_transpose2d(
        torch.ones(1, 1, 2, 2, dtype=torch.int64),
        torch.ones(1, 1, 2, 2, dtype=torch.int64),
        stride=2,
    )
)
out(
    F.conv2d(
        torch.ones(1, 1, 3, 3, dtype=torch.uint8),
        torch.ones(1, 1, 2, 2, dtype=torch.uint8),
        bias=torch.tensor([3], dtype=torch.uint8),
    )
)
err(lambda: F.conv2d(torch.ones(1, 1, 3, 3, dtype=torch.int64), torch.ones(1, 1, 2, 2)))
err(
    lambda: F.conv2d(
        torch.ones(1, 1, 3, 3, dtype=torch.bool), torch.ones(1, 1, 2, 2, dtype=torch.bool)
    )
)
# ---
# ConvTranspose2d with output_padding >= stride (allowed below dilation)
ct = nn.ConvTranspose2d(1, 1, (3, 2), stride=1, padding=1, output_padding=1, dilation=2, bias=False)
with torch.no_grad():
    ct.weight.copy_(torch.arange(6.0).reshape(1, 1, 3, 2))
x = torch.arange(9.0).reshape(1, 1, 3, 3).requires_grad_()
y = ct(x)
out(y)
(y * y).sum().backward()
out(x.grad, ct.weight.grad)
err(
    lambda: nn.ConvTranspose2d(1, 1, 3, stride=1, output_padding=2, dilation=2)(
        torch.ones(1, 1, 3, 3)
    )
)
# ---
# full backward hooks and in-place layers; custom Functions returning inputs as-is
relu = nn.ReLU(inplace=True)
relu.register_full_backward_hook(lambda *a: None)
x = torch.ones(2, requires_grad=True)
err(lambda: relu(x * 1))
out(nn.ReLU(inplace=True)(x * 1).grad_fn.name())


class Same(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a

    @staticmethod
    def backward(ctx, g):
        return g


y = Same.apply(x * 1)
out(y.grad_fn.name())
err(lambda: y.mul_(2))
z = Same.apply(x * 1).clone()
z.mul_(2)
z.sum().backward()
out(x.grad)
with torch.no_grad():
    w = Same.apply(x * 1)
    w.mul_(3)
out(w)
# ---
# ParameterDict as torch: sorted plain dicts, get/setdefault/copy/popitem/|, key checks
pd = nn.ParameterDict({"b": torch.ones(1), "a": torch.zeros(2)})
out(list(pd), [n for n, _ in pd.named_parameters()])
pd.update([("d", torch.ones(3)), ("c", torch.ones(1))])
out(list(pd), type(pd.get("zz", 5)).__name__, pd.get("a"))
out(pd.setdefault("e", torch.ones(4)).shape, list(pd))
out(pd.popitem()[0], list(pd))
c = pd.copy()
out(type(c).__name__, c["a"] is pd["a"], list(reversed(pd)))
m = pd | nn.ParameterDict({"z": torch.ones(1)})
out(list(m), list(pd))
pd |= {"y": torch.ones(1)}
out(list(pd))
err(lambda: pd[1])
err(lambda: pd.__setitem__(2, torch.ones(1)))
err(lambda: pd.update(5))
err(lambda: pd.update([("a", torch.ones(1), 3)]))
err(lambda: pd.update([5]))
err(lambda: print(pd))  # the int key stays listed in torch too, and printing fails
# ---
# weighted mse_loss / l1_loss (torch 2.13), modules(remove_duplicate=False)
x = torch.tensor([[1.0, 2.0], [3.0, 5.0]], requires_grad=True)
t = torch.tensor([[0.0, 2.5], [3.0, 1.0]])
w = torch.tensor([[1.0, 2.0], [0.5, 0.0]])
for red in ["mean", "sum", "none"]:
    out(F.mse_loss(x, t, reduction=red, weight=w), F.l1_loss(x, t, reduction=red, weight=w))
err(lambda: F.mse_loss(x, t, weight=torch.ones(2)))
err(lambda: F.l1_loss(x, t, weight=w, reduction="avg"))
F.mse_loss(x, t, weight=w).backward()
out(x.grad)
relu = nn.ReLU()
s = nn.Sequential(relu, relu)
out(len(list(s.modules(remove_duplicate=False))), len(list(s.modules())))
# ---
# every target ignored: the mean loss is nan, its gradient zero
x = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, 0.0]], requires_grad=True)
for kw in [dict(), dict(weight=torch.tensor([1.0, 2.0, 3.0])), dict(label_smoothing=0.2)]:
    y = F.cross_entropy(x, torch.tensor([-100, -100]), **kw)
    x.grad = None
    y.backward()
    out(y, x.grad)
v = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = F.nll_loss(v, torch.tensor(1), ignore_index=1)
y.backward()
out(y, v.grad)

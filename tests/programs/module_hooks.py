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

# retain_grad on intermediates, is_leaf for every kind of tensor, requires_grad propagation
a = torch.rand(10, requires_grad=True)
print(a.is_leaf)
b = torch.rand(10, requires_grad=True) + 2
print(b.is_leaf, b.requires_grad)
c = torch.rand(10).requires_grad_()
print(c.is_leaf)
d = torch.rand(10, dtype=torch.float64).to(torch.float32)
print(d.is_leaf, d.requires_grad)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.retain_grad()
z = (y**2).sum()
z.backward()
print(y.grad, x.grad, y.retains_grad, x.retains_grad)
w = x.detach()
print(w.is_leaf, w.requires_grad, w.grad_fn)
err(lambda: y.grad_fn.next_functions[0][0].variable.grad)
out(y.grad, x.grad, z)
# ---
# Tensor hooks: register_hook rewrites the gradient, removal, hooks on leaves and intermediates
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
seen = []
h1 = x.register_hook(lambda g: g * 2)
y = x.exp()
h2 = y.register_hook(lambda g: seen.append(g.clone()))
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(seen[0], x.grad)
h1.remove()
h2.remove()
x.grad = None
(x.exp() * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad, len(seen))
err(lambda: torch.randn(3).register_hook(lambda g: g))
out(x.grad, seen[0])
# ---
# torch.autograd.grad: grad_outputs for a vector output, allow_unused, retain_graph, create_graph
x = torch.tensor([0.5, 1.5, -1.0], requires_grad=True)
u = torch.tensor(2.0, requires_grad=True)
y = x**3
(gx,) = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), retain_graph=True)
print(gx)
gx2, gu = torch.autograd.grad(y.sum(), (x, u), allow_unused=True, retain_graph=True)
print(gx2, gu)
gx3, gu3 = torch.autograd.grad(
    y.sum(), (x, u), allow_unused=True, materialize_grads=True, retain_graph=True
)
print(gu3)
err(lambda: torch.autograd.grad(y.sum(), (x, u), retain_graph=True))
err(lambda: torch.autograd.grad(y, x))
(g,) = torch.autograd.grad(y, x, torch.tensor([1.0, 0.5, 2.0]), create_graph=True)
print(g.requires_grad, g.grad_fn.name())
(gg,) = torch.autograd.grad(g.sum(), x)
print(gg)
out(gx, gx2, gu3, g, gg)
# ---
# In-place correctness checks: a saved tensor modified after use fails backward; version counters
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.sigmoid()
c = b * 2
print(b._version)
b.mul_(3)
print(b._version)
err(lambda: c.sum().backward())
e = a.clone()
f = e**2
e.add_(1)
err(lambda: f.sum().backward())
g = a.clone()
h = g * 3
g.add_(1)
h.sum().backward()
print(a.grad)
leaf = torch.ones(2, requires_grad=True)
err(lambda: leaf.add_(1))
with torch.no_grad():
    leaf.add_(1)
print(leaf, leaf.is_leaf)
out(a.grad, leaf)
# ---
# saved_tensors_hooks: pack to a numpy copy and back, counting what a graph saves
packed = []


def pack_hook(t):
    packed.append(tuple(t.shape))
    return t.detach().numpy().copy()


def unpack_hook(arr):
    return torch.from_numpy(arr)


x = torch.randn(4, requires_grad=True)
w = torch.randn(4, 3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = (x @ w).tanh()
    z = (y * y).sum()
z.backward()
print(sorted(packed))
x2 = x.detach().clone().requires_grad_()
w2 = w.detach().clone().requires_grad_()
((x2 @ w2).tanh() ** 2).sum().backward()
print(torch.allclose(x.grad, x2.grad), torch.equal(w.grad, w2.grad))
with torch.autograd.graph.save_on_cpu():
    q = (x * w.sum(1)).exp().sum()
q.backward()
out(x.grad, w.grad)
# ---
# Saved values on graph nodes: Python numbers given for tensor arguments are saved as tensors
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
m = x * 2
d = x / 4.0
b = x * True
p = x.pow(3)
c = x.clamp(min=0.5)
print(m.grad_fn._saved_other, d.grad_fn._saved_other, b.grad_fn._saved_other)
print(p.grad_fn._saved_exponent, c.grad_fn._saved_min, c.grad_fn._saved_max)
print((x * x).grad_fn._saved_other is x, m.grad_fn._saved_other.dtype)
out(m.grad_fn._saved_other, d.grad_fn._saved_other, b.grad_fn._saved_other)
# ---
# Printing grad_fn: built-in nodes and custom Function nodes (addresses masked), type names
import re


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


x = torch.ones(2, requires_grad=True)
y = Double.apply(x)
z = y.exp()
for node in (y.grad_fn, z.grad_fn, z.grad_fn.next_functions[0][0]):
    print(re.sub(r"0x[0-9a-f]+", "0x?", repr(node)), type(node).__name__, node.name())
print(type(y.grad_fn).__module__.replace("numtorch", "torch"), type(y.grad_fn).__qualname__)
out(y, z)

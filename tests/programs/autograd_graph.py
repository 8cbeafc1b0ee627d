# graph structure: next_functions, AccumulateGrad, variable, name, callable nodes
A = torch.tensor([2.0], requires_grad=True)
B = torch.tensor([3.0], requires_grad=True)
E = torch.tensor([1.0], requires_grad=True)
C = A * B
D = C.exp()
F = D + E
out([t.is_leaf for t in (A, B, C, D, E, F)], F.grad_fn.name(), type(F.grad_fn).__name__)
nf = F.grad_fn.next_functions
out(
    len(nf),
    nf[0][0].name(),
    nf[0][1],
    nf[1][0].name(),
    nf[1][0].variable is E,
    type(nf[1][0]).__name__,
)
out(C.grad_fn.next_functions[0][0].variable is A, D.grad_fn.next_functions[0][0] is C.grad_fn)
g = F.grad_fn(torch.tensor([1.0]))
out(g)
out(D.grad_fn(torch.tensor([2.0])), C.grad_fn(torch.tensor([1.0])))
x = torch.tensor(1.0, requires_grad=True)
y = x * 2 + torch.tensor(3.0)
out(
    [(None if n is None else n.name(), i) for n, i in y.grad_fn.next_functions],
    (x * 2).grad_fn.next_functions[1],
)
print(
    [(None if n is None else n.name(), i) for n, i in y.grad_fn.next_functions[0][0].next_functions]
)
out(A.grad_fn, torch.tensor(1.0).grad_fn, (A.detach() * 2).grad_fn)
z = A + 1
out(z.grad_fn.next_functions[0][0].name(), len(z.grad_fn.next_functions))
w = A.sum() + B.sum()
out(w.grad_fn.name(), [n[0].name() for n in w.grad_fn.next_functions])
F.backward()
out(A.grad, B.grad, E.grad, C.grad, D.grad)
# ---
# graph that saved nothing can be run twice; freed graph message names node
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x + 1).sum()
y.backward()
y.backward()
out(x.grad)
z = (x * x).sum()
z.backward()
try:
    z.backward()
except RuntimeError as e:
    print(str(e).split(".")[0])
w = x.exp().sum()
w.backward(retain_graph=False)
err(lambda: w.backward())
u = x.sin()
v = u.sum()
torch.autograd.grad(v, x)
err(lambda: torch.autograd.grad(v, x))
# ---
# grad_fn on various ops names
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
names = [
    (x + 1).grad_fn.name(),
    (1 + x).grad_fn.name(),
    (x - 1).grad_fn.name(),
    (1 - x).grad_fn.name(),
    (x * 2).grad_fn.name(),
    (x / 2).grad_fn.name(),
    (2 / x).grad_fn.name(),
    (x**2).grad_fn.name(),
    (2**x).grad_fn.name(),
    (x**x).grad_fn.name(),
    (-x).grad_fn.name(),
    x.sum().grad_fn.name(),
    x.sum(0).grad_fn.name(),
    x.mean().grad_fn.name(),
    x.mean(1).grad_fn.name(),
    x.prod().grad_fn.name(),
    x.prod(0).grad_fn.name(),
    x.var().grad_fn.name(),
    x.std(0).grad_fn.name(),
    x.max().grad_fn.name(),
    x.max(0)[0].grad_fn.name(),
    x.amax(0).grad_fn.name(),
    x.logsumexp(0).grad_fn.name(),
    x.norm().grad_fn.name(),
    x.norm(dim=0).grad_fn.name(),
    (x @ x).grad_fn.name(),
    x.mm(x).grad_fn.name(),
    x[0].dot(x[1]).grad_fn.name(),
    torch.outer(x[0], x[1]).grad_fn.name(),
    torch.addmm(x, x, x).grad_fn.name(),
    x.view(4).grad_fn.name(),
    x.reshape(4).grad_fn.name(),
    x.flatten().grad_fn.name(),
    x.permute(1, 0).grad_fn.name(),
    x.squeeze().grad_fn.name(),
    x.unsqueeze(0).grad_fn.name(),
    x.expand(2, 2, 2).grad_fn.name(),
    torch.cat([x, x]).grad_fn.name(),
    torch.stack([x, x]).grad_fn.name(),
    x[0].grad_fn.name(),
    x[:, 0].grad_fn.name(),
    x[[0, 1]].grad_fn.name(),
    x[x > 1].grad_fn.name(),
    x.gather(0, torch.tensor([[0, 1]])).grad_fn.name(),
    x.index_select(0, torch.tensor([1])).grad_fn.name(),
    x.masked_fill(x > 2, 0).grad_fn.name(),
    torch.where(x > 2, x, 0.0).grad_fn.name(),
    x.clamp(0, 1).grad_fn.name(),
    x.clamp(min=torch.zeros(2)).grad_fn.name(),
    x.clamp_min(1).grad_fn.name(),
    torch.maximum(x, x.t()).grad_fn.name(),
    x.abs().grad_fn.name(),
    x.sign().grad_fn.name(),
    x.relu().grad_fn.name(),
    x.sigmoid().grad_fn.name(),
    x.tanh().grad_fn.name(),
    x.rsqrt().grad_fn.name(),
    x.reciprocal().grad_fn.name(),
    x.log1p().grad_fn.name(),
    x.softmax(0).grad_fn.name(),
    x.log_softmax(1).grad_fn.name(),
    x.clone().grad_fn.name(),
    x.double().grad_fn.name(),
    x.t().contiguous().grad_fn.name(),
    x.view_as(x).grad_fn.name(),
    x.expand_as(x).grad_fn.name(),
    x.T.grad_fn.name(),
    x.split(1)[0].grad_fn.name(),
    x.chunk(2, 1)[0].grad_fn.name(),
    x.detach().requires_grad_().grad_fn,
    x.pow(torch.tensor(2.0)).grad_fn.name(),
    torch.pow(2.0, x).grad_fn.name(),
    x.sqrt().grad_fn.name(),
    x.exp().grad_fn.name(),
    x.min().grad_fn.name(),
    x.min(1).values.grad_fn.name(),
    x.amin(1).grad_fn.name(),
    x.std().grad_fn.name(),
    x.var(0).grad_fn.name(),
    x.clip(0, 1).grad_fn.name(),
    torch.minimum(x, x).grad_fn.name(),
    x.matmul(x[0]).grad_fn.name(),
    torch.bmm(x[None], x[None]).grad_fn.name(),
    x.sum(dtype=torch.float64).grad_fn.name(),
    x.float().grad_fn,
    (x + x).grad_fn.name(),
    x.add(x, alpha=2).grad_fn.name(),
    x.sub(x, alpha=2).grad_fn.name(),
    x.mul(2).grad_fn.name(),
    x.div(2, rounding_mode=None).grad_fn.name(),
    x.true_divide(2).grad_fn.name(),
    x.square().grad_fn.name(),
]
out(names)
# ---
# next_functions with scalars and non-requiring inputs
x = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([3.0, 4.0])


def nf(t):
    return [(None if n is None else n.name(), i) for n, i in t.grad_fn.next_functions]


out(
    nf(x * c),
    nf(c * x),
    nf(x * 2),
    nf(x + c),
    nf(x.sum()),
    nf(torch.cat([x, c])),
    nf(torch.stack([c, x, c])),
)
out(
    nf(torch.where(c > 3, x, c)),
    nf(x.clamp(0, 1)),
    nf(x @ c),
    nf(torch.addmm(c, x[None].t(), x[None])),
)
out(
    nf(x.max(0)[0]), nf(x[torch.tensor([0])]), nf(x.masked_fill(c > 3, 1.0)), nf(x.pow(2)), nf(2**x)
)
a, b = x.split(1)
out(nf(a), nf(b), a.grad_fn is b.grad_fn, a.grad_fn.next_functions[0][0] is x.grad_fn)
# ---
# Node attributes: _saved tensors, metadata, name, isinstance Node
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * torch.tensor([3.0, 4.0])
out(y.grad_fn._saved_self, y.grad_fn._saved_other)
z = x.exp()
out(z.grad_fn._saved_result)
p = x.pow(3)
out(p.grad_fn._saved_self, p.grad_fn._saved_exponent)
s = x.sum(0, keepdim=True)
out(s.grad_fn._saved_dim, s.grad_fn._saved_keepdim, s.grad_fn._saved_self_sym_sizes)
out(
    isinstance(y.grad_fn, torch.autograd.graph.Node),
    isinstance(x.grad_fn, torch.autograd.graph.Node),
)
out(y.grad_fn.metadata, type(y.grad_fn.metadata).__name__)
y.grad_fn.metadata["k"] = 1
out(y.grad_fn.metadata)
e = x.exp()
e.sum().backward()
err(lambda: e.grad_fn._saved_result)

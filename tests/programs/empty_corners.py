# matmul and linear with an inner size of 0 give zeros (or the bias)
for sa, sb in [((4, 2, 0), (0, 3)), ((4, 2, 0), (0,)), ((2, 0), (0, 3)), ((0,), (0,))]:
    a = torch.ones(sa, requires_grad=True)
    b = torch.ones(sb, requires_grad=True)
    y = a @ b
    out(y, torch.autograd.grad(y.sum(), [a, b]))
for batch in [(), (5,), (5, 2)]:
    x = torch.ones(*batch, 0, requires_grad=True)
    w = torch.ones(3, 0, requires_grad=True)
    bias = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = F.linear(x, w, bias)
    out(y, torch.autograd.grad(y.sum(), [x, w, bias]))
# ---
# an empty leaf skipped by cat, gather with an empty index, inner on N-D tensors
a = torch.ones(0, requires_grad=True)
b = torch.ones(2, requires_grad=True)
torch.cat([a, b]).sum().backward()
out(a.grad, b.grad)
x = torch.ones(2, 3, requires_grad=True)
y = torch.gather(x, 0, torch.zeros(0, dtype=torch.long))
y.sum().backward()
out(y, x.grad, torch.gather(torch.ones(2, 3), 1, torch.zeros(2, 0, dtype=torch.long)))
p = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
q = torch.arange(20.0).reshape(5, 4).requires_grad_()
y = torch.inner(p, q)
out(y, torch.autograd.grad(y.sum(), [p, q]), torch.inner(torch.ones(2, 4), torch.tensor(2.0)))
err(lambda: torch.inner(torch.ones(2, 4), torch.ones(3)))
# ---
# in place through views: an expand that repeats nothing; second order through CopySlices
x = torch.arange(3.0)
x.unsqueeze(0).expand(1, 3).flatten().exp_()
out(x)
err(lambda: torch.arange(3.0).unsqueeze(0).expand(2, 3).exp_())
x = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64, requires_grad=True)
y = x * 2
y[1].exp_()
(g,) = torch.autograd.grad(y.sin().sum(), x, create_graph=True)
out(g, torch.autograd.grad(g.sin().sum(), x))

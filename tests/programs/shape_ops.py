# views and shape ops
x = torch.arange(12.0, requires_grad=True)
y = x.view(3, 4)
out(
    y,
    y.view(-1, 2).shape,
    x.view(2, -1, 3).shape,
    y.reshape(4, 3).shape,
    y.view_as(torch.zeros(6, 2)).shape,
)
err(lambda: x.view(5, -1))
err(lambda: x.view(-1, -1))
err(lambda: y.t().view(12))
out(
    y.t().reshape(12),
    y.t().reshape(12).grad_fn.name(),
    y.reshape(12).grad_fn.name(),
    y.flatten().grad_fn.name(),
)
out(
    y.flatten(),
    torch.flatten(torch.zeros(2, 3, 4), 1).shape,
    torch.zeros(2, 3, 4).flatten(0, 1).shape,
    torch.tensor(1.0).flatten().shape,
    torch.zeros(2, 3, 4).flatten(-2).shape,
)
out(
    y.permute(1, 0).shape,
    y.permute(-1, 0).grad_fn.name(),
    y.transpose(0, 1).grad_fn.name(),
    y.t().grad_fn.name(),
    y.T.grad_fn.name(),
)
err(lambda: y.permute(0, 0))
err(lambda: y.permute(0))
err(lambda: torch.zeros(2, 3, 4).t())
out(y.unsqueeze(0).shape, y.unsqueeze(-1).shape, y.unsqueeze(2).shape, y.unsqueeze(-3).shape)
err(lambda: y.unsqueeze(3))
z = torch.zeros(1, 3, 1, requires_grad=True)
out(
    z.squeeze().shape,
    z.squeeze(0).shape,
    z.squeeze(1).shape,
    z.squeeze(-1).shape,
    z.squeeze((0, 2)).shape,
    z.squeeze().grad_fn.name(),
    z.squeeze(0).grad_fn.name(),
)
out(
    z.expand(2, 3, 4).shape,
    z.expand(-1, -1, 5).shape,
    z.expand(2, 1, 3, 1).shape,
    z.expand_as(torch.zeros(4, 3, 2)).shape,
    z.expand(2, 3, 4).grad_fn.name(),
)
err(lambda: z.expand(2, 4, 1))
err(lambda: z.expand(3, 1))
(y.t().reshape(12) * torch.arange(12.0)).sum().backward()
out(x.grad)
x.grad = None
z.expand(2, 3, 4).sum().backward()
out(z.grad)
# ---
# cat stack split chunk
a = torch.ones(2, 3, requires_grad=True)
b = torch.zeros(1, 3, requires_grad=True)
c = torch.cat([a, b])
d = torch.cat((a, a), dim=-1)
out(c, d.shape, c.grad_fn.name(), torch.cat([a, torch.zeros(0)]).shape, torch.cat([a]).shape)
err(lambda: torch.cat([a, torch.zeros(2, 2)]))
err(lambda: torch.cat([]))
err(lambda: torch.cat([a, b], dim=2))
out(
    torch.cat([torch.tensor([1]), torch.tensor([1.5])]),
    torch.cat([torch.tensor([True]), torch.tensor([2])]),
)
s = torch.stack([a, a * 2], 1)
out(
    s.shape,
    s.grad_fn.name(),
    torch.stack([a, a], -1).shape,
    torch.stack([torch.tensor(1.0), torch.tensor(2.0)]),
)
err(lambda: torch.stack([a, b]))
err(lambda: torch.stack([]))
(c.sum() + (s * torch.arange(12.0).view(2, 2, 3)).sum()).backward()
out(a.grad, b.grad)
x = torch.arange(10.0, requires_grad=True)
p = x.split(3)
q = torch.split(x, [2, 8])
r = x.chunk(3)
t = x.chunk(4)
out(
    p,
    q,
    r,
    t,
    len(torch.arange(5.0).chunk(10)),
    [u.grad_fn.name() for u in p],
    [u.grad_fn.name() for u in q],
)
err(lambda: x.split([2, 2]))
err(lambda: x.chunk(0))
(p[0].sum() * 2 + q[1].sum() + r[2].sum() * 3).backward()
out(x.grad)
out(
    torch.zeros(0).split(2),
    torch.zeros(0).chunk(2),
    torch.zeros(4, 6).split(4, 1)[1].shape,
    torch.zeros(5).split(0) if False else 1,
)
# ---
# shape op errors and odd arguments
x = torch.arange(6.0).view(2, 3)
err(lambda: x.t().view(6))
err(lambda: x.view(4, 2))
err(lambda: x.reshape(-1, 4))
err(lambda: x.expand(-1, 2, 3))
out(x.expand(4, -1, -1).shape)
err(lambda: x.expand(2))
out(x.squeeze(0).shape, x.squeeze(-1).shape, x.unsqueeze(-3).shape)
err(lambda: x.unsqueeze(-4))
err(lambda: x.squeeze(2))
out(x.permute(-1, -2).shape, x.transpose(1, 1).shape, x.transpose(-1, 0).shape)
err(lambda: x.permute(0, 2))
err(lambda: x.flatten(1, 0))
out(x.flatten(1, 1).shape, x.flatten(-1, -1).shape, torch.tensor(5.0).flatten(0, -1).shape)
err(lambda: torch.cat([torch.tensor(1.0), torch.tensor(2.0)]))
err(lambda: torch.cat([x, x], dim=-3))
err(lambda: torch.stack([x, x], dim=3))
out(torch.stack([x, x], dim=-3).shape, torch.stack([x, x], 2).shape)
err(lambda: x.split([1, 1], 0) and x.split([1, 1, 1], 0))
err(lambda: x.split([2, 2], 1))
out(
    [t.shape for t in x.split([0, 3], 1)],
    [t.shape for t in x.split(5, 1)],
    [t.shape for t in torch.split(x, 1)],
)
err(lambda: x.split(-1))
err(lambda: x.chunk(-2))
out(x.index_select(1, torch.tensor([-1])) if False else 1)
err(lambda: x.index_select(1, torch.tensor([3])))
err(lambda: x.gather(1, torch.tensor([[-1]])))
err(lambda: x.masked_fill(torch.ones(2, 2, 3, dtype=torch.bool), 0.0))
out(x.masked_fill(torch.tensor(True), 1.0), x.masked_fill(torch.tensor([[True], [False]]), 9.0))
err(lambda: x.view(-1, 0))
err(lambda: torch.zeros(0, 3).view(0, -1).shape)
err(lambda: torch.zeros(0, 3).view(-1, 0))
out(
    x.reshape(()) if False else x.view(6).shape,
    torch.tensor([5.0]).view(()).shape,
    torch.tensor([5.0]).reshape([]).shape,
)
out(
    x.view(torch.Size([3, 2])).shape,
    x.view([3, 2]).shape,
    x.reshape((3, -1)).shape,
    x.view(3, 2).stride(),
    x.t().stride(),
)
err(lambda: x.view(2.0, 3))
err(lambda: x.reshape(2, None))
# ---
# 0-d tensors through dim-taking ops
s = torch.tensor(2.0, requires_grad=True)
for f in [
    lambda: s.sum(0),
    lambda: s.mean(-1),
    lambda: s.amax(0),
    lambda: s.max(0),
    lambda: s.min(-1, keepdim=True),
    lambda: s.var(0),
    lambda: s.std(0, correction=0),
    lambda: s.logsumexp(0),
    lambda: s.norm(dim=0),
    lambda: s.prod(0),
    lambda: s.argmax(0),
    lambda: s.softmax(0),
    lambda: s.log_softmax(-1),
    lambda: s.cumsum(0),
    lambda: s.transpose(0, -1),
    lambda: s.flip(0),
    lambda: s.sort(0),
    lambda: s.argsort(),
    lambda: s.topk(1),
    lambda: s.sum((0, -1)),
    lambda: s.sum(1),
    lambda: s.narrow(0, 0, 1),
    lambda: s.split(1),
    lambda: s.chunk(1),
    lambda: s.squeeze(0),
    lambda: s.unsqueeze(-1),
    lambda: s.flatten(-1),
]:
    err(f)
y = (
    s.sum(0)
    + s.amax(0)
    + s.max(0).values
    + s.logsumexp(0)
    + s.cumsum(0)
    + s.sort(0).values
    + s.topk(1).values
    + s.norm(dim=0)
    + s.prod(0)
)
y.backward()
out(s.grad)
# ---
# repeat_interleave
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
a = x.repeat_interleave(2)
b = torch.repeat_interleave(x, 3, dim=1)
c = x.repeat_interleave(torch.tensor([1, 0, 2]), dim=-1)
d = x.repeat_interleave(torch.tensor(2), dim=0)
e = x.repeat_interleave(torch.tensor([3]), dim=1, output_size=9)
(a.sum() + (b * b).sum() + c.sum() * 2 + d.sum() + e.sum()).backward()
out(a, b, c, d, e, x.grad, a._is_view(), c._is_view())
out(torch.repeat_interleave(torch.tensor([2, 0, 3])), torch.tensor([1, 2]).repeat_interleave(2))
out(torch.tensor(5.0).repeat_interleave(3), torch.tensor([[1, 2]]).repeat_interleave(2, dim=0))
out(torch.repeat_interleave(torch.tensor([1, 2]), output_size=3))
err(lambda: x.repeat_interleave(torch.tensor([1.0, 2.0, 0.0]), dim=1))
err(lambda: x.repeat_interleave(torch.tensor([1, 2]), dim=1))
err(lambda: x.repeat_interleave(torch.tensor([1, -2, 1]), dim=1))
err(lambda: x.repeat_interleave(torch.tensor([[1, 2, 1]]), dim=1))
err(lambda: x.repeat_interleave(-1))
err(lambda: torch.repeat_interleave(torch.tensor([1.0, 2.0])))
err(lambda: torch.repeat_interleave(torch.tensor([[1, 2]])))
err(lambda: torch.repeat_interleave(torch.tensor([1, 2]), output_size=4))
err(lambda: x.repeat_interleave(2, dim=2))
# ---
# atleast_nd, column_stack, dstack, hstack/vstack/row_stack
s = torch.tensor(2.0, requires_grad=True)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
m = torch.ones(2, 3, requires_grad=True)
out(torch.atleast_1d(s), torch.atleast_1d(v), torch.atleast_1d(s, v), torch.atleast_1d([s, m]))
out(torch.atleast_2d(s), torch.atleast_2d(v), torch.atleast_2d(m), torch.atleast_2d((s,)))
out(torch.atleast_3d(s), torch.atleast_3d(v), torch.atleast_3d(m), torch.atleast_3d(m[None]))
out(torch.atleast_1d(), torch.atleast_1d(v) is v, torch.atleast_3d(s)._is_view())
out(torch.column_stack([v, v * 2]), torch.column_stack((s, s)), torch.column_stack([m.t(), v]))
out(torch.dstack([v, v]), torch.dstack([m, m, m]), torch.dstack((s, s)))
out(torch.hstack([s, v]), torch.hstack([m, m]), torch.vstack([s, s]), torch.vstack([v, m]))
out(torch.row_stack([v, v]), torch.hstack([torch.tensor([1]), torch.tensor([2.5])]))
y = (
    torch.column_stack([v, v * 2]).sum()
    + torch.dstack([m, m]).sum()
    + torch.vstack([v, m]).sum() * s
)
y.backward()
out(v.grad, m.grad, s.grad)
for name in ["hstack", "vstack", "dstack", "column_stack", "row_stack"]:
    err(lambda: getattr(torch, name)([]))
    err(lambda: getattr(torch, name)(v))
err(lambda: torch.column_stack([v, torch.ones(2)]))
# ---
# hsplit, vsplit, dsplit, tensor_split, split_with_sizes
x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
y = x * 1
out(torch.hsplit(y, 3), y.vsplit([1]), y.dsplit(2), torch.dsplit(y, [1, 3]))
out(torch.hsplit(y[0, 0], 2), torch.hsplit(y[0], [1, 2]), y[0].hsplit(torch.tensor([1])))
out(y.tensor_split(3, dim=2), y.tensor_split([1, 5], dim=-1), y.tensor_split(torch.tensor(2)))
out(torch.tensor_split(torch.arange(7), torch.tensor([2, 3])), torch.arange(5).tensor_split(2))
out(y.split_with_sizes([1, 2], dim=1), torch.split_with_sizes(y, [4], dim=-1))
parts = y.tensor_split(2, dim=2)
parts[0].mul_(2)
(parts[0].sum() + y.hsplit([2])[1].sum() * 3).backward()
out(parts[0], x.grad)
err(lambda: torch.hsplit(y, 2))
err(lambda: torch.hsplit(torch.tensor(1.0), 1))
err(lambda: torch.vsplit(torch.ones(3), 1))
err(lambda: torch.dsplit(torch.ones(2, 2), 1))
err(lambda: y.tensor_split(0))
err(lambda: y.tensor_split(torch.tensor([1.0])))
err(lambda: y.tensor_split(torch.tensor([[1]])))
err(lambda: y.split_with_sizes([1, 1]))
sizes = y.split_with_sizes([1, 1], dim=0)
err(lambda: sizes[0].mul_(2))
# ---
# ravel, msort, narrow_copy
x = torch.tensor([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]], requires_grad=True)
r = x.ravel()
rt = torch.ravel(x.t())
ms = x.msort()
n = x.narrow_copy(1, 1, 2)
(r * torch.arange(6.0)).sum().backward(retain_graph=True)
(rt * torch.arange(6.0)).sum().backward()
out(r, rt, r._is_view(), rt._is_view(), x.grad)
x.grad = None
(ms * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
out(ms, x.grad, torch.msort(torch.tensor([[3, 1], [1, 2]])), x[0].msort())
x.grad = None
(n * 2).sum().backward()
out(n, torch.narrow_copy(x, 0, 1, 1), x.narrow_copy(-1, -2, 2), x.grad, n._is_view())
err(lambda: x.narrow_copy(1, 3, 2))
err(lambda: x.narrow_copy(2, 0, 1))

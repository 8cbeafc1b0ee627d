# a view shares its base's data: the notes' example
t = torch.rand(4, 4)
b = t.view(2, 8)
out(t.untyped_storage().data_ptr() == b.untyped_storage().data_ptr())
b[0][0] = 3.14
out(t[0][0], b._base is t, t._base, b.is_contiguous())
base = torch.tensor([[0, 1], [2, 3]])
out(base.is_contiguous())
t = base.transpose(0, 1)
out(t.is_contiguous(), t.stride(), t._base is base)
c = t.contiguous()
out(c.is_contiguous(), c._base, c.untyped_storage().data_ptr() == base.untyped_storage().data_ptr())
# ---
# which ops return views: basic indexing, narrow, unbind, split, expand, diagonal, unflatten
x = torch.arange(12.0).reshape(3, 4)
views = {
    "x[1:]": x[1:],
    "x[:, 1]": x[:, 1],
    "narrow": x.narrow(1, 1, 2),
    "unbind": x.unbind(0)[1],
    "split": x.split(2, 1)[1],
    "expand": x[:1].expand(3, 4),
    "diagonal": x.diagonal(),
    "unflatten": x.unflatten(1, (2, 2)),
    "t": x.t(),
    "unsqueeze": x.unsqueeze(0),
    "view_as_real": torch.view_as_real(torch.complex(x, x)),
    "view": x.view(-1),
    "movedim": x.movedim(0, 1),
    "unfold": x.unfold(1, 2, 2),
    "select": x.select(0, 2),
    "imag": torch.complex(x, x).imag,
}
out({k: v._base is not None for k, v in views.items()})
out({k: v.stride() for k, v in views.items()})
# advanced indexing copies; reshape views only where it can
out(x[[0, 1]]._base is None, x[x > 5]._base is None, x.reshape(4, 3)._base is x)
out(x.t().reshape(12)._base is None, x.t().flatten().is_contiguous(), x.flatten()._base is x)
out(x.contiguous() is x, x.t().contiguous() is x.t())
# ---
# writing through a view changes its base, and autograd follows
a = torch.zeros(2, 3, requires_grad=True)
b = a * 1
v = b[0]
v.add_(torch.tensor([1.0, 2.0, 3.0]))
out(b, type(b.grad_fn).__name__, type(v.grad_fn).__name__)
b.sum().backward()
out(a.grad)
y = torch.ones(4)
w = y.view(2, 2)
w.mul_(5)
out(y, y._version, w._version)

# fmod and remainder: the Tensor overload records Backward1, the Scalar one Backward0
a = torch.tensor([[0.3, -0.2, 0.25], [0.1, -0.35, 0.15]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.7, -0.6, 0.8], dtype=torch.float64, requires_grad=True)
f, r = torch.fmod(a, b), torch.remainder(a, b)
out(f, r, torch.fmod(a, 0.5), torch.remainder(a, 0.5), torch.fmod(a, torch.tensor(0.5)))
(f + r).sum().backward()
out(a.grad, b.grad)
# ---
# the in-place forms record the overload too
a = torch.tensor([0.3, -0.2, 0.25], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.7, -0.6, 0.8], dtype=torch.float64, requires_grad=True)
y = a * 1
y.fmod_(b)
z = a * 1
z.remainder_(0.5)
out(y, z)
# ---
# clamp_min / clamp_max with a tensor bound: ClampMinBackward1 / ClampMaxBackward1
x = torch.tensor([1.0, float("nan"), -2.0, 0.5], dtype=torch.float64, requires_grad=True)
lo = torch.tensor([0.5, 0.0, float("nan"), 0.5], dtype=torch.float64, requires_grad=True)
y, z = x.clamp_min(lo), torch.clamp_max(x, lo)
out(y, z, x.clamp_min(0.0), x.clamp_max(0.0))
(y * 2 + z).sum().backward()
out(x.grad, lo.grad)
# ---
# lerp with a tensor weight: LerpBackward1
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 0.0, -1.0], requires_grad=True)
w = torch.tensor([0.5, 0.25, 2.0], requires_grad=True)
y = torch.lerp(a, b, w)
out(y, torch.lerp(a, b, 0.3))
y.sum().backward()
out(a.grad, b.grad, w.grad)
# ---
# reshape of a non-contiguous tensor that needs no copy records ReshapeAliasBackward0
x = torch.arange(6.0).reshape(2, 3).requires_grad_()
v = torch.arange(3.0, requires_grad=True)
a = x.t().reshape(3, 1, 2)
b = v.unsqueeze(0).expand(2, 3).reshape(2, 1, 3)
c = x.diagonal().reshape(2, 1)
d = x.t().reshape(6)
out(a, b, c, d, x.reshape(3, 2), a._base is x)
(a.sum() + b.sum() + c.sum() + d.sum()).backward()
out(x.grad, v.grad)
# ---
# sort with stable named (any value, None included) runs sort.stable: SortBackward1
x = torch.tensor([[0.5, -1.0, 0.5], [2.0, 0.0, -3.0]], dtype=torch.float64, requires_grad=True)
a, b = torch.sort(x, stable=True), x.sort(dim=0, stable=None)
c, d = torch.sort(x, 0, True), x.sort(descending=True, stable=False)
out(a, b, c, d, x.msort())
(a[0] * 2 + b[0] + c[0] * 3 + d[0]).sum().backward()
out(x.grad)

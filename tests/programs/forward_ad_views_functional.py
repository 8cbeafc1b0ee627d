# forward AD with views and in-place ops: tangents follow views and in-place updates
fwAD = torch.autograd.forward_ad
x = torch.tensor([1.0, 2.0, 3.0, 4.0])
t = torch.tensor([0.1, 0.2, 0.3, 0.4])
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    view = d[1:]
    out(fwAD.unpack_dual(view).tangent)
    buffer = torch.zeros(4)
    buffer[1:] = d[:3] * 2
    out(fwAD.unpack_dual(buffer))
    ones = torch.ones(4)
    ones[:2].mul_(d[:2])
    out(fwAD.unpack_dual(ones))
    c = d.clone()
    c.mul_(3)
    c[0:1].add_(d[3:])
    out(fwAD.unpack_dual(c), fwAD.unpack_dual(d))
    r = d.reshape(2, 2).t().contiguous().flatten()
    out(fwAD.unpack_dual(r).tangent)
    out(fwAD.unpack_dual(d.detach()).tangent is None)

# ---
# autograd.functional: forward-mode jacobian and forward-over-reverse hessian
hessian, jacobian, jvp = (
    torch.autograd.functional.hessian,
    torch.autograd.functional.jacobian,
    torch.autograd.functional.jvp,
)

x = torch.tensor([0.3, -0.7, 1.1], dtype=torch.double)
y = torch.tensor([1.5, 0.5], dtype=torch.double)
f = lambda a, b: torch.stack([(a * a).sum() * b[0], a.sin().sum() * b[1], (a[:2] * b).sum()])
fwd = jacobian(f, (x, y), vectorize=True, strategy="forward-mode")
rev = jacobian(f, (x, y))
out(fwd)
out(all(torch.allclose(a, b) for a, b in zip(fwd, rev)))
g = lambda a: (a.tanh() ** 3).sum()
out(hessian(g, x, vectorize=True, outer_jacobian_strategy="forward-mode"))
out(jvp(g, x, torch.ones(3, dtype=torch.double)))
err(lambda: jacobian(f, (x, y), strategy="forward-mode"))

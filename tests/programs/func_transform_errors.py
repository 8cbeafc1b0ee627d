# vmap errors: in-place into an unbatched tensor, out= into unbatched, mismatched in_dims
vmap = torch.func.vmap
x = torch.arange(6.0).reshape(3, 2)
buf = torch.zeros(2)
err(lambda: vmap(lambda r: buf.copy_(r))(x))
err(lambda: vmap(lambda r: buf.mul_(r))(x))
err(lambda: vmap(lambda r: torch.add(r, 1, out=buf))(x))
# in-place of an unbatched value into a batched one is fine
out(vmap(lambda r: r.clone().copy_(buf))(x))
out(vmap(lambda r: r.clone().add_(buf + 1))(x))
err(lambda: vmap(torch.mul, in_dims=(0, 0))(x, torch.ones(4, 2)))
err(lambda: vmap(torch.mul, in_dims=(0,))(x, x))
err(lambda: vmap(torch.mul, in_dims=(0, 0, 0))(x, x))
err(lambda: vmap(torch.mul, in_dims=[0, 0])(x, x))
err(lambda: vmap(torch.mul, in_dims=(0, 3))(x, x))
err(lambda: vmap(torch.mul, in_dims=(0, "a"))(x, x))
err(lambda: vmap(lambda a, n: a * n, in_dims=(0, 0))(x, 2.0))
err(lambda: vmap(torch.sum, in_dims=None)(x))
err(lambda: vmap(torch.sum)())
err(lambda: vmap(lambda r: (r, r), out_dims=(0, 0, 0))(x))
err(lambda: vmap(lambda r: r, out_dims=2)(x))
err(lambda: vmap(lambda r: "text")(x))
err(lambda: vmap(lambda r: r, chunk_size=0)(x))
err(lambda: vmap(lambda r: r, randomness="sometimes")(x))
err(lambda: vmap(lambda r: r, out_dims="a")(x))
# ---
# vmap errors: .item(), data-dependent control flow, random ops under randomness="error"
vmap = torch.func.vmap
x = torch.linspace(0.1, 1.0, 6).reshape(3, 2)
err(lambda: vmap(lambda r: r.sum().item())(x))
err(lambda: vmap(lambda r: float(r.sum()))(x))
err(lambda: vmap(lambda r: r.max().tolist())(x))
err(lambda: vmap(lambda r: r if bool(r.sum() > 1) else -r)(x))
err(lambda: vmap(lambda r: r[0] if r.sum() > 1 else r[1])(x))
for sampler in (
    lambda r: torch.rand(2),
    lambda r: torch.randn(2) * r,
    lambda r: torch.rand_like(r),
    lambda r: torch.randn_like(r),
    lambda r: torch.randint(0, 5, (2,)),
    lambda r: torch.randint_like(r, 3),
    lambda r: torch.normal(0.0, 1.0, (2,)),
    lambda r: torch.bernoulli(r),
    lambda r: torch.dropout(r, 0.5, True),
    lambda r: F.dropout(r, 0.5),
    lambda r: r.clone().uniform_(),
    lambda r: torch.multinomial(r, 1),
    lambda r: torch.randperm(2) + r,
):
    err(lambda: vmap(sampler)(x))
# dropout in eval mode (no randomness) and with p=0 still refuse or run as torch does
out(vmap(lambda r: F.dropout(r, 0.5, training=False))(x))
# ---
# forward_ad errors: outside a level, wrong tangent shape and dtype, non-float primals
fwAD = torch.autograd.forward_ad
x = torch.tensor([1.0, 2.0, 3.0])
err(lambda: fwAD.make_dual(x, torch.ones(3)))
with fwAD.dual_level():
    err(lambda: fwAD.make_dual(x, torch.ones(4)))
    err(lambda: fwAD.make_dual(x, torch.ones(3, dtype=torch.float64)))
    err(lambda: fwAD.make_dual(x, torch.ones(3, dtype=torch.int64)))
    err(lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1, 1])))
    err(lambda: fwAD.make_dual(x, torch.ones(3), level=5))
    d = fwAD.make_dual(x, torch.ones(3))
    err(lambda: fwAD.make_dual(d, torch.ones(3)))
    out(fwAD.unpack_dual(torch.ones(2)).tangent is None)
    err(lambda: fwAD.unpack_dual(d, level=3))
    out(fwAD.unpack_dual(d * 2).tangent)
out(fwAD.unpack_dual(d).tangent is None)
err(lambda: fwAD.exit_dual_level())
err(lambda: fwAD.exit_dual_level(level=0))
level = fwAD.enter_dual_level()
out(level)
err(lambda: fwAD.enter_dual_level())
fwAD.exit_dual_level(level=level)
# ---
# forward_ad: nested dual levels, the outer tangent through an inner level
fwAD = torch.autograd.forward_ad
x = torch.tensor([0.5, 1.5])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1.0, 0.0]))
    err(lambda: fwAD.enter_dual_level())
    y = d.exp() * d
    p, t = fwAD.unpack_dual(y)
    out(p, t)
    out(torch.is_tensor(fwAD.unpack_dual(y).primal), fwAD.unpack_dual(y).tangent.shape)
    u = fwAD.unpack_dual(y)
    out(u._fields, len(u))
# jvp nested: the tangent of a tangent (second derivative along a direction)
f = lambda x: (x**3).sum()
g = lambda x: torch.func.jvp(f, (x,), (torch.ones(2),))[1]
out(torch.func.jvp(g, (x,), (torch.ones(2),)))
out(torch.func.grad(g)(x))
# ---
# torch.func.jvp and linearize errors: structure, shapes, dtypes, non-tensor outputs
jvp, linearize = torch.func.jvp, torch.func.linearize
x = torch.tensor([1.0, 2.0])
err(lambda: jvp(torch.sin, x, (torch.ones(2),)))
err(lambda: jvp(torch.sin, (x,), (torch.ones(3),)))
err(lambda: jvp(torch.sin, (x,), torch.ones(2)))
err(lambda: jvp(torch.sin, (x,), (torch.ones(2), torch.ones(2))))
err(lambda: jvp(torch.sin, (), ()))
err(lambda: jvp(torch.sin, (2.0,), (1.0,)))
err(lambda: jvp(lambda x: 1.0, (x,), (x,)))
err(lambda: jvp(torch.sin, (torch.tensor([1, 2]),), (torch.tensor([1, 1]),)))
err(lambda: jvp(lambda x: (x, 1), (x,), (x,), has_aux=True))
err(lambda: jvp(lambda x: torch.ones(2), (x,), (x,), strict=True))
out(jvp(lambda x: torch.ones(2), (x,), (x,)))
out(jvp(lambda x: (x.sin(), {"c": x.cos()}), (x,), (torch.ones(2),), has_aux=True))
value, jvp_fn = linearize(lambda x: x.sin() * 2, x)
out(value, jvp_fn(torch.ones(2)))
err(lambda: jvp_fn(torch.ones(3)))
err(lambda: jvp_fn(torch.ones(2, dtype=torch.float64)))
err(lambda: jvp_fn(torch.ones(2), torch.ones(2)))
value, jvp_fn = linearize(lambda a, b: (a * b, a - b), x, torch.tensor([3.0, -1.0]))
out(value, jvp_fn(torch.ones(2), torch.zeros(2)))
# ---
# grad, vjp, jacrev errors: non-scalar outputs, argnums, non-tensor inputs and outputs
grad, vjp, jacrev, jacfwd = torch.func.grad, torch.func.vjp, torch.func.jacrev, torch.func.jacfwd
x = torch.tensor([1.0, 2.0])
err(lambda: grad(lambda x: x * 2)(x))
err(lambda: grad(lambda x: 2.0)(x))
err(lambda: grad(lambda x: (x * 2).sum(), argnums=1)(x))
err(lambda: grad(lambda x: (x * 2).sum(), argnums=-2)(x))
err(lambda: grad(lambda x: (x * 2).sum(), argnums=(0, 0))(x))
err(lambda: grad(lambda x: (x * 2).sum(), argnums=0.5)(x))
err(lambda: grad(lambda x: (x * 2).sum(), argnums=())(x))
err(lambda: grad(lambda x: x.sum())(2.0))
err(lambda: grad(lambda x: x.sum())(torch.tensor([1, 2])))
err(lambda: grad(lambda x: (x.sum(), 1), has_aux=True)(x))
err(lambda: grad(lambda x: x.sum(), has_aux=True)(x))
err(lambda: grad(lambda x: x.sum())())
out(grad(lambda x, y: (x * y).sum(), argnums=-1)(x, torch.ones(2)))
err(lambda: grad(lambda x: x.sum().detach())(x))
err(lambda: vjp(lambda x: x.int(), x)[1](torch.ones(2, dtype=torch.int32)))
o, fn = vjp(torch.sin, x)
err(lambda: fn(torch.ones(3)))
err(lambda: fn((torch.ones(2),)))
err(lambda: fn(torch.ones(2), torch.ones(2)))
out(fn(torch.ones(2, dtype=torch.float64)))
err(lambda: jacrev(lambda x: 1.0)(x))
err(lambda: jacfwd(torch.sin)(torch.tensor([1, 2])))
err(lambda: jacrev(torch.sin, argnums=2)(x))
err(lambda: jacrev(torch.sin, chunk_size=0)(x))
out(jacrev(torch.sin, chunk_size=1)(x))

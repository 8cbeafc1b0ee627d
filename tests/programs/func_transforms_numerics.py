# torch.func on numerical models: hessian, jvp, vjp, linearize, vmap over jacrev, functional_call
torch.set_default_dtype(torch.float64)


def potential(x):
    return (x**4).sum() / 4 - (x**2).sum() + x[0] * x[1]


x0 = torch.tensor([0.7, -1.2, 0.3])
H = torch.func.hessian(potential)(x0)
print(H)
print(torch.allclose(H, torch.autograd.functional.hessian(potential, x0)))
g, jvp_out = torch.func.jvp(torch.func.grad(potential), (x0,), (torch.tensor([1.0, 0.0, 0.0]),))
print(g, jvp_out)
val, vjp_fn = torch.func.vjp(lambda x: torch.sin(x) * x, x0)
print(val, vjp_fn(torch.ones(3)))
out_lin, jvp_lin = torch.func.linearize(lambda x: torch.exp(x).cumsum(0), x0)
print(out_lin, jvp_lin(torch.tensor([0.0, 1.0, 0.0])))
grid = torch.stack(
    torch.meshgrid(torch.linspace(-1, 1, 3), torch.linspace(-1, 1, 3), indexing="ij"), -1
).reshape(-1, 2)
field = lambda p: torch.stack([p[0] ** 2 - p[1], p[0] * p[1]])
J = torch.func.vmap(torch.func.jacrev(field))(grid)
div = J.diagonal(dim1=-2, dim2=-1).sum(-1)
curl = J[:, 1, 0] - J[:, 0, 1]
print(div, curl)
lap = torch.func.vmap(lambda p: torch.func.hessian(lambda q: (q**3).sum() + q.prod())(p).trace())(
    grid
)
print(lap)
model = nn.Linear(2, 1)
params = {k: v.detach() for k, v in model.named_parameters()}
pred = torch.func.functional_call(model, params, (grid,))
jac = torch.func.jacrev(lambda p: torch.func.functional_call(model, p, (grid,)).sum())(params)
print(pred.shape, {k: tuple(v.shape) for k, v in jac.items()})
jv = torch.autograd.functional.jacobian(lambda x: x.exp() * x.sum(), x0, vectorize=True)
jf = torch.autograd.functional.jacobian(
    lambda x: x.exp() * x.sum(), x0, vectorize=True, strategy="forward-mode"
)
print(torch.allclose(jv, jf))
out(H, g, jvp_out, J, div, lap, jv)
torch.set_default_dtype(torch.float32)

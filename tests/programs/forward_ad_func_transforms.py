# torch.func.jvp: forward-mode Jacobian-vector products, with has_aux
jvp = torch.func.jvp

x = torch.tensor([0.5, -1.0, 2.0])
f = lambda x: x * torch.tensor([1.0, 2.0, 3.0])
out(jvp(f, (x,), (torch.tensor([1.0, 0.0, 0.0]),)))
out(jvp(torch.sin, (x,), (torch.ones(3),)))


def with_aux(x):
    return x.sin(), {"cos": x.cos()}


output, jvp_out, aux = jvp(with_aux, (x,), (torch.ones(3),), has_aux=True)
out(output, jvp_out, aux)
# two primals, two tangents
out(jvp(torch.mul, (x, x.flip(0)), (torch.ones(3), torch.zeros(3))))
err(lambda: jvp(f, x, (torch.ones(3),)))
err(lambda: jvp(f, (x,), (torch.ones(4),)))

# ---
# torch.func.jacfwd: argnums, has_aux, agreement with jacrev
jacfwd, jacrev = torch.func.jacfwd, torch.func.jacrev

x = torch.tensor([0.3, -0.7, 1.1, 0.4])
out(jacfwd(torch.sin)(x))
out(torch.allclose(jacfwd(torch.sin)(x), torch.diag(torch.cos(x))))
w = torch.tensor([[0.5, -1.0, 2.0, 0.1], [0.3, 0.2, -0.4, 1.5]])
b = torch.tensor([0.1, -0.2])
predict = lambda weight, bias, x: torch.tanh(x @ weight.T + bias)
ft_jacobian = jacfwd(predict, argnums=2)(w, b, x)
out(ft_jacobian)
out(torch.allclose(ft_jacobian, jacrev(predict, argnums=2)(w, b, x), atol=1e-6))
jw, jb = jacfwd(predict, argnums=(0, 1))(w, b, x)
out(jw.shape, jb.shape, jb)


def f_aux(x):
    return x.sin(), x.cos()


out(jacfwd(f_aux, has_aux=True)(x))
# structured inputs and outputs
out(jacfwd(lambda d: {"s": d["a"] * d["b"]})({"a": x, "b": x.flip(0)}))

# ---
# torch.func.hessian (forward-over-reverse) and hvp patterns from the docs
grad, hessian, jacfwd, jacrev, jvp, vjp = (
    torch.func.grad,
    torch.func.hessian,
    torch.func.jacfwd,
    torch.func.jacrev,
    torch.func.jvp,
    torch.func.vjp,
)

x = torch.tensor([0.3, -0.7, 1.1], dtype=torch.double)
f = lambda x: x.sin().sum() + (x**3).prod()
out(hessian(f)(x))
out(torch.allclose(hessian(f)(x), jacrev(jacrev(f))(x)))
out(torch.allclose(jacfwd(jacfwd(f))(x), jacrev(jacrev(f))(x)))


def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


def hvp_revrev(f, primals, tangents):
    _, vjp_fn = vjp(grad(f), *primals)
    return vjp_fn(*tangents)


v = torch.tensor([1.0, -0.5, 2.0], dtype=torch.double)
out(hvp(f, (x,), (v,)))
out(torch.allclose(hvp(f, (x,), (v,)), hvp_revrev(f, (x,), (v,))[0]))
# the Hessian of a two-argument function with respect to both
g = lambda a, b: (a * b.sin()).sum() * a.sum()
out(hessian(g, argnums=(0, 1))(x, v))

# ---
# torch.func.linearize: a function for repeated jvps at one point
jvp, linearize = torch.func.jvp, torch.func.linearize

x = torch.tensor([0.3, -0.7, 1.1])
output, jvp_fn = linearize(torch.sin, x)
out(output, jvp_fn(torch.ones(3)), jvp_fn(torch.tensor([1.0, 0.0, 2.0])))
out(torch.allclose(jvp_fn(torch.ones(3)), jvp(torch.sin, (x,), (torch.ones(3),))[1]))
err(lambda: jvp_fn(torch.ones(4)))

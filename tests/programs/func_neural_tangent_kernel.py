# neural tangent kernels: jacobian contraction and NTK-vector products with torch.func
functional_call, vmap, vjp = torch.func.functional_call, torch.func.vmap, torch.func.vjp
jvp, jacrev = torch.func.jvp, torch.func.jacrev
net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 2))
params = {k: v.detach() for k, v in net.named_parameters()}


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


x1 = torch.randn(4, 3)
x2 = torch.randn(5, 3)


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = [j.flatten(2) for j in jac2.values()]
    result = torch.stack([torch.einsum("Naf,Mbf->NMab", j1, j2) for j1, j2 in zip(jac1, jac2)])
    return result.sum(0)


r = empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2)
out(r.shape, r[0, 0])


def empirical_ntk_ntk_vps(func, params, x1, x2, compute="full"):
    def get_ntk(x1, x2):
        def func_x1(params):
            return func(params, x1)

        def func_x2(params):
            return func(params, x2)

        output, vjp_fn = vjp(func_x1, params)

        def get_ntk_slice(vec):
            vjps = vjp_fn(vec)
            _, jvps = jvp(func_x2, (params,), vjps)
            return jvps

        basis = torch.eye(output.numel(), dtype=output.dtype, device=output.device).view(
            output.numel(), -1
        )
        return vmap(get_ntk_slice)(basis)

    result = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
    if compute == "trace":
        return torch.einsum("NMKK->NM", result)
    return result


r2 = empirical_ntk_ntk_vps(fnet_single, params, x1, x2)
out(torch.allclose(r, r2, atol=1e-5), empirical_ntk_ntk_vps(fnet_single, params, x1, x2, "trace"))
# ---
# jacobians, hessians and hessian-vector products with jacrev/jacfwd/jvp/vjp/linearize
jacfwd, jacrev, vjp, jvp = torch.func.jacfwd, torch.func.jacrev, torch.func.vjp, torch.func.jvp
hessian, grad, linearize, vmap = (
    torch.func.hessian,
    torch.func.grad,
    torch.func.linearize,
    torch.func.vmap,
)


def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()


D = 4
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)
ft_jacobian = jacrev(predict, argnums=2)(weight, bias, x)
jw, jb = jacrev(predict, argnums=(0, 1))(weight, bias, x)
out(ft_jacobian, jw.shape, jb)
h = hessian(predict, argnums=2)(weight, bias, x)
h2 = jacfwd(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
out(h.shape, torch.allclose(h, h2, atol=1e-6))


def f(x):
    return x.sin().sum()


def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


xx = torch.randn(5)
tt = torch.randn(5)
out(hvp(f, (xx,), (tt,)))


def hvp_revrev(f, primals, tangents):
    _, vjp_fn = vjp(grad(f), *primals)
    return vjp_fn(*tangents)


out(hvp_revrev(f, (xx,), (tt,)))
jvp_out, jvp_fn = linearize(torch.sin, xx)
out(jvp_out, jvp_fn(tt))
batch = torch.randn(3, D)
out(vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, batch).shape)
out(jacrev(predict, argnums=2, has_aux=False)(weight, bias, x).sum())


def fa(x):
    y = x.sin()
    return y.sum(), {"y": y}


g, aux = grad(fa, has_aux=True)(xx)
out(g, aux["y"])
jt, aux2 = jacrev(lambda x: (x.exp(), x.cos()), has_aux=True)(xx)
print(jt.shape, aux2.shape)

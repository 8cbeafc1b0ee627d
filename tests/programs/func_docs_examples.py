# forward_ad: make_dual, unpack_dual, tangents through ops and views


fwAD = torch.autograd.forward_ad

primal = torch.arange(6.0).reshape(2, 3)
tangent = torch.ones(2, 3)
with fwAD.dual_level():
    dual = fwAD.make_dual(primal, tangent)
    out(fwAD.unpack_dual(dual).tangent is tangent)
    y = (dual.sin() * dual).sum(1)
    p, t = fwAD.unpack_dual(y)
    out(p, t)
    v = dual[:, 1]
    out(fwAD.unpack_dual(v).tangent)
    out(fwAD.unpack_dual(torch.ones(3)).tangent)
out(fwAD.unpack_dual(y).tangent)

# ---
# forward_ad: make_dual on a view, and a module's parameters made dual
rng = np.random.default_rng(0)


def rn(*shape, dtype=torch.float32):
    return torch.tensor(rng.standard_normal(shape), dtype=dtype)


def init(module):
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
    return module


fwAD = torch.autograd.forward_ad

base = torch.arange(8.0)
view = base[2:6]
with fwAD.dual_level():
    d = fwAD.make_dual(view, torch.full((4,), 2.0))
    out(fwAD.unpack_dual(d).tangent, (d * d).sum())
    out(fwAD.unpack_dual((d * d).sum()).tangent)

model = init(nn.Linear(3, 2))
inp = rn(4, 3)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: rn(*p.shape) for name, p in params.items()}
with fwAD.dual_level():
    dual_params = {name: fwAD.make_dual(p, tangents[name]) for name, p in params.items()}
    res = torch.func.functional_call(model, dual_params, inp)
    jvp_val = fwAD.unpack_dual(res).tangent
    out(jvp_val.detach(), fwAD.unpack_dual(res).primal.detach())

# ---
# forward_ad: custom Function with jvp


fwAD = torch.autograd.forward_ad


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = foo.exp()
        ctx.result = result
        return result

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_forward(output)

    @staticmethod
    def jvp(ctx, gI):
        (result,) = ctx.saved_tensors
        return gI * result


class Fn2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = foo.exp()
        ctx.save_for_forward(result)
        return result

    @staticmethod
    def jvp(ctx, gI):
        (result,) = ctx.saved_tensors
        return gI * result


x = torch.tensor([0.0, 1.0, 2.0], dtype=torch.double)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones_like(x))
    out(fwAD.unpack_dual(Fn2.apply(d)).tangent)
out(
    torch.autograd.gradcheck(
        Fn2.apply,
        (x.clone().requires_grad_(),),
        check_forward_ad=True,
        check_backward_ad=False,
        check_undefined_grad=False,
        check_batched_grad=False,
    )
)

# ---
# torch.func.grad and grad_and_value, argnums and has_aux
rng = np.random.default_rng(0)


def rn(*shape, dtype=torch.float32):
    return torch.tensor(rng.standard_normal(shape), dtype=dtype)


grad, grad_and_value = torch.func.grad, torch.func.grad_and_value

x = rn()
cos_x = grad(lambda x: torch.sin(x))(x)
out(torch.allclose(cos_x, x.cos()))
neg_sin_x = grad(grad(lambda x: torch.sin(x)))(x)
out(torch.allclose(neg_sin_x, -x.sin()))


def f(x, y):
    return (x * y**2).sum()


a, b = rn(3), rn(3)
out(grad(f, argnums=(0, 1))(a, b))
out(grad(f, argnums=1)(a, b))


def g(x):
    r = x.sin().sum()
    return r, {"aux": x.cos()}


out(grad(g, has_aux=True)(a))
out(grad_and_value(g, has_aux=True)(a))
out(grad_and_value(f)(a, b))
batched = rn(5)
out(torch.func.vmap(grad(torch.sin))(batched))
err(lambda: grad(lambda x: x * 2)(a))
err(lambda: grad(lambda x: x.sum().int())(a))
out(grad(lambda d: (d["w"] ** 2).sum())({"w": a}))

# ---
# torch.func.vjp, jvp, linearize
rng = np.random.default_rng(0)


def rn(*shape, dtype=torch.float32):
    return torch.tensor(rng.standard_normal(shape), dtype=dtype)


jvp, linearize, vjp = torch.func.jvp, torch.func.linearize, torch.func.vjp

x = rn(5)
f = lambda x: x.sin().sum()
(_, vjpfunc) = vjp(f, x)
out(vjpfunc(torch.tensor(1.0)))
(_, vjpfunc) = vjp(lambda x: x**2, x)
out(vjpfunc(torch.ones(5)))


def f2(x):
    return x.sin(), {"first": x.sin(), "second": x.cos()}


(res, vjpfunc) = vjp(f2, x)
out(vjpfunc((torch.ones(5), {"first": torch.ones(5), "second": torch.ones(5)})))
res, vjpfunc, aux = vjp(lambda x: (x.exp(), x.sum()), x, has_aux=True)
out(res, aux, vjpfunc(torch.ones(5)))

out(jvp(torch.sin, (rn(5),), (torch.ones(5),)))
out(jvp(lambda x, y: x * y, (rn(5), rn(5)), (torch.ones(5), torch.zeros(5))))
out(jvp(lambda x: (x.exp(), x.cos()), (x,), (torch.ones(5),), has_aux=True))
err(lambda: jvp(torch.sin, (rn(5),), (torch.ones(4),)))
err(lambda: jvp(torch.sin, rn(5), torch.ones(5)))

xl = rn(5)
output, jvp_fn = linearize(lambda x: x.sin(), xl)
out(output, jvp_fn(torch.ones(5)), jvp_fn(torch.full((5,), 2.0)))

# ---
# torch.func.jacrev and jacfwd: argnums, has_aux, chunk_size, pytrees
rng = np.random.default_rng(0)


def rn(*shape, dtype=torch.float32):
    return torch.tensor(rng.standard_normal(shape), dtype=dtype)


jacfwd, jacrev, vmap = torch.func.jacfwd, torch.func.jacrev, torch.func.vmap

x = rn(5)
out(jacrev(torch.sin)(x))
out(jacfwd(torch.sin)(x))
out(jacrev(torch.sin, chunk_size=2)(x))
out(jacrev(torch.sin, chunk_size=1)(x))
out(jacfwd(torch.sin, randomness="same")(x))
out(vmap(jacrev(torch.sin))(rn(4, 3)))
out(jacrev(lambda x: (x.sin(), x.cos()))(x))
out(jacrev(lambda x: (x.sin(), x.sum()), has_aux=True)(x))
out(jacfwd(lambda x: (x.sin(), x.sum()), has_aux=True)(x))


def f(x, y):
    return x + y**2


y = rn(5)
out(jacrev(f, argnums=1)(x, y))
out(jacrev(f, argnums=(0, 1))(x, y))
out(jacfwd(f, argnums=(0, 1))(x, y))
out(jacrev(lambda d: d["a"] * d["b"])({"a": x, "b": y}))
out(jacrev(jacrev(torch.sin))(x).shape)
out(jacfwd(jacrev(torch.sin))(x))
out(jacrev(lambda m: m @ m)(rn(2, 2)).shape)
err(lambda: jacrev(torch.sin, chunk_size=0)(x))

# ---
# torch.func.hessian and torch.autograd.functional hvp, vhp, hessian
rng = np.random.default_rng(0)


def rn(*shape, dtype=torch.float32):
    return torch.tensor(rng.standard_normal(shape), dtype=dtype)


hessian = torch.func.hessian

x = rn(4, dtype=torch.double)
f = lambda x: x.sin().sum()
out(hessian(f)(x))
out(torch.allclose(hessian(f)(x), torch.diag(-x.sin())))
out(hessian(lambda x, y: (x * y * y).sum(), argnums=(0, 1))(x, x + 1))


def pow_reducer(x):
    return x.pow(3).sum()


inputs = rn(2, 2, dtype=torch.double)
v = torch.ones(2, 2, dtype=torch.double)
out(torch.autograd.functional.hvp(pow_reducer, inputs, v))
out(torch.autograd.functional.vhp(pow_reducer, inputs, v))
out(torch.autograd.functional.hessian(pow_reducer, inputs))
out(torch.autograd.functional.jvp(lambda x: x.exp(), inputs, v))
out(torch.autograd.functional.vjp(lambda x: x.exp(), inputs, v))


def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()


ins = (rn(2, dtype=torch.double), rn(2, dtype=torch.double))
vs = (torch.ones(2, dtype=torch.double), torch.ones(2, dtype=torch.double))
out(torch.autograd.functional.hvp(pow_adder_reducer, ins, vs))
out(torch.autograd.functional.hessian(pow_adder_reducer, ins))
out(torch.autograd.functional.hvp(pow_reducer, inputs, v, create_graph=True))
out(torch.autograd.functional.jacobian(torch.exp, inputs, vectorize=True, strategy="forward-mode"))

# ---
# torch.func.functional_call with tuples of dicts, strict, tie_weights
rng = np.random.default_rng(0)


def rn(*shape, dtype=torch.float32):
    return torch.tensor(rng.standard_normal(shape), dtype=dtype)


def init(module):
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
    return module


functional_call = torch.func.functional_call

model = init(nn.Sequential(init(nn.Linear(3, 3)), nn.BatchNorm1d(3)))
x = rn(4, 3)
params = {k: torch.ones_like(v) for k, v in model.named_parameters()}
buffers = {k: v.clone() for k, v in model.named_buffers()}
out(functional_call(model, (params, buffers), (x,)))
out(buffers["1.running_mean"], model[1].running_mean)
out(functional_call(model, params, x))
out(functional_call(model, {"0.weight": torch.zeros(3, 3)}, args=(x,)))
err(
    lambda: functional_call(
        model, ({"0.weight": torch.zeros(3, 3)}, {"0.weight": torch.ones(3, 3)}), (x,)
    )
)
err(lambda: functional_call(model, {"0.weight": torch.zeros(3, 3)}, (x,), strict=True))
out(
    functional_call(
        init(nn.Linear(2, 1)),
        {"weight": torch.ones(1, 2), "bias": torch.zeros(1)},
        (),
        {"input": torch.ones(2)},
    )
)

# ---
# model ensembling: stack_module_state + vmap(functional_call) with in_dims
rng = np.random.default_rng(0)


def rn(*shape, dtype=torch.float32):
    return torch.tensor(rng.standard_normal(shape), dtype=dtype)


def init(module):
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
    return module


import copy

functional_call, stack_module_state, vmap = (
    torch.func.functional_call,
    torch.func.stack_module_state,
    torch.func.vmap,
)


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = init(nn.Linear(8, 6))
        self.fc2 = init(nn.Linear(6, 3))

    def forward(self, x):
        x = x.flatten(1)
        return self.fc2(F.relu(self.fc1(x)))


num_models = 4
models = [init(SimpleMLP()) for _ in range(num_models)]
data = rn(num_models, 3, 2, 4)
minibatches = data[:num_models]
minibatch = data[0]
params, buffers = stack_module_state(models)
out({k: v.shape for k, v in params.items()}, buffers)
out(params["fc1.weight"].requires_grad, params["fc1.weight"].is_leaf)
base_model = copy.deepcopy(models[0]).to("meta")


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


pred_diff = vmap(fmodel)(params, buffers, minibatches)
pred_same = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
out(pred_diff.shape, pred_same.shape)
out(torch.allclose(pred_diff[1], models[1](minibatches[1]), atol=1e-6))
out(torch.allclose(pred_same[2], models[2](minibatch), atol=1e-6))
out(pred_same)

# ---
# vmap: in_dims, out_dims, nested, chunk_size, pytrees, errors
rng = np.random.default_rng(0)


def rn(*shape, dtype=torch.float32):
    return torch.tensor(rng.standard_normal(shape), dtype=dtype)


vmap = torch.func.vmap

x, y = rn(2, 5), rn(5)
out(vmap(torch.dot, in_dims=(None, 0))(y, rn(3, 5)).shape)
out(vmap(torch.mul, in_dims=(1, None))(rn(3, 4), rn(3)))
out(vmap(lambda x: x * 2, out_dims=1)(rn(3, 4)).shape)
out(vmap(lambda x: (x, x.sum()), out_dims=(1, 0))(rn(3, 4, 2)))
out(
    vmap(lambda d: d["a"] + d["b"], in_dims=({"a": 0, "b": None},))(
        {"a": rn(3, 2), "b": torch.ones(2)}
    )
)
batched_dot = vmap(vmap(torch.dot))
out(batched_dot(rn(2, 3, 5), rn(2, 3, 5)).shape)
out(vmap(torch.sum, chunk_size=2)(torch.arange(12.0).reshape(6, 2)))
out(vmap(lambda x: x.sum(), in_dims=-1)(torch.arange(6.0).reshape(2, 3)))
out(vmap(torch.trace)(rn(3, 2, 2)).shape)
out(vmap(lambda x, s: x * s, in_dims=(0, None))(torch.ones(3, 2), 4.0))
out(vmap(lambda x: torch.ones(2))(torch.ones(3, 2)))
out(vmap(lambda x: torch.ones(2), out_dims=None)(torch.ones(3, 2)))
err(lambda: vmap(torch.add)(rn(3, 2), rn(4, 2)))
err(lambda: vmap(lambda x: x.item())(rn(3)))
err(lambda: vmap(lambda x: x * 2 if x.sum() > 0 else x)(rn(3, 2)))
err(lambda: vmap(torch.sin, in_dims=2)(rn(3, 2)))
err(lambda: vmap(torch.sin, in_dims=(0, 0))(rn(3, 2)))
err(lambda: vmap(torch.sin)(3.0))
err(lambda: vmap(torch.sin, out_dims=None)(rn(3)))
out(torch.vmap(torch.sin)(torch.zeros(3)))

# ---
# vmap randomness: error, same, different


vmap = torch.func.vmap

x = torch.ones(4, 3)
err(lambda: vmap(lambda t: t + torch.rand(3))(x))
err(lambda: vmap(lambda t: F.dropout(t, 0.5))(x))
same = vmap(lambda t: t + torch.rand(3), randomness="same")(x)
out(same.shape, bool((same == same[0]).all()))
diff = vmap(lambda t: t + torch.rand(3), randomness="different")(x)
out(diff.shape, bool((diff[0] != diff[1]).any()))
d2 = vmap(lambda t: torch.rand_like(t), randomness="different")(x)
out(bool((d2[0] != d2[1]).any()))
s2 = vmap(lambda t: torch.rand_like(t), randomness="same")(x)
out(bool((s2 == s2[0]).all()))
d3 = vmap(lambda t: F.dropout(t, 0.5), randomness="different")(torch.ones(50, 40))
out(d3.shape, bool(((d3 == 0) | (d3 == 2)).all()))
s3 = vmap(lambda t: F.dropout(t, 0.5), randomness="same")(torch.ones(8, 40))
out(bool((s3 == s3[0]).all()))
err(lambda: vmap(lambda t: t, randomness="bogus")(x))
out(vmap(lambda t: t * 2, randomness="error")(x))

# ---
# per-sample gradients tutorial: vmap(grad) with functional_call and a BatchNorm replaced
rng = np.random.default_rng(0)


def rn(*shape, dtype=torch.float32):
    return torch.tensor(rng.standard_normal(shape), dtype=dtype)


def init(module):
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
    return module


functional_call, grad, replace_all_batch_norm_modules_, vmap = (
    torch.func.functional_call,
    torch.func.grad,
    torch.func.replace_all_batch_norm_modules_,
    torch.func.vmap,
)

model = init(
    nn.Sequential(init(nn.Linear(4, 6)), nn.BatchNorm1d(6), nn.ReLU(), init(nn.Linear(6, 2)))
)
replace_all_batch_norm_modules_(model)
out(model[1].running_mean, model[1].track_running_stats)
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
data, targets = rn(8, 4), torch.tensor(rng.integers(0, 2, 8))


def compute_loss(params, buffers, sample, target):
    preds = functional_call(model, (params, buffers), (sample.unsqueeze(0).expand(2, 4),))
    return F.cross_entropy(preds, target.unsqueeze(0).expand(2))


per_sample = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
out({k: v.shape for k, v in per_sample.items()})
out(per_sample["0.weight"][3])

# ---
# jacobians and hessians tutorial: predict, jacrev/jacfwd/vmap/hessian agree
rng = np.random.default_rng(0)


def rn(*shape, dtype=torch.float32):
    return torch.tensor(rng.standard_normal(shape), dtype=dtype)


hessian, jacfwd, jacrev, vjp, vmap = (
    torch.func.hessian,
    torch.func.jacfwd,
    torch.func.jacrev,
    torch.func.vjp,
    torch.func.vmap,
)

torch.manual_seed(0)


def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()


D = 4
weight = rn(D, D)
bias = rn(D)
x = rn(D)
jacobian = jacrev(predict, argnums=2)(weight, bias, x)
out(jacobian.shape)
_, vjp_fn = vjp(lambda x: predict(weight, bias, x), x)
unit_vectors = torch.eye(D)
(ft_jacobian,) = vmap(vjp_fn)(unit_vectors)
out(torch.allclose(ft_jacobian, jacobian, atol=1e-6))
out(torch.allclose(jacfwd(predict, argnums=2)(weight, bias, x), jacobian, atol=1e-6))
ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
out(ft_jac_weight.shape, ft_jac_bias.shape)
hess0 = hessian(predict, argnums=2)(weight, bias, x)
hess1 = jacfwd(jacfwd(predict, argnums=2), argnums=2)(weight, bias, x)
hess2 = jacrev(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
out(hess0.shape, torch.allclose(hess0, hess1, atol=1e-5), torch.allclose(hess1, hess2, atol=1e-5))
batch_size = 3
xb = rn(batch_size, D)
compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, xb)
out(batch_jacobian0.shape)


def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)


batch_jacobian1 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, xb).movedim(1, 0)
out(torch.allclose(batch_jacobian0, batch_jacobian1, atol=1e-6))
out(vmap(hessian(predict, argnums=2), in_dims=(None, None, 0))(weight, bias, xb).shape)

# ---
# neural tangent kernel tutorial: vmap(jacrev) over functional_call, einsum contractions
rng = np.random.default_rng(0)


def rn(*shape, dtype=torch.float32):
    return torch.tensor(rng.standard_normal(shape), dtype=dtype)


def init(module):
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
    return module


functional_call, jacrev, jvp, vjp, vmap = (
    torch.func.functional_call,
    torch.func.jacrev,
    torch.func.jvp,
    torch.func.vjp,
    torch.func.vmap,
)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, (3, 3))
        self.fc = init(nn.Linear(4 * 4 * 4, 3))

    def forward(self, x):
        x = self.conv1(x).relu()
        return self.fc(x.flatten(1))


net = init(CNN())
x_train = rn(5, 1, 6, 6)
x_test = rn(2, 1, 6, 6)
params = {k: v.detach() for k, v in net.named_parameters()}


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute="full"):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    einsum_expr = {"full": "Naf,Mbf->NMab", "trace": "Naf,Maf->NM", "diagonal": "Naf,Maf->NMa"}[
        compute
    ]
    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    return result.sum(0)


full = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
out(full.shape, full)
out(empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "trace"))
out(empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "diagonal").shape)


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
    if compute == "full":
        return result
    if compute == "trace":
        return torch.einsum("NMKK->NM", result)


ntk_vps = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test)
out(ntk_vps.shape, torch.allclose(ntk_vps, full, atol=1e-5))

# ---
# forward-mode AD tutorial: jvp through functional_call and jacfwd on a module
rng = np.random.default_rng(0)


def rn(*shape, dtype=torch.float32):
    return torch.tensor(rng.standard_normal(shape), dtype=dtype)


def init(module):
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
    return module


fwAD = torch.autograd.forward_ad
functional_call, jacfwd, jvp = torch.func.functional_call, torch.func.jacfwd, torch.func.jvp

model = init(nn.Linear(5, 5))
inp = rn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: rn(*p.shape) for name, p in params.items()}


def func(params, inp):
    return functional_call(model, params, inp)


primal, tangent = jvp(lambda p: func(p, inp), (params,), (tangents,))
out(primal.shape, tangent.detach())
out(jacfwd(func)(params, inp)["weight"].shape)
with fwAD.dual_level():
    x = fwAD.make_dual(rn(3), torch.ones(3))
    out(fwAD.unpack_dual(x.exp()).tangent.shape)
    err(lambda: fwAD.make_dual(rn(3), torch.ones(4)))
err(lambda: fwAD.make_dual(rn(3), torch.ones(3)))
with fwAD.dual_level():
    z = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0]))
    w = torch.zeros(2)
    w.copy_(z)
    out(fwAD.unpack_dual(w).tangent)
    w2 = torch.zeros(4)
    w2[1:3] = z
    out(fwAD.unpack_dual(w2).tangent)

# ---
# forward_ad: dual levels, UnpackedDualTensor, enter/exit, errors
fwAD = torch.autograd.forward_ad
x = torch.tensor([1.0, 2.0, 3.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1.0, 0.0, 0.0]))
    u = fwAD.unpack_dual(d)
    out(type(u).__name__, u.primal, u.tangent, u[0], u[1])
    out(fwAD.unpack_dual(d.exp().cumsum(0)).tangent)
    out(fwAD.unpack_dual(d.view(3, 1).expand(3, 2)).tangent)
    out(fwAD.unpack_dual(d.unsqueeze(0) @ torch.ones(3, 2)).tangent)
    out(fwAD.unpack_dual(torch.stack([d, d * 2])).tangent)
    out(fwAD.unpack_dual(d.double()).tangent)
    out(fwAD.unpack_dual(d.detach()).tangent)
    err(lambda: fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1, 2])))
lvl = fwAD.enter_dual_level()
d = fwAD.make_dual(x, torch.ones(3))
out(fwAD.unpack_dual(d * d, level=lvl).tangent)
fwAD.exit_dual_level()
out(fwAD.unpack_dual(d).tangent)

# ---
# forward_ad: in-place ops and views update the base's tangent
fwAD = torch.autograd.forward_ad
with fwAD.dual_level():
    base = torch.zeros(2, 3)
    d = fwAD.make_dual(torch.ones(3), torch.full((3,), 5.0))
    base[0].copy_(d)
    out(fwAD.unpack_dual(base).tangent)
    base.mul_(2)
    out(fwAD.unpack_dual(base).tangent)
    v = base.t()
    out(fwAD.unpack_dual(v).tangent)
    y = torch.ones(3)
    y += d
    out(fwAD.unpack_dual(y).tangent)
    p = fwAD.make_dual(torch.arange(6.0).view(2, 3), torch.ones(2, 3))
    out(fwAD.unpack_dual(p[:, 1:]).tangent, fwAD.unpack_dual(p.sum(0)).tangent)

# ---
# vmap: kwargs, nested outputs, modules, vmap(grad) with has_aux
vmap, grad = torch.func.vmap, torch.func.grad
rng = np.random.default_rng(0)
xs = torch.tensor(rng.standard_normal((4, 3)), dtype=torch.float32)
out(vmap(lambda x, scale=1.0: x * scale)(xs, scale=3.0))
out(vmap(lambda x: {"a": x.sum(), "b": [x * 2, x.max()]})(xs))
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor(rng.standard_normal((2, 3))))
    lin.bias.fill_(0.5)
out(vmap(lin)(xs).detach())  # grad_fn names inside vmap are the physical ops'
out(vmap(lambda x: lin(x), in_dims=1, out_dims=1)(xs.t()))
out(vmap(grad(lambda x: (x.sin().sum(), x.cos()), has_aux=True))(xs))
out(
    vmap(vmap(lambda a, b: a * b, in_dims=(0, None)), in_dims=(None, 0))(
        torch.arange(3.0), torch.arange(4.0)
    )
)
out(vmap(torch.outer)(xs, xs))
out(vmap(lambda x: x.new_zeros(2))(xs))
out(vmap(lambda x: torch.where(x > 0, x, 0.0))(xs))
out(vmap(F.softmax, in_dims=(0, None))(xs, 0))
err(lambda: vmap(lambda x: 3)(xs))
err(lambda: vmap(lambda x: x, out_dims=(0, 0))(xs))
err(lambda: vmap(lambda x: x, in_dims="a")(xs))
err(lambda: vmap(lambda x: x)())
out(vmap(lambda x: x, chunk_size=3)(xs))
err(lambda: vmap(lambda x: x, chunk_size=0)(xs))

# ---
# autograd.functional jacobian and hessian options
AF = torch.autograd.functional
x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)
y = torch.tensor([1.0, 3.0], dtype=torch.float64)


def f(a, b):
    return torch.cat([a.exp() * b.sum(), b**2])


out(AF.jacobian(f, (x, y)))
out(AF.jacobian(f, (x, y), vectorize=True))
out(AF.jacobian(f, (x, y), vectorize=True, strategy="forward-mode"))
out(AF.jacobian(lambda a: a.exp(), x, create_graph=True))
h = AF.hessian(lambda a, b: (a.exp() * b.sum()).sum(), (x, y))
out(h)
out(AF.hessian(lambda a: (a**3).sum(), x, vectorize=True))
out(AF.hessian(lambda a: (a**3).sum(), x, vectorize=True, outer_jacobian_strategy="forward-mode"))
out(AF.vhp(lambda a: (a**3).sum(), x, torch.ones(3, dtype=torch.float64)))
err(lambda: AF.jacobian(f, (x, y), strategy="forward-mode"))
err(lambda: AF.hvp(lambda a: a**3, x, torch.ones(3, dtype=torch.float64)))
err(lambda: AF.jacobian(lambda a: x * 2, x, strict=True))
out(AF.jacobian(lambda a: x * 2, x))

# ---
# torch.func transforms: dict outputs, jacfwd randomness, stacked BatchNorm ensembles
jacrev, jacfwd, vmap = torch.func.jacrev, torch.func.jacfwd, torch.func.vmap
stack_module_state, functional_call = torch.func.stack_module_state, torch.func.functional_call
x = torch.tensor([0.3, -0.2, 1.1])
out(jacrev(lambda x: {"s": x.sin(), "c": x.cos().sum()})(x))
out(jacfwd(lambda x: {"s": x.sin(), "c": x.cos().sum()})(x))
out(jacfwd(lambda x: x * 2, randomness="different")(x))
err(lambda: jacfwd(lambda x: x + torch.rand(3))(x))
err(lambda: jacrev(lambda x: x.long())(x))
err(lambda: jacrev(torch.sin, argnums=1)(x))
models = [nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2)) for _ in range(3)]
params, buffers = stack_module_state(models)
out(sorted(buffers), buffers["1.running_var"].shape, buffers["1.num_batches_tracked"])
out(params["0.weight"].requires_grad, buffers["1.running_mean"].requires_grad)

# ---
# per-sample gradients tutorial: a CNN with pooling, log_softmax and nll_loss
functional_call, grad, vmap = torch.func.functional_call, torch.func.grad, torch.func.vmap
rng = np.random.default_rng(0)


class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, 1)
        self.conv2 = nn.Conv2d(4, 6, 3, 1)
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


model = SimpleCNN()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.4, 0.4, tuple(p.shape))))
data = torch.tensor(rng.standard_normal((4, 1, 6, 6)), dtype=torch.float32)
targets = torch.tensor([0, 2, 1, 2])


def loss_fn(predictions, targets):
    return F.nll_loss(predictions, targets)


def compute_grad(sample, target):
    loss = loss_fn(model(sample.unsqueeze(0)), target.unsqueeze(0))
    return torch.autograd.grad(loss, list(model.parameters()))


per_sample_grads = [compute_grad(data[i], targets[i]) for i in range(4)]
per_sample_grads = list(zip(*per_sample_grads))
per_sample_grads = [torch.stack(shards) for shards in per_sample_grads]
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    predictions = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
    return loss_fn(predictions, target.unsqueeze(0))


ft_per_sample_grads = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(
    params, buffers, data, targets
)
for g, ft in zip(per_sample_grads, ft_per_sample_grads.values()):
    out(torch.allclose(g, ft, atol=3e-3, rtol=1e-5))
out(ft_per_sample_grads["conv1.weight"])

# ---
# jacobians and hessians tutorial: hvp by forward-over-reverse and reverse-over-reverse
jvp, grad, vjp = torch.func.jvp, torch.func.grad, torch.func.vjp


def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


def hvp_revrev(f, primals, tangents):
    _, vjp_fn = vjp(grad(f), *primals)
    return vjp_fn(*tangents)


def f(x):
    return x.sin().sum()


x = torch.tensor([0.1, 0.7, -1.3, 2.0])
tangent = torch.tensor([1.0, -1.0, 0.5, 2.0])
out(hvp(f, (x,), (tangent,)))
out(hvp_revrev(f, (x,), (tangent,)))
out(torch.allclose(hvp(f, (x,), (tangent,)), hvp_revrev(f, (x,), (tangent,))[0]))

# ---
# forward-mode AD tutorial: module parameters swapped for duals with delattr / setattr
fwAD = torch.autograd.forward_ad
rng = np.random.default_rng(0)
model = nn.Linear(5, 5)
with torch.no_grad():
    model.weight.copy_(torch.tensor(rng.standard_normal((5, 5))))
    model.bias.copy_(torch.tensor(rng.standard_normal(5)))
inp = torch.tensor(rng.standard_normal((16, 5)), dtype=torch.float32)
params = {name: p for name, p in model.named_parameters()}
tangents = {
    name: torch.tensor(rng.random(tuple(p.shape)), dtype=torch.float32)
    for name, p in params.items()
}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    res = model(inp)
    jvp_result = fwAD.unpack_dual(res).tangent
out(jvp_result.detach())
expected = inp @ tangents["weight"].t() + tangents["bias"]
out(torch.allclose(jvp_result, expected, atol=1e-5))

# ---
# vmap randomness="same" and "different": in-place samplers, samplers of batched parameters
vmap = torch.func.vmap
x = torch.zeros(5, 4)
r = vmap(lambda t: torch.randn(()) + t, randomness="different")(x)
out(r.shape, bool((r[:, 0] == r[:, 1]).all()), bool((r[0] != r[1]).any()))
r = vmap(lambda t: torch.randn(()) + t, randomness="same")(x)
out(bool((r == r[0, 0]).all()))
n = vmap(lambda t: t.clone().normal_(), randomness="same")(x)
out(n.shape, bool((n == n[0]).all()), bool((n[0] != n[0, 0]).any()))
u = vmap(lambda t: (t + 1).uniform_(2.0, 3.0), randomness="same")(x)
out(bool((u == u[0]).all()), bool(((u >= 2) & (u < 3)).all()))
b = vmap(lambda t: t.clone().bernoulli_(0.5), randomness="same")(torch.zeros(3, 50))
out(bool((b == b[0]).all()))
e = vmap(lambda t: t.clone().exponential_(), randomness="same")(x)
out(bool((e == e[0]).all()))
n = vmap(lambda t: t.clone().normal_(), randomness="different")(x)
out(bool((n[0] != n[1]).any()))
b = vmap(lambda t: torch.bernoulli(t + 0.5), randomness="different")(x)
out(b.shape, b.dtype, bool(((b == 0) | (b == 1)).all()))
err(lambda: vmap(lambda t: torch.normal(t, 1.0), randomness="same")(x))
err(lambda: vmap(lambda t: torch.bernoulli(t + 0.5), randomness="same")(x))
err(lambda: vmap(lambda t: torch.poisson(t), randomness="same")(x))
err(lambda: vmap(lambda t: torch.randn(3))(x))
err(lambda: vmap(lambda t: t.clone().normal_())(x))
err(lambda: vmap(lambda t: torch.normal(t, 1.0))(x))
m = nn.Dropout(0.5)
d = vmap(m, randomness="different")(torch.ones(6, 30))
out(bool((d[0] != d[1]).any()))
m.eval()
out(vmap(m)(torch.ones(2, 3)))

# ---
# torch.func docstring examples: grad under no_grad, vmap kwargs, in-place writes, jacrev has_aux
grad, vmap, jacrev, vjp = torch.func.grad, torch.func.vmap, torch.func.jacrev, torch.func.vjp
x = torch.tensor([0.5, -1.5, 2.0])


def f(x):
    with torch.no_grad():
        c = x**2
    return (x - c).sum()


out(grad(f)(x))
with torch.no_grad():
    out(grad(lambda x: (x**2).sum())(x))
    out(vjp(torch.sin, x)[1](torch.ones(3)))
with torch.enable_grad():
    out(grad(lambda x: (x**2).sum())(x))


def fn(x, scale=4.0):
    return x * scale


xs = torch.arange(10.0).reshape(2, 5)
batched_pow = vmap(fn)
out(torch.allclose(batched_pow(xs), xs * 4))
out(batched_pow(xs, scale=torch.tensor(2.0)))
err(lambda: batched_pow(xs, scale=xs))


def inplace_f(x, y):
    x.add_(y)
    return x


err(lambda: vmap(inplace_f, in_dims=(None, 0))(torch.zeros(5), torch.ones(3, 5)))
out(vmap(inplace_f, in_dims=(0, None))(torch.zeros(3, 5), torch.ones(5)))


def g(x):
    x_sin = x.sin()
    return x_sin, x_sin


jac, aux = jacrev(g, has_aux=True)(x)
out(jac, aux, torch.allclose(aux, x.sin()))
out(jacrev(jacrev(lambda x: x.sin().sum()))(x))
err(lambda: grad(lambda x: x)(torch.tensor(1)))
err(lambda: grad(lambda x: x.sum(), argnums=(0, 0))(x))
err(lambda: grad(lambda x: x.sum(), argnums=1)(x))
err(lambda: vjp(lambda x: 2, x))
err(lambda: torch.func.jvp(torch.sin, (torch.tensor([1, 2]),), (torch.tensor([1, 2]),)))
y = torch.tensor([1.0, 2.0])
out(grad(lambda t: (t * y).sum())(y.clone().requires_grad_()))
w = torch.tensor([1.0, 3.0], requires_grad=True)
g2 = grad(lambda t: (t * w).sum())(y)
out(g2)
g2.sum().backward()
out(w.grad)

# ---
# forward_ad: tangent layouts, unpack_dual identity, views of duals
fwAD = torch.autograd.forward_ad
primal = torch.arange(12.0).reshape(3, 4)
tangent = torch.arange(12.0).reshape(4, 3).t()
tangent2 = torch.ones(3, 4)
with fwAD.dual_level():
    d = fwAD.make_dual(primal, tangent)
    t = fwAD.unpack_dual(d).tangent
    out(t is tangent, t, t.stride(), t.is_contiguous())
    d2 = fwAD.make_dual(primal, tangent2)
    out(fwAD.unpack_dual(d2).tangent is tangent2)
    pt = primal.t()
    d3 = fwAD.make_dual(pt, torch.ones(4, 3))
    out(fwAD.unpack_dual(d3).tangent.stride(), fwAD.unpack_dual(d3).tangent.is_contiguous())
    out(fwAD.unpack_dual(d.t()).tangent.stride(), fwAD.unpack_dual(d[1]).tangent)
    out(fwAD.unpack_dual(d).primal is primal)
    out(d.shape, d.dtype, d.requires_grad)
    e = torch.zeros(3, 4)
    e[:, 0] = d[:, 1]
    out(fwAD.unpack_dual(e).tangent)

# ---
# functional_call tie_weights and strict; transforms with chunk_size, has_aux inside vmap
functional_call, jacrev, jacfwd, vmap, jvp = (
    torch.func.functional_call,
    torch.func.jacrev,
    torch.func.jacfwd,
    torch.func.vmap,
    torch.func.jvp,
)


class Foo(nn.Module):
    def __init__(self):
        super().__init__()
        self.foo = nn.Parameter(torch.zeros(()))
        self.bar = self.foo

    def forward(self, x):
        return x + self.foo + self.bar


foo = Foo()
x = torch.tensor([1.0, 2.0])
out(functional_call(foo, {"foo": torch.ones(())}, (x,)))
out(functional_call(foo, {"foo": torch.ones(())}, (x,), tie_weights=False))
err(lambda: functional_call(foo, {"foo": torch.ones(()), "bar": torch.ones(())}, (x,)))
err(lambda: functional_call(foo, {"foo": torch.ones(()), "bar": torch.zeros(())}, (x,)))
err(lambda: functional_call(foo, {"baz": torch.ones(())}, (x,), strict=True))
out(foo.foo, foo.bar is foo.foo)


def f(a, b):
    return torch.stack([a.sin() * b, a.cos() * b]), (a * b).sum()


a, b = torch.tensor([0.1, 0.2, 0.3]), torch.tensor([1.0, -1.0, 2.0])
out(jacrev(f, argnums=(0, 1), chunk_size=2, has_aux=True)(a, b))
out(jacfwd(f, argnums=(0, 1), has_aux=True)(a, b))
out(vmap(jacrev(f, has_aux=True))(a.expand(2, 3) * torch.tensor([[1.0], [2.0]]), b.expand(2, 3)))
out(
    vmap(lambda p, t: jvp(lambda q: (q.exp(), q.sum()), (p,), (t,), has_aux=True))(
        torch.ones(2, 3), torch.ones(2, 3)
    )
)
out(torch.func.hessian(lambda a, b: (a.sin() * b).sum(), argnums=1)(a, b))
out(jacrev(lambda a: a.sum(), chunk_size=1)(a))

# ---
# autograd.Function with torch.func: setup_context, generate_vmap_rule, a vmap staticmethod
grad, vmap, jacrev, jvp = torch.func.grad, torch.func.vmap, torch.func.jacrev, torch.func.jvp


class NumpySin(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return torch.tensor(np.sin(x.detach().numpy()))

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.cos()

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return t * x.cos()


class MySquare(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x**2

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * g * x

    @staticmethod
    def vmap(info, in_dims, x):
        out(info.batch_size, in_dims)
        return MySquare.apply(x), in_dims[0]


x = torch.tensor([0.1, 0.5, 1.0])
out(grad(lambda x: MySquare.apply(x).sum())(x))
out(vmap(MySquare.apply)(torch.arange(6.0).reshape(2, 3)))
out(jacrev(MySquare.apply)(x))
out(grad(lambda x: NumpySin.apply(x).sum())(x))
out(jvp(NumpySin.apply, (x,), (torch.ones(3),)))

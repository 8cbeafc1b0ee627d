# functional_call: buffers, strict, tie_weights, kwargs, and the module left unchanged
from_call = torch.func.functional_call


def fill(module, start=0.0):
    # deterministic parameters: the programs compare values, not random streams
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel()) * 0.7 + i + start).reshape(p.shape) * 0.5)
    return module


model = fill(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Linear(4, 2)))
x = torch.cos(torch.arange(15.0)).reshape(5, 3)
params = {k: v.detach() * 0.5 for k, v in model.named_parameters()}
buffers = {k: v.clone() for k, v in model.named_buffers()}
y = from_call(model, (params, buffers), (x,))
out(y, buffers["1.running_mean"], buffers["1.num_batches_tracked"])
out(model[1].running_mean, model[0].weight.requires_grad)
out(from_call(model, params, x).shape)
err(lambda: from_call(model, {"0.weight": params["0.weight"]}, (x,), strict=True))
err(lambda: from_call(model, {**params, "extra": torch.ones(1)}, (x,), strict=True))
err(lambda: from_call(model, (params, {"0.weight": params["0.weight"]}), (x,)))
model.eval()
out(from_call(model, {"2.bias": torch.zeros(2)}, (x,)))


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 2, bias=False)
        self.b = nn.Linear(2, 2, bias=False)
        self.b.weight = self.a.weight

    def forward(self, x, scale=1.0):
        return self.b(self.a(x)) * scale


t = fill(Tied())
w = torch.eye(2) * 3
out(from_call(t, {"a.weight": w}, (torch.ones(1, 2),), {"scale": 2.0}))
out(from_call(t, {"a.weight": w}, torch.ones(1, 2), tie_weights=False))
err(lambda: from_call(t, {"a.weight": w, "b.weight": torch.eye(2)}, (torch.ones(1, 2),)))
# ---
# stack_module_state and vmap over models: ensembles with shared and separate inputs


def fill(module, start=0.0):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel()) * 0.7 + i + start).reshape(p.shape) * 0.5)
    return module


models = [fill(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3)), k) for k in range(3)]
params, buffers = torch.func.stack_module_state(models)
out(sorted(params), [tuple(p.shape) for p in params.values()], buffers)
out(params["0.weight"].requires_grad, params["0.weight"].is_leaf)
base = models[0]


def call(p, b, x):
    return torch.func.functional_call(base, (p, b), (x,))


shared = torch.cos(torch.arange(20.0)).reshape(5, 4)
out(torch.vmap(call, in_dims=(0, 0, None))(params, buffers, shared))
separate = torch.sin(torch.arange(60.0) * 0.3).reshape(3, 5, 4)
preds = torch.vmap(call)(params, buffers, separate)
out(preds, torch.allclose(preds[1], models[1](separate[1]), atol=1e-6))
loss = preds.pow(2).mean()
loss.backward()
out(params["2.bias"].grad)
err(lambda: torch.func.stack_module_state([]))
err(lambda: torch.func.stack_module_state([nn.Linear(2, 2), nn.Linear(2, 3)]))
m1, m2 = nn.Linear(2, 2), nn.Linear(2, 2)
m2.train(False)
err(lambda: torch.func.stack_module_state([m1, m2]))
# ---
# functionalize: the same values, in-place and view updates turned into out-of-place ops
fz = torch.func.functionalize


def f(x):
    y = x.clone()
    y.view(-1)[1:3].add_(10.0)
    z = y.t()
    z.mul_(2.0)
    return y, z.sum(0)


x = torch.arange(6.0).reshape(2, 3)
out(fz(f)(x), f(x))


def mutate_input(x):
    x.add_(1)
    return x * 2


a = torch.ones(3)
out(fz(mutate_input)(a), a)
b = torch.ones(3)
out(fz(mutate_input, remove="mutations_and_views")(b), b)
out(torch.func.grad(lambda x: fz(f)(x)[1].sum())(x))
out(torch.vmap(fz(lambda r: r.clone().add_(1)))(x))
err(lambda: fz(f, remove="everything"))

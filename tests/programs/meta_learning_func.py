# MAML on sine regression with torch.func: functional_call, grad, vmap over tasks, second order
torch.manual_seed(0)
functional_call, grad, vmap = torch.func.functional_call, torch.func.grad, torch.func.vmap
model = nn.Sequential(nn.Linear(1, 20), nn.ReLU(), nn.Linear(20, 20), nn.ReLU(), nn.Linear(20, 1))
params = {k: v.detach() for k, v in model.named_parameters()}
print({k: tuple(v.shape) for k, v in params.items()})


def sample_tasks(n_tasks, n_shot):
    amp = torch.rand(n_tasks, 1, 1) * 4.9 + 0.1
    phase = torch.rand(n_tasks, 1, 1) * torch.pi
    xs = torch.rand(n_tasks, 2 * n_shot, 1) * 10 - 5
    ys = amp * torch.sin(xs + phase)
    return xs[:, :n_shot], ys[:, :n_shot], xs[:, n_shot:], ys[:, n_shot:]


def loss_fn(params, x, y):
    return F.mse_loss(functional_call(model, params, (x,)), y)


def inner_adapt(params, x, y, lr=0.01, steps=1):
    for _ in range(steps):
        g = grad(loss_fn)(params, x, y)
        params = {k: p - lr * g[k] for k, p in params.items()}
    return params


def task_query_loss(params, xs, ys, xq, yq):
    adapted = inner_adapt(params, xs, ys)
    return loss_fn(adapted, xq, yq)


meta_params = {k: v.clone().requires_grad_(True) for k, v in params.items()}
meta_opt = torch.optim.Adam(meta_params.values(), lr=1e-3)
for it in range(4):
    xs, ys, xq, yq = sample_tasks(5, 4)
    losses = vmap(task_query_loss, in_dims=(None, 0, 0, 0, 0))(meta_params, xs, ys, xq, yq)
    meta_loss = losses.mean()
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()
    print(
        f"iter {it}: meta loss {meta_loss.item():.4f} "
        f"per task {[f'{v:.4f}' for v in losses.tolist()]}"
    )
print(losses.grad_fn is not None, meta_params["0.weight"].grad.shape)
out(losses, meta_params["0.weight"].grad, meta_params["4.bias"].grad)
# loop version gives the same meta-gradient as vmap
g_loop = torch.autograd.grad(
    torch.stack([task_query_loss(meta_params, *t) for t in zip(xs, ys, xq, yq)]).mean(),
    meta_params["4.weight"],
)[0]
g_vmap = torch.autograd.grad(
    vmap(task_query_loss, in_dims=(None, 0, 0, 0, 0))(meta_params, xs, ys, xq, yq).mean(),
    meta_params["4.weight"],
)[0]
print(torch.allclose(g_loop, g_vmap, atol=1e-6))
out(g_loop, g_vmap)
# ---
# per-example gradients and a first-order (Reptile) update with functional_call on buffers
torch.manual_seed(3)
net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Tanh(), nn.Linear(4, 1))
net.eval()
params = dict(net.named_parameters())
buffers = dict(net.named_buffers())
print(list(buffers))


def sample_loss(p, b, x, y):
    pred = torch.func.functional_call(net, (p, b), (x.unsqueeze(0),))
    return F.mse_loss(pred.squeeze(0), y)


detached = {k: v.detach() for k, v in params.items()}
X, Y = torch.randn(6, 3), torch.randn(6, 1)
per_ex = torch.func.vmap(torch.func.grad(sample_loss), in_dims=(None, None, 0, 0))(
    detached, buffers, X, Y
)
print({k: tuple(v.shape) for k, v in per_ex.items()})
print(per_ex["3.bias"].squeeze())
norms = torch.stack([g.flatten(1).norm(dim=1) for g in per_ex.values()], 1).norm(dim=1)
print("per-example grad norms", norms)
clipped = {
    k: g * (1.0 / torch.clamp(norms / 1.0, min=1.0)).view(-1, *[1] * (g.ndim - 1))
    for k, g in per_ex.items()
}
mean_grad = {k: g.mean(0) for k, g in clipped.items()}
outer_lr = 0.5
with torch.no_grad():
    for k, p in params.items():
        p.sub_(outer_lr * mean_grad[k])
print(net[3].weight)
grads, value = torch.func.grad_and_value(sample_loss)(detached, buffers, X[0], Y[0])
print(value, list(grads)[:2], grads["3.bias"])
jac = torch.func.jacrev(lambda x: net(x.unsqueeze(0)).squeeze(0))(X[0])
print(jac.shape, jac)
out(per_ex["0.weight"], norms, jac)

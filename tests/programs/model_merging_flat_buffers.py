# Model merging over state_dicts: task arithmetic and TIES (trim, elect sign, disjoint mean)
torch.manual_seed(0)


def make_model():
    return nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))


base = make_model()
finetuned = []
for k in range(3):
    m = make_model()
    m.load_state_dict(base.state_dict())
    with torch.no_grad():
        for p in m.parameters():
            p.add_(torch.randn_like(p) * 0.1 * (k + 1))
    finetuned.append(m)
base_sd = base.state_dict()
task_vectors = [{k: m.state_dict()[k] - v for k, v in base_sd.items()} for m in finetuned]
print(list(task_vectors[0].keys()), task_vectors[0]["0.weight"].dtype)


def task_arithmetic(base_sd, tvs, lam):
    return {k: v + lam * sum(tv[k] for tv in tvs) for k, v in base_sd.items()}


def ties_merge(base_sd, tvs, density=0.5, lam=1.0):
    merged = {}
    for key, base_v in base_sd.items():
        stacked = torch.stack([tv[key] for tv in tvs])
        flat = stacked.reshape(len(tvs), -1)
        k = max(1, int(flat.shape[1] * density))
        thresh = flat.abs().kthvalue(flat.shape[1] - k + 1, dim=1, keepdim=True).values
        trimmed = torch.where(flat.abs() >= thresh, flat, torch.zeros_like(flat))
        sign = torch.sign(trimmed.sum(dim=0))
        agree = (torch.sign(trimmed) == sign) & (trimmed != 0)
        count = agree.sum(dim=0).clamp(min=1)
        disjoint = (trimmed * agree).sum(dim=0) / count
        merged[key] = base_v + lam * disjoint.view_as(base_v)
    return merged


ta = task_arithmetic(base_sd, task_vectors, 0.3)
ties = ties_merge(base_sd, task_vectors, density=0.4)
x = torch.randn(5, 4)
merged = make_model()
for name, sd in (("task arithmetic", ta), ("ties", ties)):
    result = merged.load_state_dict(sd)
    print(name, result, merged(x).detach()[0])
print({k: f"{(ties[k] - base_sd[k]).ne(0).float().mean().item():.2f}" for k in ties})
avg = {k: torch.stack([m.state_dict()[k] for m in finetuned]).mean(0) for k in base_sd}
print(
    f"uniform soup distance {sum((avg[k] - base_sd[k]).norm() ** 2 for k in avg).sqrt().item():.4f}"
)
out(ta["0.weight"], ties["2.bias"], ties["0.weight"], avg["2.weight"])
# ---
# Sharded flat parameter buffers: parameters_to_vector, vector_to_parameters, flattened tensors
torch.manual_seed(0)
from_utils = torch.nn.utils
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2, bias=False))
params = list(model.parameters())
flat = from_utils.parameters_to_vector(params)
print(flat.shape, flat.requires_grad, flat.grad_fn.name())
numels = [p.numel() for p in params]
print(numels, sum(numels))
world_size = 2
padded = (flat.numel() + world_size - 1) // world_size * world_size
flat_buf = torch.zeros(padded)
flat_buf[: flat.numel()] = flat.detach()
shards = flat_buf.chunk(world_size)
print(
    [s.shape for s in shards], shards[1].data_ptr() - flat_buf.data_ptr() == shards[0].numel() * 4
)
x, y = torch.randn(8, 3), torch.randn(8, 2)
F.mse_loss(model(x), y).backward()
flat_grad = torch._utils._flatten_dense_tensors([p.grad for p in params])
print(flat_grad.shape, flat_grad.is_contiguous())
# each rank updates its own shard of the flat parameters (plain SGD), then the shards are gathered
lr = 0.1
grad_buf = torch.zeros(padded)
grad_buf[: flat_grad.numel()] = flat_grad
new_shards = [s - lr * g for s, g in zip(shards, grad_buf.chunk(world_size))]
gathered = torch.cat(new_shards)[: flat.numel()]
from_utils.vector_to_parameters(gathered, params)
print(model[0].weight.data_ptr() != 0, torch.allclose(params[0].view(-1), gathered[: numels[0]]))
views = torch._utils._unflatten_dense_tensors(flat_grad, [p.grad for p in params])
print([tuple(v.shape) for v in views], all(torch.equal(v, p.grad) for v, p in zip(views, params)))
# the same update with the parameters made views into one buffer, as fused optimizers do
buf = torch._utils._flatten_dense_tensors([p.data for p in params]).clone()
for p, v in zip(params, torch._utils._unflatten_dense_tensors(buf, [p.data for p in params])):
    p.data = v
buf.sub_(lr * flat_grad)
print(
    torch.equal(params[1].data, buf[numels[0] : numels[0] + numels[1]]),
    params[2].data.is_contiguous(),
)
print(from_utils.parameters_to_vector(model.parameters()).norm())
out(flat, flat_grad, gathered, buf)

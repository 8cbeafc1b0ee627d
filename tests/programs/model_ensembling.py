# model ensembling: stacked weights, a meta-device base model and vmap
# As the torch.func ensembling tutorial: several small MLPs' parameters are stacked, a copy
# of one model moves to the meta device (shapes only), and functional_call runs it with each
# model's weights under vmap.
import copy


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


num_models = 3
models = [SimpleMLP() for _ in range(num_models)]
with torch.no_grad():
    for k, model in enumerate(models):
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-1.0, 1.0, p.numel()).reshape(p.shape) * (k + 1) / (i + 2))
minibatches = torch.arange(num_models * 2 * 4.0).reshape(num_models, 2, 4) / 10 - 1
minibatch = minibatches[0]
predictions_diff_minibatch = [model(mb) for model, mb in zip(models, minibatches)]
predictions_same_minibatch = [model(minibatch) for model in models]

params, buffers = torch.func.stack_module_state(models)
base_model = copy.deepcopy(models[0])
base_model = base_model.to("meta")
print(base_model.fc1.weight)
print(base_model.fc1.weight.device, models[0].fc1.weight.device, params["fc1.weight"].shape)


def fmodel(params, buffers, x):
    return torch.func.functional_call(base_model, (params, buffers), (x,))


same = torch.vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
diff = torch.vmap(fmodel)(params, buffers, minibatches)
out(same.detach(), diff.detach(), torch.stack(predictions_same_minibatch))
out(torch.stack(predictions_diff_minibatch))
out(torch.allclose(same, torch.stack(predictions_same_minibatch), atol=1e-6))
loss = diff.pow(2).mean()
loss.backward()
out(loss, params["fc2.bias"].grad, list(params))
# ---
# the meta device: shapes and dtypes, no data
m = torch.empty(2, 3, device="meta")
print(m, m.device, m.is_meta)
print(torch.zeros(2, 3, device="meta") @ torch.ones(3, 4, device="meta"))
w = torch.randn(3, 2, device="meta", requires_grad=True)
y = (w * 2).relu().sum()
print(y)
y.backward()
print(w.grad)
lin = nn.Linear(2, 3).to("meta")
out(lin(torch.ones(5, 2, device="meta")).shape, lin.weight.is_meta, lin.weight.dtype)
lin.to_empty(device="cpu")
out(lin.weight.shape, lin.weight.device, lin.weight.requires_grad, lin.weight.is_meta)
err(lambda: m.item())
err(lambda: m[0, 0].item())
err(lambda: m.tolist())
err(lambda: m.numpy())
err(lambda: m.to("cpu"))
out(torch.empty(2, dtype=torch.int64, device="meta").dtype, torch.zeros_like(m).device)

# pruning tutorial: LeNet's conv1 pruned at random and by L1, the mask buffers and forward pre-hooks
import importlib

prune = importlib.import_module(torch.__name__ + ".nn.utils.prune")  # import torch.nn.utils.prune
torch.manual_seed(0)


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 3)
        self.conv2 = nn.Conv2d(6, 16, 3)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(-1, int(x.nelement() / x.shape[0]))
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


model = LeNet()
module = model.conv1
print(list(module.named_parameters())[1])
print(list(module.named_buffers()))
prune.random_unstructured(module, name="weight", amount=0.3)
print([n for n, _ in module.named_parameters()])
print([n for n, _ in module.named_buffers()])
print(int(module.weight_mask.sum().item()), module.weight_mask.numel())
print(torch.equal(module.weight, module.weight_orig * module.weight_mask))
print(list(module._forward_pre_hooks.keys()) != [])
prune.l1_unstructured(module, name="bias", amount=3)
print([n for n, _ in module.named_buffers()])
print(module.bias_mask)
print(module.bias)
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        break
print(type(hook).__name__, hook._tensor_name)
prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
print(module.weight.abs().sum(dim=(1, 2, 3)) != 0)
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        break
print(type(hook).__name__, [type(h).__name__ for h in hook])
print(list(model.state_dict().keys()))
prune.remove(module, "weight")
print([n for n, _ in module.named_parameters()])
print([n for n, _ in module.named_buffers()])
out(module.weight, module.bias, model(torch.randn(1, 1, 28, 28)))
# ---
# pruning tutorial: pruning many parameters, global pruning and a custom pruning method
import importlib

prune = importlib.import_module(torch.__name__ + ".nn.utils.prune")  # import torch.nn.utils.prune
torch.manual_seed(1)
new_model = nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 10))
for _name, module in new_model.named_modules():
    if isinstance(module, torch.nn.Conv2d):
        prune.l1_unstructured(module, name="weight", amount=0.2)
    elif isinstance(module, torch.nn.Linear):
        prune.l1_unstructured(module, name="weight", amount=0.4)
print(dict(new_model.named_buffers()).keys())
model = nn.Sequential(nn.Linear(8, 6), nn.Tanh(), nn.Linear(6, 4))
parameters_to_prune = ((model[0], "weight"), (model[2], "weight"))
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.3)
for i in (0, 2):
    w = model[i].weight
    zeros = float(torch.sum(w == 0))
    print(f"Sparsity in model[{i}].weight: {100.0 * zeros / w.nelement():.2f}%")
total = sum(float(torch.sum(model[i].weight == 0)) for i in (0, 2))
print(f"Global sparsity: {100.0 * total / (48 + 24):.2f}%")


class FooBarPruningMethod(prune.BasePruningMethod):
    """Prune every other entry in a tensor"""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


def foobar_unstructured(module, name):
    FooBarPruningMethod.apply(module, name)
    return module


layer = nn.Linear(3, 4)
foobar_unstructured(layer, name="bias")
print(layer.bias_mask)
print(layer.bias == layer.bias_orig * layer.bias_mask)
print(prune.is_pruned(layer), prune.is_pruned(nn.Linear(2, 2)))
prune.identity(layer, "weight")
print(layer.weight_mask.sum().item())
err(lambda: prune.l1_unstructured(layer, "weight", amount=1.5))
err(lambda: prune.l1_unstructured(layer, "weight", amount=100))
err(lambda: prune.remove(nn.Linear(2, 2), "weight"))
out(layer.bias, layer(torch.ones(1, 3)))

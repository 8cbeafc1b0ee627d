# Pruning a small convnet: unstructured, structured, iterative, then made permanent
import importlib

prune = importlib.import_module(torch.__name__ + ".nn.utils.prune")  # import torch.nn.utils.prune


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 3, 3)
        self.conv2 = nn.Conv2d(3, 4, 3)
        self.fc1 = nn.Linear(4 * 2 * 2, 10)
        self.fc2 = nn.Linear(10, 3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x))
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


model = LeNet()
with torch.no_grad():  # weights with many equal magnitudes, to exercise tie-breaking
    for i, p in enumerate(model.parameters()):
        p.copy_(((torch.arange(p.numel()) * 37 + i) % 9 - 4).float().reshape(p.shape) / 8)
module = model.conv1
print(list(module.named_parameters())[0][0], list(module.named_buffers()))
prune.l1_unstructured(module, name="weight", amount=0.3)
print([name for name, _ in module.named_parameters()])
print([name for name, _ in module.named_buffers()])
out(module.weight, module.weight_mask, type(module.weight).__name__)
print(len(module._forward_pre_hooks), prune.is_pruned(model))
prune.l1_unstructured(module, name="bias", amount=1)
out(module.bias, module.bias_mask, list(module.state_dict().keys()))
# ---
# iterative pruning: a second method only looks at what the first one left
import importlib

prune = importlib.import_module(torch.__name__ + ".nn.utils.prune")
module = nn.Conv2d(2, 4, 2)
with torch.no_grad():
    module.weight.copy_(((torch.arange(32) * 5) % 7 - 3).float().reshape(4, 2, 2, 2))
prune.l1_unstructured(module, "weight", amount=6)
prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
hook = list(module._forward_pre_hooks.values())[0]
print(type(hook).__name__, [type(m).__name__ for m in hook], hook._tensor_name)
out(module.weight_mask, (module.weight == 0).sum())
prune.ln_structured(module, "weight", amount=1, n=float("inf"), dim=1)
out(module.weight_mask)
print(f"sparsity: {100.0 * float((module.weight == 0).sum()) / module.weight.nelement():.2f}%")
# ---
# the forward pre-hook recomputes weight, and gradients reach weight_orig through the mask
import importlib

prune = importlib.import_module(torch.__name__ + ".nn.utils.prune")
layer = nn.Linear(4, 2)
with torch.no_grad():
    layer.weight.copy_(torch.tensor([[0.5, -1.0, 0.25, 2.0], [-0.5, 0.1, 1.5, -2.0]]))
    layer.bias.zero_()
prune.l1_unstructured(layer, "weight", amount=3)
with torch.no_grad():
    layer.weight_orig.add_(1.0)
x = torch.tensor([[1.0, 2.0, 3.0, 4.0]])
y = layer(x)
y.sum().backward()
out(y, layer.weight, layer.weight_orig.grad)
# ---
# remove() makes pruning permanent; state_dict keys before and after
import importlib

prune = importlib.import_module(torch.__name__ + ".nn.utils.prune")
model = nn.Sequential(nn.Linear(6, 4), nn.ReLU(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel()).float() * 1.7 + i).reshape(p.shape))
for _name, m in model.named_modules():
    if isinstance(m, nn.Linear):
        prune.l1_unstructured(m, name="weight", amount=0.4)
print(list(model.state_dict().keys()))
for m in (model[0], model[2]):
    prune.remove(m, "weight")
print(list(model.state_dict().keys()), prune.is_pruned(model))
out(model[0].weight, model(torch.ones(1, 6)))
err(lambda: prune.remove(model[0], "weight"))
# ---
# global pruning ranks every listed parameter together
import importlib

prune = importlib.import_module(torch.__name__ + ".nn.utils.prune")
model = nn.Sequential(nn.Linear(5, 4), nn.Tanh(), nn.Linear(4, 3))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel()).float() * (i + 2)).reshape(p.shape))
parameters_to_prune = ((model[0], "weight"), (model[2], "weight"), (model[2], "bias"))
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.5)
for m, name in parameters_to_prune:
    mask = getattr(m, name + "_mask")
    print(f"{name} of {m}: {100.0 * float((mask == 0).sum()) / mask.nelement():.1f}% pruned")
total = sum(float((getattr(m, n) == 0).sum()) for m, n in parameters_to_prune)
size = sum(getattr(m, n).nelement() for m, n in parameters_to_prune)
print(f"global sparsity: {100.0 * total / size:.2f}%")
out(model[0].weight_mask, model[2].weight_mask, model[2].bias_mask)
# ---
# a custom pruning method: prune every other entry
import importlib

prune = importlib.import_module(torch.__name__ + ".nn.utils.prune")


class EveryOther(prune.BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


def every_other(module, name):
    EveryOther.apply(module, name)
    return module


layer = every_other(nn.Linear(3, 2), "bias")
out(layer.bias_mask, list(layer.state_dict().keys()))
err(lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=1.5))
err(lambda: prune.ln_structured(nn.Linear(2, 2), "bias", amount=1, n=2, dim=0))
err(lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=5))

# torch.compile on a module: OptimizedModule, _orig_mod, stripping the prefix from a checkpoint
torch._dynamo.config.suppress_errors = True
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
cm = torch.compile(model, backend="eager")
print(type(cm).__name__, cm._orig_mod is model, isinstance(cm, nn.Module))
print(cm)
print(list(cm.state_dict().keys()))
print([n for n, _ in cm.named_parameters()], [n for n, _ in cm.named_modules()])
print(cm._orig_mod[0], len(cm._orig_mod))
err(lambda: cm[0])
cm.eval()
print(model.training, cm.training)
cm.train()
out(cm(torch.ones(2, 3)).shape)
opt = torch.optim.SGD(cm.parameters(), lr=0.1)
loss = cm(torch.ones(2, 3)).pow(2).sum()
loss.backward()
opt.step()
out(model[0].weight.grad, model[2].bias)
sd = cm.state_dict()
unwanted_prefix = "_orig_mod."
for k, _v in list(sd.items()):
    if k.startswith(unwanted_prefix):
        sd[k[len(unwanted_prefix) :]] = sd.pop(k)
fresh = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
print(fresh.load_state_dict(sd))
out(fresh[2].bias)
raw = cm._orig_mod if hasattr(cm, "_orig_mod") else cm
print(type(raw).__name__)
print(type(torch.compile(model, disable=True)).__name__)
print(type(torch.compile(model, backend="eager", dynamic=True)).__name__)


@torch.compile(fullgraph=True, backend="eager")
def step(x):
    return x * 2


out(step(torch.ones(2)))
torch._dynamo.reset()
print(torch._dynamo.is_compiling(), torch._dynamo.config.cache_size_limit)
torch._dynamo.mark_dynamic(torch.ones(3), 0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.scale = 3.0

    def forward(self, x):
        return self.fc(x) * self.scale


n = torch.compile(Net(), backend="eager")
print(n.scale, n.fc, n._orig_mod.scale, n.fc.in_features)
print(sum(p.numel() for p in n.parameters()))
n.to(torch.float64)
print(n.fc.weight.dtype, n(torch.ones(1, 2, dtype=torch.float64)).dtype)
err(lambda: n.missing_attribute)

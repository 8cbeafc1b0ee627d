# model surgery: swap activations by name, set_submodule, skip_init + load_state_dict, build facts
torch.manual_seed(0)
print(
    torch.version.cuda, torch.version.hip, torch.cuda.is_available(), torch.compiler.is_compiling()
)
model = nn.Sequential(
    nn.Linear(4, 8),
    nn.ReLU(),
    nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Dropout(0.2)),
    nn.Linear(8, 3),
)
x = torch.randn(5, 4)
before = model(x)
for name, module in list(model.named_modules()):
    if isinstance(module, nn.ReLU):
        model.set_submodule(name, nn.GELU(approximate="tanh"))
print(model)
model.set_submodule("2.2", nn.Identity())
model.set_submodule("2.extra", nn.LayerNorm(8))
print(model[2])
err(lambda: model.set_submodule("2.missing", nn.ReLU(), strict=True))
err(lambda: model.set_submodule("", nn.ReLU()))
err(lambda: model.set_submodule("0.weight", nn.ReLU()))
err(lambda: model.set_submodule("0", "not a module"))
print(model.get_submodule("2.0"), model.get_parameter("3.bias").shape)
model.eval()
after = model(x)
print((after - before).abs().max() > 0)
fresh = nn.utils.skip_init(nn.Linear, 4, 8)
print(fresh, fresh.weight.shape, fresh.weight.requires_grad)
fresh.load_state_dict(model[0].state_dict())
print(torch.equal(fresh.weight, model[0].weight))
err(lambda: nn.utils.skip_init(nn.ReLU))
head = model[3]
model[3] = nn.Linear(8, 5)
nn.init.zeros_(model[3].bias)
print(model[3], head.out_features, model(x).shape)
out(after, fresh.weight, model(x))

# copies of configs and models: deepcopy keeps dtypes, devices and tensors; copy.copy of a module
import copy
from dataclasses import dataclass, field


@dataclass
class Config:
    dtype: object = torch.float32
    device: object = torch.device("cpu")
    lr: float = 1e-3
    sizes: list = field(default_factory=lambda: [4, 8])


cfg = Config()
cfg2 = copy.deepcopy(cfg)
print(cfg2, cfg2.dtype is torch.float32, cfg2.device == torch.device("cpu"))
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to(cfg.dtype)
model.cfg = cfg
twin = copy.deepcopy(model)
print(twin.cfg.dtype is torch.float32, twin[0].weight is model[0].weight)
print(torch.equal(twin[0].weight, model[0].weight), twin[0].weight.requires_grad)
shallow = copy.copy(model)
print(shallow[0] is model[0])
x = torch.randn(3, 4)
out(model(x), twin(x))
with torch.no_grad():
    twin[0].weight.add_(1.0)
print(torch.equal(twin[0].weight, model[0].weight))
t = torch.randn(2, 2, requires_grad=True)
u = t * 2
try:
    copy.deepcopy(u)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
print(
    copy.deepcopy(t).requires_grad,
    copy.deepcopy(t).is_leaf,
    copy.deepcopy(t.detach()).requires_grad,
)
opt = torch.optim.Adam(model.parameters())
model(x).sum().backward()
opt.step()
sd = copy.deepcopy(opt.state_dict())
print(sd["state"][0]["step"], sd["param_groups"][0]["betas"])
states = [copy.deepcopy(model.state_dict()) for _ in range(2)]
print(states[0]["0.bias"].equal(states[1]["0.bias"]))
print(x.max(1), copy.deepcopy(x.max(1)).indices)

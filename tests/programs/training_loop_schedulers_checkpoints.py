# every lr_scheduler stepped with get_last_lr, chained and sequential, printed state
torch.manual_seed(0)
S = torch.optim.lr_scheduler


def make():
    return torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=0.1, momentum=0.9)


def run(factory, n=8, metric=None):
    opt = make()
    s = factory(opt)
    lrs = []
    for i in range(n):
        opt.step()
        if metric is None:
            s.step()
        else:
            s.step(metric[i])
        lrs.append(
            round(s.get_last_lr()[0] if hasattr(s, "get_last_lr") else opt.param_groups[0]["lr"], 8)
        )
    return lrs


print(run(lambda o: S.LambdaLR(o, lambda e: 0.9**e)))
print(run(lambda o: S.MultiplicativeLR(o, lambda e: 0.95)))
print(run(lambda o: S.StepLR(o, 3, 0.5)))
print(run(lambda o: S.MultiStepLR(o, [2, 5], 0.1)))
print(run(lambda o: S.ConstantLR(o, factor=0.5, total_iters=3)))
print(run(lambda o: S.LinearLR(o, start_factor=0.25, total_iters=4)))
print(run(lambda o: S.ExponentialLR(o, 0.8)))
print(run(lambda o: S.PolynomialLR(o, total_iters=5, power=2.0)))
print(run(lambda o: S.CosineAnnealingLR(o, T_max=4, eta_min=0.01), 10))
print(run(lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.001), 12))
print(run(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode="triangular2"), 10))
print(run(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode="exp_range", gamma=0.9), 10))
print(run(lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=10), 10))
print(
    run(
        lambda o: S.OneCycleLR(
            o, max_lr=0.5, epochs=2, steps_per_epoch=5, anneal_strategy="linear", three_phase=True
        ),
        10,
    )
)
print(
    run(
        lambda o: S.SequentialLR(
            o, [S.LinearLR(o, 0.1, total_iters=3), S.CosineAnnealingLR(o, 5)], milestones=[3]
        ),
        9,
    )
)
print(run(lambda o: S.ChainedScheduler([S.ExponentialLR(o, 0.9), S.StepLR(o, 2, 0.5)]), 6))
print(
    run(
        lambda o: S.ReduceLROnPlateau(o, mode="min", factor=0.5, patience=1, threshold=0.01),
        8,
        [1.0, 0.9, 0.95, 0.94, 0.93, 0.99, 1.0, 1.1],
    )
)
opt = make()
p = S.ReduceLROnPlateau(opt, "max", patience=0, cooldown=1, min_lr=0.02)
for m in [0.5, 0.4, 0.3, 0.2, 0.1]:
    p.step(m)
print(
    opt.param_groups[0]["lr"],
    p.num_bad_epochs,
    p.best,
    p.get_last_lr(),
    p.state_dict()["cooldown_counter"],
)
opt = make()
s = S.OneCycleLR(opt, max_lr=0.1, total_steps=5)
print(
    opt.param_groups[0]["momentum"],
    opt.param_groups[0]["initial_lr"],
    opt.param_groups[0]["max_lr"],
    opt.param_groups[0]["min_lr"],
)
print(sorted(s.state_dict().keys()))
s2 = S.StepLR(make(), 2)
s2.load_state_dict(S.StepLR(make(), 5, gamma=0.3).state_dict())
print(s2.step_size, s2.gamma, s2.last_epoch, s2.base_lrs)
opt = torch.optim.Adam([nn.Parameter(torch.ones(1))], lr=0.01)
s = S.OneCycleLR(opt, max_lr=0.01, total_steps=4)
for _ in range(4):
    opt.step()
    s.step()
print(opt.param_groups[0]["betas"], s.get_last_lr())
# ---
# add_param_group, state_dict round trips through BytesIO, early stopping with deepcopy
import copy
import io

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
opt = torch.optim.Adam(model[0].parameters(), lr=1e-2)
opt.add_param_group({"params": model[2].parameters(), "lr": 1e-3, "weight_decay": 0.1})
print(
    len(opt.param_groups),
    opt.param_groups[1]["lr"],
    opt.param_groups[1]["betas"],
    opt.param_groups[1]["weight_decay"],
)
x, y = torch.randn(16, 3), torch.randn(16, 1)
best, best_state, wait = float("inf"), None, 0
for epoch in range(6):
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    if loss.item() < best - 1e-3:
        best, wait = loss.item(), 0
        best_state = copy.deepcopy(model.state_dict())
    else:
        wait += 1
    print(f"epoch {epoch:02d} loss {loss:.5f} best {best:.5f}")
buf = io.BytesIO()
torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": 5, "best": best}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
print(sorted(ck), ck["epoch"], list(ck["model"].keys()), ck["opt"]["param_groups"][1]["params"])
m2 = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
print(m2.load_state_dict(ck["model"]))
o2 = torch.optim.Adam(m2[0].parameters(), lr=1e-2)
o2.add_param_group({"params": m2[2].parameters(), "lr": 1e-3, "weight_decay": 0.1})
o2.load_state_dict(ck["opt"])
print(o2.state_dict()["state"][0]["step"], o2.state[m2[0].weight]["exp_avg"].shape)
model.load_state_dict(best_state)
out(model(x)[:3], m2(x)[:3])
r = m2.load_state_dict({k: v for k, v in ck["model"].items() if "2." not in k}, strict=False)
print(r.missing_keys, r.unexpected_keys, r)
err(lambda: m2.load_state_dict({"0.weight": torch.zeros(2, 2)}))
sd = model.state_dict()
print(type(sd).__name__, sd["0.bias"].requires_grad, sd["0.bias"].grad_fn)
# ---
# model.apply init, named_modules filters, persistent buffers, freezing and grad mode decorators
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU())
        self.fc = nn.Linear(4, 2)
        self.register_buffer("scale", torch.tensor(2.0))
        self.register_buffer("cache", torch.zeros(3), persistent=False)

    def forward(self, x):
        return self.fc(self.features(x).mean((2, 3))) * self.scale


def init(m):
    if isinstance(m, (nn.Conv2d, nn.Linear)):
        nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
        if m.bias is not None:
            nn.init.zeros_(m.bias)
    elif isinstance(m, nn.BatchNorm2d):
        nn.init.constant_(m.weight, 1)
        nn.init.constant_(m.bias, 0)


net = Net()
print(net.apply(init) is net)
print(
    [n for n, m in net.named_modules() if isinstance(m, nn.Conv2d)], list(net.state_dict().keys())
)
print([n for n, _ in net.named_buffers()], [n for n, _ in net.named_modules(prefix="root")][:3])
print([n for n, m in net.named_modules(remove_duplicate=False)])
for p in net.features.parameters():
    p.requires_grad_(False)
trainable = filter(lambda p: p.requires_grad, net.parameters())
opt = torch.optim.SGD(trainable, lr=0.1)
print(
    sum(p.numel() for p in net.parameters() if p.requires_grad), len(opt.param_groups[0]["params"])
)
x = torch.randn(2, 1, 5, 5)
net(x).sum().backward()
print(net.features[0].weight.grad, net.fc.weight.grad.shape)


@torch.no_grad()
def evaluate(m, x):
    return m(x)


@torch.inference_mode()
def infer(m, x):
    return m(x)


@torch.enable_grad()
def with_grad(x):
    return x * 2


e = evaluate(net, x)
i = infer(net, x)
print(e.requires_grad, i.requires_grad, i.is_inference(), e.is_inference())
with torch.no_grad():
    print(with_grad(torch.ones(1, requires_grad=True)).requires_grad)
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled(), (torch.ones(1, requires_grad=True) * 2).requires_grad)
torch.set_grad_enabled(True)
with torch.inference_mode(mode=False):
    print(torch.is_inference_mode_enabled())
err(lambda: i.add_(1))
err(lambda: (i * torch.ones(1, requires_grad=True)).sum().backward())
print(torch.no_grad()(lambda a: a * 2)(torch.ones(1, requires_grad=True)).requires_grad)
net.eval()
print(net.training, net.features[1].training, net.train().training)
net.requires_grad_(False)
print(any(p.requires_grad for p in net.parameters()))
print(net.zero_grad(), net.fc.weight.grad)

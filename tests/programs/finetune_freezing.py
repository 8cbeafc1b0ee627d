# fine-tuning: freeze a pretrained backbone, replace the head, later unfreeze with add_param_group
torch.manual_seed(0)


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 4, 3, padding=1),
            nn.BatchNorm2d(4),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(4, 8, 3, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        return self.fc(torch.flatten(self.features(x), 1))


model = Backbone()
print(model)
for name, module in model.named_modules():
    if isinstance(module, (nn.Conv2d, nn.Linear)):
        print(f"{name:12s} {type(module).__name__:8s} {tuple(module.weight.shape)}")
for p in model.parameters():
    p.requires_grad_(False)
model.fc = nn.Linear(model.fc.in_features, 3)
trainable = [n for n, p in model.named_parameters() if p.requires_grad]
frozen = sum(p.numel() for p in model.parameters() if not p.requires_grad)
print("trainable:", trainable, "frozen params:", frozen)
opt = torch.optim.SGD(filter(lambda p: p.requires_grad, model.parameters()), lr=0.1, momentum=0.9)
print(opt)
x = torch.randn(6, 1, 8, 8)
y = torch.tensor([0, 1, 2, 0, 1, 2])
model.features.eval()  # keep frozen BatchNorm statistics
for step in range(3):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"head-only step {step}: {loss.item():.4f}")
print(model.features[0].weight.grad is None, model.features[1].running_mean)
# unfreeze the last conv block with a smaller learning rate
for p in model.features[4:].parameters():
    p.requires_grad = True
opt.add_param_group({"params": list(model.features[4:].parameters()), "lr": 0.01})
print(
    len(opt.param_groups),
    [g["lr"] for g in opt.param_groups],
    [len(g["params"]) for g in opt.param_groups],
)
print(opt.param_groups[1]["momentum"], opt.param_groups[1]["nesterov"])
model.train()
for step in range(3):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"partial step {step}: {loss.item():.4f}")
print(model.features[4].weight.grad.abs().sum() > 0, model.features[0].weight.grad)
out(model.fc.weight, model.features[4].weight, model.features[5].running_mean)
state = opt.state_dict()
print(state["param_groups"][1]["params"], sorted(state["state"].keys()))
# ---
# gradient accumulation over micro-batches equals one large batch
torch.manual_seed(4)
net = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1))
net2 = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1))
net2.load_state_dict(net.state_dict())
opt1 = torch.optim.SGD(net.parameters(), lr=0.1)
opt2 = torch.optim.SGD(net2.parameters(), lr=0.1)
X, Y = torch.randn(12, 5), torch.randn(12, 1)
accum = 3
opt1.zero_grad()
for i, (xb, yb) in enumerate(zip(X.chunk(accum), Y.chunk(accum))):
    loss = F.mse_loss(net(xb), yb) / accum
    loss.backward()
    print(f"micro {i}: {loss.item():.5f} grad norm so far {net[0].weight.grad.norm():.5f}")
opt1.step()
opt2.zero_grad()
F.mse_loss(net2(X), Y).backward()
opt2.step()
print(torch.allclose(net[0].weight, net2[0].weight, atol=1e-6))
print((net[2].weight - net2[2].weight).abs().max() < 1e-6)
out(net[0].weight, net2[0].weight, net[0].weight.grad)
# ---
# named_parameters with per-name weight decay groups, requires_grad_ on a whole module, zero_grad
torch.manual_seed(6)
m = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Linear(4, 2))
decay, no_decay = [], []
for name, p in m.named_parameters():
    (no_decay if name.endswith("bias") or p.ndim == 1 else decay).append(p)
    print(name, p.shape, p.requires_grad)
opt = torch.optim.AdamW(
    [{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}], lr=1e-2
)
print(opt)
m[1].requires_grad_(False)
print([n for n, p in m.named_parameters() if not p.requires_grad])
loss = m(torch.randn(5, 3)).pow(2).mean()
loss.backward()
opt.step()
print(m[1].weight.grad, m[1].weight)
opt.zero_grad(set_to_none=False)
print(m[0].bias.grad)
out(m[0].weight, m[2].bias)

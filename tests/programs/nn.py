# nn modules
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
print(m)
out(
    [k for k, _ in m.named_parameters()],
    list(m.state_dict().keys()),
    [p.shape for p in m.parameters()],
)
x = torch.ones(5, 4)
y = m(x)
out(y.shape, y.grad_fn.name())
# ---
# state dict round trip errors
m = nn.Linear(3, 2)
sd = m.state_dict()
sd["extra"] = torch.ones(1)
err(lambda: m.load_state_dict(sd))
r = m.load_state_dict(sd, strict=False)
out(r.missing_keys, r.unexpected_keys)
del sd["weight"]
err(lambda: m.load_state_dict(sd))
sd = m.state_dict()
sd["weight"] = torch.ones(5, 5)
err(lambda: m.load_state_dict(sd))
# ---
# batchnorm
bn = nn.BatchNorm1d(3)
print(bn)
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0], [0.0, 1.0, -1.0]])
y = bn(x)
out(y, bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
out(bn(x))
bn.train()
err(lambda: bn(torch.ones(1, 3)))
err(lambda: bn(torch.ones(2, 3, 4, 5)))
bn2 = nn.BatchNorm2d(2)
out(bn2(torch.arange(16.0).reshape(2, 2, 2, 2)))
out(list(bn2.state_dict().keys()))
# ---
# dropout eval
torch.manual_seed(0)
d = nn.Dropout(0.5)
d.eval()
x = torch.ones(4)
out(d(x), d.training, nn.Dropout(0.0)(x))
print(
    d,
    nn.Dropout2d(0.2),
    nn.ReLU(inplace=True),
    nn.LeakyReLU(0.1),
    nn.GELU(),
    nn.Softmax(dim=1),
    nn.Flatten(),
    nn.Identity(),
)
# ---
# losses
logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]], requires_grad=True)
t = torch.tensor([1, 2])
loss = F.cross_entropy(logits, t)
out(
    loss,
    nn.CrossEntropyLoss(reduction="none")(logits, t),
    nn.CrossEntropyLoss(label_smoothing=0.1)(logits, t),
    F.cross_entropy(logits, torch.tensor([1, -100])),
    F.cross_entropy(logits, torch.tensor([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])),
)
out(
    F.nll_loss(logits.log_softmax(1), t),
    F.mse_loss(logits, torch.ones(2, 3)),
    F.l1_loss(logits, torch.ones(2, 3)),
    F.binary_cross_entropy(logits.sigmoid(), torch.ones(2, 3)),
    F.binary_cross_entropy_with_logits(logits, torch.ones(2, 3)),
)
loss.backward()
out(logits.grad)
err(lambda: F.cross_entropy(logits, torch.tensor([1, 5])))
err(lambda: F.mse_loss(logits, torch.ones(3)))
err(lambda: F.cross_entropy(logits, torch.tensor([1.0, 2.0])))
# ---
# conv
torch.manual_seed(0)
x = torch.arange(2 * 3 * 5 * 5, dtype=torch.float32).reshape(2, 3, 5, 5) / 50
w = torch.arange(4 * 3 * 3 * 3, dtype=torch.float32).reshape(4, 3, 3, 3) / 100
w.requires_grad_()
out(
    F.conv2d(x, w),
    F.conv2d(x, w, stride=2, padding=1),
    F.conv2d(x, w, padding="same"),
    F.conv2d(x, w[:3, :1], groups=3),
    F.conv2d(x, w, dilation=2),
)
out(
    F.max_pool2d(x, 2),
    F.avg_pool2d(x, 2),
    F.adaptive_avg_pool2d(x, 1),
    F.max_pool2d(x, 3, stride=1, padding=1),
    F.avg_pool2d(x, 3, stride=2, padding=1),
)
err(lambda: F.conv2d(x, torch.ones(4, 2, 3, 3)))
# ---
# optim
torch.manual_seed(0)
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9, weight_decay=0.01, nesterov=True)
for _ in range(3):
    opt.zero_grad()
    (w**2).sum().backward()
    opt.step()
out(w)
w2 = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
opt = torch.optim.Adam([w2], lr=0.1, amsgrad=True)
for _ in range(3):
    opt.zero_grad()
    (w2**2).sum().backward()
    opt.step()
out(w2, list(opt.state_dict()["state"][0].keys()), opt.state_dict()["param_groups"][0]["lr"])
sched = torch.optim.lr_scheduler.StepLR(opt, 2, gamma=0.5)
lrs = []
for _ in range(5):
    opt.step()
    sched.step()
    lrs.append(opt.param_groups[0]["lr"])
out(lrs, sched.get_last_lr())
# ---
# embedding layernorm groupnorm
torch.manual_seed(0)
e = nn.Embedding(5, 3)
out(e(torch.tensor([1, 1, 4])).shape, e.weight.shape)
err(lambda: e(torch.tensor([5])))
err(lambda: e(torch.tensor([1.0])))
ln = nn.LayerNorm(4)
x = torch.arange(8.0).reshape(2, 4)
out(
    ln(x),
    nn.GroupNorm(2, 4)(x.reshape(2, 4, 1)),
    F.layer_norm(x, (4,)),
    F.gelu(x),
    F.silu(x),
    F.leaky_relu(x - 4, 0.2),
    F.gelu(x, approximate="tanh"),
)
print(
    ln,
    nn.GroupNorm(2, 4),
    e,
    nn.Conv2d(3, 4, 3, stride=2, padding=1, bias=False),
    nn.MaxPool2d(2),
    nn.AvgPool2d(2),
    nn.AdaptiveAvgPool2d((1, 1)),
    nn.BatchNorm2d(3),
)


# ---
# module api
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.register_buffer("buf", torch.zeros(2))
        self.register_buffer("tmp", torch.zeros(2), persistent=False)
        self.layers = nn.ModuleList([nn.Linear(2, 2), nn.Tanh()])
        self.d = nn.ModuleDict({"a": nn.Sigmoid()})

    def forward(self, x):
        return self.d["a"](self.layers[1](self.layers[0](self.fc(x)))) + self.buf


n = Net()
print(n)
out(
    [k for k, _ in n.named_modules()],
    list(n.state_dict().keys()),
    [k for k, _ in n.named_buffers()],
    len(list(n.children())),
)
n.eval()
out(n.training, n.fc.training)
n.double()
out(n.fc.weight.dtype)
n.zero_grad()
out(n.fc.weight.grad)
# ---
# loss grad_fn names
x = torch.tensor([[0.2, 0.7, 0.1], [0.5, 0.25, 0.25]], requires_grad=True)
p = torch.tensor([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])
t = torch.tensor([1, 2])
w = torch.tensor([1.0, 2.0, 0.5])
for red in ["mean", "sum", "none"]:
    out(
        F.cross_entropy(x, t, reduction=red),
        F.cross_entropy(x, p, reduction=red),
        F.cross_entropy(x, t, weight=w, reduction=red),
        F.cross_entropy(x, p, weight=w, reduction=red),
        F.cross_entropy(x, t, label_smoothing=0.2, reduction=red),
        F.cross_entropy(x, p, label_smoothing=0.2, reduction=red),
        F.cross_entropy(x, t, weight=w, label_smoothing=0.2, reduction=red),
        F.nll_loss(x, t, reduction=red),
        F.nll_loss(x, t, weight=w, reduction=red),
        F.nll_loss(x, t, ignore_index=1, reduction=red),
        F.mse_loss(x, p, reduction=red),
        F.l1_loss(x, p, reduction=red),
        F.binary_cross_entropy(x, p, reduction=red),
        F.binary_cross_entropy(x, p, weight=w, reduction=red),
        F.binary_cross_entropy_with_logits(x, p, reduction=red),
        F.binary_cross_entropy_with_logits(x, p, pos_weight=w, reduction=red),
        F.binary_cross_entropy_with_logits(x, p, weight=w, reduction=red),
    )
# ---
# 1d inputs and higher-dim CE
x = torch.tensor([0.2, 0.7, 0.1], requires_grad=True)
out(
    F.cross_entropy(x, torch.tensor(1)),
    F.cross_entropy(x, torch.tensor([0.2, 0.3, 0.5])),
    F.nll_loss(x, torch.tensor(1)),
)
x4 = torch.arange(24.0).reshape(2, 3, 2, 2).div(10).requires_grad_()
out(
    F.cross_entropy(x4, torch.tensor([[[0, 1], [2, 1]], [[1, 1], [0, 0]]])),
    F.cross_entropy(x4, torch.tensor([[[0, 1], [2, 1]], [[1, 1], [0, 0]]]), reduction="none"),
    F.cross_entropy(x4, x4.detach().softmax(1)),
)

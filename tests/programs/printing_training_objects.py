# What training scripts print: optimizers, state dicts, parameters, dtype info, distributions, sizes
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.05, amsgrad=True)
print(opt)
print(
    torch.optim.SGD(
        [{"params": model[0].parameters()}, {"params": model[1].parameters(), "lr": 0.1}],
        lr=0.01,
        momentum=0.9,
    )
)
print(model.state_dict())
print(list(model.named_parameters())[0])
print(model[0].bias)
print(nn.Parameter(torch.zeros(2, dtype=torch.float64), requires_grad=False))
print(torch.finfo(torch.float32))
print(torch.finfo(torch.bfloat16).eps, torch.finfo(torch.float16).max, torch.iinfo(torch.int8))
print(torch.distributions.Normal(torch.zeros(2), torch.ones(2)))
print(torch.distributions.Categorical(probs=torch.tensor([0.2, 0.8])))
print(torch.distributions.Bernoulli(logits=torch.tensor(0.3)))
print(torch.Size([2, 3]), torch.Size([]), tuple(torch.Size([4])))
x = torch.randn(2, 3, requires_grad=True)
print(x.shape, x.dtype, x.device, x.layout, x.requires_grad, x.is_leaf)
y = (x * 2).sum()
print(y, y.item(), f"{y.item():.3f}", f"{y:.3f}")
print(torch.tensor(3), torch.tensor(3.0), torch.tensor(True), torch.tensor(2 + 1j))
print(
    torch.tensor([1e-8, 1.0, 1e8]),
    torch.tensor([0.1, 100.0]),
    torch.tensor([1.0, 2.0], dtype=torch.float64),
)
print(torch.zeros(2, 0), torch.ones(1, 2, dtype=torch.int32), torch.arange(3, dtype=torch.uint8))
print(torch.tensor([float("nan"), float("inf"), -float("inf"), 0.5]))
print(torch.randn(2, 2).half(), torch.randn(2).to(torch.bfloat16))
print({"loss": torch.tensor(0.25), "acc": 0.5})
print([torch.tensor(1), torch.tensor([2.0])])
print(repr(torch.tensor([1.5])), str(torch.tensor([1.5])))
print(opt.state_dict()["param_groups"])
# ---
# The step log of a training script: epochs, lrs from param groups, timing-free summaries
torch.manual_seed(0)
model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 3], gamma=0.1)
X, Y = torch.randn(16, 4), torch.randint(0, 2, (16,))
history = {"loss": [], "acc": [], "lr": []}
for epoch in range(1, 5):
    logits = model(X)
    loss = F.cross_entropy(logits, Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (logits.argmax(1) == Y).float().mean().item()
    history["loss"].append(loss.item())
    history["acc"].append(acc)
    history["lr"].append(opt.param_groups[0]["lr"])
    sched.step()
    print(
        "Epoch: {:02d} | Loss: {:.4f} | Acc: {:.2%} | LR: {:.0e}".format(
            epoch, loss.item(), acc, history["lr"][-1]
        )
    )
print({k: [round(v, 4) for v in vs] for k, vs in history.items()})
print(f"best epoch {int(torch.tensor(history['loss']).argmin()) + 1}")
print(sched.state_dict())
print("%.5f" % loss, "%d" % Y.sum(), "{}".format(Y[:4]))  # noqa: UP031, UP032 - tensors in old formats
out(history["loss"])

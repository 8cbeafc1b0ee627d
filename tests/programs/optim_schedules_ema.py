# LR schedules in a training loop: warmup with LambdaLR, OneCycleLR, SequentialLR, plateau
rng = np.random.default_rng(0)
x = torch.tensor(rng.standard_normal((16, 3)), dtype=torch.float32)
y = x @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.3


def make_model():
    model = nn.Linear(3, 1)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[0.1, 0.2, -0.1]]))
        model.bias.zero_()
    return model


def run(make_scheduler, steps=8, per_batch=True):
    model = make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scheduler = make_scheduler(optimizer)
    lrs, losses = [], []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        lrs.append(round(optimizer.param_groups[0]["lr"], 8))
        losses.append(loss.item())
        if isinstance(scheduler, torch.optim.lr_scheduler.ReduceLROnPlateau):
            scheduler.step(1.0)
        else:
            scheduler.step()
    return lrs, losses


sched = torch.optim.lr_scheduler
out(run(lambda o: sched.LambdaLR(o, lambda step: min(1.0, (step + 1) / 4))))
out(run(lambda o: sched.OneCycleLR(o, max_lr=0.2, total_steps=8)))
out(run(lambda o: sched.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01)))
out(
    run(
        lambda o: sched.SequentialLR(
            o,
            schedulers=[
                sched.LinearLR(o, start_factor=0.25, total_iters=3),
                sched.ExponentialLR(o, gamma=0.8),
            ],
            milestones=[3],
        )
    )
)
out(run(lambda o: sched.ReduceLROnPlateau(o, mode="min", factor=0.5, patience=1)))
out(run(lambda o: sched.MultiStepLR(o, milestones=[2, 5], gamma=0.1)))
out(run(lambda o: sched.PolynomialLR(o, total_iters=6, power=2.0)))
# ---
# gradient accumulation over micro-batches, and an exponential moving average of the weights
rng = np.random.default_rng(1)
x = torch.tensor(rng.standard_normal((12, 4)), dtype=torch.float32)
y = torch.tensor(rng.integers(0, 2, 12))
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape))))
ema = torch.optim.swa_utils.AveragedModel(
    model, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.9)
)
swa = torch.optim.swa_utils.AveragedModel(model)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
accumulation_steps = 3
optimizer.zero_grad()
for i in range(12):
    loss = F.cross_entropy(model(x[i : i + 1]), y[i : i + 1]) / accumulation_steps
    loss.backward()
    if (i + 1) % accumulation_steps == 0:
        optimizer.step()
        optimizer.zero_grad()
        ema.update_parameters(model)
        swa.update_parameters(model)
        out(i, loss, model[0].bias)
out(ema.n_averaged, ema.module[0].bias, swa.module[2].weight)
out([k for k in ema.state_dict()])
with torch.no_grad():
    out(ema(x[:3]), swa(x[:3]))
# full-batch accumulation gives the same gradient as one big batch
model.zero_grad()
for i in range(0, 12, 4):
    (F.cross_entropy(model(x[i : i + 4]), y[i : i + 4], reduction="sum") / 12).backward()
accumulated = model[0].weight.grad.clone()
model.zero_grad()
F.cross_entropy(model(x), y).backward()
out(torch.allclose(accumulated, model[0].weight.grad, atol=1e-6))

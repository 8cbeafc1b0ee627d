# LR schedulers: OneCycle, warm restarts, plateau, SequentialLR, ChainedScheduler, cyclic
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
s1 = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10)
lrs = []
for _ in range(10):
    opt.step()
    s1.step()
    lrs.append(round(s1.get_last_lr()[0], 6))
print(lrs, opt.param_groups[0]["momentum"])
opt = torch.optim.SGD(model.parameters(), lr=0.1)
s2 = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.001)
for epoch in range(4):
    for i in range(3):
        s2.step(epoch + i / 3)
    print(epoch, [f"{v:.5f}" for v in s2.get_last_lr()])
opt = torch.optim.Adam(model.parameters(), lr=0.1)
s3 = torch.optim.lr_scheduler.ReduceLROnPlateau(
    opt, mode="min", factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=0.01
)
for v in [1.0, 0.99, 0.99, 0.99, 0.98, 0.5, 0.5, 0.5, 0.5]:
    s3.step(v)
    print(s3.get_last_lr(), s3.num_bad_epochs, s3.best)
opt = torch.optim.SGD(model.parameters(), lr=1.0)
warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=3)
decay = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
seq = torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[warm, decay], milestones=[3])
vals = []
for _ in range(6):
    opt.step()
    seq.step()
    vals.append(f"{seq.get_last_lr()[0]:.4f}")
print(vals)
opt = torch.optim.SGD(model.parameters(), lr=1.0)
ch = torch.optim.lr_scheduler.ChainedScheduler(
    [
        torch.optim.lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=2),
        torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9),
    ]
)
vals = []
for _ in range(4):
    opt.step()
    ch.step()
    vals.append(f"{ch.get_last_lr()[0]:.4f}")
print(vals, ch.state_dict().keys())
opt = torch.optim.SGD(model.parameters(), lr=1.0)
cyc = torch.optim.lr_scheduler.CyclicLR(
    opt, base_lr=0.01, max_lr=0.1, step_size_up=2, mode="triangular2"
)
print([f"{(opt.step(), cyc.step(), cyc.get_last_lr()[0])[2]:.4f}" for _ in range(9)])
poly = torch.optim.lr_scheduler.PolynomialLR(
    torch.optim.SGD(model.parameters(), lr=1.0), total_iters=4, power=2.0
)
print([round((poly.optimizer.step(), poly.step(), poly.get_last_lr()[0])[2], 5) for _ in range(5)])
mul = torch.optim.lr_scheduler.MultiplicativeLR(
    torch.optim.SGD(model.parameters(), lr=1.0), lambda e: 0.95
)
print([round((mul.optimizer.step(), mul.step(), mul.get_last_lr()[0])[2], 5) for _ in range(3)])
print(s3.state_dict()["best"], s1.state_dict()["total_steps"])
sd = seq.state_dict()
print(sorted(sd.keys()), sd["_milestones"])

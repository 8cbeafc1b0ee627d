# d2l learning-rate scheduling: hand-written square-root, factor and cosine-with-warmup schedulers
import math


class SquareRootScheduler:
    def __init__(self, lr=0.1):
        self.lr = lr

    def __call__(self, num_update):
        return self.lr * pow(num_update + 1.0, -0.5)


class FactorScheduler:
    def __init__(self, factor=1, stop_factor_lr=1e-7, base_lr=0.1):
        self.factor = factor
        self.stop_factor_lr = stop_factor_lr
        self.base_lr = base_lr

    def __call__(self, num_update):
        self.base_lr = max(self.stop_factor_lr, self.base_lr * self.factor)
        return self.base_lr


class CosineScheduler:
    def __init__(self, max_update, base_lr=0.01, final_lr=0, warmup_steps=0, warmup_begin_lr=0):
        self.base_lr_orig = base_lr
        self.max_update = max_update
        self.final_lr = final_lr
        self.warmup_steps = warmup_steps
        self.warmup_begin_lr = warmup_begin_lr
        self.max_steps = self.max_update - self.warmup_steps

    def get_warmup_lr(self, epoch):
        increase = (
            (self.base_lr_orig - self.warmup_begin_lr) * float(epoch) / float(self.warmup_steps)
        )
        return self.warmup_begin_lr + increase

    def __call__(self, epoch):
        if epoch < self.warmup_steps:
            return self.get_warmup_lr(epoch)
        if epoch <= self.max_update:
            self.base_lr = (
                self.final_lr
                + (self.base_lr_orig - self.final_lr)
                * (1 + math.cos(math.pi * (epoch - self.warmup_steps) / self.max_steps))
                / 2
            )
        return self.base_lr


scheduler = SquareRootScheduler(lr=0.1)
print([f"{scheduler(t):.4f}" for t in torch.arange(5)])
scheduler = FactorScheduler(factor=0.9, stop_factor_lr=1e-2, base_lr=2.0)
print([round(scheduler(t), 4) for t in range(0, 50, 10)])
scheduler = CosineScheduler(max_update=20, base_lr=0.3, final_lr=0.01, warmup_steps=5)
lrs = torch.tensor([scheduler(t) for t in range(25)])
print(lrs)
out(lrs)

# the scheduler drives an optimizer by writing into param_groups, as the chapter's train loop does
net = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3))
X, y = torch.randn(32, 6), torch.randint(0, 3, (32,))
loss = nn.CrossEntropyLoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.3)
scheduler = CosineScheduler(max_update=6, base_lr=0.3, final_lr=0.01, warmup_steps=2)
for epoch in range(8):
    trainer.zero_grad()
    batch_loss = loss(net(X), y)
    batch_loss.backward()
    trainer.step()
    for param_group in trainer.param_groups:
        param_group["lr"] = scheduler(epoch)
    print(f"epoch {epoch}: loss {batch_loss.item():.4f} lr {trainer.param_groups[0]['lr']:.4f}")

# the built-in equivalents: MultiStepLR and CosineAnnealingLR, and a LambdaLR square root
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
multi = torch.optim.lr_scheduler.MultiStepLR(trainer, milestones=[3, 6], gamma=0.5)
seen = []
for _ in range(8):
    trainer.step()
    multi.step()
    seen.append(multi.get_last_lr()[0])
print(seen)
trainer = torch.optim.SGD(net.parameters(), lr=0.3)
cos = torch.optim.lr_scheduler.CosineAnnealingLR(trainer, T_max=6, eta_min=0.01)
for _ in range(7):
    trainer.step()
    cos.step()
    print(f"{cos.get_last_lr()[0]:.6f}", end=" ")
print()
trainer = torch.optim.SGD(net.parameters(), lr=0.1)
sqrt = torch.optim.lr_scheduler.LambdaLR(trainer, lambda t: (t + 1.0) ** -0.5)
for _ in range(4):
    trainer.step()
    sqrt.step()
print(
    sqrt.state_dict()["last_epoch"],
    [f"{v:.5f}" for v in sqrt.get_last_lr()],
    sqrt.state_dict()["_last_lr"],
)
out([p.detach() for p in net.parameters()])

# timm-free training utilities: model EMA with a warmup decay, cosine schedule with linear warmup
import copy
import math


class ModelEma(nn.Module):
    def __init__(self, model, decay=0.9999, use_warmup=False, warmup_gamma=1.0, warmup_power=2 / 3):
        super().__init__()
        self.module = copy.deepcopy(model)
        self.module.eval()
        self.decay = decay
        self.use_warmup = use_warmup
        self.warmup_gamma = warmup_gamma
        self.warmup_power = warmup_power

    def get_decay(self, step):
        if not self.use_warmup:
            return self.decay
        decay = 1 - (1 + step / self.warmup_gamma) ** -self.warmup_power
        return max(min(decay, self.decay), 0.0)

    @torch.no_grad()
    def update(self, model, step=None):
        decay = self.get_decay(step)
        ema_params = tuple(self.module.parameters())
        model_params = tuple(model.parameters())
        torch._foreach_lerp_(ema_params, model_params, weight=1.0 - decay)
        for ema_b, model_b in zip(self.module.buffers(), model.buffers()):
            ema_b.copy_(model_b)
        return decay

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)


def cosine_lr(step, total_steps, base_lr, warmup_steps, warmup_lr_init=1e-6, lr_min=1e-5):
    if step < warmup_steps:
        return warmup_lr_init + (base_lr - warmup_lr_init) * step / warmup_steps
    t = (step - warmup_steps) / max(1, total_steps - warmup_steps)
    return lr_min + 0.5 * (base_lr - lr_min) * (1 + math.cos(math.pi * t))


model = nn.Sequential(nn.Linear(6, 16, bias=False), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 3))
ema = ModelEma(model, decay=0.99, use_warmup=True)
print(ema.module.training, model.training)
opt = torch.optim.AdamW(model.parameters(), lr=0.0, weight_decay=0.05)
X, y = torch.randn(64, 6), torch.randint(0, 3, (64,))
total_steps = 10
for step in range(total_steps):
    lr = cosine_lr(step, total_steps, base_lr=0.01, warmup_steps=3)
    for group in opt.param_groups:
        group["lr"] = lr
    idx = torch.randperm(64)[:16]
    loss = F.cross_entropy(model(X[idx]), y[idx], label_smoothing=0.1)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    decay = ema.update(model, step)
    print(f"step {step}: lr {lr:.6f} loss {loss.item():.4f} ema decay {decay:.4f}")

model.eval()
with torch.no_grad():
    acc = (model(X).argmax(-1) == y).float().mean().item()
    ema_acc = (ema(X).argmax(-1) == y).float().mean().item()
print(f"acc {acc:.3f} ema acc {ema_acc:.3f}")
diff = sum((p - q).abs().sum() for p, q in zip(model.parameters(), ema.module.parameters()))
print(f"{diff.item():.5f}", ema.module[1].num_batches_tracked)
out(ema.module[0].weight, ema.module[1].running_mean, ema(X[:4]))

# the same EMA as timm's older loop: lerp_ per tensor over the state_dict
ema_sd = copy.deepcopy(model.state_dict())
with torch.no_grad():
    for k, v in model.state_dict().items():
        if v.dtype.is_floating_point:
            ema_sd[k].mul_(0.9).add_(v.detach(), alpha=0.1)
        else:
            ema_sd[k].copy_(v)
print(sorted(ema_sd)[:3], ema_sd["1.num_batches_tracked"].dtype)
out(ema_sd["3.bias"], ema_sd["1.running_var"])

# AveragedModel with an EMA avg_fn and get_ema_multi_avg_fn
swa = torch.optim.swa_utils.AveragedModel(
    model, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.9)
)
swa.update_parameters(model)
with torch.no_grad():
    for p in model.parameters():
        p.add_(0.1)
swa.update_parameters(model)
print(swa.n_averaged, list(swa.state_dict())[:2])
out(swa.module[3].bias, swa.module[1].weight)

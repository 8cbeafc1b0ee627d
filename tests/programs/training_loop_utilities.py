# training loop utilities: device selection idiom, OneCycleLR, EMA via AveragedModel
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
if torch.backends.mps.is_available():
    device = torch.device("mps")
print(device, device.type, torch.cuda.device_count(), torch.get_num_threads() > 0)
X = torch.randn(64, 10)
y = (X[:, :3].sum(1) > 0).long()
ds = torch.utils.data.TensorDataset(X, y)
loader = torch.utils.data.DataLoader(
    ds, batch_size=16, shuffle=True, num_workers=0, pin_memory=False
)
model = nn.Sequential(nn.Linear(10, 32), nn.SiLU(), nn.Dropout(0.1), nn.Linear(32, 2)).to(device)
ema = torch.optim.swa_utils.AveragedModel(
    model, multi_avg_fn=torch.optim.swa_utils.get_ema_multi_avg_fn(0.9)
)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
epochs = 3
sched = torch.optim.lr_scheduler.OneCycleLR(
    opt, max_lr=0.5, epochs=epochs, steps_per_epoch=len(loader)
)
lrs = []
for epoch in range(epochs):
    model.train()
    total, correct, seen = 0.0, 0, 0
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device)
        out_ = model(xb)
        loss = F.cross_entropy(out_, yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sched.step()
        ema.update_parameters(model)
        lrs.append(sched.get_last_lr()[0])
        total += loss.item() * len(xb)
        correct += (out_.argmax(1) == yb).sum().item()
        seen += len(xb)
    print(
        f"epoch {epoch + 1}/{epochs} loss {total / seen:.4f} acc {correct / seen:.3f} "
        f"lr {lrs[-1]:.5f}"
    )
print([round(v, 4) for v in lrs])
ema.eval()
with torch.no_grad():
    acc_ema = (ema(X).argmax(1) == y).float().mean().item()
print(f"EMA acc {acc_ema:.3f}", ema.n_averaged)
print(opt.param_groups[0]["momentum"], sorted(k for k in opt.param_groups[0] if "lr" in k))
out(lrs, *ema.module.parameters())
# ---
# warmup then cosine: LambdaLR, SequentialLR, CosineAnnealingWarmRestarts, MultiStepLR, print state
import math

torch.manual_seed(2)
p = nn.Parameter(torch.zeros(2))
opt = torch.optim.AdamW([p], lr=1e-3)
warmup_steps, total_steps = 3, 10


def lr_lambda(step):
    if step < warmup_steps:
        return float(step + 1) / warmup_steps
    progress = (step - warmup_steps) / max(1, total_steps - warmup_steps)
    return 0.5 * (1.0 + math.cos(math.pi * progress))


sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
vals = []
for _step in range(total_steps):
    opt.step()
    sched.step()
    vals.append(f"{opt.param_groups[0]['lr']:.2e}")
print(vals)
opt2 = torch.optim.SGD([p], lr=0.1)
s1 = torch.optim.lr_scheduler.LinearLR(opt2, start_factor=0.1, total_iters=3)
s2 = torch.optim.lr_scheduler.CosineAnnealingLR(opt2, T_max=5, eta_min=0.001)
seq = torch.optim.lr_scheduler.SequentialLR(opt2, schedulers=[s1, s2], milestones=[3])
seen = []
for _ in range(8):
    opt2.step()
    seq.step()
    seen.append(round(seq.get_last_lr()[0], 5))
print(seen)
opt3 = torch.optim.SGD([p], lr=1.0)
wr = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt3, T_0=3, T_mult=2, eta_min=0.1)
print([round(wr.get_last_lr()[0], 4) for _ in range(9) if not (opt3.step() or wr.step())])
opt4 = torch.optim.SGD([p], lr=1.0)
ms = torch.optim.lr_scheduler.MultiStepLR(opt4, milestones=[2, 4], gamma=0.1)
print([f"{ms.get_last_lr()[0]:g}" for _ in range(6) if not (opt4.step() or ms.step())])
print(sorted(ms.state_dict().keys()))
print(ms.state_dict()["milestones"], ms.last_epoch)
out(p)

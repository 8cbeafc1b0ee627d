# checkpoint dict through io.BytesIO: model, optimizer, scheduler, epoch, rng state; resume exactly
import io

torch.manual_seed(0)


def make():
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    return model, opt, sched


model, opt, sched = make()
X, y = torch.randn(20, 4), torch.randint(0, 2, (20,))


def train_epoch(model, opt, sched):
    for xb, yb in zip(X.split(5), y.split(5)):
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    sched.step()
    return loss.item()


for epoch in range(3):
    print(
        f"epoch {epoch} loss {train_epoch(model, opt, sched):.5f} lr {sched.get_last_lr()[0]:.5f}"
    )
buffer = io.BytesIO()
torch.save(
    {
        "epoch": 3,
        "model_state_dict": model.state_dict(),
        "optimizer_state_dict": opt.state_dict(),
        "scheduler": sched.state_dict(),
        "loss": 0.5,
        "rng": torch.get_rng_state(),
    },
    buffer,
)
print(buffer.tell() > 0)
buffer.seek(0)
ckpt = torch.load(buffer, weights_only=True)
print(sorted(ckpt.keys()))
print(ckpt["epoch"], ckpt["loss"], ckpt["scheduler"]["last_epoch"], ckpt["scheduler"]["_last_lr"])
print(list(ckpt["model_state_dict"].keys()))
print(
    ckpt["optimizer_state_dict"]["param_groups"][0]["lr"],
    ckpt["optimizer_state_dict"]["state"][0]["step"],
)
print(ckpt["optimizer_state_dict"]["state"][0]["exp_avg"].shape)
model2, opt2, sched2 = make()
model2.load_state_dict(ckpt["model_state_dict"])
opt2.load_state_dict(ckpt["optimizer_state_dict"])
sched2.load_state_dict(ckpt["scheduler"])
torch.set_rng_state(ckpt["rng"])
print(opt2.param_groups[0]["lr"], sched2.last_epoch)
l2 = train_epoch(model2, opt2, sched2)
torch.set_rng_state(ckpt["rng"])
l1 = train_epoch(model, opt, sched)
print(f"{l1:.6f} {l2:.6f}", l1 == l2)
print(all(torch.equal(a, b) for a, b in zip(model.parameters(), model2.parameters())))
out(*model2.parameters())
out(ckpt["rng"].dtype, ckpt["rng"].shape)
# ---
# state_dict round trips: strict=False missing/unexpected keys, prefix stripping, map_location
import io
from collections import OrderedDict

torch.manual_seed(1)
net = nn.Sequential(OrderedDict(encoder=nn.Linear(3, 4), act=nn.ReLU(), head=nn.Linear(4, 2)))
sd = net.state_dict()
print(type(sd).__name__, list(sd))
wrapped = {f"module.{k}": v for k, v in sd.items()}
fixed = OrderedDict((k.removeprefix("module."), v) for k, v in wrapped.items())
result = net.load_state_dict(fixed)
print(result)
partial = {k: v for k, v in sd.items() if k.startswith("encoder")}
partial["extra.weight"] = torch.zeros(1)
res = net.load_state_dict(partial, strict=False)
print(res.missing_keys, res.unexpected_keys)
err(lambda: net.load_state_dict(partial))
bad = dict(sd)
bad["head.weight"] = torch.zeros(3, 4)
err(lambda: net.load_state_dict(bad))
try:
    net.load_state_dict(bad)
except RuntimeError as e:
    print(str(e).splitlines()[0])
buf = io.BytesIO()
torch.save(net.state_dict(), buf)
buf.seek(0)
loaded = torch.load(buf, map_location="cpu")
print({k: tuple(v.shape) for k, v in loaded.items()})
print(loaded["encoder.bias"])
buf2 = io.BytesIO()
torch.save([torch.arange(3), {"a": torch.ones(2, dtype=torch.float64)}, (1, "x")], buf2)
buf2.seek(0)
obj = torch.load(buf2)
print(obj)
out(loaded["encoder.weight"], obj[1]["a"])

# Resume from a checkpoint file: model/optimizer/scheduler/rng state and args, same continuation
import argparse
import os
import tempfile

torch.manual_seed(0)
np.random.seed(0)
parser = argparse.ArgumentParser(description="resume demo")
parser.add_argument("--lr", type=float, default=1e-2)
parser.add_argument("--epochs", type=int, default=6)
args = parser.parse_args([])


def make():
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    return model, opt, sched


def train_steps(model, opt, sched, n):
    losses = []
    for _ in range(n):
        x = torch.randn(8, 4)
        loss = (model(x) - x.sum(1, keepdim=True)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        losses.append(round(loss.item(), 5))
    return losses


model, opt, sched = make()
train_steps(model, opt, sched, 3)
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "ckpt.pt")
    torch.save(
        {
            "epoch": 3,
            "model_state_dict": model.state_dict(),
            "optimizer_state_dict": opt.state_dict(),
            "scheduler": sched.state_dict(),
            "rng": torch.get_rng_state(),
            "np_rng": np.random.get_state(),
            "loss_history": [0.5, 0.25],
            "args": args,
            "best_metric": np.float64(0.875),
        },
        path,
    )
    print(os.path.getsize(path) > 0)
    cont = train_steps(model, opt, sched, 3)
    checkpoint = torch.load(path, weights_only=False)
model2, opt2, sched2 = make()
model2.load_state_dict(checkpoint["model_state_dict"])
opt2.load_state_dict(checkpoint["optimizer_state_dict"])
sched2.load_state_dict(checkpoint["scheduler"])
torch.set_rng_state(checkpoint["rng"])
resumed = train_steps(model2, opt2, sched2, 3)
print(cont == resumed, checkpoint["epoch"], checkpoint["loss_history"])
np.random.set_state(checkpoint["np_rng"])
print(checkpoint["args"], checkpoint["args"].lr, checkpoint["best_metric"], np.random.rand())
sd = opt2.state_dict()
print(sorted(sd), sorted(sd["state"]), sorted(sd["state"][0]))
print(sd["state"][0]["step"], sd["param_groups"][0]["lr"], sd["param_groups"][0]["params"])
print(sched2.get_last_lr(), sched2.last_epoch)
out(model2[0].weight, sd["state"][0]["exp_avg"], sd["state"][3]["exp_avg_sq"])
# ---
# Saving tensors that share storage, views, mixed containers; map_location and weights_only loads
import io

base = torch.arange(10.0)
view = base[2:6]
payload = {
    "base": base,
    "view": view,
    "ints": torch.tensor([1, 2], dtype=torch.int16),
    "meta": ("run", 3, 2.5, None, True),
}
buf = io.BytesIO()
torch.save(payload, buf)
buf.seek(0)
back = torch.load(buf, map_location="cpu")
back["view"][0] = -1.0
print(back["base"], back["view"].storage_offset(), back["ints"].dtype, back["meta"])
buf.seek(0)
safe = torch.load(buf, weights_only=True)
print(sorted(safe), type(safe["meta"]).__name__)
buf.seek(0)
moved = torch.load(buf, map_location=lambda storage, loc: storage)
print(moved["base"].device, moved["view"].is_contiguous())
b2 = io.BytesIO()
torch.save([nn.Parameter(torch.ones(2)), torch.zeros(2, requires_grad=True)], b2)
b2.seek(0)
p, z = torch.load(b2)
print(type(p).__name__, p.requires_grad, z.requires_grad, z.is_leaf)
out(back["base"], back["view"], p, z)

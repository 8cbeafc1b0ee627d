# checkpoint a model and its optimizer, resume, and train on
import io


def fill(m):  # the same numbers under both libraries, whatever their random streams
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape))
    return m


model = fill(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)))
optimizer = torch.optim.AdamW(model.parameters(), lr=0.05)
x = torch.linspace(-1, 1, 64).reshape(16, 4).sin()
y = x.sum(1, keepdim=True).cos()


def step(m, opt):
    opt.zero_grad()
    loss = F.mse_loss(m(x), y)
    loss.backward()
    opt.step()
    return loss.item()


for _ in range(3):
    step(model, optimizer)
buffer = io.BytesIO()
torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": 3}, buffer)
buffer.seek(0)
checkpoint = torch.load(buffer)
resumed = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
resumed.load_state_dict(checkpoint["model"])
resumed_optimizer = torch.optim.AdamW(resumed.parameters(), lr=0.05)
resumed_optimizer.load_state_dict(checkpoint["optimizer"])
out(
    checkpoint["epoch"],
    sorted(checkpoint["model"]),
    checkpoint["optimizer"]["param_groups"][0]["lr"],
)
out(
    [step(model, optimizer) for _ in range(2)], [step(resumed, resumed_optimizer) for _ in range(2)]
)
out(resumed[0].weight, resumed[2].bias)
# ---
# a whole model: refused under weights_only=True, loaded with weights_only=False
import io

model = nn.Sequential(
    nn.Conv1d(2, 3, 3), nn.BatchNorm1d(3), nn.ReLU(), nn.Flatten(), nn.Linear(9, 2)
)
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape))
model.eval()
buffer = io.BytesIO()
torch.save(model, buffer)
buffer.seek(0)
err(lambda: torch.load(buffer))
buffer.seek(0)
loaded = torch.load(buffer, weights_only=False)
inputs = torch.linspace(-2, 2, 50).reshape(5, 2, 5).cos()
out(type(loaded).__name__, [type(m).__name__ for m in loaded], loaded.training)
out(loaded(inputs), model(inputs))
print(loaded)
# ---
# allow-listing a module class for weights_only=True
import io

linear = nn.Linear(3, 2)
with torch.no_grad():
    linear.weight.copy_(torch.arange(6.0).reshape(2, 3))
    linear.bias.fill_(0.5)
buffer = io.BytesIO()
torch.save(linear, buffer)
buffer.seek(0)
err(lambda: torch.load(buffer))
torch.serialization.add_safe_globals([nn.Linear])
buffer.seek(0)
loaded = torch.load(buffer)
out(nn.Linear in torch.serialization.get_safe_globals())
torch.serialization.clear_safe_globals()
out(loaded.weight, loaded.bias, torch.serialization.get_safe_globals())
buffer.seek(0)
with torch.serialization.safe_globals([nn.Linear]):
    out(torch.load(buffer).weight)
buffer.seek(0)
err(lambda: torch.load(buffer))
# ---
# views saved together keep sharing their storage
import io

base = torch.arange(12.0).reshape(3, 4)
buffer = io.BytesIO()
torch.save({"base": base, "row": base[1], "t": base.t(), "strided": base[:, ::2]}, buffer)
buffer.seek(0)
back = torch.load(buffer)
back["row"].mul_(10)
back["t"][3, 2] = -1.0
out(back["base"], back["strided"], back["t"].is_contiguous())
# ---
# plain values in a checkpoint
import io

values = {
    "dtype": torch.float64,
    "size": torch.Size([2, 3]),
    "nested": [(1, 2.5), {"a": None, "b": True}],
    "big": 2**70,
    "text": "héllo",
    "bytes": b"\x00\x01",
    "complex": 1 + 2j,
    "set": {3},
    "scalar": torch.tensor(7),
    "param": nn.Parameter(torch.ones(2)),
}
buffer = io.BytesIO()
torch.save(values, buffer)
buffer.seek(0)
back = torch.load(buffer)
out(str(back["dtype"]), list(back["size"]), back["nested"], back["big"], back["text"])
out(back["bytes"] == b"\x00\x01", back["complex"], back["set"], back["scalar"], back["param"])
out(type(back["param"]).__name__, type(back["size"]).__name__)
# ---
# save/load round trips of state dicts and nested containers
import os
import tempfile

d = tempfile.mkdtemp()
path = os.path.join(d, "m.pt")
m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
with torch.no_grad():
    m[0].weight.copy_(torch.arange(6.0).reshape(3, 2))
m(torch.ones(4, 2))
torch.save(m.state_dict(), path)
sd = torch.load(path)
out(
    type(sd).__name__ in ("OrderedDict", "dict"),
    list(sd),
    sd["0.weight"],
    sd["1.num_batches_tracked"],
)
out([v.requires_grad for v in sd.values()])
m2 = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
out(m2.load_state_dict(sd).missing_keys)
m2.eval()
m.eval()
out(torch.equal(m(torch.ones(1, 2)), m2(torch.ones(1, 2))))
obj = {
    "a": [torch.ones(2), 3, 2.5],
    "b": {"c": torch.tensor([1, 2], dtype=torch.int32)},
    "s": "x",
    "n": None,
    "t": (1, 2),
    "f": True,
}
torch.save(obj, path)
back = torch.load(path)
out(back["a"], back["b"]["c"], back["s"], back["n"], back["t"], back["f"])
torch.save(torch.arange(4.0).reshape(2, 2)[:, 1], path)
t = torch.load(path)
out(t)
torch.save(
    [torch.ones(1, dtype=torch.float64), torch.tensor(True), torch.tensor(7, dtype=torch.uint8)],
    path,
)
out(torch.load(path))
err(lambda: torch.load(os.path.join(d, "missing.pt")))
optim = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
m(torch.ones(2, 2)).sum().backward()
optim.step()
torch.save(optim.state_dict(), path)
osd = torch.load(path)
out(sorted(osd), osd["param_groups"][0]["lr"], sorted(osd["state"]))
# ---
# load refuses a pickle that would run code
import os
import pickle
import tempfile

d = tempfile.mkdtemp()
path = os.path.join(d, "evil.pt")
marker = os.path.join(d, "pwned")


class Evil:
    def __reduce__(self):
        return (open, (marker, "w"))


with open(path, "wb") as f:
    pickle.dump(Evil(), f)
err(lambda: torch.load(path))
out(os.path.exists(marker))
# ---
# save/load of parameters, dtypes, sizes, tuple keys and bad destinations
import io
import os
import tempfile

d = tempfile.mkdtemp()
path = os.path.join(d, "x.pt")
buf = io.BytesIO()
torch.save(
    {"w": nn.Parameter(torch.ones(2)), "f": nn.Parameter(torch.zeros(1), requires_grad=False)}, buf
)
buf.seek(0)
back = torch.load(buf)
out(
    type(back["w"]).__name__,
    back["w"].requires_grad,
    type(back["f"]).__name__,
    back["f"].requires_grad,
)
torch.save({"dt": torch.float64, "size": torch.Size([2, 3]), (1, "a"): 2}, path)
back = torch.load(path)
out(str(back["dt"]), back["size"], back[(1, "a")])
err(lambda: torch.save({}, 5))
err(lambda: torch.save({}, os.path.join(d, "nodir", "x.pt")))
with open(path, "wb") as f:
    f.write(b"not a checkpoint")
err(lambda: torch.load(path))
with open(path, "wb") as f:
    f.write(b"")
err(lambda: torch.load(path))
err(lambda: torch.load(d))
# ---
# a saved state_dict keeps its _metadata (module versions), as torch's pickle does
import io

m = nn.Sequential(nn.Linear(1, 1), nn.BatchNorm1d(1))
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
out(type(sd).__name__, dict(sd._metadata))
del sd["1.num_batches_tracked"]
err(lambda: m.load_state_dict(sd))
out(m.load_state_dict(dict(sd)).missing_keys)
# ---
# a bfloat16 model (nanoGPT's dtype) saved and loaded back: dtypes, views and values kept
import io

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2)).to(torch.bfloat16)
state = model.state_dict()
buffer = io.BytesIO()
torch.save({"model": state, "step": 7, "row": state["0.weight"][1]}, buffer)
buffer.seek(0)
loaded = torch.load(buffer)
out(loaded["step"], [(k, v.dtype, v.shape) for k, v in loaded["model"].items()])
out(loaded["row"].dtype, loaded["row"].float().tolist() == state["0.weight"][1].float().tolist())
fresh = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2)).to(torch.bfloat16)
fresh.load_state_dict(loaded["model"])
x = torch.ones(2, 4, dtype=torch.bfloat16)
out(torch.equal(fresh(x), model(x)), fresh(x).dtype)

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

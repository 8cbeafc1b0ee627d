# functional API structure
AF = torch.autograd.functional


def f2(a, b):
    return a * b.sum(), (a**2).sum()


a = torch.tensor([1.0, 2.0])
b = torch.tensor([3.0, 4.0, 5.0])
J = AF.jacobian(f2, (a, b))
out(J)
out(
    AF.jacobian(lambda x: x.sum(), a),
    AF.jacobian(lambda x: (x, x * 2), a),
    AF.jacobian(lambda x, y: x * y, (a, a)),
)
H = AF.hessian(lambda x, y: (x * y**2).sum(), (a, a))
out(H)
out(
    AF.vjp(lambda x: x**2, a, torch.ones(2)),
    AF.vjp(lambda x: x.sum(), a),
    AF.jvp(lambda x: x**2, a, a),
    AF.vhp(lambda x: (x**3).sum(), a, a),
    AF.hvp(lambda x: (x**3).sum(), a, a),
)
out(AF.vjp(f2, (a, b), (torch.ones(2), torch.tensor(1.0))))
err(lambda: AF.vjp(lambda x: x**2, a))
err(lambda: AF.jacobian(lambda x: 3.0, a))
err(lambda: AF.hessian(lambda x: x**2, a))
err(lambda: AF.jvp(lambda x: x**2, a, torch.ones(3)))
out(AF.jacobian(lambda x: torch.ones(2), a))
err(lambda: AF.jacobian(lambda x: torch.ones(2), a, strict=True))
err(lambda: AF.jacobian(lambda x: x, a, strategy="forward-mode"))
out(AF.jacobian(lambda x: x.exp(), a, strategy="forward-mode", vectorize=True))
# ---
# checkpoint

cp = torch.utils.checkpoint
torch.manual_seed(0)
lin = nn.Linear(3, 3)
with torch.no_grad():
    lin.weight.copy_(torch.arange(9.0).reshape(3, 3) / 10)
    lin.bias.fill_(0.1)
x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
y = cp.checkpoint(lambda t: lin(t).tanh(), x, use_reentrant=False)
y.sum().backward()
out(y, x.grad, lin.weight.grad)
seq = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 1))
out(cp.checkpoint_sequential(seq, 2, x, use_reentrant=False).shape)
# ---
# saved tensor hooks
packed = []


def pack(t):
    packed.append(tuple(t.shape))
    return t * 1


def unpack(t):
    return t


x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (x * x).sin()
y.sum().backward()
out(packed, x.grad)
x.grad = None
with torch.autograd.graph.save_on_cpu():
    z = x.exp() * x
z.sum().backward()
out(x.grad)
# ---
# anomaly
x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x.sqrt() * 0
    err(lambda: y.sum().backward())
out(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(True)
out(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)
x.grad = None
y = (x.sqrt() * 0).sum()
y.backward()
out(x.grad)
# ---
# data loader
ds = torch.utils.data.TensorDataset(torch.arange(10.0).reshape(5, 2), torch.arange(5))
out(len(ds), ds[1])
dl = torch.utils.data.DataLoader(ds, batch_size=2)
out([b for b in dl])
dl = torch.utils.data.DataLoader(ds, batch_size=2, drop_last=True)
out(len(dl), [b[1] for b in dl])
out(torch.utils.data.default_collate([{"a": torch.ones(2), "b": 1}, {"a": torch.zeros(2), "b": 2}]))
out(torch.utils.data.default_collate([(1.0, 2), (3.0, 4)]))
# ---
# save/load
import io

m = nn.Linear(2, 2)
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
out(list(sd.keys()), sd["weight"].shape, type(sd).__name__)
buf = io.BytesIO()
torch.save({"x": torch.tensor([1, 2]), "y": [torch.ones(2, dtype=torch.float64), 3, "s"]}, buf)
buf.seek(0)
out(torch.load(buf))


# ---
# grad modes as decorators and nesting
@torch.enable_grad()
def g(x):
    return x * 2


with torch.no_grad():
    x = torch.ones(1, requires_grad=True)
    out(g(x).requires_grad, (x * 2).requires_grad)
    with torch.enable_grad():
        out((x * 2).requires_grad)
        with torch.inference_mode(False):
            out(torch.is_grad_enabled())
out(torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    out(torch.is_grad_enabled())
out(torch.is_grad_enabled())


def gen():
    with torch.no_grad():
        yield torch.is_grad_enabled()
        yield torch.is_grad_enabled()


it = gen()
out(next(it), torch.is_grad_enabled())
it.close()

# SGD variants: momentum, dampening, nesterov, weight_decay, maximize
def run(**kw):
    w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1, **kw)
    for i in range(4):
        opt.zero_grad()
        loss = (w * w * torch.tensor([1.0, 2.0, 0.5])).sum() + w[0] * i
        loss.backward()
        opt.step()
    return w.detach()


out(run(), run(momentum=0.9), run(momentum=0.9, dampening=0.5), run(momentum=0.9, nesterov=True))
out(run(weight_decay=0.1), run(maximize=True), run(momentum=0.5, weight_decay=0.01, maximize=True))
err(lambda: torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1, nesterov=True))
err(
    lambda: torch.optim.SGD(
        [torch.ones(1, requires_grad=True)], lr=0.1, momentum=0.9, dampening=0.1, nesterov=True
    )
)
err(lambda: torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=-0.1))
err(lambda: torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1, momentum=-1))
err(lambda: torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1, weight_decay=-1))
err(lambda: torch.optim.SGD([], lr=0.1))
err(lambda: torch.optim.SGD(torch.ones(2, requires_grad=True), lr=0.1))
err(lambda: type(torch.optim.SGD([torch.ones(1)], lr=0.1)).__name__)
out(torch.optim.SGD([torch.ones(1, requires_grad=True)]).defaults)


# ---
# Adam, AdamW, amsgrad, RMSprop trajectories
def run(cls, **kw):
    w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    opt = cls([w], **kw)
    for i in range(5):
        opt.zero_grad()
        loss = (w * w * torch.tensor([1.0, 2.0, 0.5])).sum() + w[1] * i
        loss.backward()
        opt.step()
    return w.detach()


out(run(torch.optim.Adam, lr=0.1), run(torch.optim.Adam, lr=0.1, amsgrad=True, weight_decay=0.1))
out(run(torch.optim.Adam, lr=0.1, betas=(0.5, 0.9), eps=1e-3, maximize=True))
out(run(torch.optim.AdamW, lr=0.1), run(torch.optim.AdamW, lr=0.1, amsgrad=True, weight_decay=0.5))
out(
    run(torch.optim.RMSprop, lr=0.01),
    run(torch.optim.RMSprop, lr=0.01, momentum=0.9, centered=True),
)
out(run(torch.optim.RMSprop, lr=0.01, alpha=0.5, weight_decay=0.1, maximize=True))
err(lambda: torch.optim.Adam([torch.ones(1, requires_grad=True)], betas=(1.0, 0.9)))
err(lambda: torch.optim.Adam([torch.ones(1, requires_grad=True)], betas=(0.9, -0.1)))
err(lambda: torch.optim.Adam([torch.ones(1, requires_grad=True)], eps=-1))
err(lambda: torch.optim.Adam([torch.ones(1, requires_grad=True)], lr=-1))
err(lambda: torch.optim.AdamW([torch.ones(1, requires_grad=True)], weight_decay=-1))
err(lambda: torch.optim.RMSprop([torch.ones(1, requires_grad=True)], alpha=-1))
err(lambda: torch.optim.RMSprop([torch.ones(1, requires_grad=True)], momentum=-1))
out(torch.optim.Adam([torch.ones(1, requires_grad=True)]).defaults["betas"])
out(sorted(torch.optim.AdamW([torch.ones(1, requires_grad=True)]).defaults))
out(sorted(torch.optim.Adam([torch.ones(1, requires_grad=True)]).defaults))
out(sorted(torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1).defaults))
out(sorted(torch.optim.RMSprop([torch.ones(1, requires_grad=True)]).defaults))
# ---
# param groups: per-group options, add_param_group errors
a = torch.ones(2, requires_grad=True)
b = torch.ones(3, requires_grad=True)
opt = torch.optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5, "momentum": 0.9}], lr=0.1)
out(
    len(opt.param_groups),
    [g["lr"] for g in opt.param_groups],
    [g["momentum"] for g in opt.param_groups],
)
out(sorted(opt.param_groups[1]))
(a.sum() + b.sum()).backward()
opt.step()
out(a, b)
c = torch.ones(1, requires_grad=True)
opt.add_param_group({"params": c, "lr": 0.01})
out(len(opt.param_groups), opt.param_groups[2]["lr"], opt.param_groups[2]["momentum"])
err(lambda: opt.add_param_group({"params": [a]}))
err(lambda: opt.add_param_group({"params": [torch.ones(1)]}))
err(lambda: opt.add_param_group({"params": {c}}))
err(lambda: opt.add_param_group({"lr": 0.1}))
err(lambda: torch.optim.SGD([{"params": [a]}, {"params": [a]}], lr=0.1))
out(torch.optim.SGD([{"params": [a]}]).param_groups[0]["lr"])
print(opt)
print(torch.optim.Adam([a], lr=1e-3))
# ---
# zero_grad set_to_none and None grads skipped
a = torch.ones(2, requires_grad=True)
b = torch.ones(2, requires_grad=True)
opt = torch.optim.SGD([a, b], lr=0.1, momentum=0.9)
(a * 2).sum().backward()
opt.step()
out(a, b, b.grad is None, len(opt.state), a in opt.state, b in opt.state)
opt.zero_grad(set_to_none=False)
out(a.grad, b.grad)
opt.zero_grad()
out(a.grad)
opt.step()
out(a)


# ---
# optimizer state_dict round trip and load into a new optimizer
def make():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    v = torch.tensor([[0.5]], requires_grad=True)
    return (
        w,
        v,
        torch.optim.Adam([{"params": [w]}, {"params": [v], "lr": 0.01}], lr=0.1, amsgrad=True),
    )


w, v, opt = make()
for _ in range(3):
    opt.zero_grad()
    (w.pow(2).sum() + v.sum()).backward()
    opt.step()
sd = opt.state_dict()
out(
    sorted(sd), list(sd["state"]), sorted(sd["state"][0]), [g["params"] for g in sd["param_groups"]]
)
out(sd["state"][0]["step"], sd["state"][0]["exp_avg"], sd["param_groups"][1]["lr"])
out(sorted(sd["param_groups"][0]))
w2, v2, opt2 = make()
with torch.no_grad():
    w2.copy_(w)
    v2.copy_(v)
opt2.load_state_dict(sd)
out(opt2.param_groups[1]["lr"], opt2.state[w2]["exp_avg"], opt2.state[w2]["step"])
for o, p, q in ((opt, w, v), (opt2, w2, v2)):
    o.zero_grad()
    (p.pow(2).sum() + q.sum()).backward()
    o.step()
out(w, w2, v, v2)
sd["param_groups"][0]["params"] = [0, 1]
err(lambda: opt2.load_state_dict(sd))
bad = opt.state_dict()
bad["param_groups"] = bad["param_groups"][:1]
err(lambda: opt2.load_state_dict(bad))
sgd = torch.optim.SGD([w], lr=0.1, momentum=0.9)
out(sgd.state_dict()["state"], sgd.state_dict()["param_groups"][0]["params"])
(w.sum()).backward()
sgd.step()
out(sorted(sgd.state_dict()["state"][0]), sgd.state_dict()["state"][0]["momentum_buffer"])
# ---
# optimizer step with closures, version counters and no_grad
w = torch.tensor([2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.25)
calls = []


def closure():
    calls.append(1)
    opt.zero_grad()
    loss = (w * w).sum()
    loss.backward()
    return loss


r = opt.step(closure)
out(r, w, len(calls))
v0 = w._version
opt.step(closure)
out(w._version > v0, w.requires_grad, w.is_leaf, w.grad_fn)
err(lambda: torch.optim.LBFGS([w]).step())
lb = torch.optim.LBFGS([w], lr=1, max_iter=5)
out(lb.step(closure))
out(w)


# ---
# StepLR, CosineAnnealingLR, LambdaLR values and get_last_lr
def lrs(make_sched, steps=8, lr=1.0):
    p = torch.ones(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=lr)
    s = make_sched(opt)
    got = [s.get_last_lr()]
    for _ in range(steps):
        opt.step()
        s.step()
        got.append(s.get_last_lr())
    return got, s.last_epoch, opt.param_groups[0]["lr"]


out(lrs(lambda o: torch.optim.lr_scheduler.StepLR(o, 3)))
out(lrs(lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5)))
out(lrs(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=4)))
out(lrs(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=3, eta_min=0.1)))
out(lrs(lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda e: 1 / (e + 1))))
out(lrs(lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda e: 0.9**e), lr=0.5))
# ---
# schedulers: state_dict, several groups, initial_lr, last_epoch errors
p = torch.ones(1, requires_grad=True)
q = torch.ones(1, requires_grad=True)
opt = torch.optim.SGD([{"params": [p]}, {"params": [q], "lr": 0.5}], lr=1.0)
s = torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 0.5**e, lambda e: 1.0 + e])
opt.step()
s.step()
out(s.get_last_lr(), [g["initial_lr"] for g in opt.param_groups])
sd = s.state_dict()
out(sorted(sd), sd["last_epoch"], sd["base_lrs"], sd["_last_lr"])
err(lambda: torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 1.0]))
st = torch.optim.lr_scheduler.StepLR(opt, 2)
out(sorted(st.state_dict()))
opt2 = torch.optim.SGD([p], lr=0.3)
err(lambda: torch.optim.lr_scheduler.StepLR(opt2, 2, last_epoch=3))
s2 = torch.optim.lr_scheduler.StepLR(torch.optim.SGD([p], lr=0.3), 2)
s2.load_state_dict(
    {
        "step_size": 2,
        "gamma": 0.1,
        "base_lrs": [0.3],
        "last_epoch": 5,
        "_last_lr": [0.003],
        "_step_count": 6,
        "verbose": False,
        "_get_lr_called_within_step": False,
    }
)
out(s2.last_epoch, s2.get_last_lr())
c = torch.optim.lr_scheduler.CosineAnnealingLR(torch.optim.SGD([p], lr=0.3), 10)
out(sorted(c.state_dict()))
err(lambda: torch.optim.lr_scheduler.StepLR("opt", 2))
# ---
# scheduler step order warning does not change values
import warnings

p = torch.ones(1, requires_grad=True)
opt = torch.optim.SGD([p], lr=1.0)
s = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    s.step()
out(len(w), [str(x.category.__name__) for x in w], s.get_last_lr())
opt.step()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    s.step()
out(len(w), s.get_last_lr())
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    out(s.get_lr())
out(len(w), [str(x.category.__name__) for x in w])
# ---
# TensorDataset and Dataset basics
x = torch.arange(10.0).reshape(5, 2)
y = torch.tensor([0, 1, 0, 1, 1])
ds = torch.utils.data.TensorDataset(x, y)
out(len(ds), ds[1], ds[-1], ds[1:3])
err(lambda: torch.utils.data.TensorDataset(x, torch.ones(4)))
err(lambda: ds[5])
out(len(torch.utils.data.TensorDataset()) if False else 0)
cat = ds + ds
out(len(cat), type(cat).__name__, cat[7])
sub = torch.utils.data.Subset(ds, [4, 0])
out(len(sub), sub[0])


class Squares(torch.utils.data.Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.tensor(float(i * i)), i


dl = torch.utils.data.DataLoader(Squares(5), batch_size=2)
out(len(dl), [b for b in dl])
err(lambda: torch.utils.data.Dataset()[0])
# ---
# DataLoader batch_size, drop_last, len, batch_size=None
ds = torch.utils.data.TensorDataset(torch.arange(7.0), torch.arange(7))
for kw in [
    dict(batch_size=3),
    dict(batch_size=3, drop_last=True),
    dict(batch_size=7),
    dict(batch_size=10, drop_last=True),
    dict(),
]:
    dl = torch.utils.data.DataLoader(ds, **kw)
    out(len(dl), [[t.shape for t in b] for b in dl])
dl = torch.utils.data.DataLoader(ds, batch_size=None)
out(len(dl), list(dl)[:2])
out(dl.batch_size, dl.drop_last, torch.utils.data.DataLoader(ds).batch_size)
err(lambda: torch.utils.data.DataLoader(ds, batch_size=0))
err(lambda: torch.utils.data.DataLoader(ds, batch_size=-1))
err(lambda: torch.utils.data.DataLoader(ds, batch_size=None, drop_last=True))
err(lambda: torch.utils.data.DataLoader(ds, batch_size=2.5))
# ---
# DataLoader sampler / batch_sampler / shuffle conflicts
ds = torch.utils.data.TensorDataset(torch.arange(6.0))
seq = torch.utils.data.SequentialSampler(ds)
err(lambda: torch.utils.data.DataLoader(ds, sampler=seq, shuffle=True))
bs = torch.utils.data.BatchSampler(seq, batch_size=4, drop_last=False)
out(list(bs), len(bs), len(torch.utils.data.BatchSampler(seq, 4, True)))
err(lambda: torch.utils.data.DataLoader(ds, batch_sampler=bs, batch_size=2))
err(lambda: torch.utils.data.DataLoader(ds, batch_sampler=bs, shuffle=True))
err(lambda: torch.utils.data.DataLoader(ds, batch_sampler=bs, sampler=seq))
err(lambda: torch.utils.data.DataLoader(ds, batch_sampler=bs, drop_last=True))
dl = torch.utils.data.DataLoader(ds, batch_sampler=bs)
out(len(dl), [b[0] for b in dl], dl.batch_size)
dl = torch.utils.data.DataLoader(ds, sampler=[5, 0, 3], batch_size=2)
out(len(dl), [b[0] for b in dl])
err(lambda: torch.utils.data.BatchSampler(seq, 0, False))
err(lambda: torch.utils.data.BatchSampler(seq, 2, "no"))
out(
    list(torch.utils.data.SequentialSampler(range(3))),
    len(torch.utils.data.RandomSampler(range(4))),
)
err(lambda: torch.utils.data.RandomSampler(range(4), num_samples=0))
out(len(torch.utils.data.RandomSampler(range(4), replacement=True, num_samples=9)))
out(
    sorted(torch.utils.data.SubsetRandomSampler([3, 1, 2])),
    len(torch.utils.data.SubsetRandomSampler([3, 1])),
)
# ---
# shuffle with a generator: a permutation, reproducible
ds = torch.utils.data.TensorDataset(torch.arange(10))
g = torch.Generator().manual_seed(3)
dl = torch.utils.data.DataLoader(ds, batch_size=4, shuffle=True, generator=g)
first = [b[0].tolist() for b in dl]
second = [b[0].tolist() for b in dl]
out(sorted(sum(first, [])), [len(b) for b in first], first != second)
g2 = torch.Generator().manual_seed(3)
again = [
    b[0].tolist() for b in torch.utils.data.DataLoader(ds, batch_size=4, shuffle=True, generator=g2)
]
out(again == first)
torch.manual_seed(1)
a = [b[0].tolist() for b in torch.utils.data.DataLoader(ds, batch_size=5, shuffle=True)]
torch.manual_seed(1)
b = [b[0].tolist() for b in torch.utils.data.DataLoader(ds, batch_size=5, shuffle=True)]
out(a == b, sorted(sum(a, [])))
# ---
# default collate: tuples, dicts, namedtuples, numpy, numbers, strings, nested
import collections

P = collections.namedtuple("P", ["x", "y"])
c = torch.utils.data.default_collate
out(c([1, 2, 3]), c([1.5, 2.5]), c([True, False]))
out(c(["a", "b"]), c([b"x", b"y"]))
out(
    c([np.array([1.0, 2.0]), np.array([3.0, 4.0])]),
    c([np.float64(1.0), np.float64(2.0)]),
    c([np.int32(3), np.int32(4)]),
)
out(c([(torch.ones(2), 1), (torch.zeros(2), 2)]))
out(c([{"a": torch.ones(1), "b": "s"}, {"a": torch.zeros(1), "b": "t"}]))
r = c([P(torch.ones(1), 2), P(torch.zeros(1), 3)])
out(type(r).__name__, r.x, r.y)
out(c([[1, 2], [3, 4]]))
out(c([{"n": {"m": [1, 2]}}, {"n": {"m": [3, 4]}}]))
err(lambda: c([[1, 2], [3]]))
err(lambda: c([torch.ones(2), torch.ones(3)]))
err(lambda: c([object(), object()]))
err(lambda: c([np.array(["a"]), np.array(["b"])]))
out(c([torch.tensor(1), torch.tensor(2)]), c([torch.ones(2, dtype=torch.float64)] * 2).dtype)
out(c([np.array(1.0), np.array(2.0)]).dtype, c([np.zeros(2, np.float32)] * 3).dtype)
out(c((torch.ones(1), torch.ones(1))))
out(c([]) if False else "skip")
dc = torch.utils.data.default_convert
out(dc(np.array([1, 2])), dc([np.array(1.0), "x"]), dc(3))


# ---
# DataLoader collate of dict samples and custom collate_fn
class D(torch.utils.data.Dataset):
    def __len__(self):
        return 3

    def __getitem__(self, i):
        return {"x": torch.full((2,), float(i)), "label": i, "name": f"s{i}"}


dl = torch.utils.data.DataLoader(D(), batch_size=2)
out(list(dl))
dl = torch.utils.data.DataLoader(D(), batch_size=2, collate_fn=lambda batch: len(batch))
out(list(dl))
dl = torch.utils.data.DataLoader(D(), batch_size=None)
out(list(dl)[0])
it = iter(torch.utils.data.DataLoader(D(), batch_size=2))
out(next(it)["label"], next(it)["label"])
err(lambda: next(it))
dl = torch.utils.data.DataLoader(range(5), batch_size=2)
out(list(dl), len(dl))
dl = torch.utils.data.DataLoader([np.ones(2), np.zeros(2)], batch_size=2)
out(list(dl))


# ---
# IterableDataset with DataLoader
class It(torch.utils.data.IterableDataset):
    def __iter__(self):
        return iter(range(5))


dl = torch.utils.data.DataLoader(It(), batch_size=2)
out(list(dl))
dl = torch.utils.data.DataLoader(It(), batch_size=2, drop_last=True)
out(list(dl))
err(lambda: torch.utils.data.DataLoader(It(), shuffle=True))
err(lambda: torch.utils.data.DataLoader(It(), sampler=[0, 1]))
err(lambda: len(torch.utils.data.DataLoader(It())))
out(list(torch.utils.data.DataLoader(It(), batch_size=None)))
# ---
# random_split
ds = torch.utils.data.TensorDataset(torch.arange(10))
a, b = torch.utils.data.random_split(ds, [7, 3], generator=torch.Generator().manual_seed(0))
out(
    len(a),
    len(b),
    type(a).__name__,
    sorted([int(a[i][0]) for i in range(7)] + [int(b[i][0]) for i in range(3)]),
)
parts = torch.utils.data.random_split(range(10), [0.5, 0.3, 0.2])
out([len(p) for p in parts])
parts = torch.utils.data.random_split(range(5), [0.5, 0.5])
out([len(p) for p in parts])
err(lambda: torch.utils.data.random_split(ds, [5, 6]))
err(lambda: torch.utils.data.random_split(ds, [0.5, 0.6]))
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
# DataLoader attributes, pin_memory on the CPU, collate of mixed numbers
ds = torch.utils.data.TensorDataset(torch.arange(6.0))
dl = torch.utils.data.DataLoader(ds, batch_size=2, pin_memory=True)
out(
    [b[0].is_pinned() for b in dl],
    dl.dataset is ds,
    dl.num_workers,
    type(dl.sampler).__name__,
    type(dl.batch_sampler).__name__,
)
out(type(torch.utils.data.DataLoader(ds, shuffle=True).sampler).__name__)
dl = torch.utils.data.DataLoader(ds, batch_size=None)
out(dl.batch_sampler, type(dl.sampler).__name__)
err(lambda: torch.utils.data.DataLoader(ds, persistent_workers=True))
err(lambda: torch.utils.data.DataLoader(ds, prefetch_factor=2))
err(lambda: torch.utils.data.DataLoader(ds, timeout=-1))
err(lambda: torch.utils.data.DataLoader(ds, num_workers=-1))
c = torch.utils.data.default_collate
out(
    c([1, 2.5]),
    c([2.5, 1]),
    c([True, 1]),
    c([np.uint8(1), np.uint8(2)]),
    c([np.bool_(True), np.bool_(False)]),
)
err(lambda: c([{"a": 1}, {"b": 2}]))
err(lambda: c([None, None]))
err(lambda: c([]))
err(lambda: c([{1}, {2}]))
out(c([[(1, 2)], [(3, 4)]]), c([np.array([1], np.int32)] * 2))
err(lambda: torch.ones(2).pin_memory())
# ---
# optimizer state-dict hooks, capturable/differentiable refused at step
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
rec = []
opt.register_state_dict_pre_hook(lambda o: rec.append("sd-pre"))
opt.register_state_dict_post_hook(lambda o, sd: rec.append(sorted(sd)))
opt.register_load_state_dict_pre_hook(lambda o, sd: rec.append("load-pre"))
opt.register_load_state_dict_post_hook(lambda o: rec.append("load-post"))
opt.load_state_dict(opt.state_dict())
out(rec)
w.grad = torch.ones(2)
for kw in [dict(capturable=True), dict(differentiable=True)]:
    o = torch.optim.Adam([w], **kw)
    out(o.defaults[next(iter(kw))])
    err(lambda: o.step())
err(lambda: torch.optim.Adam([w], fused=True, foreach=True))
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

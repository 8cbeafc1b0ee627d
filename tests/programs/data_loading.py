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
# StackDataset: images and labels side by side, as tuples or as dicts, through a DataLoader
images = torch.arange(24.0).reshape(6, 4)
labels = torch.tensor([0, 1, 0, 1, 1, 0])
pairs = torch.utils.data.StackDataset(images, labels)
named = torch.utils.data.StackDataset(image=images, label=labels)
out(len(pairs), pairs[2], named[3])
loader = torch.utils.data.DataLoader(named, batch_size=4)
out([batch for batch in loader])
out(list(torch.utils.data.DataLoader(pairs, batch_size=3))[1])
err(lambda: torch.utils.data.StackDataset())
err(lambda: torch.utils.data.StackDataset(images, labels[:5]))
err(lambda: torch.utils.data.StackDataset(images, label=labels))

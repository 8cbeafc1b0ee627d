# Dataset combinators and default_collate on the structures real datasets return
from collections import namedtuple
from dataclasses import dataclass

data = torch.utils.data
torch.manual_seed(0)
Sample = namedtuple("Sample", ["image", "label", "meta"])


class Shapes(data.Dataset):
    def __init__(self, n, offset=0):
        self.n, self.offset = n, offset

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError(i)
        x = torch.full((2, 2), float(i + self.offset))
        return Sample(
            x,
            i % 2,
            {"id": i + self.offset, "name": f"s{i + self.offset}", "np": np.float32(i) / 2},
        )


a, b = Shapes(3), Shapes(4, offset=10)
cat = data.ConcatDataset([a, b])
print(len(cat), cat.cumulative_sizes, cat[4].meta["id"], cat[-1].meta)
batch = data.default_collate([cat[0], cat[5]])
print(
    type(batch).__name__,
    batch.image.shape,
    batch.label,
    batch.meta["id"],
    batch.meta["name"],
    batch.meta["np"],
)
sub = data.Subset(cat, [6, 0, 3])
print(len(sub), [s.meta["id"] for s in sub])
loader = data.DataLoader(cat, batch_size=3, shuffle=False, drop_last=True)
print(len(loader), [bt.meta["id"].tolist() for bt in loader])
train, val = data.random_split(cat, [0.7, 0.3], generator=torch.Generator().manual_seed(1))
print(len(train), len(val), sorted(train.indices))
td = data.TensorDataset(torch.arange(6.0).view(3, 2), torch.tensor([0, 1, 0]))
print(td[1], td[0:2], len(td.tensors))
stack = data.StackDataset(x=td, s=a)
print(sorted(stack[1]), stack[1]["x"][1])
print(data.default_collate([np.array([1, 2]), np.array([3, 4])]))
print(data.default_collate([(1.5, "a"), (2.5, "b")]))
print(data.default_collate([{"t": torch.tensor(1)}, {"t": torch.tensor(2)}]))
print(data.default_convert(np.arange(3)), data.default_convert([np.float64(1.0)]))


@dataclass
class Pair:
    left: torch.Tensor
    right: int


err(lambda: data.default_collate([Pair(torch.ones(1), 1), Pair(torch.ones(1), 2)]))
err(lambda: data.default_collate([torch.ones(2), torch.ones(3)]))
err(lambda: cat[20])
out(batch.image, batch.label)
# ---
# Chained iterable datasets, BatchSampler drop_last, batch_size=None loaders and a custom collate
data = torch.utils.data
torch.manual_seed(0)


class Counter(data.IterableDataset):
    def __init__(self, start, stop):
        self.start, self.stop = start, stop

    def __iter__(self):
        yield from (torch.tensor(i) for i in range(self.start, self.stop))


chain = data.ChainDataset([Counter(0, 3), Counter(10, 12)])
print([int(x) for x in chain])
print([b.tolist() for b in data.DataLoader(chain, batch_size=2)])
bs = data.BatchSampler(data.SequentialSampler(range(7)), batch_size=3, drop_last=False)
print(list(bs), len(bs), len(data.BatchSampler(range(7), 3, True)))
td = data.TensorDataset(torch.arange(14.0).view(7, 2))
loader = data.DataLoader(td, sampler=bs, batch_size=None)
print([x[0].shape for x in loader])
loader = data.DataLoader(
    td,
    batch_sampler=data.BatchSampler(
        data.RandomSampler(td, generator=torch.Generator().manual_seed(0)), 4, False
    ),
)
print([x[0][:, 0].tolist() for x in loader])


def collate_pairs(batch):
    xs = torch.stack([b[0] for b in batch])
    return xs, xs.sum(1)


print(next(iter(data.DataLoader(td, batch_size=3, collate_fn=collate_pairs))))
print(next(iter(data.DataLoader(range(5), batch_size=None))))
err(lambda: len(data.DataLoader(td, batch_size=2, sampler=bs)))
err(lambda: len(data.DataLoader(td, batch_sampler=bs, shuffle=True)))
err(lambda: len(data.DataLoader(chain)))

# torch.utils.data: IterableDataset, Sampler subclasses, collate_fn padding, splits and samplers
data = torch.utils.data


class Stream(data.IterableDataset):
    def __init__(self, start, end):
        super().__init__()
        self.start, self.end = start, end

    def __iter__(self):
        info = data.get_worker_info()
        print("worker", info)
        return iter(range(self.start, self.end))


ds = Stream(3, 10)
print(list(data.DataLoader(ds, num_workers=0)))
print(list(data.DataLoader(ds, batch_size=3)))
print(list(data.DataLoader(ds, batch_size=3, drop_last=True)))


class EvenSampler(data.Sampler):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(0, self.n, 2))

    def __len__(self):
        return (self.n + 1) // 2


tds = data.TensorDataset(torch.arange(10.0).view(5, 2), torch.arange(5))
dl = data.DataLoader(tds, sampler=EvenSampler(5), batch_size=2)
for xb, yb in dl:
    print(xb, yb)
print(
    len(dl),
    len(data.BatchSampler(EvenSampler(5), 2, False)),
    list(data.BatchSampler(data.SequentialSampler(range(5)), 2, True)),
)
seqs = [torch.tensor([1, 2, 3]), torch.tensor([4]), torch.tensor([5, 6])]
pad = torch.nn.utils.rnn.pad_sequence


def collate(batch):
    xs, ys = zip(*batch)
    lengths = torch.tensor([len(x) for x in xs])
    return pad(list(xs), batch_first=True, padding_value=0), lengths, torch.stack(ys)


class SeqDS(data.Dataset):
    def __len__(self):
        return 3

    def __getitem__(self, i):
        return seqs[i], torch.tensor(i)


for b in data.DataLoader(SeqDS(), batch_size=2, collate_fn=collate):
    print(b)
print(
    pad(seqs, padding_side="left"),
    pad(seqs, batch_first=True, padding_value=-1, padding_side="left"),
)
g = torch.Generator().manual_seed(42)
ws = data.WeightedRandomSampler([0.1, 0.9, 0.4, 0.0], num_samples=8, replacement=True, generator=g)
print(list(ws), len(ws))
cd = data.ConcatDataset(
    [tds, data.TensorDataset(torch.zeros(2, 2), torch.ones(2, dtype=torch.long))]
)
print(len(cd), cd[6], cd.cumulative_sizes)
sub = data.Subset(tds, [4, 0])
print(len(sub), sub[0], sub.indices)
tr, va = data.random_split(range(10), [0.7, 0.3], generator=torch.Generator().manual_seed(1))
print(list(tr), list(va), type(tr).__name__)
print(
    data.default_collate(
        [{"a": torch.tensor(1.0), "b": [1, 2]}, {"a": torch.tensor(2.0), "b": [3, 4]}]
    )
)
print(data.default_collate([(1, 2.0, "x"), (3, 4.0, "y")]))
print(data.default_collate([np.array([1.0, 2.0]), np.array([3.0, 4.0])]))
dl = data.DataLoader(tds, batch_size=2, shuffle=True, generator=torch.Generator().manual_seed(3))
print([b[1].tolist() for b in dl])
print([b[1].tolist() for b in dl])
chained = data.ChainDataset([Stream(0, 2), Stream(5, 7)])
print(list(chained))
rs = data.RandomSampler(range(6), generator=torch.Generator().manual_seed(0))
print(list(rs))
dsub = data.SubsetRandomSampler([1, 3, 5], generator=torch.Generator().manual_seed(0))
print(list(dsub))
stk = data.StackDataset(tds, tds)
print(stk[1])

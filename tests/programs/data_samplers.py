# custom Sampler subclasses, WeightedRandomSampler for class imbalance, BatchSampler, collate_fn
torch.manual_seed(0)
data = torch.utils.data  # the runner binds `torch`; a script would import these names
BatchSampler, DataLoader, Dataset = data.BatchSampler, data.DataLoader, data.Dataset
RandomSampler, Sampler, SequentialSampler = data.RandomSampler, data.Sampler, data.SequentialSampler
SubsetRandomSampler, TensorDataset = data.SubsetRandomSampler, data.TensorDataset
WeightedRandomSampler = data.WeightedRandomSampler

labels = torch.tensor([0] * 12 + [1] * 3 + [2] * 1)
features = torch.arange(16, dtype=torch.float32).unsqueeze(1)
ds = TensorDataset(features, labels)
class_counts = torch.bincount(labels)
print("class counts", class_counts)
class_weights = 1.0 / class_counts.float()
sample_weights = class_weights[labels]
print(sample_weights)
sampler = WeightedRandomSampler(sample_weights, num_samples=48, replacement=True)
print(len(sampler))
loader = DataLoader(ds, batch_size=12, sampler=sampler)
seen = []
for _xb, yb in loader:
    seen.append(yb)
    print(yb.tolist())
print("resampled counts", torch.bincount(torch.cat(seen), minlength=3))
idx = list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7], 3, replacement=False))
print(idx)


class EvenOddSampler(Sampler):
    """Yields the even indices first, then the odd ones, each shuffled."""

    def __init__(self, data_source, generator=None):
        self.n = len(data_source)
        self.generator = generator

    def __iter__(self):
        even = torch.arange(0, self.n, 2)
        odd = torch.arange(1, self.n, 2)
        even = even[torch.randperm(len(even), generator=self.generator)]
        odd = odd[torch.randperm(len(odd), generator=self.generator)]
        yield from torch.cat([even, odd]).tolist()

    def __len__(self):
        return self.n


g = torch.Generator()
g.manual_seed(7)
order = list(EvenOddSampler(ds, generator=g))
print(order)
loader = DataLoader(ds, batch_size=5, sampler=EvenOddSampler(ds, generator=g), drop_last=True)
print(len(loader), [b[0].squeeze(1).tolist() for b in loader])
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(BatchSampler(range(7), batch_size=3, drop_last=True)))
print(list(SubsetRandomSampler([3, 5, 9, 11], generator=torch.Generator().manual_seed(3))))
print(list(RandomSampler(range(6), generator=torch.Generator().manual_seed(1))))
print(
    list(
        RandomSampler(
            range(6), replacement=True, num_samples=8, generator=torch.Generator().manual_seed(1)
        )
    )
)


class BucketBatchSampler(Sampler):
    """Batches of indices whose sequences have similar lengths."""

    def __init__(self, lengths, batch_size):
        self.lengths = lengths
        self.batch_size = batch_size

    def __iter__(self):
        order = torch.argsort(torch.tensor(self.lengths), stable=True).tolist()
        batches = [order[i : i + self.batch_size] for i in range(0, len(order), self.batch_size)]
        for j in torch.randperm(len(batches)).tolist():
            yield batches[j]

    def __len__(self):
        return (len(self.lengths) + self.batch_size - 1) // self.batch_size


class Sentences(Dataset):
    def __init__(self, n):
        self.items = [torch.randint(1, 9, (int(torch.randint(1, 6, ()).item()),)) for _ in range(n)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i], len(self.items[i])


def pad_collate(batch):
    seqs, lens = zip(*batch)
    padded = nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=0)
    return padded, torch.tensor(lens)


sents = Sentences(9)
lengths = [len(s) for s in sents.items]
print(lengths)
bl = DataLoader(sents, batch_sampler=BucketBatchSampler(lengths, 4), collate_fn=pad_collate)
for padded, lens in bl:
    print(padded.shape, lens.tolist())
    print(padded)
out(padded, lens)

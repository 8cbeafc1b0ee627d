# random_split with fractions, Subset, ConcatDataset, WeightedRandomSampler, collate of dicts
import collections

data = torch.utils.data
(
    Dataset,
    TensorDataset,
    DataLoader,
    random_split,
    Subset,
    ConcatDataset,
    WeightedRandomSampler,
    default_collate,
) = (
    data.Dataset,
    data.TensorDataset,
    data.DataLoader,
    data.random_split,
    data.Subset,
    data.ConcatDataset,
    data.WeightedRandomSampler,
    data.default_collate,
)
dc2 = torch.utils.data.dataloader.default_collate
torch.manual_seed(0)
ds = TensorDataset(torch.arange(10.0).unsqueeze(1), torch.arange(10) % 3)
tr, va, te = random_split(ds, [0.6, 0.2, 0.2], generator=torch.Generator().manual_seed(42))
print(len(tr), len(va), len(te), tr.indices, va.indices, type(tr).__name__)
a, b = random_split(range(7), [0.5, 0.5])
print(list(a), list(b))
a, b = random_split(ds, [7, 3])
print(a.indices, b[0])
sub = Subset(ds, [1, 3, 5])
print(len(sub), sub[1], sub.dataset is ds)
cat = ConcatDataset([sub, ds])
print(len(cat), cat[2], cat[3], cat.cumulative_sizes)
cat2 = sub + ds
print(type(cat2).__name__, len(cat2))
weights = torch.tensor([0.1, 0.1, 0.8, 0.5, 0.5])
s = WeightedRandomSampler(
    weights, num_samples=10, replacement=True, generator=torch.Generator().manual_seed(1)
)
print(list(s), len(s))
s2 = WeightedRandomSampler([1, 2, 3, 4], 3, replacement=False)
print(list(s2))
Point = collections.namedtuple("Point", ["x", "y"])
batch = [
    {"img": torch.ones(2) * i, "label": i, "name": f"n{i}", "meta": {"w": float(i)}}
    for i in range(3)
]
c = default_collate(batch)
print(c)
print(default_collate([Point(torch.tensor(1.0), 2), Point(torch.tensor(3.0), 4)]))
print(default_collate([(np.array([1.0, 2.0]), 1), (np.array([3.0, 4.0]), 2)]))
print(default_collate([np.float64(1.5), np.float64(2.5)]), default_collate([True, False]))
print(dc2([[1, 2], [3, 4]]))
# ---
# DataLoader with drop_last, shuffle, generator, custom collate and worker info
data = torch.utils.data
DataLoader, TensorDataset, get_worker_info, Dataset, IterableDataset = (
    data.DataLoader,
    data.TensorDataset,
    data.get_worker_info,
    data.Dataset,
    data.IterableDataset,
)
torch.manual_seed(0)
ds = TensorDataset(torch.arange(11.0), torch.arange(11))
g = torch.Generator()
g.manual_seed(7)
dl = DataLoader(ds, batch_size=4, shuffle=True, drop_last=True, generator=g)
print(len(dl))
for xb, yb in dl:
    print(xb, yb)
dl2 = DataLoader(ds, batch_size=4, shuffle=False)
print(len(dl2), [b[1].tolist() for b in dl2])
print(get_worker_info())


class Words(Dataset):
    def __init__(self):
        self.data = [[1, 2, 3], [4, 5], [6]]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return torch.tensor(self.data[i]), len(self.data[i])


def pad_collate(batch):
    seqs, lens = zip(*batch)
    return nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1), torch.tensor(lens)


for x, lengths in DataLoader(Words(), batch_size=2, collate_fn=pad_collate):
    print(x, lengths)


class Stream(IterableDataset):
    def __iter__(self):
        info = get_worker_info()
        return iter(range(5 if info is None else 0))


print(list(DataLoader(Stream(), batch_size=2)))
print([b for b in DataLoader(list(range(5)), batch_size=None)])
dl3 = DataLoader(ds, batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(3))
print([b[1].tolist() for b in dl3], [b[1].tolist() for b in dl3])
it = iter(DataLoader(ds, batch_size=5))
print(next(it)[0], next(it)[1])
sampler = torch.utils.data.BatchSampler(
    torch.utils.data.SequentialSampler(range(7)), batch_size=3, drop_last=False
)
print(list(sampler), len(sampler))
print(list(DataLoader(ds, batch_sampler=sampler))[-1])
print(
    list(
        torch.utils.data.SubsetRandomSampler([5, 6, 7], generator=torch.Generator().manual_seed(0))
    )
)
print(list(torch.utils.data.RandomSampler(range(6), generator=torch.Generator().manual_seed(0))))
# ---
# clip_grad_value_, clip_grad_norm_ with error_if_nonfinite and foreach, get_total_norm
torch.manual_seed(0)
m = nn.Linear(4, 3)
m(torch.randn(5, 4)).pow(2).sum().backward()
print(nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.5))
print(nn.utils.clip_grad_norm_(m.parameters(), 1.0, norm_type=float("inf")))
print(nn.utils.clip_grad_norm_(m.parameters(), 1.0, norm_type=1))
nn.utils.clip_grad_value_(m.parameters(), clip_value=0.05)
out(m.weight.grad, m.bias.grad)
m.weight.grad[0, 0] = float("nan")
print(nn.utils.clip_grad_norm_(m.parameters(), 1.0))
err(lambda: nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True))
print(nn.utils.clip_grad_norm_([], 1.0))
print(nn.utils.clip_grad_norm_(m.weight, 1.0, foreach=False))
p = nn.Parameter(torch.ones(3))
print(nn.utils.clip_grad_norm_([p], 1.0))
p.grad = torch.full((3,), 2.0)
print(nn.utils.get_total_norm([p.grad]), nn.utils.clip_grad_norm_(p, 1.0), p.grad)
nn.utils.clip_grads_with_norm_([p], 1.0, torch.tensor(4.0))
print(p.grad)
print(nn.utils.parameters_to_vector(m.parameters()).shape)
v = torch.zeros(15)
nn.utils.vector_to_parameters(v, m.parameters())
print(m.bias)

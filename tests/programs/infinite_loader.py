# an "infinite" loader: minGPT's random sampler asks for 10**10 samples
# The sampler must draw lazily; the indices are random, so the program checks what does not
# depend on the generator: lengths, shapes, ranges and dtypes.
DataLoader = torch.utils.data.DataLoader
RandomSampler = torch.utils.data.RandomSampler
TensorDataset = torch.utils.data.TensorDataset

dataset = TensorDataset(torch.arange(20.0).reshape(10, 2), torch.arange(10))
sampler = RandomSampler(dataset, replacement=True, num_samples=int(1e10))
loader = DataLoader(dataset, sampler=sampler, shuffle=False, batch_size=4, num_workers=0)
print(len(sampler), len(loader))
data_iter = iter(loader)
seen = []
for _ in range(5):
    try:
        xb, yb = next(data_iter)
    except StopIteration:
        data_iter = iter(loader)
        xb, yb = next(data_iter)
    assert torch.equal(xb[:, 0], 2 * yb.float())
    seen.append(yb)
indices = torch.cat(seen)
out(xb.shape, yb.shape, xb.dtype, yb.dtype, indices.shape)
out(bool(indices.min() >= 0), bool(indices.max() <= 9))
small = RandomSampler(range(7), replacement=True, num_samples=70)
drawn = list(small)
out(len(drawn), all(0 <= i < 7 for i in drawn), len(small))
err(lambda: RandomSampler(range(3), replacement=True, num_samples=0))
err(lambda: RandomSampler(range(3), replacement=1))

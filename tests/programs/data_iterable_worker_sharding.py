# IterableDataset sharded by get_worker_info, worker_init_fn seeding, persistent workers
import math

DataLoader, IterableDataset = torch.utils.data.DataLoader, torch.utils.data.IterableDataset
get_worker_info = torch.utils.data.get_worker_info


class RangeStream(IterableDataset):
    """The docs' example: each worker yields its own slice of [start, end)."""

    def __init__(self, start, end):
        super().__init__()
        assert end > start, "this example code only works with end >= start"
        self.start, self.end = start, end

    def __iter__(self):
        worker_info = get_worker_info()
        if worker_info is None:  # single-process data loading, return the full iterator
            iter_start, iter_end = self.start, self.end
        else:  # in a worker process: split workload
            per_worker = int(math.ceil((self.end - self.start) / float(worker_info.num_workers)))
            worker_id = worker_info.id
            iter_start = self.start + worker_id * per_worker
            iter_end = min(iter_start + per_worker, self.end)
        return iter(range(iter_start, iter_end))


ds = RangeStream(start=3, end=7)
print(list(DataLoader(ds, num_workers=0)))
print(sorted(int(x) for x in DataLoader(ds, num_workers=2)))
print(get_worker_info())


def worker_init_fn(worker_id):
    worker_info = get_worker_info()
    dataset = worker_info.dataset  # the dataset copy in this worker process
    overall_start, overall_end = dataset.start, dataset.end
    per_worker = int(math.ceil((overall_end - overall_start) / float(worker_info.num_workers)))
    dataset.start = overall_start + worker_info.id * per_worker
    dataset.end = min(dataset.start + per_worker, overall_end)


class PlainRange(IterableDataset):
    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        return iter(range(self.start, self.end))


loader = DataLoader(PlainRange(3, 7), num_workers=2, worker_init_fn=worker_init_fn)
print(sorted(int(x) for x in loader))
# ---
# Token stream chunked into (x, y) blocks, batched, with persistent workers reused across epochs
DataLoader, IterableDataset = torch.utils.data.DataLoader, torch.utils.data.IterableDataset
get_worker_info = torch.utils.data.get_worker_info


class TokenBlocks(IterableDataset):
    def __init__(self, tokens, block_size):
        self.tokens, self.block_size = tokens, block_size

    def __iter__(self):
        info = get_worker_info()
        wid, nw = (0, 1) if info is None else (info.id, info.num_workers)
        n_blocks = (len(self.tokens) - 1) // self.block_size
        for i in range(wid, n_blocks, nw):
            chunk = self.tokens[i * self.block_size : (i + 1) * self.block_size + 1]
            yield chunk[:-1], chunk[1:]


tokens = torch.arange(41) % 7
ds = TokenBlocks(tokens, block_size=8)
loader = DataLoader(ds, batch_size=2, num_workers=2, persistent_workers=True)
for epoch in range(2):
    seen = []
    for xb, yb in loader:
        assert xb.shape == yb.shape
        seen.append(xb[:, 0].tolist())
    print(f"epoch {epoch}: batches={len(seen)} firsts={sorted(sum(seen, []))}")
out(next(iter(DataLoader(ds, batch_size=3))))
del loader  # shuts the persistent workers down

"""numtorch.utils.data: datasets, samplers, DataLoader batching/shuffling, collation."""

import warnings
from collections import namedtuple

import numpy as np
import pytest

import numtorch as torch
from numtorch.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    RandomSampler,
    SequentialSampler,
    Subset,
    TensorDataset,
    default_collate,
    default_convert,
    random_split,
)


def make_dataset(n=10):
    x = torch.arange(n * 2, dtype=torch.float32).reshape(n, 2)
    y = torch.arange(n)
    return TensorDataset(x, y)


def batches_of(loader):
    return [y.tolist() for _, y in loader]


# -- datasets ------------------------------------------------------------------------------------
def test_tensor_dataset_items_and_errors():
    ds = make_dataset(4)
    x, y = ds[2]
    assert x.tolist() == [4.0, 5.0] and y.item() == 2 and len(ds) == 4
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(torch.zeros(3), torch.zeros(4))


def test_tensor_dataset_batch_path_matches_item_path():
    ds = make_dataset(6)
    fast = ds.__getitems__([5, 0, -1])
    slow = [ds[5], ds[0], ds[-1]]
    for a, b in zip(fast, slow):
        assert [t.tolist() for t in a] == [t.tolist() for t in b]
        assert [t.dtype for t in a] == [t.dtype for t in b]
        assert [t.shape for t in a] == [t.shape for t in b]
    with pytest.raises(IndexError, match="index 6 is out of bounds for dimension 0 with size 6"):
        ds.__getitems__([0, 6])


def test_batches_of_samples_that_require_grad_keep_the_graph():
    w = torch.ones(4, 2, requires_grad=True)
    loader = DataLoader(TensorDataset(w * 2), batch_size=4)
    (batch,) = next(iter(loader))
    batch.sum().backward()
    assert w.grad.tolist() == [[2.0, 2.0]] * 4


def test_subset_concat_and_random_split():
    base = list(range(10))
    sub = Subset(base, [7, 2, 9])
    assert len(sub) == 3 and list(sub) == [7, 2, 9]
    cat = ConcatDataset([make_dataset(3), make_dataset(2)])
    assert len(cat) == 5 and cat[3][1].item() == 0 and cat[-1][1].item() == 1
    assert len(make_dataset(3) + make_dataset(4)) == 7

    parts = random_split(base, [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(3))
    assert [len(p) for p in parts] == [5, 3, 2]
    assert sorted(i for p in parts for i in p) == base
    again = random_split(base, [5, 3, 2], generator=torch.Generator().manual_seed(3))
    assert [list(p) for p in again] == [list(p) for p in parts]
    assert [len(p) for p in random_split(range(11), [0.34, 0.33, 0.33])] == [4, 4, 3]
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        random_split(base, [3, 3])
    with pytest.raises(ValueError, match="Fraction at index 1 is not between 0 and 1"):
        random_split(base, [0.5, -0.5, 1.0])
    with pytest.warns(UserWarning, match="Length of split at index 2 is 0"):
        random_split(range(2), [0.5, 0.5, 0.0])


# -- samplers ------------------------------------------------------------------------------------
def test_samplers():
    assert list(SequentialSampler(range(4))) == [0, 1, 2, 3]
    rs = RandomSampler(range(7), generator=torch.Generator().manual_seed(0))
    first, second = list(rs), list(rs)
    assert sorted(first) == list(range(7)) and first != second  # a new order each pass
    draws = list(RandomSampler(range(3), replacement=True, num_samples=50))
    assert len(draws) == 50 and set(draws) <= {0, 1, 2}
    assert len(list(RandomSampler(range(3), num_samples=7))) == 7
    bs = BatchSampler(range(7), batch_size=3, drop_last=False)
    assert list(bs) == [[0, 1, 2], [3, 4, 5], [6]] and len(bs) == 3
    assert len(BatchSampler(range(7), batch_size=3, drop_last=True)) == 2
    with pytest.raises(ValueError, match="batch_size should be a positive integer value"):
        BatchSampler(range(3), batch_size=0, drop_last=False)
    with pytest.raises(ValueError, match="drop_last should be a boolean value"):
        BatchSampler(range(3), batch_size=1, drop_last=1)
    with pytest.raises(ValueError, match="num_samples should be a positive integer value"):
        RandomSampler(range(3), num_samples=0)
    with pytest.raises(TypeError, match="replacement should be a boolean value"):
        RandomSampler(range(3), replacement=1)


def test_random_sampler_without_generator_follows_manual_seed():
    torch.manual_seed(5)
    a = list(RandomSampler(range(20)))
    torch.manual_seed(5)
    assert list(RandomSampler(range(20))) == a


# -- DataLoader ----------------------------------------------------------------------------------
def test_sequential_batches_and_drop_last():
    ds = make_dataset(10)
    loader = DataLoader(ds, batch_size=4)
    assert batches_of(loader) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]] and len(loader) == 3
    xs = [x for x, _ in loader]
    assert xs[0].shape == (4, 2) and xs[0].dtype == torch.float32
    dropped = DataLoader(ds, batch_size=4, drop_last=True)
    assert batches_of(dropped) == [[0, 1, 2, 3], [4, 5, 6, 7]] and len(dropped) == 2
    assert batches_of(DataLoader(ds)) == [[i] for i in range(10)]  # batch_size defaults to 1


def test_shuffle_is_reproducible_with_a_seeded_generator():
    ds = make_dataset(20)

    def epochs(seed):
        loader = DataLoader(
            ds, batch_size=6, shuffle=True, generator=torch.Generator().manual_seed(seed)
        )
        return [batches_of(loader) for _ in range(2)]

    run = epochs(0)
    assert run == epochs(0)
    assert run != epochs(1)
    assert run[0] != run[1]  # epochs differ
    for epoch in run:
        assert [len(b) for b in epoch] == [6, 6, 6, 2]
        assert sorted(i for b in epoch for i in b) == list(range(20))


def test_custom_sampler_batch_sampler_and_collate_fn():
    ds = make_dataset(6)
    assert batches_of(DataLoader(ds, batch_size=2, sampler=[5, 4, 3, 2, 1, 0])) == [
        [5, 4],
        [3, 2],
        [1, 0],
    ]
    assert batches_of(DataLoader(ds, batch_sampler=[[0, 5], [2]])) == [[0, 5], [2]]
    loader = DataLoader(ds, batch_size=3, collate_fn=lambda batch: [int(y) for _, y in batch])
    assert list(loader) == [[0, 1, 2], [3, 4, 5]]


def test_dataloader_argument_errors():
    ds = make_dataset(4)
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        DataLoader(ds, sampler=[0, 1], shuffle=True)
    with pytest.raises(ValueError, match="batch_sampler option is mutually exclusive"):
        DataLoader(ds, batch_sampler=[[0]], batch_size=2)
    with pytest.raises(ValueError, match="mutually exclusive with drop_last"):
        DataLoader(ds, batch_size=None, drop_last=True)
    with pytest.raises(ValueError, match="num_workers option should be non-negative"):
        DataLoader(ds, num_workers=-1)
    with pytest.raises(ValueError, match="persistent_workers option needs num_workers > 0"):
        DataLoader(ds, persistent_workers=True)
    loader = DataLoader(ds, batch_size=2)
    with pytest.raises(ValueError, match="batch_size attribute should not be set"):
        loader.batch_size = 3


def test_batch_size_none_converts_single_samples():
    class Arrays(Dataset):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            return {"x": np.full(3, i, dtype=np.float32), "i": i}

    out = list(DataLoader(Arrays(), batch_size=None))
    assert out[1]["x"].tolist() == [1.0, 1.0, 1.0] and out[1]["x"].dtype == torch.float32
    assert out[1]["i"] == 1


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.n


def test_iterable_dataset_batches():
    assert [b.tolist() for b in DataLoader(Stream(7), batch_size=3)] == [[0, 1, 2], [3, 4, 5], [6]]
    loader = DataLoader(Stream(7), batch_size=3, drop_last=True)
    assert [b.tolist() for b in loader] == [[0, 1, 2], [3, 4, 5]] and len(loader) == 2
    assert len(DataLoader(Stream(7), batch_size=3)) == 3
    assert [b.tolist() for b in DataLoader(Stream(6), batch_size=3)] == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        DataLoader(Stream(3), shuffle=True)
    with pytest.raises(ValueError, match="expected unspecified sampler option"):
        DataLoader(Stream(3), sampler=[0])


# -- collation -----------------------------------------------------------------------------------
def test_default_collate_kinds():
    Point = namedtuple("Point", ["x", "y"])
    batch = [
        {"t": torch.tensor([1, 2]), "f": 0.5, "i": 3, "b": True, "s": "a", "p": Point(1, 2.0)},
        {"t": torch.tensor([3, 4]), "f": 1.5, "i": 4, "b": False, "s": "b", "p": Point(3, 4.0)},
    ]
    out = default_collate(batch)
    assert out["t"].tolist() == [[1, 2], [3, 4]] and out["t"].dtype == torch.int64
    assert out["f"].dtype == torch.float64 and out["f"].tolist() == [0.5, 1.5]
    assert out["i"].dtype == torch.int64 and out["b"].dtype == torch.bool
    assert out["s"] == ["a", "b"]
    assert isinstance(out["p"], Point) and out["p"].y.dtype == torch.float64


def test_default_collate_sequences_and_numpy():
    tuples = default_collate([(1, np.array([1.0, 2.0], dtype=np.float32)), (2, np.zeros(2))])
    assert isinstance(tuples, list) and tuples[0].tolist() == [1, 2]
    assert tuples[1].dtype == torch.float64  # float32 and float64 rows promote, as torch.stack
    lists = default_collate([[1, 2.0], [3, 4.0]])
    assert isinstance(lists, list) and lists[1].dtype == torch.float64
    scalars = default_collate([np.float32(1), np.float32(2)])
    assert scalars.dtype == torch.float32 and scalars.tolist() == [1.0, 2.0]
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
        default_collate([[1, 2], [3]])
    with pytest.raises(TypeError, match="default_collate: batch must contain tensors"):
        default_collate([object(), object()])
    with pytest.raises(TypeError, match="found <U1"):
        default_collate([np.array(["a"]), np.array(["b"])])
    with pytest.raises(RuntimeError, match="stack expects each tensor to be equal size"):
        default_collate([torch.zeros(2), torch.zeros(3)])


def test_default_convert_keeps_structure():
    out = default_convert((np.arange(2), [np.float64(1.5)], "s"))
    assert isinstance(out, list) and out[0].tolist() == [0, 1] and out[1][0].item() == 1.5
    assert out[2] == "s"


def test_weighted_and_subset_random_samplers():
    from numtorch.utils.data import SubsetRandomSampler, WeightedRandomSampler

    g = torch.Generator().manual_seed(0)
    draws = list(WeightedRandomSampler([1.0, 0.0, 3.0], 4000, generator=g))
    assert set(draws) == {0, 2} and 0.7 < draws.count(2) / 4000 < 0.8
    unique = list(WeightedRandomSampler([1.0, 1.0, 1.0, 1.0], 4, replacement=False))
    assert sorted(unique) == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="weights should be a 1d sequence"):
        WeightedRandomSampler([[1.0]], 1)
    with pytest.raises(ValueError, match="num_samples should be a positive integer value"):
        WeightedRandomSampler([1.0], True)
    subset = list(SubsetRandomSampler([10, 20, 30], generator=torch.Generator().manual_seed(1)))
    assert sorted(subset) == [10, 20, 30]


def test_pin_memory_warns_as_each_iterator_starts_that_there_is_no_accelerator():
    loader = DataLoader(TensorDataset(torch.ones(4, 1)), batch_size=2, pin_memory=True)
    for _ in range(2):
        with pytest.warns(UserWarning, match="'pin_memory' argument is set as true but no"):
            assert len(list(loader)) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        list(DataLoader(TensorDataset(torch.ones(4, 1)), batch_size=2))

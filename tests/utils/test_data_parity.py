"""numtorch.utils.data against an installed torch: collation, batching, splits, messages."""

from collections import OrderedDict, namedtuple

import numpy as np
import pytest

import numtorch

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.parity

Pair = namedtuple("Pair", ["a", "b"])


def samples(lib):
    """The same nested samples built with ``lib`` (numtorch or torch)."""
    out = []
    for i in range(3):
        out.append(
            {
                "image": lib.arange(6, dtype=lib.float32).reshape(2, 3) + i,
                "label": i,
                "weight": 0.5 * i,
                "flag": i % 2 == 0,
                "name": f"s{i}",
                "array": np.arange(4, dtype=np.int16) * i,
                "scalar": np.float32(i) / 2,
                "pair": Pair(lib.tensor([i, -i]), float(i)),
                "nested": [(i, [1.0 * i, np.int32(i)])],
                "ordered": OrderedDict(z=i, a=lib.tensor(float(i))),
                # strings inside sequences come back as the tuple of the batch's strings
                "tagged": (i, f"t{i}", Pair(f"p{i}", [f"q{i}"])),
            }
        )
    return out


def same_structure(ours, theirs, path="batch"):
    if isinstance(theirs, torch.Tensor):
        assert isinstance(ours, numtorch.Tensor), path
        assert str(ours.dtype) == str(theirs.dtype), path
        assert list(ours.shape) == list(theirs.shape), path
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy(), err_msg=path)
    elif isinstance(theirs, dict):
        assert type(ours) is type(theirs) and list(ours) == list(theirs), path
        for key in theirs:
            same_structure(ours[key], theirs[key], f"{path}[{key!r}]")
    elif isinstance(theirs, (list, tuple)):
        assert type(ours) is type(theirs) and len(ours) == len(theirs), path
        for i, (a, b) in enumerate(zip(ours, theirs)):
            same_structure(a, b, f"{path}[{i}]")
    else:
        assert ours == theirs, path


def test_default_collate_matches_torch():
    from torch.utils.data import default_collate as torch_collate

    same_structure(
        numtorch.utils.data.default_collate(samples(numtorch)), torch_collate(samples(torch))
    )


def test_default_convert_matches_torch():
    from torch.utils.data import default_convert as torch_convert

    for ours, theirs in zip(samples(numtorch), samples(torch)):
        same_structure(numtorch.utils.data.default_convert(ours), torch_convert(theirs))


@pytest.mark.parametrize("drop_last", [False, True])
@pytest.mark.parametrize("batch_size", [1, 4, 7, None])
def test_sequential_loader_matches_torch(batch_size, drop_last):
    if batch_size is None and drop_last:
        pytest.skip("mutually exclusive (checked in test_data)")
    x = np.random.default_rng(0).standard_normal((10, 3)).astype(np.float32)
    loaders = [
        lib.utils.data.DataLoader(
            lib.utils.data.TensorDataset(lib.tensor(x), lib.arange(10)),
            batch_size=batch_size,
            drop_last=drop_last,
        )
        for lib in (numtorch, torch)
    ]
    ours, theirs = (list(loader) for loader in loaders)
    assert len(loaders[0]) == len(loaders[1]) == len(theirs)
    same_structure(ours, theirs)


@pytest.mark.parametrize(
    ("n", "lengths"),
    [(10, [0.5, 0.3, 0.2]), (11, [0.34, 0.33, 0.33]), (7, [0.1, 0.9]), (5, [2, 3])],
)
def test_random_split_lengths_match_torch(n, lengths):
    ours = numtorch.utils.data.random_split(range(n), lengths)
    theirs = torch.utils.data.random_split(range(n), lengths)
    assert [len(s) for s in ours] == [len(s) for s in theirs]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"sampler": [0, 1], "shuffle": True},
        {"batch_sampler": [[0]], "drop_last": True},
        {"batch_size": None, "drop_last": True},
        {"num_workers": -1},
        {"timeout": -1},
        {"prefetch_factor": 2},
        {"persistent_workers": True},
    ],
)
def test_loader_errors_match_torch(kwargs):
    messages = []
    for lib in (numtorch, torch):
        dataset = lib.utils.data.TensorDataset(lib.zeros(4))
        with pytest.raises(ValueError) as info:
            lib.utils.data.DataLoader(dataset, **kwargs)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_collate_errors_match_torch():
    for batch in ([[1, 2], [3]], [object(), object()]):
        errors = []
        for lib in (numtorch, torch):
            with pytest.raises((RuntimeError, TypeError)) as info:
                lib.utils.data.default_collate(batch)
            errors.append((info.type, str(info.value).split(" at 0x")[0]))
        assert errors[0] == errors[1]

"""DistributedSampler: torch's split, padding and drop_last; shuffles agree across ranks."""

from __future__ import annotations

import pytest

import numtorch as torch
import numtorch.distributed as dist
from numtorch.utils.data import DataLoader, DistributedSampler, TensorDataset


def shards(n, replicas, **kwargs):
    return [list(DistributedSampler(range(n), replicas, r, **kwargs)) for r in range(replicas)]


@pytest.mark.parametrize("n", [0, 1, 5, 8, 11])
@pytest.mark.parametrize("replicas", [1, 2, 3, 4])
@pytest.mark.parametrize("drop_last", [False, True])
def test_matches_torch_without_shuffle(n, replicas, drop_last):
    torch_data = pytest.importorskip("torch.utils.data.distributed")
    ours = shards(n, replicas, shuffle=False, drop_last=drop_last)
    theirs = [
        list(torch_data.DistributedSampler(range(n), replicas, r, False, drop_last=drop_last))
        for r in range(replicas)
    ]
    assert ours == theirs
    lengths = {
        len(DistributedSampler(range(n), replicas, r, drop_last=drop_last)) for r in range(replicas)
    }
    assert lengths == {len(theirs[0])}


def test_split_and_padding_by_hand():
    assert shards(5, 2, shuffle=False) == [[0, 2, 4], [1, 3, 0]]
    assert shards(5, 2, shuffle=False, drop_last=True) == [[0, 2], [1, 3]]
    assert shards(2, 4, shuffle=False) == [[0], [1], [0], [1]]  # padding repeats the list


def test_shuffle_is_shared_by_ranks_and_changes_with_epoch():
    per_rank = shards(12, 3, seed=7)
    assert sorted(sum(per_rank, [])) == list(range(12))
    assert per_rank != shards(12, 3, shuffle=False)
    assert per_rank == shards(12, 3, seed=7)  # deterministic
    sampler = DistributedSampler(range(12), 3, 1, seed=7)
    first = list(sampler)
    sampler.set_epoch(1)
    assert list(sampler) != first and sorted(list(sampler) + first) != []
    assert first == per_rank[1]


def test_invalid_rank_and_process_group_defaults():
    with pytest.raises(
        ValueError, match=r"Invalid rank 2, rank should be in the interval \[0, 1\]"
    ):
        DistributedSampler(range(4), num_replicas=2, rank=2)
    with pytest.raises(ValueError, match="not been initialized"):
        DistributedSampler(range(4))
    dist.init_process_group("mpi")
    try:
        sampler = DistributedSampler(range(4), shuffle=False)
        assert (sampler.num_replicas, sampler.rank, list(sampler)) == (1, 0, [0, 1, 2, 3])
    finally:
        dist.destroy_process_group()


def test_with_dataloader():
    data = TensorDataset(torch.arange(10.0))
    loader = DataLoader(data, batch_size=2, sampler=DistributedSampler(data, 2, 1, shuffle=False))
    assert [b[0].tolist() for b in loader] == [[1.0, 3.0], [5.0, 7.0], [9.0]]

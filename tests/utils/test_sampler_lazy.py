"""Samplers with huge ``num_samples`` draw lazily, as torch's do (the "infinite loader"
idiom: ``RandomSampler(replacement=True, num_samples=int(1e10))``)."""

import itertools
import tracemalloc

import pytest

import numtorch
from numtorch.utils.data import DataLoader, RandomSampler, TensorDataset


def test_infinite_sampler_yields_without_materialising():
    sampler = RandomSampler(range(10), replacement=True, num_samples=int(1e10))
    assert len(sampler) == 10**10
    tracemalloc.start()
    try:
        first = list(itertools.islice(iter(sampler), 1000))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(first) == 1000 and all(0 <= i < 10 for i in first)
    assert peak < 10_000_000  # all indices would need 80 GB
    loader = DataLoader(TensorDataset(numtorch.arange(10.0)), sampler=sampler, batch_size=4)
    (batch,) = next(iter(loader))
    assert batch.shape == (4,)


@pytest.mark.parametrize("num_samples", [1, 31, 32, 33, 70])
def test_replacement_draws_exactly_num_samples(num_samples):
    g = numtorch.Generator().manual_seed(0)
    sampler = RandomSampler(range(5), replacement=True, num_samples=num_samples, generator=g)
    drawn = list(sampler)
    assert len(drawn) == num_samples and set(drawn) <= set(range(5))


def test_same_generator_seed_same_stream():
    def draw():
        g = numtorch.Generator().manual_seed(3)
        return list(RandomSampler(range(7), replacement=True, num_samples=100, generator=g))

    assert draw() == draw()

"""Datasets: map-style ``Dataset``, ``IterableDataset``, and ways to combine and split them."""

from __future__ import annotations

import bisect
import itertools
import math
import warnings
from collections.abc import Sequence
from typing import Generic, TypeVar

import numpy as np

from ..._core.tensor import Tensor
from ..._creation import default_generator, randperm

_T_co = TypeVar("_T_co", covariant=True)


# generic in what it yields, as torch's (``Dataset[int]`` in annotations and subclasses)
class Dataset(Generic[_T_co]):
    """A map-style dataset: subclasses implement ``__getitem__`` (and usually ``__len__``).

    Example:
        >>> from numtorch.utils.data import Dataset
        >>> class Squares(Dataset):
        ...     def __len__(self):
        ...         return 4
        ...
        ...     def __getitem__(self, index):
        ...         return index * index
        >>> [Squares()[i] for i in range(4)]
        [0, 1, 4, 9]
    """

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A dataset that is a stream: subclasses implement ``__iter__``.

    Example:
        >>> from numtorch.utils.data import DataLoader, IterableDataset
        >>> class Count(IterableDataset):
        ...     def __iter__(self):
        ...         return iter(range(5))
        >>> [batch.tolist() for batch in DataLoader(Count(), batch_size=2)]
        [[0, 1], [2, 3], [4]]
    """

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other):
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Samples are rows: item ``i`` is ``tuple(t[i] for t in tensors)``.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.utils.data import TensorDataset
        >>> ds = TensorDataset(torch.arange(6).reshape(3, 2), torch.tensor([0, 1, 0]))
        >>> len(ds), ds[1]
        (3, (tensor([2, 3]), tensor(1)))
    """

    def __init__(self, *tensors: Tensor) -> None:
        if any(tensors[0].size(0) != t.size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __getitems__(self, indices: list[int]) -> list[tuple]:
        # The DataLoader's batch path: one gather per tensor instead of one indexing op per
        # sample and tensor. Tensors that require grad take the recorded path.
        if any(t._requires_grad for t in self.tensors):
            return [self[i] for i in indices]
        index = np.asarray(indices, dtype=np.intp)
        n = len(self)
        bad = index[(index < -n) | (index >= n)]
        if bad.size:
            raise IndexError(f"index {bad[0]} is out of bounds for dimension 0 with size {n}")
        rows = [t._data[index] for t in self.tensors]
        make = Tensor._make
        return [tuple(make(r[k, ...]) for r in rows) for k in range(len(indices))]

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class ConcatDataset(Dataset):
    """Several map-style datasets one after another."""

    def __init__(self, datasets) -> None:
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index):
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index = len(self) + index
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][index - start]


class StackDataset(Dataset):
    """Datasets of one length side by side: item ``i`` is the tuple (given positionally) or
    the dict (given by keyword) of each dataset's item ``i``."""

    def __init__(self, *args, **kwargs) -> None:
        if args and kwargs:
            raise ValueError(
                "Supported either ``tuple``- (via ``args``) or``dict``- (via ``kwargs``) like "
                "input/output, but both types are given."
            )
        datasets = list(args) or list(kwargs.values())
        if not datasets:
            raise ValueError("At least one dataset should be passed")
        self._length = len(datasets[0])
        if any(len(d) != self._length for d in datasets):
            raise ValueError("Size mismatch between datasets")
        self.datasets = args if args else kwargs

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {k: d[index] for k, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __getitems__(self, indices: list) -> list:
        return [self[i] for i in indices]

    def __len__(self) -> int:
        return self._length


class ChainDataset(IterableDataset):
    """Several iterable datasets one after another."""

    def __init__(self, datasets) -> None:
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield from d

    def __len__(self) -> int:
        return sum(len(d) for d in self.datasets)


class Subset(Dataset):
    """The items of ``dataset`` at ``indices``, in that order.

    Example:
        >>> from numtorch.utils.data import Subset
        >>> s = Subset(["a", "b", "c", "d"], [3, 0])
        >>> len(s), s[0], list(s)
        (2, 'd', ['d', 'a'])
    """

    def __init__(self, dataset, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices: list[int]) -> list:
        # The DataLoader asks for a whole batch at once when a dataset can serve one.
        getitems = getattr(self.dataset, "__getitems__", None)
        if getitems is not None:
            return getitems([self.indices[i] for i in indices])
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self) -> int:
        return len(self.indices)


def random_split(dataset, lengths: Sequence[int | float], generator=default_generator):
    """Split ``dataset`` into non-overlapping random ``Subset``s of the given lengths.

    ``lengths`` may be fractions summing to 1: each gets ``floor(frac * len(dataset))``
    items, and what remains is dealt out one by one, round robin.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.utils.data import random_split
        >>> a, b = random_split(range(10), [0.7, 0.3], generator=torch.Generator().manual_seed(0))
        >>> len(a), len(b), sorted(list(a) + list(b)) == list(range(10))
        (7, 3, True)
    """
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        sizes = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            sizes.append(math.floor(len(dataset) * frac))
        for i in range(len(dataset) - sum(sizes)):
            sizes[i % len(sizes)] += 1
        lengths = sizes
        for i, length in enumerate(lengths):
            if length == 0:
                warnings.warn(
                    f"Length of split at index {i} is 0. This might result in an empty dataset.",
                    stacklevel=2,
                )
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = randperm(sum(lengths), generator=generator).tolist()
    return [
        Subset(dataset, indices[offset - length : offset])
        for offset, length in zip(itertools.accumulate(lengths), lengths)
    ]

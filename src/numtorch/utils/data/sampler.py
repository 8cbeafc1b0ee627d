"""Samplers: which dataset indices a DataLoader visits, and in what order."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Generic, TypeVar

from ..._core.dtypes import float64, int64
from ..._creation import Generator, as_tensor, empty, multinomial, randint, randperm

_T_co = TypeVar("_T_co", covariant=True)


# generic in what it yields, as torch's (``Sampler[int]`` in annotations and subclasses)
class Sampler(Generic[_T_co]):
    """Base class: subclasses implement ``__iter__`` over indices (and ``__len__``)."""

    def __init__(self, data_source=None) -> None:
        pass

    def __iter__(self) -> Iterator:
        raise NotImplementedError


class SequentialSampler(Sampler):
    """``0, 1, ..., len(data_source) - 1``.

    Example:
        >>> from numtorch.utils.data import SequentialSampler
        >>> list(SequentialSampler("abc"))
        [0, 1, 2]
    """

    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


_CHUNK = 32


class RandomSampler(Sampler):
    """A random permutation of the indices (or ``num_samples`` draws with replacement).

    Without a ``generator``, each pass draws a fresh seed from the global generator, so
    ``numtorch.manual_seed`` makes the order reproducible: the same order as torch's.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.utils.data import RandomSampler
        >>> order = list(RandomSampler(range(5), generator=torch.Generator().manual_seed(0)))
        >>> sorted(order)
        [0, 1, 2, 3, 4]
    """

    def __init__(self, data_source, replacement: bool = False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.replacement, bool):
            raise TypeError(
                f"replacement should be a boolean value, but got replacement={self.replacement}"
            )
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(
                "num_samples should be a positive integer value, but got "
                f"num_samples={self.num_samples}"
            )

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            seed = int(empty((), dtype=int64).random_().item())
            generator = Generator().manual_seed(seed)
        if self.replacement:
            # drawn lazily in chunks, as torch does: "infinite" loaders ask for 10**10 samples
            for _ in range(self.num_samples // _CHUNK):
                yield from randint(n, (_CHUNK,), generator=generator).tolist()
            yield from randint(n, (self.num_samples % _CHUNK,), generator=generator).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from randperm(n, generator=generator).tolist()
        yield from randperm(n, generator=generator).tolist()[: self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order."""

    def __init__(self, indices: Sequence[int], generator=None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for i in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights``.

    Example:
        >>> import numtorch as torch
        >>> from numtorch.utils.data import WeightedRandomSampler
        >>> g = torch.Generator().manual_seed(0)
        >>> set(WeightedRandomSampler([0.0, 1.0, 0.0, 1.0], 6, generator=g)) <= {1, 3}
        True
    """

    def __init__(self, weights, num_samples: int, replacement: bool = True, generator=None):
        if isinstance(num_samples, bool) or not isinstance(num_samples, int) or num_samples <= 0:
            raise ValueError(
                f"num_samples should be a positive integer value, but got num_samples={num_samples}"
            )
        if not isinstance(replacement, bool):
            raise ValueError(
                f"replacement should be a boolean value, but got replacement={replacement}"
            )
        weights = as_tensor(weights, dtype=float64)
        if weights.dim() != 1:
            raise ValueError(
                "weights should be a 1d sequence but given weights have shape "
                f"{tuple(weights.shape)}"
            )
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        drawn = multinomial(
            self.weights, self.num_samples, self.replacement, generator=self.generator
        )
        yield from drawn.tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Group the indices of ``sampler`` into lists of ``batch_size``.

    Example:
        >>> from numtorch.utils.data import BatchSampler, SequentialSampler
        >>> list(BatchSampler(SequentialSampler(range(5)), batch_size=2, drop_last=False))
        [[0, 1], [2, 3], [4]]
        >>> list(BatchSampler(SequentialSampler(range(5)), batch_size=2, drop_last=True))
        [[0, 1], [2, 3]]
    """

    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}"
            )
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        batch = []
        for index in self.sampler:
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size

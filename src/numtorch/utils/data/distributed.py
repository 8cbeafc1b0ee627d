"""DistributedSampler: each rank visits its own share of the dataset, as in torch."""

from __future__ import annotations

import math
from collections.abc import Iterator

from ..._creation import Generator, randperm
from .sampler import Sampler


class DistributedSampler(Sampler):
    """Split the dataset's indices among ``num_replicas`` ranks; this one takes ``rank``'s.

    All ranks shuffle with the same generator seed (``seed + epoch``: call ``set_epoch``
    before each epoch for a new order), then rank r takes every ``num_replicas``-th index
    from r. Without ``drop_last`` the list is padded with its own first indices up to a
    multiple of ``num_replicas``, so every rank gets the same count; with it, the tail is
    dropped. ``num_replicas`` and ``rank`` default to the process group's.

    Example:
        >>> from numtorch.utils.data.distributed import DistributedSampler
        >>> [list(DistributedSampler(range(5), num_replicas=2, rank=r, shuffle=False))
        ...  for r in (0, 1)]
        [[0, 2, 4], [1, 3, 0]]
    """

    def __init__(
        self,
        dataset,
        num_replicas: int | None = None,
        rank: int | None = None,
        shuffle: bool = True,
        seed: int = 0,
        drop_last: bool = False,
    ) -> None:
        if num_replicas is None or rank is None:
            from ... import distributed as dist

            if num_replicas is None:
                num_replicas = dist.get_world_size()
            if rank is None:
                rank = dist.get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(
                f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]"
            )
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        n = len(dataset)
        if drop_last and n % num_replicas != 0:
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(n / num_replicas)
        self.total_size = self.num_samples * num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self) -> Iterator[int]:
        n = len(self.dataset)
        if self.shuffle:
            generator = Generator().manual_seed(self.seed + self.epoch)
            indices = randperm(n, generator=generator).tolist()
        else:
            indices = list(range(n))
        if self.drop_last:
            indices = indices[: self.total_size]
        else:
            missing = self.total_size - len(indices)
            indices += (indices * math.ceil(missing / max(len(indices), 1)))[:missing]
        return iter(indices[self.rank : self.total_size : self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """Use ``seed + epoch`` for the next shuffle (same on every rank)."""
        self.epoch = epoch

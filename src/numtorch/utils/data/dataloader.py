"""DataLoader: batches of samples from a dataset, in the main process or in worker processes."""

from __future__ import annotations

import itertools
import math
import multiprocessing
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..._core.dtypes import int64
from ..._creation import empty
from ._collate import default_collate, default_convert
from ._multiprocess_iterator import MultiProcessIterator
from ._worker import get_worker_info
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

_FROZEN = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers")


class _InfiniteConstantSampler(Sampler):
    # An iterable dataset decides where it ends; the sampler only counts batch slots.
    def __iter__(self):
        return itertools.repeat(None)


class DataLoader:
    """Iterate over ``dataset`` in batches, like ``torch.utils.data.DataLoader``.

    Batches come from ``batch_sampler`` (default: ``batch_size`` indices at a time from
    ``sampler``, which is a ``RandomSampler`` when ``shuffle=True`` and a
    ``SequentialSampler`` otherwise) and are assembled by ``collate_fn``
    (``default_collate``). With ``batch_size=None`` each sample is returned alone, with
    NumPy data converted to tensors. Pass a seeded ``numtorch.Generator`` as ``generator``
    to make the shuffled order reproducible.

    With ``num_workers > 0`` batches are loaded by that many worker processes
    (``multiprocessing``, the default start method unless ``multiprocessing_context`` names
    another), ``prefetch_factor`` batches ahead per worker, and returned in the same order
    as with ``num_workers=0``. Each worker seeds numtorch's and Python's generators with
    ``base_seed + worker_id`` and NumPy's from both, runs ``worker_init_fn(worker_id)``,
    and sees ``get_worker_info()``; an ``IterableDataset`` is iterated by every worker on
    its own copy (shard it with ``get_worker_info()``). A worker's exception is re-raised
    with its traceback, a worker that dies raises RuntimeError at once, and ``timeout``
    bounds the wait for a batch. ``persistent_workers=True`` keeps the workers between
    epochs. ``pin_memory`` has no effect (there is no accelerator; each new iterator warns so).

    Example:
        >>> import numtorch as torch
        >>> from numtorch.utils.data import DataLoader, TensorDataset
        >>> ds = TensorDataset(torch.arange(5.0), torch.tensor([0, 1, 0, 1, 0]))
        >>> for x, y in DataLoader(ds, batch_size=2):
        ...     print(x, y)
        tensor([0., 1.]) tensor([0, 1])
        tensor([2., 3.]) tensor([0, 1])
        tensor([4.]) tensor([0])
        >>> g = torch.Generator().manual_seed(0)
        >>> len(DataLoader(ds, batch_size=2, shuffle=True, drop_last=True, generator=g))
        2
    """

    _initialized = False
    _iterator = None

    def __init__(
        self,
        dataset,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Sampler | Iterable | None = None,
        batch_sampler: Sampler | Iterable | None = None,
        num_workers: int = 0,
        collate_fn: Callable | None = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn: Callable | None = None,
        multiprocessing_context=None,
        generator=None,
        *,
        prefetch_factor: int | None = None,
        persistent_workers: bool = False,
        pin_memory_device: str = "",
        in_order: bool = True,
    ) -> None:
        _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers)
        _check_context(multiprocessing_context, num_workers)
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in {False, None}:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified shuffle option, but "
                    f"got shuffle={shuffle}"
                )
            if sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified sampler option, but "
                    f"got sampler={sampler}"
                )
            if batch_sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified batch_sampler "
                    f"option, but got batch_sampler={batch_sampler}"
                )
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, "
                    "sampler, and drop_last"
                )
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError(
                "batch_size=None option disables auto-batching and is mutually exclusive with "
                "drop_last"
            )
        if sampler is None:
            if self._iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._initialized = True

    def __setattr__(self, name, value) -> None:
        if self._initialized and name in _FROZEN:
            raise ValueError(
                f"{name} attribute should not be set after {type(self).__name__} is initialized"
            )
        super().__setattr__(name, value)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self) -> Iterator[Any]:
        if self.num_workers == 0:
            self._warn_unpinned()
            return _SingleProcessIterator(self)
        if not self.persistent_workers:
            self._warn_unpinned()
            return MultiProcessIterator(self, _Fetcher)
        if self._iterator is None or self._iterator._shutdown:  # none yet, or they failed
            self._warn_unpinned()
            self.__dict__["_iterator"] = MultiProcessIterator(self, _Fetcher)
        else:
            self._iterator._reset()
        return self._iterator

    def _warn_unpinned(self) -> None:
        # torch warns as each new iterator starts (a persistent one's reset does not)
        if self.pin_memory:
            warnings.warn(
                "'pin_memory' argument is set as true but no accelerator is found, then device "
                "pinned memory won't be used.",
                stacklevel=1,
            )

    def __len__(self) -> int:
        if self._iterable:
            length = len(self.dataset)
            if self.batch_size is not None:
                length = (
                    length // self.batch_size
                    if self.drop_last
                    else math.ceil(length / self.batch_size)
                )
            return length
        return len(self._index_sampler)


class _Fetcher:
    """Turns one item of the index sampler into one batch (in the main process or a worker)."""

    def __init__(self, dataset, auto_collation, collate_fn, drop_last, iterable) -> None:
        self._dataset = dataset
        self._auto_collation = auto_collation
        self._collate_fn = collate_fn
        self._drop_last = drop_last
        self._dataset_iter = iter(dataset) if iterable else None
        self._ended = False

    def fetch(self, index):
        """The batch for ``index``; StopIteration once an iterable dataset is exhausted."""
        if self._dataset_iter is not None:
            return self._collate_fn(self._next_from_stream(index))
        if not self._auto_collation:
            return self._collate_fn(self._dataset[index])
        getitems = getattr(self._dataset, "__getitems__", None)
        if getitems:
            return self._collate_fn(getitems(index))
        return self._collate_fn([self._dataset[i] for i in index])

    def _next_from_stream(self, index):
        if self._ended:
            raise StopIteration
        if not self._auto_collation:
            return next(self._dataset_iter)
        data = list(itertools.islice(self._dataset_iter, len(index)))
        if len(data) < len(index):
            self._ended = True
        if not data or (self._drop_last and len(data) < len(index)):
            raise StopIteration
        return data


class _SingleProcessIterator:
    """One pass over a DataLoader, loading in the main process."""

    def __init__(self, loader: DataLoader) -> None:
        self._loader = loader
        self._index_iter = iter(loader._index_sampler)
        # torch draws the workers' base seed for every pass, workers or not: the draw moves
        # the generator, and the numbers after it depend on that
        empty((), dtype=int64).random_(generator=loader.generator)
        self._fetcher = _Fetcher(
            loader.dataset,
            loader._auto_collation,
            loader.collate_fn,
            loader.drop_last,
            loader._iterable,
        )

    def __iter__(self):
        return self

    def __len__(self) -> int:
        return len(self._loader)

    def __next__(self):
        return self._fetcher.fetch(next(self._index_iter))


def _check_worker_options(num_workers, timeout, prefetch_factor, persistent_workers) -> None:
    if num_workers < 0:
        raise ValueError(
            "num_workers option should be non-negative; use num_workers=0 to disable "
            "multiprocessing."
        )
    if timeout < 0:
        raise ValueError("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise ValueError(
            "prefetch_factor option could only be specified in multiprocessing.let num_workers "
            "> 0 to enable multiprocessing, otherwise set prefetch_factor to None."
        )
    if prefetch_factor is not None and prefetch_factor < 0:
        raise ValueError("prefetch_factor option should be non-negative")
    if persistent_workers and num_workers == 0:
        raise ValueError("persistent_workers option needs num_workers > 0")


def _check_context(context, num_workers: int) -> None:
    if context is None:
        return
    if num_workers == 0:
        raise ValueError(
            "multiprocessing_context can only be used with multi-process loading "
            f"(num_workers > 0), but got num_workers={num_workers}"
        )
    if isinstance(context, str):
        methods = multiprocessing.get_all_start_methods()
        if context not in methods:
            raise ValueError(
                "multiprocessing_context option should specify a valid start method in "
                f"{methods!r}, but got multiprocessing_context={context!r}"
            )
    elif not isinstance(context, multiprocessing.context.BaseContext):
        raise TypeError(
            "multiprocessing_context option should be a valid context object or a string "
            f"specifying the start method, but got multiprocessing_context={context}"
        )


__all__ = ["DataLoader", "get_worker_info"]

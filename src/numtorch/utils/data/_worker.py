"""What runs inside a DataLoader worker process, and how its batches travel back.

A worker receives ``(task, indices)`` on its own pipe, fetches and collates the batch exactly
as the main process would (``_Fetcher``), and sends ``(task, batch)`` back on its result
pipe. Every task gets exactly one reply: a batch, an ``_Ended`` mark (its copy of an
iterable dataset is exhausted) or a ``_WorkerError`` carrying the exception and its
traceback. The worker exits when told to (``None``) or when the main process's end of the
pipe closes, so a main process that dies leaves no workers behind.

Note [Batches through shared memory]
Tensors do not travel as pickles: each one becomes a ``_SharedArray``. One at least
``SHARED_MIN_BYTES`` long is written once into a new file in /dev/shm, and the main process
maps that file and deletes its name, so the batch's tensor views the mapping with no further
copy (a pickle costs a copy into the pickle, two through the pipe and one out of it).
Smaller ones are sent inside the pickle, where a file's set-up would cost more than the
copies it saves. Files are named after the main process and the iterator, so the main
process removes any that were never received when it shuts the workers down.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import random
import sys
import traceback

import numpy as np

from ..._core.tensor import Tensor
from ..._creation import manual_seed

SHARED_MIN_BYTES = 1 << 20  # below this a pickle is faster (bench/dataloader.py)
SHM_FOLDER = "/dev/shm"
_PARENT_CHECK_SECONDS = 1.0

_worker_info = None


class WorkerInfo:
    """What ``get_worker_info()`` returns inside a worker: ``id``, ``num_workers``, ``seed``
    and ``dataset`` (this worker's copy of it)."""

    __initialized = False

    def __init__(self, **kwargs) -> None:
        for name, value in kwargs.items():
            setattr(self, name, value)
        self.__keys = tuple(kwargs)
        self.__initialized = True

    def __setattr__(self, name, value) -> None:
        if self.__initialized:
            raise RuntimeError(f"Cannot assign attributes to {type(self).__name__} objects")
        super().__setattr__(name, value)

    def __repr__(self) -> str:
        items = ", ".join(f"{k}={getattr(self, k)}" for k in self.__keys)
        return f"{type(self).__name__}({items})"


def get_worker_info():
    """This worker's ``WorkerInfo`` inside a DataLoader worker process; None in the main
    process.

    An ``IterableDataset`` uses it in ``__iter__`` to give each worker its own share of the
    data (each worker iterates its own copy of the dataset, so without this every worker
    yields every sample).

    Example:
        >>> from numtorch.utils.data import get_worker_info
        >>> get_worker_info() is None  # in the main process
        True
    """
    return _worker_info


class _Ended:
    """The reply of a worker whose copy of an iterable dataset is exhausted."""

    def __init__(self, worker_id: int) -> None:
        self.worker_id = worker_id


class _WorkerError:
    """An exception raised in a worker, re-raised in the main process as torch does."""

    def __init__(self, error: BaseException, where: str) -> None:
        self.exc_type = type(error)
        self.where = where
        self.text = "".join(traceback.format_exception(error))

    def reraise(self):
        message = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.text}"
        if self.exc_type is KeyError:  # KeyError shows its argument's repr: keep lines intact
            message = _KeyErrorMessage(message)
        try:
            error = self.exc_type(message)
        except Exception:  # an exception type that takes other arguments
            raise RuntimeError(message) from None
        raise error


class _KeyErrorMessage(str):
    def __repr__(self) -> str:
        return self


class _SharedArray:
    """A tensor on its way from a worker: its array in a /dev/shm file, or in the pickle."""

    __slots__ = ("path", "array", "shape", "dtype", "requires_grad")

    def __init__(self, array: np.ndarray, requires_grad: bool, prefix: str | None) -> None:
        self.requires_grad = requires_grad
        self.shape, self.dtype = array.shape, array.dtype
        self.path = self.array = None
        if prefix is None or array.nbytes < SHARED_MIN_BYTES:
            self.array = array
            return
        fd, self.path = _new_file(prefix)
        try:
            os.ftruncate(fd, array.nbytes)
            with mmap.mmap(fd, array.nbytes) as mapped:
                np.copyto(np.frombuffer(mapped, dtype=array.dtype).reshape(array.shape), array)
        finally:
            os.close(fd)

    def tensor(self) -> Tensor:
        if self.path is None:
            array = self.array
        else:
            fd = os.open(self.path, os.O_RDWR)
            try:
                os.unlink(self.path)  # the mapping outlives the name
                size = max(int(np.prod(self.shape)) * self.dtype.itemsize, 0)
                if size == 0:
                    array = np.empty(self.shape, dtype=self.dtype)
                else:
                    mapped = mmap.mmap(fd, size)
                    array = np.frombuffer(mapped, dtype=self.dtype).reshape(self.shape)
            finally:
                os.close(fd)
        t = Tensor._make(array)
        if self.requires_grad:
            t.requires_grad_(True)
        return t


_counter = [0]


def _new_file(prefix: str):
    _counter[0] += 1
    path = os.path.join(SHM_FOLDER, f"{prefix}_{os.getpid()}_{_counter[0]}")
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600), path


def encode(data, prefix: str | None):
    """``data`` with every tensor replaced by a ``_SharedArray`` (structure kept)."""
    if isinstance(data, Tensor):
        if data.grad_fn is not None:
            raise RuntimeError(
                "a DataLoader worker cannot send a tensor that is part of an autograd graph "
                "(a non-leaf tensor that requires grad); detach() it in the dataset"
            )
        return _SharedArray(np.ascontiguousarray(data._data), data.requires_grad, prefix)
    if isinstance(data, dict):
        return type(data)((k, encode(v, prefix)) for k, v in data.items())
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(encode(v, prefix) for v in data))
    if isinstance(data, (list, tuple)):
        return type(data)(encode(v, prefix) for v in data)
    return data


def decode(data):
    """The inverse of ``encode``, in the main process."""
    if isinstance(data, _SharedArray):
        return data.tensor()
    if isinstance(data, dict):
        return type(data)((k, decode(v)) for k, v in data.items())
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(decode(v) for v in data))
    if isinstance(data, (list, tuple)):
        return type(data)(decode(v) for v in data)
    return data


def discard(data) -> None:
    """Delete the shared-memory files of a batch that will not be used."""
    if isinstance(data, _SharedArray):
        if data.path is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(data.path)
    elif isinstance(data, dict):
        for v in data.values():
            discard(v)
    elif isinstance(data, (list, tuple)):
        for v in data:
            discard(v)


def numpy_seed(base_seed: int, worker_id: int):
    """The seed of NumPy's global generator in worker ``worker_id``: torch seeds NumPy in
    its workers too (from both numbers, so no two workers share a NumPy stream)."""
    return np.random.SeedSequence([worker_id, base_seed]).generate_state(4)


def worker_loop(
    main_ends,
    fetcher_factory,
    dataset,
    tasks,
    results,
    init_fn,
    base_seed,
    worker_id,
    num_workers,
    prefix,
) -> None:
    """The body of worker ``worker_id``; ``tasks`` and ``results`` are its pipe ends,
    ``main_ends`` the main process's ends, which this process must not hold open."""
    global _worker_info
    for conn in main_ends:
        conn.close()
    seed = base_seed + worker_id
    random.seed(seed)
    manual_seed(seed)
    np.random.seed(numpy_seed(base_seed, worker_id))
    _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)
    # Ctrl-C reaches the workers too; the main process reports it
    with contextlib.suppress(KeyboardInterrupt):
        _serve(fetcher_factory, dataset, tasks, results, init_fn, worker_id, prefix)
    sys.stdout.flush()


def _serve(fetcher_factory, dataset, tasks, results, init_fn, worker_id, prefix) -> None:
    where = f"in DataLoader worker process {worker_id}"
    failure = None
    fetcher = None
    try:
        if init_fn is not None:
            init_fn(worker_id)
        fetcher = fetcher_factory(dataset)
    except Exception as e:
        failure = _WorkerError(e, where)
    ended = False
    parent = os.getppid()
    while True:
        try:
            while not tasks.poll(_PARENT_CHECK_SECONDS):
                if os.getppid() != parent:  # the main process is gone
                    return
            message = tasks.recv()
        except (EOFError, OSError):  # the main process is gone
            break
        if message is None:
            break
        if message == "resume":  # a new epoch of persistent workers
            ended = False
            if failure is None:
                fetcher = fetcher_factory(dataset)
            continue
        task, index = message
        if failure is not None:
            reply, failure = failure, None
        elif ended:
            reply = _Ended(worker_id)
        else:
            try:
                reply = encode(fetcher.fetch(index), prefix)
            except StopIteration:
                ended = True
                reply = _Ended(worker_id)
            except Exception as e:
                reply = _WorkerError(e, where)
        try:
            results.send((task, reply))
        except (BrokenPipeError, OSError):
            discard(reply)
            break
        except Exception as e:  # the batch cannot be pickled
            discard(reply)
            results.send((task, _WorkerError(e, where)))

"""DataLoader worker processes: the same batches as the main process, seeding, worker info,
iterable sharding, errors and deaths reported in the main process, clean shutdown."""

from __future__ import annotations

import gc
import glob
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import numtorch as torch
from numtorch.utils.data import (
    DataLoader,
    Dataset,
    IterableDataset,
    TensorDataset,
    _worker,
    get_worker_info,
)


class Squares(Dataset):
    def __init__(self, n=10):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.full((2,), float(i * i)), "i": i, "name": f"s{i}"}


class WhoLoads(Dataset):
    """Each sample says which worker made it and what the worker's generators give."""

    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = get_worker_info()
        return (
            info.id,
            info.num_workers,
            info.seed,
            int(torch.randint(0, 2**30, ()).item()),
            int(np.random.randint(2**30)),
            random.randrange(2**30),
            os.getpid(),
            info.dataset is not None and len(info.dataset) == 8,
        )


class Shards(IterableDataset):
    def __init__(self, n, shard=True):
        self.n = n
        self.shard = shard

    def __iter__(self):
        info = get_worker_info()
        if info is None or not self.shard:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))


class Failing(Dataset):
    def __init__(self, how, at=3):
        self.how = how
        self.at = at

    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == self.at and get_worker_info() is not None:
            if self.how == "raise":
                raise ValueError(f"bad sample {i}")
            if self.how == "key":
                raise KeyError("missing")
            if self.how == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            if self.how == "exit":
                os._exit(7)
            if self.how == "sleep":
                time.sleep(30)
        return i


def flat(batches):
    return [b.tolist() if isinstance(b, torch.Tensor) else b for b in batches]


@pytest.fixture(autouse=True)
def no_stray_workers():
    yield
    gc.collect()  # iterators held by tracebacks
    for child in multiprocessing.active_children():
        child.join(2)
    assert not multiprocessing.active_children()
    assert not glob.glob(f"{_worker.SHM_FOLDER}/numtorch_dl_{os.getpid()}_*")


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_same_batches_in_the_same_order_as_the_main_process(workers):
    g = torch.Generator
    for kwargs in (
        {"batch_size": 3},
        {"batch_size": 3, "drop_last": True},
        {"batch_size": None},
        {"batch_size": 2, "shuffle": True},
    ):
        main = list(DataLoader(Squares(), generator=g().manual_seed(1), **kwargs))
        loaded = list(
            DataLoader(Squares(), num_workers=workers, generator=g().manual_seed(1), **kwargs)
        )
        assert len(main) == len(loaded)
        for a, b in zip(main, loaded):
            assert type(b["x"]) is torch.Tensor and b["x"].dtype == a["x"].dtype
            assert torch.equal(a["x"], b["x"]) and a["name"] == b["name"]
            assert (
                (a["i"] == b["i"]) if kwargs["batch_size"] is None else torch.equal(a["i"], b["i"])
            )


def test_large_tensors_come_through_shared_memory():
    data = torch.randn(6, 300, 400)  # 480 KB per sample, 960 KB+ per batch of 2
    weights = torch.ones(6, 300, 400, requires_grad=True)
    loader = DataLoader(TensorDataset(data), batch_size=3, num_workers=2)
    batches = [b for (b,) in loader]
    assert torch.equal(torch.cat(batches), data)
    batches[0].add_(1.0)  # an ordinary, writable tensor
    assert torch.equal(batches[0], data[:3] + 1.0)
    (leaf,) = list(
        DataLoader([weights[0].detach().requires_grad_()], batch_size=None, num_workers=1)
    )
    assert leaf.requires_grad and leaf.grad_fn is None


def test_worker_info_seeds_and_init_fn():
    seen = []

    def init_fn(worker_id):
        info = get_worker_info()
        assert info.id == worker_id and info.num_workers == 2
        with pytest.raises(RuntimeError, match="Cannot assign attributes to WorkerInfo"):
            info.id = 5

    assert get_worker_info() is None
    loader = DataLoader(
        WhoLoads(), batch_size=None, num_workers=2, worker_init_fn=init_fn,
        generator=torch.Generator().manual_seed(0),
    )  # fmt: skip
    samples = list(loader)
    assert [s[0] for s in samples] == [0, 1] * 4  # round-robin, one sample per task
    assert {s[1] for s in samples} == {2} and all(s[7] for s in samples)
    base = samples[0][2]
    assert samples[1][2] == base + 1
    for column in (3, 4, 5):  # numtorch, NumPy and Python generators differ across workers
        assert samples[0][column] != samples[1][column]
    seen = list(DataLoader(WhoLoads(), batch_size=None, num_workers=2,
                           generator=torch.Generator().manual_seed(0)))  # fmt: skip
    assert [s[2:6] for s in seen] == [s[2:6] for s in samples]  # same generator, same streams


def test_iterable_datasets_are_iterated_by_every_worker():
    sharded = list(DataLoader(Shards(10), batch_size=2, num_workers=2))
    values = sorted(v for b in sharded for v in b.tolist())
    assert values == list(range(10))
    assert [b.tolist() for b in sharded] == [[0, 2], [1, 3], [4, 6], [5, 7], [8], [9]]
    copies = list(DataLoader(Shards(5, shard=False), batch_size=None, num_workers=2))
    assert sorted(copies) == sorted(list(range(5)) * 2)  # torch's semantics: one copy each
    dropped = list(DataLoader(Shards(9), batch_size=2, num_workers=2, drop_last=True))
    assert sorted(v for b in dropped for v in b.tolist()) == [0, 1, 2, 3, 4, 5, 6, 7]


def test_worker_exception_is_reraised_with_its_traceback():
    loader = DataLoader(Failing("raise"), batch_size=2, num_workers=2)
    with pytest.raises(ValueError) as caught:
        list(loader)
    text = str(caught.value)
    del caught  # its traceback holds the iterator, and so its workers
    assert text.startswith("Caught ValueError in DataLoader worker process 1.")
    assert "Original Traceback (most recent call last)" in text
    assert "in __getitem__" in text and "ValueError: bad sample 3" in text
    with pytest.raises(KeyError, match="Caught KeyError in DataLoader worker process 0"):
        list(DataLoader(Failing("key", at=0), num_workers=1))

    def init_fn(worker_id):
        if worker_id == 1:
            raise OSError("no such file")

    loader = DataLoader(Squares(), batch_size=2, num_workers=2, worker_init_fn=init_fn)
    it = iter(loader)
    assert next(it)["i"].tolist() == [0, 1]
    with pytest.raises(OSError, match="Caught OSError in DataLoader worker process 1"):
        next(it)
    del it


def test_worker_exception_message_matches_torch():
    """torch's workers wrap an exception with torch._utils.ExceptionWrapper; its re-raised
    message is the oracle (built in-process: torch's worker shutdown alone takes seconds)."""
    torch_utils = pytest.importorskip("torch._utils")
    try:
        raise ValueError("bad sample 0")
    except ValueError:
        wrapper = torch_utils.ExceptionWrapper(where="in DataLoader worker process 0")
    with pytest.raises(ValueError) as expected:
        wrapper.reraise()
    with pytest.raises(ValueError) as got:
        list(DataLoader(Failing("raise", at=0), num_workers=1))
    assert str(got.value).splitlines()[:2] == str(expected.value).splitlines()[:2]
    assert str(got.value).splitlines()[-1] == str(expected.value).splitlines()[-1]
    del got, expected


@pytest.mark.parametrize("how", ["kill", "exit"])
def test_worker_that_dies_raises_at_once(how):
    loader = DataLoader(Failing(how), batch_size=2, num_workers=2)
    start = time.monotonic()
    with pytest.raises(
        RuntimeError, match=r"DataLoader worker \(pid\(s\) \d+\) exited unexpectedly"
    ):
        list(loader)
    assert time.monotonic() - start < 10


def test_timeout():
    loader = DataLoader(Failing("sleep"), batch_size=2, num_workers=2, timeout=0.5)
    with pytest.raises(RuntimeError, match="DataLoader timed out after 0.5 seconds"):
        list(loader)


def test_persistent_workers_live_across_epochs():
    class Pids(Dataset):
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return os.getpid()

    loader = DataLoader(Pids(), batch_size=None, num_workers=2, persistent_workers=True)
    first, second = list(loader), list(loader)
    assert first == second and len(set(first)) == 2
    for _ in loader:  # an epoch left early, then a full one
        break
    assert list(loader) == first
    loader._iterator._shutdown_workers()  # as after a timeout: the next epoch starts new ones
    assert len(list(loader)) == 4 and set(list(loader)).isdisjoint(first)
    loader._iterator._shutdown_workers()
    fresh = DataLoader(Pids(), batch_size=None, num_workers=2)
    assert set(list(fresh)).isdisjoint(list(fresh))  # new workers every epoch


def test_abandoned_iterator_stops_its_workers():
    data = torch.randn(8, 512, 512)  # batches through shared memory, some never received
    it = iter(DataLoader(TensorDataset(data), batch_size=2, num_workers=2, prefetch_factor=4))
    next(it)
    workers = list(it._workers)
    del it
    for w in workers:
        w.join(5)
        assert not w.is_alive()


def test_worker_options_are_checked():
    with pytest.raises(ValueError, match="multiprocessing_context can only be used"):
        DataLoader(Squares(), multiprocessing_context="fork")
    with pytest.raises(ValueError, match="should specify a valid start method"):
        DataLoader(Squares(), num_workers=1, multiprocessing_context="threads")
    with pytest.raises(ValueError, match="prefetch_factor option could only be specified"):
        DataLoader(Squares(), prefetch_factor=2)
    loader = DataLoader(Squares(), batch_size=5, num_workers=2, prefetch_factor=1, pin_memory=True)
    assert [b["i"].tolist() for b in loader] == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("NUMTORCH_LONG_TESTS") != "1", reason="long test: set NUMTORCH_LONG_TESTS=1"
)
def test_spawned_workers():
    loader = DataLoader(Squares(), batch_size=4, num_workers=2, multiprocessing_context="spawn")
    assert [b["i"].tolist() for b in loader] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]


def test_workers_end_when_the_main_process_is_killed(tmp_path):
    script = tmp_path / "killed.py"
    script.write_text(
        "import os, signal, time\n"
        "from numtorch.utils.data import DataLoader\n"
        "class Slow:\n"
        "    def __len__(self): return 100\n"
        "    def __getitem__(self, i): time.sleep(0.05); return i\n"
        "it = iter(DataLoader(Slow(), num_workers=2))\n"
        "next(it)\n"
        "print(*(w.pid for w in it._workers), flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == 2
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_running(p) for p in pids):
        time.sleep(0.1)
    left = [p for p in pids if _running(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)
    assert not left, "workers outlived their main process"


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_an_iterator_inherited_by_a_forked_process_leaves_the_workers_alone():
    # a later loader's worker is forked with this iterator in its memory; collecting it
    # there must not stop (or join: "can only join a child process") the owner's workers
    loader = DataLoader(TensorDataset(torch.arange(6.0)), batch_size=2, num_workers=2)
    iterator = iter(loader)
    first = next(iterator)
    owner = iterator._parent_pid
    iterator._parent_pid = owner + 1  # as seen from another process
    iterator.__del__()
    assert not iterator._shutdown
    iterator._parent_pid = owner
    assert [first[0].tolist()] + [b[0].tolist() for b in iterator] == [[0, 1], [2, 3], [4, 5]]
    iterator.__del__()
    assert iterator._shutdown

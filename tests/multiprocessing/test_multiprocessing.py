"""torch.multiprocessing: Python's names, spawn and its errors, sharing strategies,
against torch."""

import copy
import multiprocessing

import pytest

import numtorch

torch = pytest.importorskip("torch")


def _ok(i, path):
    with open(f"{path}/{i}", "w") as f:
        f.write(str(numtorch.tensor([i, 1]).sum().item()))


def _raises(i):
    if i == 1:
        raise ValueError("bad sample")


def _exits(i):
    raise SystemExit(3)


def test_python_multiprocessing_names_are_reexported_as_in_torch():
    mp = numtorch.multiprocessing
    assert set(torch.multiprocessing.__all__) <= set(mp.__all__)
    assert mp.get_context is multiprocessing.get_context
    assert mp.set_start_method.__name__ == "set_start_method"
    assert callable(mp.Queue) and mp.Process is multiprocessing.Process


def test_sharing_strategies_match_torch():
    mp = numtorch.multiprocessing
    assert mp.get_all_sharing_strategies() == torch.multiprocessing.get_all_sharing_strategies()
    assert mp.get_sharing_strategy() == torch.multiprocessing.get_sharing_strategy()
    for lib in (mp, torch.multiprocessing):
        with pytest.raises(AssertionError, match="invalid sharing strategy"):
            lib.set_sharing_strategy("bad")
    mp.set_sharing_strategy("file_system")
    assert mp.get_sharing_strategy() == "file_system"
    mp.set_sharing_strategy("file_descriptor")


def test_spawn_runs_each_rank(tmp_path):
    numtorch.multiprocessing.spawn(_ok, args=(str(tmp_path),), nprocs=2, start_method="fork")
    assert sorted(p.read_text() for p in tmp_path.iterdir()) == ["1", "2"]


def test_a_raising_child_raises_process_raised_exception():
    with pytest.raises(numtorch.multiprocessing.ProcessRaisedException) as info:
        numtorch.multiprocessing.spawn(_raises, nprocs=2, start_method="fork")
    assert "ValueError: bad sample" in str(info.value)
    assert info.value.error_index == 1


def test_exit_code_raises_process_exited_exception_and_join_false_returns_context():
    with pytest.raises(numtorch.multiprocessing.ProcessExitedException) as info:
        numtorch.multiprocessing.spawn(_exits, start_method="fork")
    assert info.value.exit_code == 3 and "exit code 3" in str(info.value)
    context = numtorch.multiprocessing.spawn(_raises, nprocs=1, join=False, start_method="fork")
    assert len(context.pids()) == 1
    while not context.join():
        pass


def _hogwild_train(lib, model, X, y, steps=4):
    optimizer = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
    for _ in range(steps):
        optimizer.zero_grad()
        lib.nn.functional.mse_loss(model(X), y).backward()
        optimizer.step()


def _numtorch_hogwild_worker(model, X, y):
    _hogwild_train(numtorch, model, X, y)


def _hogwild_data(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 1))
    return model, lib.randn(8, 3), lib.randn(8, 1)


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_a_shared_model_trained_in_a_child_is_updated_in_the_parent(start_method):
    model, X, y = _hogwild_data(numtorch)
    model.share_memory()  # as the Hogwild example: children train the parent's parameters
    assert all(p.is_shared() for p in model.parameters())
    context = multiprocessing.get_context(start_method)
    process = context.Process(target=_numtorch_hogwild_worker, args=(model, X, y))
    process.start()
    process.join()
    assert process.exitcode == 0
    reference, tX, ty = _hogwild_data(torch)
    _hogwild_train(torch, reference, tX, ty)  # the same steps, in this process
    for ours, theirs in zip(model.parameters(), reference.parameters()):
        assert ours.grad is None  # gradients were made in the child, not shared back
        assert torch.allclose(torch.from_numpy(ours.detach().numpy()), theirs.detach(), atol=1e-6)


def test_share_memory_keeps_values_and_copies_are_private():
    t = numtorch.arange(6.0).reshape(2, 3)
    assert not t.is_shared()
    assert t.share_memory_() is t and t.is_shared()
    path = t._shared_path
    t.share_memory_()  # already shared: the same file
    assert t._shared_path == path and t.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert not t.clone().is_shared() and not copy.deepcopy(t).is_shared()
    empty = numtorch.zeros(0, dtype=numtorch.int64).share_memory_()
    assert empty.is_shared() and empty.shape == (0,)
    bn = numtorch.nn.BatchNorm1d(2).share_memory()
    assert bn.running_mean.is_shared() and bn.weight.is_shared()
    for m in (bn, torch.nn.BatchNorm1d(2).share_memory()):
        assert m.num_batches_tracked.is_shared()


def test_views_and_storages_of_a_shared_tensor_report_shared_as_in_torch():
    for lib in (numtorch, torch):
        t = lib.zeros(4)
        assert not t.untyped_storage().is_shared()
        t.share_memory_()
        assert t[1:].is_shared() and t.untyped_storage().is_shared()
        assert not t.clone().untyped_storage().is_shared()

"""torch.multiprocessing: Python's names, spawn and its errors, sharing strategies,
against torch."""

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

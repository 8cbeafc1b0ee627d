"""torch.futures.Future, collect_all/wait_all and torch.jit.fork/wait against torch's."""

from __future__ import annotations

import threading
import time

import pytest

import numtorch

torch = pytest.importorskip("torch")

LIBS = pytest.mark.parametrize("lib", [torch, numtorch], ids=["torch", "numtorch"])


def _outcome(fn):
    try:
        return "ok", fn()
    except BaseException as error:
        return type(error).__name__, str(error).split("\n")[0]


def _both(program):
    theirs, ours = program(torch), program(numtorch)
    assert ours == theirs
    return ours


def test_the_names_are_one_class():
    assert numtorch.Future is numtorch.futures.Future is numtorch.jit.Future
    assert numtorch.autograd.profiler.Future is numtorch.Future


@pytest.mark.parametrize("name", ["fork", "wait"])
def test_jit_fork_and_wait_are_deprecated_as_in_torch(name):
    for lib in (torch, numtorch):
        with pytest.warns(DeprecationWarning, match=f"torch.jit.{name}` is deprecated"):
            fut = lib.jit.fork(lambda: 1) if name == "fork" else lib.futures.Future()
            if name == "wait":
                fut.set_result(1)
                lib.jit.wait(fut)


def test_result_done_value_and_wait():
    def program(lib):
        fut = lib.futures.Future()
        before = fut.done()
        fut.set_result(lib.ones(2) * 3)
        return before, fut.done(), fut.value().tolist(), fut.wait().tolist()

    assert _both(program) == (False, True, [3.0, 3.0], [3.0, 3.0])


def test_then_chains_and_runs_at_once_when_already_complete():
    def program(lib):
        seen = []
        fut = lib.futures.Future()
        chained = fut.then(lambda f: f.wait() + 1).then(lambda f: seen.append(f.wait()))
        fut.set_result(5)
        late = fut.then(lambda f: f.value() * 10)
        return seen, chained.wait(), late.done(), late.wait()

    assert _both(program) == ([6], None, True, 50)


def test_add_done_callback_runs_on_completion_and_an_error_in_it_is_not_raised():
    def program(lib):
        seen = []
        fut = lib.futures.Future()
        fut.add_done_callback(lambda f: seen.append(f.value()))
        fut.add_done_callback(lambda f: 1 / 0)
        fut.set_result(2)
        fut.add_done_callback(lambda f: seen.append(-f.value()))
        return seen, fut.wait()

    assert _both(program) == ([2, -2], 2)


def test_exceptions():
    def program(lib):
        fut = lib.futures.Future()
        fut.set_exception(ValueError("foo"))
        child = fut.then(lambda f: f.wait())
        failing = lib.futures.Future()
        raising = failing.then(lambda f: 1 / 0)
        failing.set_result(1)
        return (
            fut.done(),
            _outcome(fut.wait),
            _outcome(fut.value),
            _outcome(child.wait),
            _outcome(raising.wait),
            _outcome(lambda: lib.futures.Future().set_exception(3)),
        )

    assert _both(program) == (
        True,
        ("ValueError", "foo"),
        ("ValueError", "foo"),
        ("RuntimeError", "Got the following error when running the callback: ValueError: foo"),
        (
            "RuntimeError",
            "Got the following error when running the callback: ZeroDivisionError: "
            "division by zero",
        ),
        ("AssertionError", "3 is of type <class 'int'>, not an Exception."),
    )


@LIBS
@pytest.mark.filterwarnings("ignore:`torch.jit")
def test_bad_use_raises_torch_errors(lib):
    fut = lib.futures.Future()
    with pytest.raises(RuntimeError):
        fut.value()  # not completed yet
    fut.set_result(1)
    with pytest.raises(RuntimeError, match="complete again"):
        fut.set_result(2)
    with pytest.raises(RuntimeError, match="complete again"):
        fut.set_exception(ValueError("late"))
    with pytest.raises(TypeError):
        fut.then(3)
    with pytest.raises(TypeError):
        lib.futures.collect_all([1])
    with pytest.raises(TypeError):
        lib.jit.wait(3)
    with pytest.raises(ValueError, match="Expected devices to have indices, got cpu"):
        lib.futures.Future(devices=["cpu"])
    with pytest.raises(RuntimeError, match="not linked with support for cuda"):
        lib.futures.Future(devices=["cuda"])
    assert not lib.futures.Future(devices=None).done()


def test_wait_blocks_until_another_thread_sets_the_result():
    def program(lib):
        fut = lib.futures.Future()

        def slow():
            time.sleep(0.05)
            fut.set_result(lib.tensor([1, 2]))

        thread = threading.Thread(target=slow)
        thread.start()
        value = fut.wait()
        thread.join()
        return value.tolist(), str(value.dtype).split(".")[1]

    assert _both(program) == ([1, 2], "int64")


def test_collect_all_and_wait_all():
    def program(lib):
        a, b = lib.futures.Future(), lib.futures.Future()
        both = lib.futures.collect_all([a, b])
        a.set_result(1)
        half = both.done()
        b.set_result(2)
        values = [f.wait() for f in both.wait()]
        bad, good = lib.futures.Future(), lib.futures.Future()
        good.set_result(1)
        bad.set_exception(ValueError("bad"))
        return (
            half,
            values,
            lib.futures.wait_all([a, b]),
            lib.futures.wait_all([]),
            lib.futures.collect_all([]).wait(),
            _outcome(lambda: lib.futures.wait_all([good, bad])),
            _outcome(lib.futures.collect_all([good, bad]).wait),
        )

    assert _both(program) == (
        False,
        [1, 2],
        [1, 2],
        [],
        [],
        ("ValueError", "bad"),
        ("ValueError", "bad"),
    )


@pytest.mark.filterwarnings("ignore:`torch.jit")
def test_fork_runs_eagerly_and_wait_returns_its_value():
    def program(lib):
        fut = lib.jit.fork(lambda x, y=1: x + y, lib.tensor(2), y=lib.tensor(3))
        top = lib.fork(lambda: 7)
        return fut.done(), lib.jit.wait(fut).item(), lib.wait(top), fut.wait().item()

    assert _both(program) == (True, 5, 7, 5)
    for lib in (torch, numtorch):
        with pytest.raises(ZeroDivisionError):
            lib.jit.fork(lambda: 1 / 0)

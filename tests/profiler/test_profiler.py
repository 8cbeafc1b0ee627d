"""Profiler semantics: exact counts, nesting and self time, purity, exceptions, memory."""

from __future__ import annotations

import math
import threading
import time
from collections import Counter

import pytest

import numtorch as torch
from numtorch._core.observers import add_observer, dispatch, remove_observer
from numtorch.autograd.profiler import profile, record_function
from numtorch.autograd.profiler_util import EventList, FunctionEvent
from numtorch.profiler import recorder as profiler_recorder


class CountingObserver:
    """Counts op calls and node runs independently of the profiler."""

    def __init__(self):
        self.counts = Counter()

    def wrap(self, spec, args, run):
        self.counts[spec.profiler_name] += 1
        return run

    def wrap_node(self, node, run):
        self.counts[node.name()] += 1
        return run


def mlp_step(x, params):
    w1, b1, w2, b2 = params
    h = (x.matmul(w1) + b1).relu()
    out = h.matmul(w2) + b2
    loss = out.sum()
    loss.backward()


def mlp_params():
    torch.manual_seed(0)
    return [
        torch.randn(3, 8, requires_grad=True),
        torch.randn(8, requires_grad=True),
        torch.randn(8, 2, requires_grad=True),
        torch.randn(2, requires_grad=True),
    ]


def counts(prof) -> dict:
    return {row.key: row.count for row in prof.key_averages()}


def test_counts_equal_the_calls_made():
    x = torch.randn(5, 3)
    params = mlp_params()
    repeats = 3
    counter = CountingObserver()
    with profile() as prof:
        add_observer(counter)
        try:
            for _ in range(repeats):
                mlp_step(x, params)
        finally:
            remove_observer(counter)
    rows = counts(prof)
    expected = {
        "aten::relu": 1,
        "MmBackward0": 2,
        "AddBackward0": 2,
        "ReluBackward0": 1,
        "SumBackward0": 1,
        "torch::autograd::AccumulateGrad": 4,
        "autograd::engine::evaluate_function: MmBackward0": 2,
        "autograd::engine::evaluate_function: torch::autograd::AccumulateGrad": 4,
        "aten::threshold_backward": 1,
    }
    for name, per_step in expected.items():
        assert rows[name] == per_step * repeats, name
    # forward mm: 2; backward mm: w1 only (x needs no grad) and w2 and h
    assert rows["aten::mm"] == (2 + 1 + 2) * repeats
    # every op and node the dispatcher saw is a row with exactly that count
    for name, n in counter.counts.items():
        assert rows[name] == n, name
    evaluate = {k: v for k, v in rows.items() if k.startswith("autograd::engine::")}
    nodes = {k[len("autograd::engine::evaluate_function: ") :]: v for k, v in evaluate.items()}
    assert all(rows[name] == n for name, n in nodes.items())


def test_table_sorted_by_self_time_lists_ops_and_backward_nodes():
    x = torch.randn(5, 3)
    params = mlp_params()
    with profile() as prof:
        for _ in range(2):
            mlp_step(x, params)
    text = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=-1)
    header = text.splitlines()[1]
    for column in ("Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total"):
        assert column in header
    assert "CPU time avg" in header and "# of Calls" in header
    for name in ("aten::mm", "aten::relu", "MmBackward0", "ReluBackward0", "AccumulateGrad"):
        assert name in text
    rows = [line for line in text.splitlines() if line.strip().startswith("aten::mm ")]
    assert rows[0].split()[-1] == "10"  # the "# of Calls" column
    averages = prof.key_averages()
    wide = averages.table(sort_by="self_cpu_time_total", row_limit=-1, max_name_column_width=200)
    listed = [line.strip().split("  ")[0] for line in wide.splitlines()[3:-2]]
    by_self = sorted(averages, key=lambda r: r.self_cpu_time_total, reverse=True)
    assert listed == [r.key for r in by_self]
    assert text.splitlines()[-1].startswith("Self CPU time total: ")


def test_self_plus_children_is_total_on_synthetic_ranges():
    spans = {"a": (0, 100), "b": (10, 40), "c": (20, 30), "d": (50, 90), "e": (120, 130)}
    events = EventList(
        FunctionEvent(i, name, thread=1, start_us=s, end_us=e)
        for i, (name, (s, e)) in enumerate(spans.items())
    )
    events._build_tree()
    by_name = {e.name: e for e in events}
    assert [c.name for c in by_name["a"].cpu_children] == ["b", "d"]
    assert by_name["c"].cpu_parent is by_name["b"]
    assert by_name["a"].self_cpu_time_total == 100 - 30 - 40
    assert by_name["b"].self_cpu_time_total == 30 - 10
    for e in events:
        children = sum(c.cpu_time_total for c in e.cpu_children)
        assert e.self_cpu_time_total + children == e.cpu_time_total
    assert events.self_cpu_time_total == 100 + 10  # each instant counted once


def _check_nesting(events):
    for e in events:
        children = sum(c.cpu_time_total for c in e.cpu_children)
        assert math.isclose(e.self_cpu_time_total + children, e.cpu_time_total, abs_tol=1e-6)
        assert e.self_cpu_time_total >= -1e-6
        for c in e.cpu_children:
            assert e.time_range.start <= c.time_range.start <= c.time_range.end
            assert c.time_range.end <= e.time_range.end
        siblings = sorted(e.cpu_children, key=lambda c: c.time_range.start)
        for a, b in zip(siblings, siblings[1:]):
            assert a.time_range.end <= b.time_range.start


def test_recorded_ranges_nest_across_forward_and_backward():
    x = torch.randn(5, 3)
    params = mlp_params()
    with profile() as prof, record_function("outer"):
        with record_function("forward"):
            h = (x.matmul(params[0]) + params[1]).relu()
            loss = (h.matmul(params[2]) + params[3]).sum()
        with record_function("backward"):
            loss.backward()
    events = prof.events()
    _check_nesting(events)
    outer = next(e for e in events if e.name == "outer")
    assert [c.name for c in outer.cpu_children] == ["forward", "backward"]
    backward = outer.cpu_children[1]
    node = next(e for e in backward.cpu_children if e.name.endswith("MmBackward0"))
    assert [c.name for c in node.cpu_children] == ["MmBackward0"]
    assert {c.name for c in node.cpu_children[0].cpu_children} == {"aten::t", "aten::mm"}
    # the links the recorder made agree with the time ranges (the corrected clock nests)
    rebuilt = EventList(
        FunctionEvent(e.id, e.name, e.thread, e.time_range.start, e.time_range.end) for e in events
    )
    rebuilt._build_tree()
    parents = {e.id: e.cpu_parent.id if e.cpu_parent else None for e in events}
    assert {e.id: e.cpu_parent.id if e.cpu_parent else None for e in rebuilt} == parents


def test_backward_events_know_the_forward_labels():
    x = torch.ones(2, 2, requires_grad=True)
    with profile() as prof:
        with record_function("attention"):
            y = x * 3
        with record_function("head"):
            loss = y.sum()
        loss.backward()
    scopes = {e.name: e.forward_scope for e in prof.events() if e.scope == 1}
    assert scopes["MulBackward0"] == ("attention",)
    assert scopes["SumBackward0"] == ("head",)
    mul_in_backward = [e for e in prof.events() if e.name == "aten::mul" and e.forward_scope]
    assert mul_in_backward and mul_in_backward[0].forward_scope == ("attention",)


def test_key_averages_is_pure():
    x = torch.randn(5, 3)
    params = mlp_params()
    with profile(record_shapes=True, profile_memory=True) as prof:
        mlp_step(x, params)

    def snapshot(rows):
        return [
            (r.key, r.count, r.cpu_time_total, r.self_cpu_time_total, r.cpu_memory_usage)
            for r in rows
        ]

    first = prof.key_averages()
    before = snapshot(first)
    events_before = [(e.name, e.cpu_time_total, e.cpu_memory_usage) for e in prof.events()]
    first.table(sort_by="cpu_time_total")
    prof.key_averages(group_by_input_shape=True).table(width=80)
    print(prof)
    second = prof.key_averages()
    assert snapshot(first) == before == snapshot(second)
    assert second is not first and all(a is not b for a, b in zip(first, second))
    assert [(e.name, e.cpu_time_total, e.cpu_memory_usage) for e in prof.events()] == (
        events_before
    )


def test_group_by_input_shape_separates_shapes():
    with profile(record_shapes=True) as prof:
        for n in (2, 3, 3):
            torch.ones(n, 4).exp()
    rows = prof.key_averages(group_by_input_shape=True)
    exp = sorted((r.input_shapes, r.count) for r in rows if r.key == "aten::exp")
    assert exp == [([[2, 4]], 1), ([[3, 4]], 2)]
    merged = [r for r in prof.key_averages() if r.key == "aten::exp"]
    assert len(merged) == 1 and merged[0].count == 3 and merged[0].input_shapes == ""


def _profiler_is_off():
    return (
        dispatch.observing is False
        and dispatch.observers == []
        and profiler_recorder.current is None
    )


def test_exception_closes_every_event_and_turns_the_profiler_off():
    x = torch.ones(3)
    prof = profile()
    with pytest.raises(RuntimeError, match="size of tensor"), prof:
        left_open = record_function("never exited")
        left_open.__enter__()
        with record_function("outer"):
            x + 1
            x + torch.ones(4)  # raises inside the op
    assert _profiler_is_off()
    events = prof.events()
    _check_nesting(events)
    names = [e.name for e in events]
    assert names == ["never exited", "outer", "aten::add", "aten::add"]
    failing = events[3]
    assert failing.time_range.end >= failing.time_range.start
    assert events[0].time_range.end >= events[1].time_range.end
    left_open.__exit__(None, None, None)  # after the profiler: harmless
    assert _profiler_is_off()


def test_exception_in_backward_closes_node_events():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    loss = y.sum()

    def fail(grad_outputs):
        raise ValueError("hook failed")

    y.grad_fn.register_prehook(fail)
    with pytest.raises(ValueError, match="hook failed"), profile() as prof:
        loss.backward()
    assert _profiler_is_off()
    names = [e.name for e in prof.events()]
    assert "MulBackward0" in names
    _check_nesting(prof.events())


def test_profiler_off_leaves_the_op_path_alone():
    assert _profiler_is_off()
    with profile():
        assert dispatch.observing is True
    assert _profiler_is_off()
    with profile(enabled=False) as prof:
        torch.ones(2) + 1
        assert _profiler_is_off()
    assert prof is None  # as torch: a disabled profile binds nothing
    assert len(profile().key_averages()) == 0  # never run: no events, as torch
    with record_function("no profiler"):  # nothing recorded, nothing switched on
        assert _profiler_is_off()


def test_nested_profilers_are_refused():
    with profile() as outer:
        with pytest.raises(RuntimeError, match="already enabled"), profile():
            pass
        torch.ones(2).exp()
    assert _profiler_is_off()
    assert [e.name for e in outer.events()] == ["aten::exp"]


def test_profiler_overhead_is_not_charged_to_labels(monkeypatch):
    # Make the recorder's own work slow (2 ms per stack walk): none of it may show up in
    # the label around the ops, nor in the ops (#62390).
    slow_walk = profiler_recorder.Recorder.python_stack

    def slow(self):
        time.sleep(0.002)
        return slow_walk(self)

    monkeypatch.setattr(profiler_recorder.Recorder, "python_stack", slow)
    x = torch.ones(3)
    n = 20
    start = time.perf_counter()
    with profile(with_stack=True) as prof, record_function("label"):
        for _ in range(n):
            x + 1
    wall_us = (time.perf_counter() - start) * 1e6
    label = next(e for e in prof.events() if e.name == "label")
    assert wall_us > n * 2000  # the profiler really was slow
    assert label.cpu_time_total < 0.25 * n * 2000
    assert label.self_cpu_time_total < label.cpu_time_total


def test_record_function_as_decorator_and_in_threads():
    @record_function("work")
    def work(x):
        return x.exp()

    results = []

    def in_thread():
        results.append(work(torch.ones(2)))

    with profile() as prof:
        work(torch.ones(2))
        thread = threading.Thread(target=in_thread)
        thread.start()
        thread.join()
    labels = [e for e in prof.events() if e.name == "work"]
    assert len(labels) == 2 and labels[0].thread != labels[1].thread
    for label in labels:
        assert [c.name for c in label.cpu_children] == ["aten::exp"]
    assert work.__name__ == "work"


def test_memory_self_and_total():
    x = torch.ones(1000)
    with profile(profile_memory=True) as prof:
        with record_function("alloc"):
            y = x * 2  # 4000 new bytes
            v = y.view(10, 100)  # a view: no new memory
        with record_function("free"):
            del y, v
    events = {e.name: e for e in prof.events()}
    assert events["aten::mul"].cpu_memory_usage == 4000
    assert events["aten::view"].cpu_memory_usage == 0
    assert events["alloc"].cpu_memory_usage == 4000
    assert events["alloc"].self_cpu_memory_usage == 0
    assert events["free"].cpu_memory_usage == -4000
    rows = {r.key: r for r in prof.key_averages()}
    assert rows["aten::mul"].self_cpu_memory_usage == 4000
    text = prof.key_averages().table(sort_by="cpu_memory_usage")
    assert "CPU Mem" in text and "Self CPU Mem" in text and "3.91 KB" in text


def test_total_average_and_self_cpu_time_total():
    with profile() as prof, record_function("outer"):
        torch.ones(3).exp().sum()
    top = [e for e in prof.events() if e.cpu_parent is None]
    assert math.isclose(prof.self_cpu_time_total, sum(e.cpu_time_total for e in top))
    total = prof.total_average()
    assert total.key == "Total" and total.count == len(prof.events())
    assert "Self CPU time total" in str(prof)

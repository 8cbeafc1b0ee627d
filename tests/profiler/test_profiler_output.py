"""Profiler outputs: chrome trace, stacks, tables, the module view, schedules, torch parity."""

from __future__ import annotations

import json
import math
import sys
import types
from collections import Counter

import pytest

import numtorch as torch
from numtorch._core.observers import dispatch
from numtorch.autograd.profiler import emit_itt, emit_nvtx, profile, record_function
from numtorch.profiler import ProfilerAction, ProfilerActivity, schedule

LABEL = 'say "hi"\nthen \\ leave: é ✓ 名 😀'


def small_model_run(lib, repeats=2):
    lib.manual_seed(0)
    x = lib.randn(4, 3)
    w = lib.randn(3, 5, requires_grad=True)
    b = lib.randn(5, requires_grad=True)
    for _ in range(repeats):
        loss = ((x.matmul(w) + b).relu() * 2).sum()
        loss.backward()


def test_chrome_trace_is_valid_json_with_awkward_labels(tmp_path):
    x = torch.ones(2, 3, requires_grad=True)
    with profile(record_shapes=True) as prof:
        with record_function(LABEL):
            loss = (x * 2).sum()
        loss.backward()
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text(encoding="ascii"))
    complete = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    assert len(complete) == len(prof.events())
    for e in complete:
        assert {"name", "ph", "ts", "dur", "pid", "tid", "args"} <= set(e)
        assert e["dur"] >= 0
    by_name = {e["name"]: e for e in complete}
    assert by_name[LABEL]["cat"] == "user_annotation"
    assert by_name["aten::mul"]["args"]["Input Dims"] == [[2, 3], []]
    assert "MulBackward0" in by_name and "torch::autograd::AccumulateGrad" in by_name
    # complete events on one thread nest: no partial overlaps
    spans = sorted((e["ts"], -(e["ts"] + e["dur"])) for e in complete)
    open_ends = []
    for start, neg_end in spans:
        end = -neg_end
        while open_ends and start >= open_ends[-1] - 1e-9:
            open_ends.pop()
        assert not open_ends or end <= open_ends[-1] + 1e-9
        open_ends.append(end)


def test_export_stacks_collapsed_format(tmp_path):
    x = torch.ones(3, requires_grad=True)
    with profile(with_stack=True) as prof:
        with record_function("a;b c"):
            loss = (x.exp() * 2).sum()
        loss.backward()
    path = tmp_path / "stacks.txt"
    prof.export_stacks(str(path), "self_cpu_time_total")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines
    for line in lines:
        frames, value = line.rsplit(" ", 1)
        assert int(value) > 0 and "\n" not in frames
        assert "test_profiler_output.py" in frames.split(";")[0] + frames
    leaves = {line.rsplit(" ", 1)[0].split(";")[-1] for line in lines}
    assert leaves <= {e.name.replace(" ", "_").replace(";", "_") for e in prof.events()}
    # a backward event carries the stack of the forward op that made its node
    exp_backward = next(e for e in prof.events() if e.name == "ExpBackward0")
    exp_forward = next(e for e in prof.events() if e.name == "aten::exp")
    assert exp_backward.stack == exp_forward.stack
    assert "test_profiler_output.py" in exp_forward.stack[0]
    with pytest.raises(ValueError, match="metric"):
        prof.export_stacks(str(path), "bogus")
    prof.export_stacks(str(path), "self_cuda_time_total")  # torch's tutorial metric
    assert path.read_text(encoding="utf-8") == ""


def test_table_fits_80_columns():
    with profile(record_shapes=True, profile_memory=True) as prof:
        small_model_run(torch)
    tables = [
        prof.key_averages().table(sort_by="self_cpu_time_total", width=80),
        prof.key_averages(group_by_input_shape=True).table(width=80),
        prof.key_averages(group_by="module").table(width=80),
        prof.events().table(width=80),
    ]
    for text in tables:
        assert all(len(line) <= 80 for line in text.splitlines())
    for width in (60, 100, 120):
        for rows in (prof.key_averages(group_by_input_shape=True), prof.events()):
            assert all(len(line) <= width for line in rows.table(width=width).splitlines())
    compact = tables[0]
    assert "evaluate: MmBackward0" in compact and "AccumulateGrad" in compact
    wide = prof.key_averages().table()
    assert "autograd::engine::evaluate_function: MmBackward0" in wide
    assert max(len(line) for line in wide.splitlines()) > 80  # torch's layout by default


def test_table_options():
    with profile() as prof, record_function(LABEL):
        for n in range(1, 4):
            torch.ones(n).exp()
    rows = prof.key_averages()
    text = rows.table(sort_by="count", row_limit=1, header="TITLE")
    lines = text.splitlines()
    assert lines[1] == "TITLE" and "aten::exp" in text and "aten::ones" not in text
    assert "\\n" in rows.table()  # the label's newline is shown escaped, on one line
    assert "ms" in rows.table(time_unit="ms").splitlines()[3]
    with pytest.raises(AttributeError, match="sort_by"):
        rows.table(sort_by="bogus")
    assert "aten::exp" in rows.table(sort_by="self_cuda_time_total")  # no device: kept
    top = prof.events().table(top_level_events_only=True)
    assert "aten::exp" not in top


# -- the module view, with a stand-in for numtorch.nn's global hooks --


class _Handle:
    def __init__(self, hooks, key):
        self.hooks, self.key = hooks, key

    def remove(self):
        self.hooks.pop(self.key, None)


@pytest.fixture
def nn_hooks(monkeypatch):
    """A stand-in ``numtorch.nn.modules.module`` with torch's global forward hooks."""
    pre_hooks, hooks = {}, {}
    fake = types.ModuleType("numtorch.nn.modules.module")

    def register_module_forward_pre_hook(fn):
        pre_hooks[id(fn)] = fn
        return _Handle(pre_hooks, id(fn))

    def register_module_forward_hook(fn, *, always_call=False):
        hooks[id(fn)] = fn
        return _Handle(hooks, id(fn))

    fake.register_module_forward_pre_hook = register_module_forward_pre_hook
    fake.register_module_forward_hook = register_module_forward_hook
    monkeypatch.setitem(sys.modules, "numtorch.nn.modules.module", fake)

    class Module:
        def __init__(self):
            object.__setattr__(self, "_modules", {})

        def __setattr__(self, name, value):
            if isinstance(value, Module):
                self._modules[name] = value
            object.__setattr__(self, name, value)

        def __call__(self, *args):
            for hook in list(pre_hooks.values()):
                hook(self, args)
            try:
                return self.forward(*args)
            finally:  # always_call=True
                for hook in list(hooks.values()):
                    hook(self, args, None)

    return Module, pre_hooks, hooks


def _tiny_net(Module):
    class Linear(Module):
        def __init__(self, n_in, n_out):
            super().__init__()
            self.weight = torch.randn(n_in, n_out, requires_grad=True)
            self.bias = torch.zeros(n_out, requires_grad=True)

        def forward(self, x):
            return x.matmul(self.weight) + self.bias

    class ReLU(Module):
        def forward(self, x):
            return x.relu()

    class Net(Module):
        def __init__(self):
            super().__init__()
            self.fc1 = Linear(3, 8)
            self.act = ReLU()
            self.fc2 = Linear(8, 2)

        def forward(self, x):
            return self.fc2(self.act(self.fc1(x)))

    return Net()


def test_group_by_module(nn_hooks):
    Module, pre_hooks, hooks = nn_hooks
    net = _tiny_net(Module)
    x = torch.randn(5, 3)
    with profile() as prof:
        assert len(pre_hooks) == 1 and len(hooks) == 1
        for _ in range(3):
            net(x).sum().backward()
    assert not pre_hooks and not hooks  # removed on exit
    rows = {r.key: r for r in prof.key_averages(group_by="module")}
    assert list(rows) == ["Net", "Net.fc1 (Linear)", "Net.act (ReLU)", "Net.fc2 (Linear)"]
    assert all(r.count == 3 for r in rows.values())
    net_row = rows["Net"]
    children = [rows[k] for k in rows if k != "Net"]
    assert math.isclose(
        net_row.self_cpu_time_total + sum(r.cpu_time_total for r in children),
        net_row.cpu_time_total,
    )
    for key in ("Net.fc1 (Linear)", "Net.act (ReLU)", "Net.fc2 (Linear)"):
        assert 0 < rows[key].backward_time_total < rows[key].cpu_time_total
    # the backward time of the modules is the time of their nodes (MmBackward0, ...)
    node_time = sum(
        e.cpu_time_total
        for e in prof.events()
        if e.name.startswith("autograd::engine::") and e.forward_scope[:1] == ("Net",)
    )
    assert math.isclose(net_row.backward_time_total, node_time, rel_tol=1e-9)
    text = prof.key_averages(group_by="module").table()
    assert "Backward" in text.splitlines()[1] and "Net.fc2 (Linear)" in text


def test_module_scope_closes_when_forward_raises(nn_hooks):
    Module, _, _ = nn_hooks

    class Broken(Module):
        def forward(self, x):
            return x + torch.ones(7)

    with pytest.raises(RuntimeError), profile() as prof:
        Broken()(torch.ones(3))
    rows = prof.key_averages(group_by="module")
    assert [r.key for r in rows] == ["Broken"]
    assert dispatch.observing is False


# -- torch.profiler's API --


def test_schedule_actions():
    plan = schedule(wait=1, warmup=1, active=2, repeat=2, skip_first=1)
    actions = [plan(step) for step in range(10)]
    n, w, r, s = (
        ProfilerAction.NONE,
        ProfilerAction.WARMUP,
        ProfilerAction.RECORD,
        ProfilerAction.RECORD_AND_SAVE,
    )
    assert actions == [n, n, w, r, s, n, w, r, s, n]
    with pytest.raises(AssertionError):
        schedule(wait=0, warmup=0, active=0)


def test_profile_with_schedule_records_active_steps():
    x = torch.ones(3, requires_grad=True)
    ready = []
    with torch.profiler.profile(
        activities=[ProfilerActivity.CPU],
        schedule=schedule(wait=1, warmup=1, active=2, repeat=1),
        on_trace_ready=lambda p: ready.append(Counter(e.name for e in p.events())),
    ) as prof:
        for _ in range(6):
            (x * 2).sum().backward()
            prof.step()
    assert len(ready) == 1
    assert ready[0]["aten::mul"] == 2 + 2  # forward and MulBackward0's formula, two steps
    assert ready[0]["ProfilerStep#2"] == 1 and ready[0]["ProfilerStep#3"] == 1
    rows = {r.key: r.count for r in prof.key_averages()}
    assert rows["ProfilerStep*"] == 2 and rows["MulBackward0"] == 2
    assert dispatch.observing is False


def test_profile_without_schedule_and_cuda_request():
    with pytest.warns(UserWarning, match="CPU"):
        prof = torch.profiler.profile(
            activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True
        )
    with prof, torch.profiler.record_function("block"):
        torch.ones(2, 2).exp()
    names = [e.name for e in prof.events()]
    assert names == ["block", "aten::ones", "aten::exp"] or names == ["block", "aten::exp"]
    assert torch.profiler.supported_activities() == {ProfilerActivity.CPU}


def test_emit_nvtx_and_itt_are_no_ops():
    for context in (emit_nvtx(), emit_itt(record_shapes=True)):
        with context:
            y = torch.ones(2) + 1
        assert dispatch.observing is False
    assert y.tolist() == [2.0, 2.0]
    for kind in (emit_nvtx, emit_itt):  # as torch's: the context is None when disabled
        with kind(enabled=False) as entered:
            assert entered is None


@pytest.mark.parity
def test_backward_rows_match_torch():
    real = pytest.importorskip("torch")
    real.set_num_threads(1)
    rows = {}
    for lib in (real, torch):
        with lib.autograd.profiler.profile() as prof:
            small_model_run(lib)
        averages = prof.key_averages()
        rows[lib.__name__] = {
            r.key: r.count
            for r in averages
            if "Backward" in r.key or "AccumulateGrad" in r.key or r.key == "aten::relu"
        }
    assert rows["numtorch"] == rows["torch"]

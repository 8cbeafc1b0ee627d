# profile: events, key_averages names and counts for a small model
m = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
x = torch.ones(4, 3)
with torch.autograd.profiler.profile() as prof:
    y = m(x)
    y.sum().backward()
ka = prof.key_averages()
names = sorted(e.key for e in ka)
out(
    [
        n
        for n in names
        if n
        in (
            "aten::linear",
            "aten::relu",
            "aten::sum",
            "aten::addmm",
            "AddmmBackward0",
            "ReluBackward0",
            "SumBackward0",
            "torch::autograd::AccumulateGrad",
            "autograd::engine::evaluate_function: AddmmBackward0",
        )
    ]
)
counts = {e.key: e.count for e in ka}
out(
    counts.get("aten::linear"),
    counts.get("aten::relu"),
    counts.get("torch::autograd::AccumulateGrad"),
)
out(type(prof.function_events).__name__, type(ka).__name__)
out(prof.self_cpu_time_total >= 0, isinstance(prof.self_cpu_time_total, float))
# ---
# key_averages event fields
with torch.autograd.profiler.profile(record_shapes=True) as prof:
    torch.ones(2, 3).mul(2.0)
avg = [e for e in prof.key_averages() if e.key == "aten::mul"][0]
fields = [
    "key",
    "count",
    "cpu_time_total",
    "self_cpu_time_total",
    "cpu_time",
    "input_shapes",
    "cpu_memory_usage",
    "self_cpu_memory_usage",
    "node_id",
    "is_legacy",
    "device_type",
]
out([hasattr(avg, f) for f in fields])
out(avg.count, type(avg.cpu_time_total).__name__, type(avg.self_cpu_time_total).__name__)
out(avg.cpu_time_total >= avg.self_cpu_time_total)
by_shape = prof.key_averages(group_by_input_shape=True)
out([e.input_shapes for e in by_shape if e.key == "aten::mul"])
out(str(avg.device_type))
# ---
# record_function nesting, as a context manager and a decorator
a = torch.ones(2)
with torch.autograd.profiler.profile() as prof, torch.autograd.profiler.record_function("outer"):
    with torch.autograd.profiler.record_function("inner"):
        a.add(a)
    a.add(a)
ev = {e.name: e for e in prof.function_events if e.name in ("outer", "inner")}
out(sorted(ev))
inner, outer = ev["inner"], ev["outer"]
out(inner.cpu_parent is not None and inner.cpu_parent.name == "outer")
out([c.name for c in outer.cpu_children])
counts = {e.key: e.count for e in prof.key_averages()}
out(counts["outer"], counts["inner"], counts["aten::add"])


@torch.profiler.record_function("decorated")
def f(x):
    return x * 2


with torch.profiler.profile() as prof:
    f(torch.ones(1))
    f(torch.ones(1))
counts = {e.key: e.count for e in prof.key_averages()}
out(counts["decorated"], counts["aten::mul"])
# ---
# table columns, sort_by, row_limit, header
a = torch.ones(4, 4, dtype=torch.float64)
with torch.autograd.profiler.profile() as prof:
    for _ in range(3):
        a.matmul(a).relu()
t = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=2)
lines = t.splitlines()
out(lines[1].split())
out(len([row for row in lines if row.strip().startswith("aten::")]))
out(lines[-1].startswith("Self CPU time total:"))
t2 = prof.key_averages().table(sort_by="count", header="HEADER")
head = t2.splitlines()
out(
    head[1],
    set(head[0]),
    len(head[2]) - len(head[0]),
    head[2].endswith("  "),
    head[-1].startswith("Self CPU"),
)
t3 = prof.key_averages().table(sort_by="cpu_time_total", row_limit=-1)
out("aten::relu" in t3, "aten::matmul" in t3)
err(lambda: prof.key_averages().table(sort_by="nonsense"))
out(prof.key_averages().table() == prof.key_averages().table() or True)
# ---
# profile_memory columns
with torch.autograd.profiler.profile(profile_memory=True) as prof:
    torch.ones(100, 100).mul(3)
t = prof.key_averages().table(sort_by="self_cpu_memory_usage")
out(t.splitlines()[1].split())
avg = [e for e in prof.key_averages() if e.key == "aten::mul"][0]
out(avg.cpu_memory_usage > 0, avg.self_cpu_memory_usage > 0)
# ---
# export_chrome_trace JSON keys
import json
import os
import tempfile

path = os.path.join(tempfile.mkdtemp(), "trace.json")
with torch.profiler.profile(record_shapes=True) as prof, torch.profiler.record_function("label"):
    torch.ones(2, 2).mul(torch.ones(2, 2))
prof.export_chrome_trace(path)
with open(path) as fh:
    trace = json.load(fh)
events = trace["traceEvents"] if isinstance(trace, dict) else trace
names = [e.get("name") for e in events]
out("label" in names, "aten::mul" in names, isinstance(trace, dict), sorted(trace))
add = [e for e in events if e.get("name") == "aten::mul"][0]
out(sorted(k for k in ("name", "ph", "ts", "dur", "pid", "tid", "args") if k in add), add["ph"])
out("Input Dims" in add.get("args", {}))
out(add["args"]["Input Dims"])
# ---
# torch.profiler.profile with schedule, on_trace_ready and step counting
traces = []
sched = torch.profiler.schedule(wait=1, warmup=1, active=2, repeat=1)
out([str(sched(i)) for i in range(6)])
with torch.profiler.profile(
    activities=[torch.profiler.ProfilerActivity.CPU],
    schedule=sched,
    on_trace_ready=lambda p: traces.append(p.step_num),
) as prof:
    for i in range(6):
        torch.ones(2).add(i)
        prof.step()
out(traces)
out(prof.step_num)
out(str(torch.profiler.ProfilerAction.RECORD_AND_SAVE), str(torch.profiler.ProfilerActivity.CPU))
out([str(torch.profiler.schedule(wait=0, warmup=0, active=1, skip_first=2)(i)) for i in range(4)])
# ---
# profiler errors and disabled profiling
with torch.autograd.profiler.profile(enabled=False) as prof:
    torch.ones(2).add(1)
err(lambda: prof.key_averages())
p = torch.autograd.profiler.profile()
err(lambda: p.key_averages())
try:
    with torch.autograd.profiler.profile() as prof:
        torch.ones(2).add(1)
        raise ValueError("stop")
except ValueError:
    pass
out(len([e for e in prof.key_averages() if e.key == "aten::add"]))
with torch.autograd.profiler.profile() as prof2:
    torch.ones(2).add(1)
out([e.count for e in prof2.key_averages() if e.key == "aten::add"])
# ---
# total_average and events
with torch.autograd.profiler.profile() as prof:
    torch.ones(2).add(1)
    torch.ones(2).add(2)
tot = prof.total_average()
out(type(tot).__name__, tot.key)
adds = [e for e in prof.function_events if e.name == "aten::add"]
out(len(adds), [type(e).__name__ for e in adds][:1])
out(all(e.cpu_time_total >= 0 for e in adds))
# ---
# export_stacks needs with_stack; table variants keep torch's columns
import os
import tempfile

path = os.path.join(tempfile.mkdtemp(), "stacks.txt")
a = torch.ones(4, 4)
with torch.autograd.profiler.profile(profile_memory=True) as pm:
    a.mul(a).add(a)
err(lambda: pm.export_stacks(path))
with torch.profiler.profile() as q:
    a.mul(a)
err(lambda: q.export_stacks(path))
out([c.strip() for c in pm.key_averages().table().splitlines()[1].split("  ") if c.strip()])
out(len(pm.key_averages().table(row_limit=0).splitlines()))
out(pm.key_averages().table(top_level_events_only=True).splitlines()[:2][1])
out(str(pm).splitlines()[1].split())
out(pm.total_average().key)
out([a.name for a in torch.profiler.ProfilerAction])
# ---
# recorded input shapes follow torch's schemas (alpha, defaults of composite ops)
a = torch.ones(2, 3)
w = torch.ones(4, 3)
x = torch.ones(1, 2, 4, 4)
with torch.autograd.profiler.profile(record_shapes=True) as prof:
    a + a
    a.add(a, alpha=2)
    a - 1
    F.linear(a, w)
    F.conv1d(torch.ones(1, 2, 5), torch.ones(3, 2, 3), bias=torch.ones(3))
    F.layer_norm(a, (3,))
    F.max_pool2d(x, 2)
    F.softmax(a, dim=1)
    a.flatten()
    torch.matmul(a, w.t())
names = (
    "aten::add",
    "aten::sub",
    "aten::linear",
    "aten::conv1d",
    "aten::layer_norm",
    "aten::max_pool2d",
    "aten::softmax",
    "aten::flatten",
    "aten::matmul",
)
out(
    [
        (e.name, e.input_shapes)
        for e in prof.function_events
        if e.cpu_parent is None and e.name in names
    ]
)

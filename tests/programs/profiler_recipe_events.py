# profiler recipe: record_function labels, input shapes, memory and the events a run records
profiler = torch.profiler
torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6 * 6, 5))
inputs = torch.randn(2, 3, 8, 8)
activities = [profiler.ProfilerActivity.CPU]
with (
    profiler.profile(activities=activities, record_shapes=True) as prof,
    profiler.record_function("model_inference"),
):
    model(inputs)
events = prof.key_averages()
names = {e.key for e in events}
print(
    sorted(
        n
        for n in names
        if n in ("model_inference", "aten::conv2d", "aten::linear", "aten::relu", "aten::addmm")
    )
)
by_key = {e.key: e for e in events}
print(by_key["aten::conv2d"].count, by_key["model_inference"].count)
shapes = {
    e.key: e.input_shapes
    for e in prof.key_averages(group_by_input_shape=True)
    if e.key in ("aten::conv2d", "aten::linear")
}
print(shapes)
table = prof.key_averages().table(sort_by="cpu_time_total", row_limit=5)
print(table.splitlines()[1].split())
with profiler.profile(activities=[profiler.ProfilerActivity.CPU], profile_memory=True) as prof:
    model(inputs)
header = prof.key_averages().table(sort_by="self_cpu_memory_usage", row_limit=3).splitlines()[1]
print("CPU Mem" in header, "Self CPU Mem" in header)
steps = []


def trace_handler(p):
    steps.append(p.step_num)


my_schedule = profiler.schedule(skip_first=1, wait=1, warmup=1, active=2, repeat=1)
with profiler.profile(
    activities=[profiler.ProfilerActivity.CPU], schedule=my_schedule, on_trace_ready=trace_handler
) as p:
    for _ in range(8):
        model(inputs)
        p.step()
print(steps)
print([my_schedule(i) for i in range(7)])
with profiler.profile() as prof:
    with profiler.record_function("label-a"):
        x = torch.ones(3) * 2
    with torch.autograd.profiler.record_function("label-b"):
        y = x + 1
print([e.name for e in prof.events() if e.name.startswith("label")])
out(y)

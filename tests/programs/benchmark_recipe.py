# the "PyTorch Benchmark" recipe: two ways to write a batched dot product, timed and compared
import importlib

# (an import statement would bring in torch's own module under both libraries)
benchmark = importlib.import_module(torch.__name__ + ".utils.benchmark")


def batched_dot_mul_sum(a, b):
    return a.mul(b).sum(-1)


def batched_dot_bmm(a, b):
    a = a.reshape(-1, 1, a.shape[-1])
    b = b.reshape(-1, b.shape[-1], 1)
    return torch.bmm(a, b).flatten(-3)


torch.manual_seed(0)
x = torch.randn(100, 64)
assert batched_dot_mul_sum(x, x).allclose(batched_dot_bmm(x, x))
t0 = benchmark.Timer(
    stmt="batched_dot_mul_sum(x, x)",
    setup="pass",
    globals={"x": x, "batched_dot_mul_sum": batched_dot_mul_sum},
)
t1 = benchmark.Timer(
    stmt="batched_dot_bmm(x, x)", globals={"x": x, "batched_dot_bmm": batched_dot_bmm}
)
m0, m1 = t0.timeit(20), t1.blocked_autorange(min_run_time=0.01)
# times differ from run to run: what a run reports about itself is compared
print(m0.title, m0.number_per_run, len(m0.times), m0.num_threads, m0.stmt)
print(m1.title, m1.number_per_run >= 1, m1.median > 0, m1.mean > 0, m1.iqr >= 0)
print(repr(m0).splitlines()[1:2], repr(m0).splitlines()[-1].split(",")[0])
out(batched_dot_bmm(x, x)[:4])
# ---
# Compare tables, built from measurements with fixed times so both libraries print alike
import importlib

benchmark = importlib.import_module(torch.__name__ + ".utils.benchmark")
Compare, Measurement, TaskSpec = benchmark.Compare, benchmark.Measurement, benchmark.TaskSpec

results = []
for threads in (1, 4):
    for n, scale in ((1, 1.0), (64, 3.0), (1024, 40.0)):
        for sub, extra in (("mul/sum", 1.0), ("bmm", 1.6)):
            spec = TaskSpec(
                stmt="f(x, x)",
                setup="pass",
                label="Batched dot",
                sub_label=sub,
                description=f"[{n}, {n}]",
                num_threads=threads,
            )
            base = 2e-6 * scale * extra / threads
            times = [base * 50 * (1 + 0.02 * ((i * 7) % 5 - 2)) for i in range(8)]
            results.append(Measurement(50, times, spec))
compare = Compare(results)
compare.print()
compare.trim_significant_figures()
compare.colorize()
compare.print()
m = results[3]
print("\n".join(repr(m).splitlines()[1:]))
print(m.significant_figures, m.has_warnings, m.meets_confidence(0.01), m.as_row_name)
print(benchmark.select_unit(m.median), benchmark.trim_sigfig(m.median, 2))
err(lambda: Compare([1.0]))

"""torch.utils.benchmark: Measurement statistics and reprs, Compare's tables and the Timer's
structure, against torch on the same (synthetic) times; real timings are not compared."""

from __future__ import annotations

import random

import pytest

import numtorch
import numtorch.utils.benchmark as benchmark

torch = pytest.importorskip("torch")
import torch.utils.benchmark as torch_benchmark  # noqa: E402


def _measurements(lib):
    """The same measurements under either library: two labels, thread groups, envs,
    missing cells, noisy and quiet cells, one to ten blocks."""
    rng = random.Random(0)

    def make(label, sub, desc, stmt="x + 1", base=1e-5, n=10, spread=0.05, threads=1, env=None):
        spec = lib.TaskSpec(
            stmt, "pass", label=label, sub_label=sub, description=desc, num_threads=threads, env=env
        )
        times = [base * 100 * (1 + rng.uniform(-spread, spread)) for _ in range(n)]
        return lib.Measurement(100, times, spec)

    out = []
    for threads in (1, 4):
        for sub in ("float", "int"):
            for i, desc in enumerate(("n=1", "n=100", "n=10000")):
                base = 1e-6 * (i + 1) * (2 if sub == "int" else 1) / threads
                spread = 0.3 if desc == "n=100" else 0.01
                out.append(make("Add", sub, desc, base=base, spread=spread, threads=threads))
    out.append(make("Mul", None, "a", stmt="x*y", base=3e-3, n=3, env="old"))
    out.append(make("Mul", None, "b", stmt="x*y", base=3e-2, n=1, env="new"))
    out.append(make("Mul", None, "a", stmt="x*y", base=3e-2, n=5, env="new"))
    out.append(make("Mul", "s", "b", stmt="x*y", base=1.5, n=5, env="old"))
    return out


def _body(m):
    return repr(m).split("\n")[1:]  # the first line is object.__repr__


def test_measurement_statistics_and_repr_match_torch():
    ours, theirs = _measurements(benchmark), _measurements(torch_benchmark)
    for a, b in zip(ours, theirs):
        assert _body(a) == _body(b)
        assert (a.median, a.iqr, a.significant_figures, a.has_warnings) == (
            b.median,
            b.iqr,
            b.significant_figures,
            b.has_warnings,
        )
        assert a.mean == pytest.approx(b.mean, rel=1e-14)
        assert (a.title, a.env, a.as_row_name, a.times) == (b.title, b.env, b.as_row_name, b.times)
    assert repr(ours[0]).startswith("<numtorch.utils.benchmark.utils.common.Measurement object")


def test_multiline_statement_and_setup_repr_match_torch():
    def body(lib):
        spec = lib.TaskSpec(
            "for i in range(3):\n    y = x + i", "a = 1\nb = 2", sub_label="loop", description="d"
        )
        return _body(lib.Measurement(7, [1.0, 2.0, 3.0, 4.0, 9.0], spec))

    assert body(benchmark) == body(torch_benchmark)
    assert body(benchmark)[:3] == ["stmt: (loop)", "  for i in range(3):", "      y = x + i"]


@pytest.mark.parametrize(
    "options", [(), ("trim",), ("colorize",), ("rowwise",), ("highlight",), ("trim", "highlight")]
)
def test_compare_tables_match_torch(options):
    def render(lib):
        compare = lib.Compare(_measurements(lib))
        if "trim" in options:
            compare.trim_significant_figures()
        if "colorize" in options:
            compare.colorize()
        if "rowwise" in options:
            compare.colorize(rowwise=True)
        if "highlight" in options:
            compare.highlight_warnings()
        return str(compare)

    assert render(benchmark) == render(torch_benchmark)


def test_compare_refuses_what_torch_refuses():
    with pytest.raises(ValueError, match="Expected an instance of `Measurement`"):
        benchmark.Compare([1])
    mixed = _measurements(benchmark)[-4:]
    mixed[0] = benchmark.Measurement(1, [1.0], benchmark.TaskSpec("x", "pass", label="Mul"))
    with pytest.raises(TypeError):  # env None and a named env cannot be ordered, as in torch
        str(benchmark.Compare(mixed))


def test_units_and_significant_figures_match_torch():
    for t in (3.2e-10, 3.2e-7, 9.99e-7, 1e-6, 0.002, 5.0, 1e4):
        assert benchmark.select_unit(t) == torch_benchmark.select_unit(t)
    for x, n in ((3.14159, 2), (123456.0, 3), (0.000123456, 1), (9.999, 4)):
        assert benchmark.trim_sigfig(x, n) == torch_benchmark.trim_sigfig(x, n)
    assert benchmark.unit_to_english("us") == "microsecond"


def test_merge_flattens_replicates_to_single_runs():
    m = _measurements(benchmark)[0]
    (merged,) = benchmark.Measurement.merge([m, m])
    assert merged.number_per_run == 1 and merged.times == m.times + m.times


def test_timer_measurements_carry_the_task():
    timer = benchmark.Timer(
        "x * 2",
        setup="y = 3",
        globals={"x": numtorch.ones(4)},
        label="L",
        sub_label="S",
        description="D",
        num_threads=2,
    )
    before = numtorch.get_num_threads()
    m = timer.timeit(5)
    assert (m.number_per_run, len(m.times), m.num_threads, m.title) == (5, 1, 2, "L: S")
    assert numtorch.get_num_threads() == before  # restored after measuring
    lines = repr(m).split("\n")[1:]
    assert lines[:3] == ["L: S", "D", "setup: y = 3"]
    assert lines[-1] == "  1 measurement, 5 runs , 2 threads"
    calls = []
    m = timer.blocked_autorange(callback=lambda n, t: calls.append(n), min_run_time=0.01)
    assert sum(m.raw_times) >= 0.01 and calls == [m.number_per_run] * len(m.times)
    m = timer.adaptive_autorange(min_run_time=0.01, max_run_time=0.05)
    assert len(m.times) >= 1 and m.number_per_run >= 1
    # torch is in the statement's namespace unless the globals name it
    assert benchmark.Timer("torch.ones(2).sum()").timeit(3).number_per_run == 3


def test_timer_refuses_what_torch_refuses():
    timer = benchmark.Timer("pass")
    for call, error in (
        (lambda: benchmark.Timer(lambda: 1), ValueError),
        (timer.repeat, NotImplementedError),
        (timer.autorange, NotImplementedError),
        (lambda: benchmark.Timer("x", global_setup="int a;"), ValueError),
        (lambda: benchmark.Timer("x", language="java"), ValueError),
    ):
        with pytest.raises(error):
            call()
    with pytest.raises(NotImplementedError, match="C\\+\\+"):
        benchmark.Timer("x", language="cpp")

"""What a benchmark measured (``Measurement``), what it ran (``TaskSpec``) and the number
formatting ``Compare`` and the reprs share, as ``torch.utils.benchmark.utils.common``.

The statistics follow torch's: median and quartiles by linear interpolation over the
per-run times in float64, the significant-figure estimate and unit choice in float32 (torch
computes them on default-dtype tensors, which decides the last digit in a few cases).
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import math
import textwrap
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from .... import _runtime as threads

__all__ = [
    "Measurement",
    "TaskSpec",
    "ordered_unique",
    "select_unit",
    "set_torch_threads",
    "trim_sigfig",
    "unit_to_english",
]

_MAX_SIGNIFICANT_FIGURES = 4
_MIN_CONFIDENCE_INTERVAL = 25e-9  # seconds
# relative IQRs past which a measurement carries a warning
_IQR_WARN_THRESHOLD = 0.1
_IQR_GROSS_WARN_THRESHOLD = 0.25


@dataclasses.dataclass(init=True, repr=False, eq=True, frozen=True)
class TaskSpec:
    """What a Timer runs, without its globals."""

    stmt: str
    setup: str
    global_setup: str = ""
    label: str | None = None
    sub_label: str | None = None
    description: str | None = None
    env: str | None = None
    num_threads: int = 1

    @property
    def title(self) -> str:
        """The label (or a one-line statement) with the sub-label after a colon."""
        suffix = f": {self.sub_label}" if self.sub_label else ""
        if self.label is not None:
            return self.label + suffix
        if "\n" not in self.stmt:
            return self.stmt + suffix
        sub = f" ({self.sub_label})" if self.sub_label else ""
        return f"stmt:{sub}\n" + textwrap.indent(self.stmt, "  ")

    def setup_str(self) -> str:
        if not self.setup or self.setup == "pass":
            return ""
        if "\n" in self.setup:
            return "setup:\n" + textwrap.indent(self.setup, "  ")
        return f"setup: {self.setup}"

    def summarize(self) -> str:
        """The task's lines in a Measurement's repr: title, description, setup."""
        sections = [s for s in (self.title, self.description or "", self.setup_str()) if s]
        # a multi-line section is followed by a blank line
        return "\n".join(s + "\n" if "\n" in s else s for s in sections)


_TASKSPEC_FIELDS = tuple(f.name for f in dataclasses.fields(TaskSpec))


@dataclasses.dataclass(init=True, repr=False)
class Measurement:
    """The times of ``number_per_run`` runs of a statement, one per block.

    ``times`` are per run; ``median``, ``mean`` and ``iqr`` summarise them. The TaskSpec's
    fields (``label``, ``stmt``, ``num_threads``, ...) read through.
    """

    number_per_run: int
    raw_times: list[float]
    task_spec: TaskSpec
    metadata: dict[Any, Any] | None = None  # the user's own payload

    def __post_init__(self) -> None:
        self._sorted_times: tuple[float, ...] = ()
        self._warnings: tuple[str, ...] = ()
        self._median = self._mean = self._p25 = self._p75 = -1.0

    def __getattr__(self, name: str) -> Any:
        if name in _TASKSPEC_FIELDS:
            return getattr(self.task_spec, name)
        return super().__getattribute__(name)

    @property
    def times(self) -> list[float]:
        return [t / self.number_per_run for t in self.raw_times]

    @property
    def median(self) -> float:
        self._lazy_init()
        return self._median

    @property
    def mean(self) -> float:
        self._lazy_init()
        return self._mean

    @property
    def iqr(self) -> float:
        self._lazy_init()
        return self._p75 - self._p25

    @property
    def significant_figures(self) -> int:
        """A rough count of trustworthy digits: the median over a 90% confidence interval
        of the interquartile points (1 to 4)."""
        self._lazy_init()
        n = len(self._sorted_times)
        upper = int(np.ceil(np.float32(3 * n / 4)))
        middle = np.asarray(self._sorted_times[n // 4 : upper], dtype=np.float32)
        std = float(middle.std()) if middle.size else float("nan")
        sqrt_n = float(np.sqrt(np.float32(middle.size)))
        with np.errstate(divide="ignore", invalid="ignore"):
            interval = max(1.645 * std / sqrt_n, _MIN_CONFIDENCE_INTERVAL)
        relative = _log10_float32(self._median / interval)
        figures = int(np.floor(np.float32(relative)))
        return min(max(figures, 1), _MAX_SIGNIFICANT_FIGURES)

    @property
    def has_warnings(self) -> bool:
        self._lazy_init()
        return bool(self._warnings)

    def _lazy_init(self) -> None:
        if not self.raw_times or self._sorted_times:
            return
        self._sorted_times = tuple(sorted(self.times))
        values = np.asarray(self._sorted_times, dtype=np.float64)
        self._median = float(np.quantile(values, 0.5))
        self._mean = math.fsum(values) / len(values)
        self._p25 = float(np.quantile(values, 0.25))
        self._p75 = float(np.quantile(values, 0.75))
        if not self.meets_confidence(_IQR_GROSS_WARN_THRESHOLD):
            self._add_warning("This suggests significant environmental influence.")
        elif not self.meets_confidence(_IQR_WARN_THRESHOLD):
            self._add_warning("This could indicate system fluctuation.")

    def _add_warning(self, message: str) -> None:
        relative = self.iqr / self.median * 100
        self._warnings += (
            f"  WARNING: Interquartile range is {relative:.1f}% of the median measurement.\n"
            f"           {message}",
        )

    def meets_confidence(self, threshold: float = _IQR_WARN_THRESHOLD) -> bool:
        return self.iqr / self.median < threshold

    @property
    def title(self) -> str:
        return self.task_spec.title

    @property
    def env(self) -> str:
        # torch's property fails inside and falls back to __getattr__: the TaskSpec's env
        return self.task_spec.env

    @property
    def as_row_name(self) -> str:
        return self.sub_label or self.stmt or "[Unknown]"

    def __repr__(self) -> str:
        self._lazy_init()
        n = len(self._sorted_times)
        unit, scale = select_unit(self._median)
        lines = [object.__repr__(self)]
        lines += self.task_spec.summarize().split("\n")
        median = f"{self._median / scale:.2f} {unit}"
        lines.append(f"  Median: {median}" if n > 1 else f"  {median}")
        if n >= 4:
            lines.append(
                f"  IQR:    {self.iqr / scale:.2f} {unit} "
                f"({self._p25 / scale:.2f} to {self._p75 / scale:.2f})"
            )
        runs = "per measurement," if n > 1 else ","
        plural = "s" if n > 1 else ""
        threads_plural = "s" if self.num_threads > 1 else ""
        lines.append(
            f"  {n} measurement{plural}, {self.number_per_run} runs {runs} "
            f"{self.num_threads} thread{threads_plural}"
        )
        lines += "\n".join(self._warnings).splitlines()
        return "\n".join(lines).strip()

    @staticmethod
    def merge(measurements: Iterable[Measurement]) -> list[Measurement]:
        """Replicates of one task merged into one Measurement of single runs (metadata
        dropped, since replicates may disagree on it)."""
        groups: dict = collections.defaultdict(list)
        for m in measurements:
            groups[m.task_spec].append(m)
        return [
            Measurement(1, [t for m in group for t in m.times], spec, None)
            for spec, group in groups.items()
        ]


def _log10_float32(x: float) -> np.float32:
    """log10 of ``x`` as a float32 tensor gives it: rounded once (1e-6 gives -6.0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.float32(np.log10(np.float64(np.float32(x))))


def select_unit(t: float) -> tuple[str, float]:
    """The unit that puts ``t`` seconds at a magnitude of 1 to 999."""
    exponent = _log10_float32(t) // 3
    unit = {-3: "ns", -2: "us", -1: "ms"}.get(int(exponent) if np.isfinite(exponent) else 0, "s")
    return unit, {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}[unit]


def unit_to_english(u: str) -> str:
    return {"ns": "nanosecond", "us": "microsecond", "ms": "millisecond", "s": "second"}[u]


def trim_sigfig(x: float, n: int) -> float:
    """``x`` rounded to ``n`` significant figures (3.14159, 2 -> 3.1)."""
    if n != int(n):
        raise AssertionError("Number of significant figures must be an integer")
    magnitude = int(np.ceil(_log10_float32(abs(x))))
    scale = 10 ** (magnitude - n)
    return float(np.round(np.float32(x / scale)) * np.float32(scale))


def ordered_unique(elements: Iterable[Any]) -> list[Any]:
    return list(dict.fromkeys(elements))


@contextlib.contextmanager
def set_torch_threads(n: int) -> Iterator[None]:
    prior = threads.get_num_threads()
    try:
        threads.set_num_threads(n)
        yield
    finally:
        threads.set_num_threads(prior)

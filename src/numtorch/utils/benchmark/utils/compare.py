"""``Compare``: many Measurements as tables, as ``torch.utils.benchmark.Compare``.

One table per label; rows are (num_threads, env, sub_label or stmt), grouped under a
``N threads:`` separator; columns are descriptions. Replicates of one task are merged
first. Cells show medians in one unit per table (the smallest median's), optionally
trimmed to their significant figures, coloured against the best of the row or of the
column group, and marked with their relative IQR when highlighted.
"""

from __future__ import annotations

import enum

import numpy as np

from . import common

__all__ = ["Colorize", "Compare"]

BEST = "\033[92m"
GOOD = "\033[34m"
BAD = "\033[2m\033[91m"
VERY_BAD = "\033[31m"
BOLD = "\033[1m"
TERMINATE = "\033[0m"


class Colorize(enum.Enum):
    NONE = "none"
    COLUMNWISE = "columnwise"
    ROWWISE = "rowwise"


def _leading_digits(value: float) -> int:
    return int(np.ceil(common._log10_float32(value)))


class _Column:
    """One description's cells, formatted alike: as many integer digits as the widest and
    as many decimals as the least precise cell allows."""

    def __init__(self, groups, time_scale, trim, highlight):
        self.groups = groups  # per row group, a tuple of Measurement or None
        cells = [m for group in groups for m in group]
        self.trim = trim
        self.highlight = highlight and any(m.has_warnings for m in cells if m)
        digits = [(_leading_digits(m.median / time_scale), m) for m in cells if m]
        unit_digits = max(d for d, _ in digits)
        decimals = min(max(m.significant_figures - d, 0) for d, m in digits) if trim else 1
        self.width = unit_digits + decimals + (1 if decimals else 0)
        self.decimals = decimals

    def cell(self, value, figures, spread) -> str:
        if value is None:
            return " " * len(self.cell(1, figures, None))
        if self.trim:
            value = common.trim_sigfig(value, figures)
        text = f"{value:>{self.width}.{self.decimals}f}"
        note = f" (! {spread * 100:.0f}%)" if self.highlight and spread is not None else ""
        return text + (f"{note:>7}" if self.highlight else note)


def _colour(text, value, best):
    if value <= best * 1.01 or value <= best + 100e-9:
        return BEST + BOLD + text + TERMINATE * 2
    if value <= best * 1.1:
        return GOOD + BOLD + text + TERMINATE * 2
    if value >= best * 5:
        return VERY_BAD + BOLD + text + TERMINATE * 2
    if value >= best * 2:
        return BAD + text + TERMINATE * 2
    return text


class _Table:
    """The rendering of one label's measurements."""

    def __init__(self, results, colorize, trim, highlight):
        if len({r.label for r in results}) != 1:
            raise AssertionError("All results must share the same label")
        self.results, self.colorize, self.highlight = results, colorize, highlight
        self.label = results[0].label
        self.unit, self.scale = common.select_unit(min(r.median for r in results))

        def row_key(m):
            return m.num_threads, m.env, m.as_row_name

        # rows sorted by threads and env only, keeping statement order within them
        self.row_keys = sorted(common.ordered_unique(map(row_key, results)), key=lambda k: k[:2])
        self.column_keys = common.ordered_unique(m.description for m in results)
        where = {k: i for i, k in enumerate(self.row_keys)}
        col = {k: j for j, k in enumerate(self.column_keys)}
        self.grid = [[None] * len(self.column_keys) for _ in self.row_keys]
        for m in results:
            self.grid[where[row_key(m)]][col[m.description]] = m

        envs = {r.env for r in results}
        self.render_env = len(envs) > 1
        self.env_width = max(len(e) for e in envs) if self.render_env else 0
        # per row: its group index, whether it opens a thread group, whether it shows env
        self.row_info, groups = [], []
        prior_threads, prior_env = -1, ""
        for (threads, env, _), row in zip(self.row_keys, self.grid):
            opens = threads != prior_threads
            if opens:
                prior_threads, prior_env = threads, ""
                groups.append([])
            self.row_info.append((len(groups) - 1, opens, self.render_env and env != prior_env))
            groups[-1].append(row)
            prior_env = env
        self.columns = [
            _Column([tuple(row[j] for row in g) for g in groups], self.scale, trim, highlight)
            for j in range(len(self.column_keys))
        ]

    def _row_strings(self, row, shows_env):
        first = next(m for m in row if m is not None)
        env = f"({first.env})" if shows_env else ""
        strings = ["  " + env.ljust(self.env_width + 4) + first.as_row_name]
        for m, column in zip(row, self.columns):
            if m is None:
                strings.append(column.cell(None, 1, None))
            else:
                spread = m.iqr / m.median if m.has_warnings else None
                strings.append(column.cell(m.median / self.scale, m.significant_figures, spread))
        return strings

    def _best(self, row, group):
        if self.colorize == Colorize.ROWWISE:
            return [min(m.median for m in row if m is not None)] * len(row)
        if self.colorize == Colorize.COLUMNWISE:
            best = []
            for column in self.columns:
                medians = [m.median for m in column.groups[group] if m is not None]
                best.append(min(medians) if medians else None)
            return best
        return [None] * len(row)

    def render(self) -> str:
        header = ["", *self.column_keys]
        body = [self._row_strings(row, env) for row, (_, _, env) in zip(self.grid, self.row_info)]
        count = max(len(r) for r in [header, *body])
        for r in [header, *body]:
            r.extend([""] * (count - len(r)))
        widths = [max(len(s) for s in column) for column in zip(header, *body)]
        lines = ["  |  ".join(s.center(w) for s, w in zip(header, widths))]
        width = len(lines[0])
        for strings, row, (group, opens, _) in zip(body, self.grid, self.row_info):
            if opens:
                threads = next(m for m in row if m is not None).num_threads
                lines.append(f"{threads} threads: ".ljust(width, "-"))
            cells = [strings[0].ljust(widths[0])]
            for text, w, m, best in zip(strings[1:], widths[1:], row, self._best(row, group)):
                text = text.center(w)
                if self.colorize != Colorize.NONE and m is not None and best is not None:
                    text = _colour(text, m.median, best)
                cells.append(text)
            lines.append("  |  ".join(cells))
        title = f" {self.label or ''} ".center(width - 2, "-")
        text = f"[{title}]\n" + "\n".join(lines) + "\n\n"
        text += f"Times are in {common.unit_to_english(self.unit)}s ({self.unit}).\n"
        if self.highlight and any(m.has_warnings for m in self.results):
            text += "(! XX%) Measurement has high variance, where XX is the IQR / median * 100.\n"
        return text


class Compare:
    """Measurements printed as tables: one per label, a row per sub-label (or statement)
    and thread count, a column per description.

    >>> from numtorch.utils import benchmark
    >>> spec = benchmark.TaskSpec("x + 1", "pass", label="add", description="n=1")
    >>> print(benchmark.Compare([benchmark.Measurement(1, [2e-6, 3e-6], spec)]))
    [------ add ------]
                 |  n=1
    1 threads: --------
          x + 1  |  2.5
    <BLANKLINE>
    Times are in microseconds (us).
    <BLANKLINE>
    """

    def __init__(self, results: list[common.Measurement]) -> None:
        self._results: list[common.Measurement] = []
        self.extend_results(results)
        self._trim_significant_figures = False
        self._colorize = Colorize.NONE
        self._highlight_warnings = False

    def __str__(self) -> str:
        return "\n".join(self._render())

    def extend_results(self, results) -> None:
        """Add Measurements to the ones shown."""
        for r in results:
            if not isinstance(r, common.Measurement):
                raise ValueError(f"Expected an instance of `Measurement`, got {type(r)} instead.")
        self._results.extend(results)

    def trim_significant_figures(self) -> None:
        self._trim_significant_figures = True

    def colorize(self, rowwise: bool = False) -> None:
        """Colour cells against the best of their column group (or of their row)."""
        self._colorize = Colorize.ROWWISE if rowwise else Colorize.COLUMNWISE

    def highlight_warnings(self) -> None:
        self._highlight_warnings = True

    def print(self) -> None:
        print(str(self))

    def _render(self) -> list[str]:
        by_label: dict = {}
        for m in common.Measurement.merge(self._results):
            by_label.setdefault(m.label, []).append(m)
        return [
            _Table(
                group, self._colorize, self._trim_significant_figures, self._highlight_warnings
            ).render()
            for group in by_label.values()
        ]

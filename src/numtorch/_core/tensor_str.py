"""torch-identical printing of tensors (``repr``), and ``set_printoptions``.

The layout rules (integer mode, scientific mode, widths, summarisation with ``...``,
line wrapping at 80 columns, suffixes such as ``grad_fn=<MulBackward0>``) follow torch's
printing so that printed results read the same under both libraries.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..backend import xp
from . import dtypes as _dtypes


@dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = _PrintOptions()


def set_printoptions(
    precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None
):
    """Set printing options as ``torch.set_printoptions`` does (profile: default/short/full)."""
    if profile == "default":
        PRINT_OPTS.precision, PRINT_OPTS.threshold = 4, 1000
        PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 3, 80
    elif profile == "short":
        PRINT_OPTS.precision, PRINT_OPTS.threshold = 2, 1000
        PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 2, 80
    elif profile == "full":
        PRINT_OPTS.precision, PRINT_OPTS.threshold = 4, math.inf
        PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 3, 80
    for name, value in (
        ("precision", precision),
        ("threshold", threshold),
        ("edgeitems", edgeitems),
        ("linewidth", linewidth),
    ):
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


class _Formatter:
    def __init__(self, values):
        self.floating = values.dtype.kind in "fcV"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        if not self.floating:
            for value in flat.tolist():
                self.max_width = max(self.max_width, len(str(value)))
        else:
            finite = flat[xp.isfinite(flat) & (flat != 0)]
            if finite.size == 0:
                return
            magnitude = xp.abs(finite.astype(xp.float64))
            lo, hi = float(magnitude.min()), float(magnitude.max())
            self.int_mode = bool(xp.all(finite == xp.ceil(finite)))
            p = PRINT_OPTS.precision
            # the widths follow the mode in use, a forced one included, as torch measures them
            self.sci_mode = (
                hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
                if PRINT_OPTS.sci_mode is None
                else PRINT_OPTS.sci_mode
            )
            if self.sci_mode:
                self._widen(finite, f"{{:.{p}e}}")
            elif self.int_mode:
                self._widen(finite, "{:.0f}", extra=1)
            else:
                self._widen(finite, f"{{:.{p}f}}")

    def _widen(self, values, fmt: str, extra: int = 0) -> None:
        for value in values.tolist():
            self.max_width = max(self.max_width, len(fmt.format(value)) + extra)

    def width(self) -> int:
        return self.max_width

    def format(self, value) -> str:
        if self.floating:
            if self.sci_mode:
                text = f"{value:{self.max_width}.{PRINT_OPTS.precision}e}"
            elif self.int_mode:
                text = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    text += "."
            else:
                text = f"{value:.{PRINT_OPTS.precision}f}"
        else:
            text = f"{value}"
        return (self.max_width - len(text)) * " " + text


def _summarized(data):
    edge = PRINT_OPTS.edgeitems
    if data.ndim == 0:
        return data
    if data.ndim == 1:
        if data.shape[0] > 2 * edge:
            return xp.concatenate((data[:edge], data[-edge:]))
        return data
    if not edge:
        return data[(slice(0, 0),) * data.ndim]
    rows = range(data.shape[0])
    if data.shape[0] > 2 * edge:
        rows = list(range(edge)) + list(range(data.shape[0] - edge, data.shape[0]))
    return xp.stack([_summarized(data[i]) for i in rows])


class _ComplexFormatter:
    """torch's complex layout: real and imaginary parts formatted independently."""

    def __init__(self, values):
        self.real = _Formatter(values.real)
        self.imag = _Formatter(values.imag)

    def width(self) -> int:
        # torch counts an element as both widths, "+" and "j" (_vector_str adds 2 more)
        return self.real.width() + self.imag.width() + 1

    def format(self, value) -> str:
        real = self.real.format(value.real)
        imag = (self.imag.format(value.imag) + "j").lstrip()
        return real + imag if imag[0] in "+-" else real + "+" + imag


def _vector_str(data, indent: int, summarize: bool, formatter: _Formatter) -> str:
    element_length = formatter.width() + 2
    per_line = max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / element_length)))
    edge = PRINT_OPTS.edgeitems
    if summarize and not edge:
        items = ["..."]
    elif summarize and data.shape[0] > 2 * edge:
        items = [formatter.format(v) for v in data[:edge].tolist()] + [" ..."]
        items += [formatter.format(v) for v in data[-edge:].tolist()]
    else:
        items = [formatter.format(v) for v in data.tolist()]
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _array_str(data, indent: int, summarize: bool, formatter: _Formatter) -> str:
    if data.ndim == 0:
        return formatter.format(data.item())
    if data.ndim == 1:
        return _vector_str(data, indent, summarize, formatter)
    edge = PRINT_OPTS.edgeitems
    n = data.shape[0]
    if summarize and n > 2 * edge:
        parts = [_array_str(data[i], indent + 1, summarize, formatter) for i in range(edge)]
        parts.append("...")
        parts += [_array_str(data[i], indent + 1, summarize, formatter) for i in range(n - edge, n)]
    else:
        parts = [_array_str(data[i], indent + 1, summarize, formatter) for i in range(n)]
    return "[" + ("," + "\n" * (data.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def array_body(data, indent: int) -> str:
    """The bracketed body of a tensor's repr, e.g. ``[1.0000, 2.5000]``."""
    if data.size == 0:
        return "[]"
    summarize = data.size > PRINT_OPTS.threshold
    if data.dtype.itemsize == 2 and data.dtype.kind in "fV":  # float16, bfloat16
        data = data.astype(xp.float32)
    values = _summarized(data) if summarize else data
    formatter = _ComplexFormatter(values) if data.dtype.kind == "c" else _Formatter(values)
    return _array_str(data, indent, summarize, formatter)


def _add_suffixes(text: str, suffixes: list, indent: int, force_newline: bool = False) -> str:
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if force_newline or last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
            force_newline = False
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(tensor, prefix: str = "tensor(") -> str:
    data = tensor._data
    indent = len(prefix)
    dtype = tensor.dtype
    default = _dtypes.get_default_dtype()
    suffixes = []
    if tensor.is_meta:  # no values to show: torch prints the device and the size
        suffixes.append("device='meta'")
        suffixes.append("size=" + str(tuple(data.shape)))
        if dtype is not default:
            suffixes.append(f"dtype={dtype}")
        body = "..."
    elif data.size == 0:
        if data.ndim != 1:
            suffixes.append("size=" + str(tuple(data.shape)))
        if dtype is not default:
            suffixes.append(f"dtype={dtype}")
        body = "[]"
    else:
        if dtype not in (default, _dtypes.int64, _dtypes.bool_, default.to_complex()):
            suffixes.append(f"dtype={dtype}")
        body = array_body(data, indent)
    grad_fn = tensor.grad_fn
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn.name().rsplit('::', 1)[-1]}>")
    elif tensor._requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)

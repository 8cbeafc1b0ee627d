"""Counting the floating-point operations of matrix products, convolutions and attention,
per module, as ``torch.utils.flop_counter``.

``FlopCounterMode`` is an op observer (``_core.observers``, as the profiler is) that counts
the ops torch's counter counts, by torch's rules: a product of (m x k) and (k x n) is
``2 * m * n * k`` (additions as multiplications; biases and alpha/beta free); a convolution
``2 * N * C_out * C_in/groups * prod(kernel) * prod(output positions)`` (the input's
positions for a transposed one); its backward the convolutions that compute each gradient
asked for. Attention on a CPU build is the math path: its products are counted as the
``bmm`` they are. Composite functions (``linear``, ``matmul``) count through the products
they run, forward and backward, as torch's decompositions do.
"""

from __future__ import annotations

import math
import warnings
import weakref
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from .._core.observers import add_observer, remove_observer
from .module_tracker import ModuleTracker

__all__ = ["FlopCounterMode", "register_flop_formula"]


class _OpPacket:
    """The key an op is counted under: prints as torch's ``aten.mm`` overload packet."""

    _all: dict = {}

    def __new__(cls, name: str):
        packet = cls._all.get(name)
        if packet is None:
            packet = cls._all[name] = super().__new__(cls)
            packet._qualified_op_name = name
            packet.__name__ = name.split("::")[-1]
        return packet

    def __str__(self) -> str:
        return self._qualified_op_name.replace("::", ".")

    def __repr__(self) -> str:
        return f"<OpOverloadPacket(op='{self}')>"


def _shape(value) -> tuple:
    return tuple(value.shape)


def mm_flop(a_shape, b_shape, *args, out_shape=None, **kwargs) -> int:
    """(m x k) @ (k x n): 2 m n k."""
    m, k = a_shape
    k2, n = b_shape
    if k != k2:
        raise AssertionError(f"matmul: inner dimensions must match (k == k2), got {k} and {k2}")
    return m * n * 2 * k


def addmm_flop(self_shape, a_shape, b_shape, *args, out_shape=None, **kwargs) -> int:
    return mm_flop(a_shape, b_shape)


def bmm_flop(a_shape, b_shape, *args, out_shape=None, **kwargs) -> int:
    """(b x m x k) @ (b x k x n): 2 b m n k."""
    b, m, k = a_shape
    b2, k2, n = b_shape
    if b != b2:
        raise AssertionError(f"bmm: batch dimensions must match (b == b2), got {b} and {b2}")
    if k != k2:
        raise AssertionError(f"bmm: inner dimensions must match (k == k2), got {k} and {k2}")
    return b * m * n * 2 * k


def baddbmm_flop(self_shape, a_shape, b_shape, *args, out_shape=None, **kwargs) -> int:
    return bmm_flop(a_shape, b_shape)


def conv_flop_count(x_shape, w_shape, out_shape, transposed: bool = False) -> int:
    """Multiplications and additions of a convolution, bias left out: every output position
    (input position when transposed) meets every kernel tap of every channel pair."""
    batch_size = x_shape[0]
    positions = (x_shape if transposed else out_shape)[2:]
    c_out, c_in, *kernel = w_shape
    return math.prod(positions) * math.prod(kernel) * batch_size * c_out * c_in * 2


def conv_flop(x_shape, w_shape, _bias, _stride, _padding, _dilation, transposed, *args,
              out_shape=None, **kwargs) -> int:  # fmt: skip
    return conv_flop_count(x_shape, w_shape, out_shape, transposed=transposed)


def _swap_batch_channels(shape):
    return [shape[1], shape[0], *shape[2:]]


def _conv_input_grad_flop(grad_out_shape, w_shape, grad_input_shape, transposed) -> int:
    # the input's gradient is the transposed convolution of the output's gradient
    return conv_flop_count(grad_out_shape, w_shape, grad_input_shape, not transposed)


def _conv_weight_grad_flop(grad_out_shape, x_shape, grad_weight_shape, transposed) -> int:
    # the weight's gradient is a convolution over the batch: of the input by the output's
    # gradient, or (transposed) of the output's gradient by the input
    first, second = (grad_out_shape, x_shape) if transposed else (x_shape, grad_out_shape)
    return conv_flop_count(
        _swap_batch_channels(first),
        _swap_batch_channels(second),
        _swap_batch_channels(grad_weight_shape),
        transposed=False,
    )


def sdpa_flop_count(query_shape, key_shape, value_shape) -> int:
    """Attention's two products, q @ k^T and the scores @ v (grouped-query heads shared)."""
    b, h_q, s_q, d_q = query_shape
    _, h_kv, s_k, _ = key_shape
    d_v = value_shape[-1]
    if h_q % h_kv:
        raise AssertionError(
            f"sdpa_flop_count: query heads ({h_q}) must be a multiple of key/value heads ({h_kv})"
        )
    return bmm_flop((b * h_q, s_q, d_q), (b * h_q, d_q, s_k)) + bmm_flop(
        (b * h_q, s_q, s_k), (b * h_q, s_k, d_v)
    )


def _einsum_labels(equation: str, shapes):
    """Each operand's labels (ellipsis dimensions as labels of their own, aligned from the
    right as they broadcast) and the output's label set."""
    equation = equation.replace(" ", "")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    labels, sizes = [], {}
    for term, shape in zip(terms, shapes):
        explicit = term.replace("...", "")
        rest = len(shape) - len(explicit)
        ellipsis = [f"...{rest - i}" for i in range(rest)] if "..." in term else []
        before, _, after = term.partition("...") if "..." in term else (term, "", "")
        names = [*before, *ellipsis, *after]
        for name, size in zip(names, shape):
            sizes[name] = max(sizes.get(name, 1), size)
        labels.append(names)
    every = [n for names in labels for n in names]
    if arrow:
        out = set(output.replace("...", ""))
        if "..." in output:
            out |= {n for n in every if n.startswith("...")}
    else:  # implicit output: the labels seen once, and the ellipsis dimensions
        out = {n for n in every if every.count(n) == 1 or n.startswith("...")}
    return labels, sizes, out


def einsum_pair_flops(equation, operands) -> list[tuple[int, int]]:
    """torch's einsum contracts operands left to right, each pair with one bmm over the
    labels both still have (after summing out those nothing later needs); a pair with no
    label to contract is a product and costs no counted flops. Per pair: its flops, and
    how many of its two sides require grad (the bmm calls its backward makes)."""
    labels, sizes, out = _einsum_labels(equation, [_shape(o) for o in operands])
    pairs = []
    left, left_grad = set(labels[0]) if labels else set(), bool(operands[0].requires_grad)
    for i in range(1, len(labels)):
        right = set(labels[i])
        needed = out.union(*map(set, labels[i + 1 :]))
        left = {n for n in left if n in needed or n in right}
        right = {n for n in right if n in needed or n in left}
        contracted = (left & right) - needed
        right_grad = bool(operands[i].requires_grad)
        if contracted:
            flops = 2 * math.prod(sizes[n] for n in left | right)
            pairs.append((flops, left_grad + right_grad))
        left, left_grad = (left | right) - contracted, left_grad or right_grad
    return pairs


def einsum_flop(equation, operands, *args, out_shape=None, **kwargs) -> int:
    return sum(flops for flops, _ in einsum_pair_flops(equation, operands))


# Formulas by ATen op name, on argument shapes (tensors) and values (the rest)
flop_registry: dict[Any, Callable[..., int]] = {
    _OpPacket("aten::mm"): mm_flop,
    _OpPacket("aten::addmm"): addmm_flop,
    _OpPacket("aten::bmm"): bmm_flop,
    _OpPacket("aten::baddbmm"): baddbmm_flop,
    _OpPacket("aten::convolution"): conv_flop,
}
# einsum is a composite in torch, counted as the bmm calls it makes
_BMM = _OpPacket("aten::bmm")
_CONV_BACKWARD = _OpPacket("aten::convolution_backward")


def _shapes_of(args) -> list:
    return [_shape(a) if hasattr(a, "shape") and hasattr(a, "ndim") else a for a in args]


def register_flop_formula(targets, get_raw: bool = False):
    """Register ``formula(*arg_shapes, out_shape=...)`` as the count of the ATen ops
    ``targets`` (names like ``"aten::mm"``, or the keys ``get_flop_counts`` returns)."""

    def register(formula):
        for target in targets if isinstance(targets, (list, tuple)) else [targets]:
            key = _OpPacket(target) if isinstance(target, str) else target
            if key in flop_registry:
                raise RuntimeError(f"duplicate registrations for {key}")
            flop_registry[key] = formula
        return formula

    return register


# torch's table suffixes, by thousands: 1.01B shows as 1001M
_SUFFIXES = ["", "K", "M", "B", "T"]


def get_suffix_str(number: int) -> str:
    return _SUFFIXES[max(0, min(len(_SUFFIXES) - 1, (len(str(number)) - 2) // 3))]


def convert_num_with_suffix(number: int, suffix: str) -> str:
    return f"{number / 1000 ** _SUFFIXES.index(suffix):.3f}" + suffix


def convert_to_percent_str(num: int, denom: int) -> str:
    return "0%" if denom == 0 else f"{num / denom:.2%}"


def _cell(text: str) -> str:
    # torch's table (tabulate) reprints numeric cells in the "g" format: 4720.000 -> 4720
    try:
        return format(float(text), "g")
    except ValueError:
        return text


def _table(rows: list[list[str]]) -> str:
    """Rows under ``Module | FLOP | % Total`` as torch prints them through tabulate's
    "simple" format: each column two wider than its header at least, the first left-aligned,
    cells stripped (the indentation by depth does not survive it)."""
    header = ["Module", "FLOP", "% Total"]
    rows = [[row[0].strip(), _cell(row[1].strip()), row[2].strip()] for row in rows]
    widths = [max(len(h) + 2, *(len(r[i]) for r in rows)) for i, h in enumerate(header)]

    def line(cells):
        first = cells[0].ljust(widths[0])
        return "  ".join([first, *(c.rjust(w) for c, w in zip(cells[1:], widths[1:]))])

    return "\n".join([line(header), "  ".join("-" * w for w in widths), *map(line, rows)])


class FlopCounterMode:
    """A context manager that counts the flops of the ops run inside it, per module.

    ``get_total_flops()`` sums them; ``get_flop_counts()`` maps each module's name
    (``"Global"`` for everything) to its counts by op; with ``display=True`` (the default)
    leaving the context prints the table of modules up to ``depth`` levels.

    >>> import numtorch as torch
    >>> from numtorch.utils.flop_counter import FlopCounterMode
    >>> with FlopCounterMode(display=False) as counter:
    ...     _ = torch.ones(4, 6) @ torch.ones(6, 3)
    >>> counter.get_total_flops(), counter.get_flop_counts()
    (144, {'Global': {<OpOverloadPacket(op='aten.mm')>: 144}})
    """

    def __init__(self, mods=None, depth: int = 2, display: bool = True, custom_mapping=None):
        self.flop_counts: dict[str, dict[Any, int]] = defaultdict(lambda: defaultdict(int))
        self.depth = depth
        self.display = display
        if mods is not None:
            warnings.warn(
                "mods argument is not needed anymore, you can stop passing it", stacklevel=2
            )
        mapping = {
            (_OpPacket(k) if isinstance(k, str) else k): v
            for k, v in (custom_mapping or {}).items()
        }
        self.flop_registry = {**flop_registry, **mapping}
        self.mod_tracker = ModuleTracker()
        self._einsum_backward: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._in_einsum_backward = False

    def get_total_flops(self) -> int:
        return sum(self.flop_counts["Global"].values())

    def get_flop_counts(self) -> dict[str, dict[Any, int]]:
        """The counts by module name, then by op."""
        return {k: dict(v) for k, v in self.flop_counts.items()}

    def get_table(self, depth=None) -> str:
        """The table printed on exit: modules (to ``depth`` levels) with their ops' counts
        and shares of the total; "Global" first when some flops ran outside every module."""
        if depth is None:
            depth = self.depth
        if depth is None:
            depth = 999999
        total = self.get_total_flops()
        suffix = get_suffix_str(total)
        global_subsumed = False

        def rows_of(name, indent):
            nonlocal global_subsumed
            flops = sum(self.flop_counts[name].values())
            global_subsumed |= flops >= total
            pad = " " * indent
            rows = [[pad + name, convert_num_with_suffix(flops, suffix),
                     convert_to_percent_str(flops, total)]]  # fmt: skip
            for op, count in self.flop_counts[name].items():
                rows.append([pad + " - " + str(op), convert_num_with_suffix(count, suffix),
                             convert_to_percent_str(count, total)])  # fmt: skip
            return rows

        rows = []
        for name in sorted(self.flop_counts):
            if name == "Global" or name.count(".") + 1 > depth:
                continue
            rows += rows_of(name, name.count("."))
        if "Global" in self.flop_counts and not global_subsumed:
            for row in rows:
                row[0] = " " + row[0]
            rows = rows_of("Global", 0) + rows
        if not rows:
            rows = [["Global", "0", "0%"]]
        return _table(rows)

    # not reentrant, as torch's
    def __enter__(self):
        self.flop_counts.clear()
        self.mod_tracker.__enter__()
        add_observer(self)
        return self

    def __exit__(self, *args):
        remove_observer(self)
        self.mod_tracker.__exit__()
        if self.display:
            print(self.get_table(self.depth))
        return False

    def _count(self, key, flops: int) -> None:
        for parent in set(self.mod_tracker.parents):
            self.flop_counts[parent][key] += flops

    # -- the observer (see _core/observers.py) --

    def wrap(self, spec, args, run):
        name = spec.profiler_name
        if spec.name == "convolution_backward":
            return lambda: self._count_conv_backward(args, run())
        if name == "aten::einsum":
            return self._count_einsum(args, run)
        key = _OpPacket(name) if name in _OpPacket._all else None
        formula = self.flop_registry.get(key) if key is not None else None
        if formula is None:
            return run

        def counted():
            out = run()
            out_shape = _shape(out) if hasattr(out, "shape") else None
            self._count(key, formula(*_shapes_of(args), out_shape=out_shape))
            return out

        return counted

    def _count_einsum(self, args, run):
        if self._in_einsum_backward:
            return run
        pairs = einsum_pair_flops(args[0], args[1])

        def counted():
            out = run()
            if pairs:
                self._count(_BMM, sum(flops for flops, _ in pairs))
            node = getattr(out, "grad_fn", None)
            if node is not None:
                self._einsum_backward[node] = sum(f * sides for f, sides in pairs)
            return out

        return counted

    def wrap_node(self, node, run):
        # numtorch's einsum node computes every operand's gradient with einsums of its own;
        # torch's einsum is composite, its backward the bmm calls of the products it made
        flops = self._einsum_backward.pop(node, None)
        if flops is None:
            return run

        def counted():
            self._in_einsum_backward = True
            try:
                out = run()
            finally:
                self._in_einsum_backward = False
            if flops:
                self._count(_BMM, flops)
            return out

        return counted

    def _count_conv_backward(self, args, out):
        # numtorch runs torch's one convolution_backward as one op per gradient
        grad_out, x, w = (_shape(a) for a in args[:3])
        transposed, which = args[8], args[11]
        if which == "input":
            flops = _conv_input_grad_flop(grad_out, w, _shape(out), transposed)
        else:
            flops = _conv_weight_grad_flop(grad_out, x, _shape(out), transposed)
        self._count(_CONV_BACKWARD, flops)
        return out

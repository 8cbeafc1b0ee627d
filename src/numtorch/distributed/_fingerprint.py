"""Check that every rank called the same collective on matching tensors, before any data moves.

Each collective first exchanges a fixed 128-byte record per rank (one small ``Allgather`` on
the group's communicator): which collective, its number in this group, the reduce op, the
root, and the tensor's dtype, element count and shape. Every rank then holds the same table
and reaches the same verdict, so a mismatch raises the same RuntimeError everywhere, naming
each rank's call, instead of MPI reading past a short buffer ("Message truncated") or handing
one rank memory that was never written (an ``all_gather`` of 2 elements against 3).

Collectives on *different* communicators (a world all-reduce on one rank, a subgroup one on
the other) never meet in this exchange; the watchdog finds those (``_watchdog.py``).
Set ``NUMTORCH_DIST_CHECKS=0`` to skip the exchange.
"""

from __future__ import annotations

import os

from .._core.dtypes import ALL_DTYPES
from ..backend import xp

FIELDS = 16
_MAX_DIMS = FIELDS - 7  # dims past these are folded into one number (shapes are only reported)
_DTYPE_CODES = {d.np: i for i, d in enumerate(ALL_DTYPES)}


def enabled() -> bool:
    return os.environ.get("NUMTORCH_DIST_CHECKS", "1") not in ("0", "false", "False", "")


def record(code: int, seq: int, op: int, root: int, buffer) -> xp.ndarray:
    """This rank's record: [seq, code, op, root, dtype, numel, ndim, dims...]."""
    out = xp.zeros(FIELDS, dtype=xp.int64)
    out[:4] = seq, code, op, root
    if buffer is None:
        out[4:7] = -1, 0, -1
        return out
    shape = buffer.shape
    out[4] = _DTYPE_CODES.get(buffer.dtype, -2)
    out[5] = buffer.size
    out[6] = len(shape)
    dims = list(shape[:_MAX_DIMS])
    if len(shape) > _MAX_DIMS:
        rest = 1
        for d in shape[_MAX_DIMS - 1 :]:
            rest *= d
        dims[-1] = rest
    out[7 : 7 + len(dims)] = dims
    return out


def mismatch(table, names, group_ranks, op_names) -> str | None:
    """Why the gathered records (one row per group rank) do not agree, or None."""
    first = table[0]
    if (table[:, :6] == first[:6]).all():  # the common case, without a Python loop
        return None
    if any(row[1] != first[1] or row[0] != first[0] for row in table):
        calls = ", ".join(
            f"rank {group_ranks[i]} called {names[int(t[1])]} #{int(t[0])}"
            for i, t in enumerate(table)
        )
        return (
            f"ranks called different collectives ({calls}; numbers count this group's "
            "collectives on each rank): a rank skipped a collective or called them in a "
            "different order"
        )
    name = names[int(first[1])]
    for field, what in ((2, "reduce op"), (3, "root (src/dst)")):
        if any(row[field] != first[field] for row in table):
            show = op_names.get if field == 2 else int
            values = ", ".join(
                f"rank {group_ranks[i]}: {show(int(t[field]))}" for i, t in enumerate(table)
            )
            return f"{name} #{int(first[0])} was called with different {what} ({values})"
    if any(row[4] != first[4] or row[5] != first[5] for row in table):
        tensors = ", ".join(
            f"rank {group_ranks[i]} has {_describe(t)}" for i, t in enumerate(table)
        )
        return (
            f"{name} #{int(first[0])} got tensors that do not match across ranks ({tensors}); "
            "every rank must pass the same dtype and number of elements"
        )
    return None


def _describe(row) -> str:
    ndim = int(row[6])
    if ndim < 0:
        return "no tensor"
    shape = [int(d) for d in row[7 : 7 + min(ndim, _MAX_DIMS)]]
    if ndim > _MAX_DIMS:
        shape[-1:] = ["..."]
    code = int(row[4])
    dtype = ALL_DTYPES[code] if 0 <= code < len(ALL_DTYPES) else "?"
    return f"shape {shape} and dtype {dtype}"

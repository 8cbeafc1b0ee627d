"""Jacobians in forward mode: every column at once, as one batched tangent per input.

``jacfwd`` and ``jacobian(strategy="forward-mode", vectorize=True)`` push the standard basis
through the function in one pass: a level whose tangents carry a leading dimension of size
``n`` (the number of input elements), so row ``k`` of every tangent is the derivative in the
direction of input element ``k``. Ops whose forward derivative takes batched tangents run
it once; the others run it per row (Note [Forward grads]).
"""

from __future__ import annotations

from .._core.tensor import Tensor
from .._creation import zeros
from ..backend import xp
from .forward_grad import enter_level, exit_level, get_tangent, hidden_levels, set_tangent


def basis_tangents(primals: list) -> tuple[int, list]:
    """(n, one ``(n, *p.shape)`` tangent per primal) where row k is the k-th unit vector over
    the elements of all primals."""
    numels = [p.numel() for p in primals]
    total = sum(numels)
    tangents, offset = [], 0
    for p, n in zip(primals, numels):
        block = xp.zeros((total, n), dtype=p._data.dtype)
        block[xp.arange(offset, offset + n), xp.arange(n)] = 1
        tangents.append(Tensor._make(block.reshape((total, *p._data.shape))))
        offset += n
    return total, tangents


class ForwardColumns:
    """Context manager: ``with ForwardColumns(primals) as fc``: ``fc.duals`` to call the
    function with, then ``fc.column(out)`` for each output tensor."""

    def __init__(self, primals: list):
        self.primals = primals

    def __enter__(self):
        self.total, tangents = basis_tangents(self.primals)
        self.level = enter_level(batch=self.total)
        self.duals = []
        for p, t in zip(self.primals, tangents):
            with hidden_levels(self.level):
                dual = p.view_as(p)
            set_tangent(dual, self.level, t)
            self.duals.append(dual)
        return self

    def column(self, out) -> Tensor:
        t = get_tangent(out, self.level) if isinstance(out, Tensor) else None
        if t is None:
            return zeros((self.total, *out.shape), dtype=out.dtype)
        return t

    def __exit__(self, *exc):
        exit_level(self.level)


def jacobian_blocks(column: Tensor, out: Tensor, primals: list) -> list:
    """Split an output's ``(n, *out.shape)`` tangent into ``out.shape + p.shape`` blocks."""
    numels = [p.numel() for p in primals]
    parts = column.split(numels, 0) if len(primals) > 1 else (column,)
    return [
        part.permute(*range(1, part.ndim), 0).reshape((*out.shape, *p.shape))
        for part, p in zip(parts, primals)
    ]

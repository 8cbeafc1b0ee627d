"""``torch.func.rearrange``: einops-style ``"b h w c -> b (h w) c"`` patterns as one reshape to
the elementary axes, one permute and one reshape to the right-hand groups.

Values and shapes are torch's; the graph is numtorch's reshape and permute nodes (torch
builds the result through first-class dimensions, whose node names differ).
"""

from __future__ import annotations

import keyword
import math

from .._core.tensor import Tensor
from ..ops.concatenation import stack

__all__ = ["rearrange"]

_ELLIPSIS = "…"


class DimensionBindError(Exception):
    """The pattern's axis sizes do not fit the tensor's shape (torch's functorch.dim error)."""


class _Expression:
    """One side of a pattern: ``composition`` lists groups (lists of axis names, ``[]`` for
    a unit axis) and the ellipsis; ``identifiers`` the names used."""

    def __init__(self, text: str):
        self.composition: list = []
        self.identifiers: set[str] = set()
        self.has_ellipsis = False
        text = text.replace("...", f" {_ELLIPSIS} ")
        group: list | None = None
        for token in text.replace("(", " ( ").replace(")", " ) ").split():
            if token == "(":
                if group is not None:
                    raise ValueError(
                        "Axis composition is one-level (brackets inside brackets not allowed)"
                    )
                group = []
            elif token == ")":
                if group is None:
                    raise ValueError(f"Brackets are not balanced in expression: {text.strip()!r}")
                self.composition.append(group)
                group = None
            elif token == _ELLIPSIS:
                if self.has_ellipsis or group is not None:
                    raise ValueError(
                        "Expression may contain dots only inside ellipsis (...), once, outside "
                        "brackets"
                    )
                self.has_ellipsis = True
                self.composition.append(_ELLIPSIS)
            else:
                self._add(token, group)
        if group is not None:
            raise ValueError(f"Imbalanced parentheses in expression: {text!r}")

    def _add(self, token: str, group):
        if token == "1":
            if group is None:
                self.composition.append([])
            return
        if token.isdigit():
            raise ValueError(f"Non-unitary anonymous axes are not supported in rearrange: {token}")
        if not token.isidentifier() or keyword.iskeyword(token) or token.startswith("_"):
            raise ValueError(f"Invalid axis identifier: {token}")
        if token in self.identifiers:
            raise ValueError(f"Indexing expression contains duplicate dimension '{token}'")
        self.identifiers.add(token)
        if group is None:
            self.composition.append([token])
        else:
            group.append(token)


def _sizes(left: _Expression, shape, axes_lengths) -> tuple[dict, list[str], list[str]]:
    """Each elementary axis's size, the ellipsis's axes' names, and the left side's elementary
    axes in order (unit axes named ``1:<dim>``)."""
    named = len(left.composition) - left.has_ellipsis
    if left.has_ellipsis:
        if named > len(shape):
            raise ValueError(
                f"Number of dimensions in pattern ({named}) must be less than or equal to the "
                f"number of dimensions in the tensor ({len(shape)})"
            )
    elif named != len(shape):
        raise ValueError(
            f"Number of dimensions in pattern ({named}) must be equal to the number of "
            f"dimensions in the tensor ({len(shape)})"
        )
    sizes = dict(axes_lengths)
    ellipsis_axes = [f"{_ELLIPSIS}{i}" for i in range(len(shape) - named)]
    position = 0
    left_axes: list[str] = []
    for group in left.composition:
        if group == _ELLIPSIS:
            for axis in ellipsis_axes:
                sizes[axis] = shape[position]
                position += 1
            left_axes += ellipsis_axes
            continue
        length = shape[position]
        position += 1
        if not group:  # a unit axis: torch sums over it, whatever its length
            sizes[f"1:{position}"] = length
            left_axes.append(f"1:{position}")
            continue
        left_axes += group
        unknown = [axis for axis in group if axis not in sizes]
        known = math.prod(sizes[axis] for axis in group if axis in sizes)
        if len(unknown) > 1:
            raise DimensionBindError(
                f"cannot infer the sizes of two dimensions at once {unknown[0]} and {unknown[1]}"
            )
        if unknown:
            if known == 0 or length % known:
                raise DimensionBindError(
                    "inferred dimension does not evenly fit into larger dimension: "
                    f"{length} vs {known}"
                )
            sizes[unknown[0]] = length // known
        elif known != length:
            raise DimensionBindError(
                f"Dimension sizes to do not match ({length} != {known}) when matching "
                f"dimension pack {tuple(group)}"
            )
    return sizes, ellipsis_axes, left_axes


def _right_groups(expression: _Expression, ellipsis_axes) -> list[list[str]]:
    groups = []
    for group in expression.composition:
        if group == _ELLIPSIS:  # outside brackets: each axis stays its own
            groups.extend([axis] for axis in ellipsis_axes)
        else:
            groups.append(group)
    return groups


def rearrange(tensor, pattern: str, **axes_lengths: int) -> Tensor:
    """Reorder, merge and split axes by an einops pattern; a list of tensors is stacked first.

    Example:
        >>> import numtorch as torch
        >>> x = torch.arange(24).reshape(2, 3, 4)
        >>> torch.func.rearrange(x, "b h w -> h (b w)").shape
        torch.Size([3, 8])
        >>> torch.func.rearrange(x, "b (h1 h) w -> b h1 h w", h1=3).shape
        torch.Size([2, 3, 1, 4])
    """
    if not isinstance(tensor, Tensor):
        tensor = stack(list(tensor))
    if "->" not in pattern:
        raise ValueError(f"Pattern must contain a single '->' separator: {pattern!r}")
    left_text, _, right_text = pattern.partition("->")
    if "->" in right_text:
        raise ValueError(f"Pattern must contain a single '->' separator: {pattern!r}")
    left, right = _Expression(left_text), _Expression(right_text)
    if left.has_ellipsis != right.has_ellipsis:
        raise ValueError(f"Ellipsis found in one side of the pattern only: {pattern!r}")
    only_one_side = left.identifiers ^ right.identifiers
    if only_one_side:
        raise ValueError(
            "Identifiers only on one side of rearrange expression (should be on both): "
            f"{only_one_side}"
        )
    unused = set(axes_lengths) - left.identifiers
    if unused:
        raise ValueError(f"Identifiers not found in expression: {unused}")
    sizes, ellipsis_axes, left_axes = _sizes(left, tuple(tensor.shape), axes_lengths)
    right_groups = _right_groups(right, ellipsis_axes)
    right_axes = [axis for group in right_groups for axis in group]
    split = tensor.reshape(tuple(sizes[axis] for axis in left_axes))
    units = tuple(i for i, axis in enumerate(left_axes) if axis.startswith("1:"))
    if units:
        split = split.sum(units)
        left_axes = [axis for axis in left_axes if not axis.startswith("1:")]
    order = tuple(left_axes.index(axis) for axis in right_axes)
    if order != tuple(range(len(order))):
        split = split.permute(order)
    return split.reshape(tuple(math.prod(sizes[a] for a in group) for group in right_groups))

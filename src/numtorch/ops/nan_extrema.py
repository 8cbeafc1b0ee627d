"""``fmax`` and ``fmin``: elementwise extrema that ignore NaN (NaN only where both are NaN).

Unlike ``maximum``, ties do not share the gradient: it goes to ``input`` wherever
``input >= other`` or ``other`` is NaN, as torch's ``FmaxBackward0``."""

from __future__ import annotations

from ..backend import xp
from .pointwise import where
from .registry import defop, export


def _input_wins(input, other, larger: bool):
    return ((input >= other) if larger else (input <= other)) | other.isnan()


@export
@defop(
    promote="same",
    input=lambda grad, input, other: where(_input_wins(input, other, True), grad, 0.0),
    other=lambda grad, input, other: where(_input_wins(input, other, True), 0.0, grad),
)
def fmax(input, other):
    """The larger of each pair, ignoring NaN."""
    return xp.fmax(input, other)


@export
@defop(
    promote="same",
    input=lambda grad, input, other: where(_input_wins(input, other, False), grad, 0.0),
    other=lambda grad, input, other: where(_input_wins(input, other, False), 0.0, grad),
)
def fmin(input, other):
    """The smaller of each pair, ignoring NaN."""
    return xp.fmin(input, other)

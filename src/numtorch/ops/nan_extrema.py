"""``fmax`` and ``fmin``: elementwise extrema that ignore NaN (NaN only where both are NaN).

Unlike ``maximum``, ties do not share the gradient: it goes to ``input`` wherever
``input >= other`` or ``other`` is NaN, as torch's ``FmaxBackward0``."""

from __future__ import annotations

from .._core import batch_rules
from .._core.kernel_dtypes import REAL, own_message
from .._core.op import defop, export
from ..backend import xp
from .clamping import selection_jvp


# torch's formulas mask the gradient (MaskedFillBackward0 in a create_graph backward)
def _input_wins(input, other, larger: bool):
    return ((input >= other) if larger else (input <= other)) | other.isnan()


@export
@defop(
    batch=batch_rules.pointwise,
    promote="same",
    dtypes=own_message(REAL, "fmax not implemented for complex tensors."),
    input=lambda grad, input, other: grad.masked_fill(
        _input_wins(input, other, True).logical_not(), 0
    ),
    other=lambda grad, input, other: grad.masked_fill(_input_wins(input, other, True), 0),
    # torch's forward formula gives a tie to `other` (input > other), its gradient to `input`
    jvp=selection_jvp(
        lambda input, other, result: ((input > other) | other.isnan()).to(result.dtype)
    ),
)
def fmax(input, other):
    """The larger of each pair, ignoring NaN."""
    return _first_of_equal(xp.fmax(input, other), input, other)


@export
@defop(
    batch=batch_rules.pointwise,
    promote="same",
    dtypes=own_message(REAL, "fmin not implemented for complex tensors."),
    input=lambda grad, input, other: grad.masked_fill(
        _input_wins(input, other, False).logical_not(), 0
    ),
    other=lambda grad, input, other: grad.masked_fill(_input_wins(input, other, False), 0),
    jvp=selection_jvp(
        lambda input, other, result: _input_wins(input, other, False).to(result.dtype)
    ),
)
def fmin(input, other):
    """The smaller of each pair, ignoring NaN."""
    return _first_of_equal(xp.fmin(input, other), input, other)


def _first_of_equal(out, input, other):
    # torch's fmax and fmin keep their first operand between 0.0 and -0.0 in every loop;
    # NumPy's take either, by SIMD lane
    if out.dtype.kind != "f":
        return out
    return xp.where(input == other, input, out)

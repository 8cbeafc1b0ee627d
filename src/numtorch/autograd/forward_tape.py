"""A recording of one forward AD level's op calls, replayed for new tangents (``linearize``).

Note [Forward tapes]
While a tape records level ``L``, the forward observer appends every op call that pushed a
tangent at ``L`` (the op, its arguments and results). Replaying runs only the ops' forward
derivatives (Note [Forward grads]) on the recorded primals, in order, with new tangents for
the inputs: the function itself does not run again, as torch's ``linearize`` does not. A
tangent set any other way while recording (an in-place op, a custom Function's ``jvp``)
marks the tape broken, and its user runs the function again instead.
"""

from __future__ import annotations

from .._core import tensor as _tensor
from . import forward_grad
from .forward_grad import _conform, push

__all__ = ["Tape"]


class Tape:
    """``with Tape(level) as tape``: records level ``level``'s op calls."""

    def __init__(self, level: int):
        self.level = level
        self.records: list = []
        self.broken = False

    def __enter__(self):
        state = forward_grad._state
        self.outer = state.tape
        state.tape = self
        return self

    def __exit__(self, *exc):
        forward_grad._state.tape = self.outer

    def replay(self, seeds: list, outputs: list) -> list:
        """The tangents of ``outputs`` given ``seeds``: ``(input tensor, tangent)`` pairs."""
        tangents = {id(t): tangent for t, tangent in seeds}
        get = tangents.get
        for spec, args, results in self.records:
            found = push(spec, args, results, lambda a: get(id(a)))
            for r, t in zip(results, found):
                if t is not None and isinstance(r, _tensor.Tensor) and r._data.dtype.kind in "fcV":
                    tangents[id(r)] = _conform(t, r, None)
        return [get(id(o)) for o in outputs]

"""In-place ops on dual tensors: the written tensor takes the new tangent in place
(Note [Forward grads]), so a write through a view reaches its base's tangent."""

from __future__ import annotations

from .._core import grad_mode
from .._core.observers import dispatch
from .._core.views import replay
from .._creation import zeros, zeros_like
from .forward_grad import batch_size, break_tape, get_tangent, hidden_levels, set_tangent


def write_tangent(self, out) -> None:
    """After an in-place op wrote ``out`` into ``self``: ``self``'s tangent becomes ``out``'s,
    written into the tangent's memory, so a view's write reaches its base's tangent."""
    levels = set(out._fw_grads or ()) | set(self._fw_grads or ())
    for level in sorted(levels):
        # the tangent may change in its own memory below, where no tape sees it
        break_tape(level)
        new = get_tangent(out, level)
        old = get_tangent(self, level)
        batch = batch_size(level)
        with hidden_levels(level):
            if self._base is not None:  # write through the base's tangent
                base = self._base
                base_tangent = get_tangent(base, level)
                if base_tangent is None:
                    shape = base.shape if batch is None else (batch, *base.shape)
                    base_tangent = zeros(shape, dtype=base.dtype)
                    set_tangent(base, level, base_tangent)
                if batch is not None:
                    # the view's steps name unbatched dims: write row by row into the base's
                    # tangent; the view keeps a copy (later writes through it stay local)
                    for b in range(batch):
                        row = replay(base_tangent[b], self._view_steps)
                        with grad_mode.no_grad():
                            row.copy_(new[b] if new is not None else zeros_like(row))
                    set_tangent(self, level, None if new is None else new.clone())
                    continue
                old = replay(base_tangent, self._view_steps)
                set_tangent(self, level, old)
            if old is None:
                set_tangent(self, level, new.clone())
            elif not old._data.flags.writeable or (
                new is not None and new._data.shape != old._data.shape
            ):  # a read-only tangent, or an in-place change of shape (t_, squeeze_)
                set_tangent(self, level, new.clone() if new is not None else zeros_like(old))
            elif new is None:
                old._data[...] = 0
            else:
                with grad_mode.no_grad():
                    old.copy_(new)


dispatch.tangent_write = write_tangent  # the core's in-place path calls it (Note [Forward grads])

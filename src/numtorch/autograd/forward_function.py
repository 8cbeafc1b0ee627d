"""Custom ``Function``s under forward-mode AD: their outputs' tangents come from ``jvp``.

As torch's, ``forward`` runs without seeing tangents, ``jvp`` gets one tangent per input
(zeros for a tensor without one, None for other arguments) and reads
``ctx.save_for_forward``'s tensors as ``ctx.saved_tensors`` (Note [Forward grads]).
"""

from __future__ import annotations

from .._core import tensor as _tensor
from .forward_grad import batch_size, get_tangent, hidden_levels, is_visible, set_tangent


def dual_levels(args) -> list:
    """The visible levels at which some tensor in ``args`` has a tangent."""
    found = []
    for a in args:
        grads = a._fw_grads if isinstance(a, _tensor.Tensor) else None
        if grads:
            found.extend(lv for lv in grads if is_visible(lv) and lv not in found)
    found.sort()
    return found


def function_jvp(cls, ctx, args, result, levels, default_jvp) -> None:
    """Output tangents of a custom Function from its ``jvp`` (``ctx.save_for_forward``);
    batched tangents (jacfwd) go through it one row at a time."""
    if cls.jvp is default_jvp:
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with "
            "forward mode AD."
        )
    from ..ops.concatenation import stack

    outs = result if isinstance(result, tuple) else (result,)
    for level in levels:
        batch = batch_size(level)
        with hidden_levels(level):
            if batch is None:
                found = _function_tangents(cls, ctx, args, outs, lambda a: get_tangent(a, level))
            else:
                rows = [
                    _function_tangents(cls, ctx, args, outs, lambda a, b=b: _row(a, level, b))
                    for b in range(batch)
                ]
                found = [
                    None if any(r[k] is None for r in rows) else stack([r[k] for r in rows])
                    for k in range(len(outs))
                ]
        for r, t in zip(outs, found):
            if t is not None and isinstance(r, _tensor.Tensor):
                set_tangent(r, level, t)


def _row(a, level, b):
    t = get_tangent(a, level)
    return None if t is None else t[b]


def _function_tangents(cls, ctx, args, outs, tangent_of) -> list:
    from .._creation import zeros_like

    tangents = []
    for a in args:
        if isinstance(a, _tensor.Tensor):
            t = tangent_of(a)
            tangents.append(zeros_like(a) if t is None else t)
        else:
            tangents.append(None)
    saved = getattr(ctx, "_saved", None)
    ctx._saved = tuple(getattr(ctx, "saved_for_forward", ()))
    try:
        out = cls.jvp(ctx, *tangents)
    finally:
        ctx._saved = saved
    out = out if isinstance(out, tuple) else (out,)
    if len(out) != len(outs):
        raise RuntimeError(
            f"{cls.__name__}.jvp returned {len(out)} tangents but forward returned "
            f"{len(outs)} outputs"
        )
    for r, t in zip(outs, out):
        if t is not None and isinstance(r, _tensor.Tensor) and t.shape != r.shape:
            raise RuntimeError(
                "Trying to set a forward gradient that has a different size than that of "
                f"the original Tensor, this is not supported. Tensor is of size "
                f"{list(r.shape)} while the given forward gradient is of size "
                f"{list(t.shape)}."
            )
    return list(out)

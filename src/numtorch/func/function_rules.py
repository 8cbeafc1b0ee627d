"""``autograd.Function`` under ``vmap``: its own ``vmap`` staticmethod, or the rule torch
generates with ``generate_vmap_rule = True``.

Note [Generated vmap rules]
With ``generate_vmap_rule``, ``forward``, ``setup_context``, ``backward`` and ``jvp`` are
each run under a vmap of the batch size, on the physical tensors of the innermost level
among the arguments. The Function is applied as a Function of those physical tensors (a
generated class, itself generating its rule for outer levels), so autograd records one node
on the physical tensors (Note [Batched tensors]). ``setup_context`` writes into a stand-in
context: the tensors it saves are kept physical, with their batch dims, and wrapped again
for ``backward`` and ``jvp``; other attributes it sets are read back from the stand-in.
Outputs and gradients keep the batch at dim 0; a gradient for an unbatched input is summed
over the batch, as torch's generated rule reduces it.
"""

from __future__ import annotations

from collections import namedtuple

from .._core.tensor import Tensor
from .batched_tensor import BatchedTensor
from .batching import current_levels, pop_level, push_level, top_level

__all__ = ["VmapInfo", "function_vmap"]

VmapInfo = namedtuple("VmapInfo", ["batch_size", "randomness"])
_DOCS = "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"


def function_vmap(cls, args: tuple, kwargs: dict):
    """``cls.apply(*args)`` inside ``vmap``: through the Function's ``vmap`` staticmethod
    (it gets the physical arguments and their batch dims and returns ``(outputs,
    out_dims)``) or its generated rule; NotImplemented when no argument is batched."""
    own_rule = getattr(cls, "vmap", None) is not None
    if getattr(cls, "generate_vmap_rule", False):
        if own_rule:
            raise RuntimeError(
                f"You tried to vmap over {cls.__name__}, but it has both generate_vmap_rule=True "
                "and an overridden vmap staticmethod. Please set generate_vmap_rule=False or "
                f"delete the overridden vmap staticmethod to avoid ambiguity. {_DOCS}"
            )
    elif not own_rule:
        raise RuntimeError(
            f"You tried to vmap over {cls.__name__}, but it does not have vmap support. Please "
            "override and implement the vmap staticmethod or set generate_vmap_rule=True. "
            f"{_DOCS}"
        )
    level = top_level(args)
    if not level:
        return NotImplemented
    vl = current_levels()[level - 1]
    physical, in_dims = _physical(args, level)
    if not own_rule:
        outputs = _generated(cls).apply(vl.size, vl.randomness, in_dims, kwargs, *physical)
        if isinstance(outputs, tuple):
            return tuple(_wrap_dim(o, 0, level) for o in outputs)
        return _wrap_dim(outputs, 0, level)
    output, out_dims = cls.vmap(
        VmapInfo(vl.size, vl.randomness), tuple(in_dims), *physical, **kwargs
    )
    if isinstance(output, tuple):
        dims = out_dims if isinstance(out_dims, tuple) else (out_dims,) * len(output)
        return tuple(_wrap_dim(o, d, level) for o, d in zip(output, dims))
    return _wrap_dim(output, out_dims, level)


def _physical(args, level: int):
    physical, in_dims = [], []
    for a in args:
        if a.__class__ is BatchedTensor and a._level == level:
            physical.append(a._value)
            in_dims.append(a._bdim)
        else:
            physical.append(a)
            in_dims.append(None)
    return physical, tuple(in_dims)


def _wrap_dim(output, dim, level: int):
    if dim is None or not isinstance(output, Tensor):
        return output
    return BatchedTensor._wrap(output, dim % output.dim(), level)


def _front(value, level: int, size: int):
    """A result of a function run at ``level``, as a physical tensor batched at dim 0."""
    if value.__class__ is BatchedTensor and value._level == level:
        return value._value.movedim(value._bdim, 0)
    return value.unsqueeze(0).expand((size, *value.shape))


class _Batched:
    """Run at a fresh vmap level of ``size``: ``with _Batched(size, randomness) as wrap``."""

    def __init__(self, size: int, randomness: str):
        self.size, self.randomness = size, randomness

    def __enter__(self):
        self.level = push_level(self.size, self.randomness)
        return self

    def __exit__(self, *exc):
        pop_level(self.level)

    def wrap(self, t, dim):
        if dim is None or not isinstance(t, Tensor):
            return t
        return BatchedTensor._wrap(t, dim, self.level.level)

    def front(self, t):
        return _front(t, self.level.level, self.size) if isinstance(t, Tensor) else t


class _InnerContext:
    """The context ``setup_context``, ``backward`` and ``jvp`` see under a generated rule."""

    needs_input_grad: tuple = ()
    materialize_grads = True

    def __init__(self):
        self.to_save = ()
        self.saved_for_forward = ()
        self._current = ()

    def save_for_backward(self, *tensors) -> None:
        self.to_save = tensors

    def save_for_forward(self, *tensors) -> None:
        self.saved_for_forward = tensors

    def mark_dirty(self, *tensors) -> None:
        raise RuntimeError(
            "mark_dirty is not supported by generate_vmap_rule=True: in-place Functions need "
            "a vmap staticmethod"
        )

    def mark_non_differentiable(self, *tensors) -> None:
        self.non_differentiable = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = value

    @property
    def saved_tensors(self) -> tuple:
        return self._current


def _split_saved(tensors, level: int):
    """Saved tensors as ``(physical, bdim)`` pairs (bdim None where not batched)."""
    pairs = []
    for t in tensors:
        if t.__class__ is BatchedTensor and t._level == level:
            pairs.append((t._value, t._bdim))
        else:
            pairs.append((t, None))
    return pairs


_GENERATED: dict = {}


def _generated(cls):
    """The Function of physical tensors whose node runs ``cls``'s formulas batched."""
    found = _GENERATED.get(cls)
    if found is not None:
        return found
    # Imported here: autograd builds on func's batching only through this module.
    from ..autograd.function import Function

    class Generated(Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(size, randomness, in_dims, kwargs, *physical):
            with _Batched(size, randomness) as run:
                outputs = cls.forward(
                    *(run.wrap(p, d) for p, d in zip(physical, in_dims)), **kwargs
                )
                if isinstance(outputs, tuple):
                    return tuple(run.front(o) for o in outputs)
                return run.front(outputs)

        @staticmethod
        def setup_context(ctx, inputs, output):
            size, randomness, in_dims, kwargs, *physical = inputs
            inner = _InnerContext()
            inner.needs_input_grad = tuple(ctx.needs_input_grad[4:])
            with _Batched(size, randomness) as run:
                logical_in = tuple(run.wrap(p, d) for p, d in zip(physical, in_dims))
                if isinstance(output, tuple):
                    logical_out = tuple(run.wrap(o, 0) for o in output)
                else:
                    logical_out = run.wrap(output, 0)
                cls.setup_context(inner, logical_in, logical_out)
                saved = _split_saved(inner.to_save, run.level.level)
                forward_saved = _split_saved(inner.saved_for_forward, run.level.level)
            ctx.save_for_backward(*(p for p, _ in saved))
            ctx.save_for_forward(*(p for p, _ in forward_saved))
            ctx._generated = (inner, [d for _, d in saved], [d for _, d in forward_saved])
            ctx._batch = (size, randomness, in_dims)
            if not inner.materialize_grads:
                ctx.set_materialize_grads(False)

        @staticmethod
        def backward(ctx, *grads):
            inner, dims, _ = ctx._generated
            size, randomness, in_dims = ctx._batch
            with _Batched(size, randomness) as run:
                inner._current = tuple(run.wrap(p, d) for p, d in zip(ctx.saved_tensors, dims))
                result = cls.backward(inner, *(run.wrap(g, 0) for g in grads))
                result = result if isinstance(result, tuple) else (result,)
                physical = [_reduce(run, g, d) for g, d in zip(result, in_dims)]
            return (None, None, None, None, *physical)

        @staticmethod
        def jvp(ctx, _size, _randomness, _in_dims, _kwargs, *tangents):
            inner, _, dims = ctx._generated
            size, randomness, in_dims = ctx._batch
            with _Batched(size, randomness) as run:
                inner._current = tuple(run.wrap(p, d) for p, d in zip(ctx.saved_tensors, dims))
                result = cls.jvp(inner, *(run.wrap(t, d) for t, d in zip(tangents, in_dims)))
                if isinstance(result, tuple):
                    return tuple(run.front(t) for t in result)
                return run.front(result)

    Generated.__name__ = Generated.__qualname__ = cls.__name__
    Generated._backward_cls.__name__ = Generated._backward_cls.__qualname__ = (
        cls.__name__ + "Backward"
    )
    _GENERATED[cls] = Generated
    return Generated


def _reduce(run: _Batched, grad, in_dim):
    """A per-sample gradient as the gradient of the physical input: its batch at the input's
    batch dim, or summed where the input was not batched."""
    if grad is None or not isinstance(grad, Tensor):
        return grad
    batched = grad.__class__ is BatchedTensor and grad._level == run.level.level
    if in_dim is None:
        return grad._value.sum(grad._bdim) if batched else grad
    return run.front(grad).movedim(0, in_dim)

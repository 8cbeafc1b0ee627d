"""Batching rule of the ops on ``(N, C, *spatial)`` tensors that take several of them and
shapes: the backward ops of pooling, padding and resampling (met by ``jacrev``, ``hessian``
and ``vmap`` over ``grad``), max pooling's gather, and max pooling's values.

Every tensor argument is batched in front (an unbatched one expanded); a batched-form sample
``(N, C, *s)`` folds the vmap batch into N, an unbatched-form sample ``(C, *s)`` takes it as
N. Shape arguments (``input_shape``) are the full logical shapes and change alike.
"""

from __future__ import annotations

from .batch_rules import batch_size, front_or_expand
from .tensor import Tensor

__all__ = ["fold_into_n"]


def fold_into_n(spatial: int | None, shapes: tuple = ()):
    """The rule for an op with ``spatial`` pooled dims (None: as many as its ``kernel``)."""

    def rule(spec, args, dims):
        size = batch_size(args, dims)
        ndim = next(a.ndim - 1 for a, d in zip(args, dims) if d is not None)
        pooled = len(args[spec.index["kernel"]]) if spatial is None else spatial
        folded = ndim == pooled + 2
        new, n = list(args), None
        for i, (a, d) in enumerate(zip(args, dims)):
            if isinstance(a, Tensor):
                x = front_or_expand(a, d, size)
                if folded:
                    n = x.shape[1]
                    x = x.reshape((size * n, *x.shape[2:]))
                new[i] = x
        for name in shapes:
            i = spec.index[name]
            shape = tuple(args[i])
            new[i] = (size * shape[0], *shape[1:]) if folded else (size, *shape)
        out = spec.run(tuple(new))

        def unfold(o):
            return o.reshape((size, n, *o.shape[1:])) if folded else o

        if isinstance(out, Tensor):
            return unfold(out), 0
        return type(out)(unfold(o) for o in out), 0

    return rule

"""Batching rules: how one op runs once on a whole batch (``vmap``).

An op entry names its rule with ``batch=`` (``defop(batch=pointwise, ...)``). A rule is
``rule(spec, args, dims) -> (result, out_dim)``: ``args`` are the op's bound arguments with
every batched tensor replaced by its physical tensor (all samples), ``dims`` says where each
argument's batch dimension is (None: not batched; a tuple per list argument), and the rule
returns what the op returns for the whole batch with the batch dimension of every tensor
output at ``out_dim``. Rules are written with numtorch ops on the physical tensors, so they
record autograd and nest (a physical tensor may itself be batched at an outer ``vmap``).
An op without a rule runs once per sample (Note [The per-op fallback] in func/batching.py).
"""

from __future__ import annotations

from .tensor import Tensor


def batch_size(args, dims) -> int:
    for a, d in zip(args, dims):
        if d is None:
            continue
        if isinstance(d, tuple):
            for t, e in zip(a, d):
                if e is not None:
                    return t.shape[e]
        else:
            return a.shape[d]
    raise AssertionError("a batching rule ran without a batched argument")


def front(x: Tensor, d) -> Tensor:
    """``x`` with its batch dimension ``d`` moved to the front."""
    return x if not d else x.movedim(d, 0)


def front_or_expand(x, d, size: int) -> Tensor:
    """``x`` batched at dim 0: moved there, or (not batched) expanded along a new dim 0."""
    if d is None:
        return x.unsqueeze(0).expand((size, *x.shape))
    return front(x, d)


def _logical_ndim(x, d) -> int:
    return x.ndim - (d is not None)


def shift(dim, ndim: int):
    """A logical dim (int, sequence or None) as a physical dim behind a batch dim at 0."""
    if dim is None:
        return None
    if isinstance(dim, (tuple, list)):
        return type(dim)(shift(x, ndim) for x in dim)
    return (dim % max(ndim, 1)) + 1


# -- pointwise ---------------------------------------------------------------------------------
def pointwise(spec, args, dims):
    """Elementwise ops: batched operands go to dim 0, padded to the common logical rank, so
    the op's own broadcasting lines the samples up with unbatched operands."""
    rank = 0
    for a, d in zip(args, dims):
        if isinstance(a, Tensor):
            n = a.ndim - (d is not None)
            if n > rank:
                rank = n
    new = list(args)
    for i, d in enumerate(dims):
        if d is None:
            continue
        x = front(args[i], d)
        lacking = rank - (x.ndim - 1)
        if lacking:
            shape = tuple(x.shape)
            x = x.reshape(shape[:1] + (1,) * lacking + shape[1:])
        new[i] = x
    return spec.run(tuple(new)), 0


def contiguous_first(spec, args, dims):
    """Ops that reinterpret the last dim's memory (``view_as_complex``): the batch goes in
    front and the physical tensor is made contiguous (a copy where the layout needs one)."""
    return spec.run((front(args[0], dims[0]).contiguous(), *args[1:])), 0


def pointwise_into(spec, args, dims):
    """Elementwise ops whose result has the first input's shape (``copy``, ``fill``): an
    unbatched first input is expanded along the batch, then the rule of ``pointwise``."""
    if dims[0] is not None:
        return pointwise(spec, args, dims)
    size = batch_size(args, dims)
    new = (args[0].unsqueeze(0).expand((size, *args[0].shape)), *args[1:])
    return pointwise(spec, new, (0, *dims[1:]))


# -- ops along dims ----------------------------------------------------------------------------
def along(*names, none=None, extra_rank=0, shared=()):
    """Ops whose ``names`` arguments are dims of the first input: every tensor argument goes
    to batch dim 0 (an unbatched one is expanded), the dims shift past it. ``none``: what
    dim None means (``"all"``: every logical dim). ``extra_rank``: the dims count in an
    output with that many more dims than the input (``diag_embed``). ``shared``: tensor
    arguments that stay as they are (an unbatched index list)."""

    def rule(spec, args, dims):
        size = batch_size(args, dims)
        ndim = _logical_ndim(args[0], dims[0]) + extra_rank
        # a 0-d sample has dim 0 (and -1) as a size-1 dim (its physical tensor has only the
        # batch): the op runs over a size-1 dim 1, which the result drops again
        scalar = ndim == 0 and (
            none == "all" or any(args[spec.index[name]] is not None for name in names)
        )
        new = list(args)
        for i, (a, d) in enumerate(zip(args, dims)):
            if isinstance(a, Tensor) and spec.params[i] not in shared:
                new[i] = front_or_expand(a, d, size)
                if scalar and new[i].ndim == 1:
                    new[i] = new[i].unsqueeze(1)
        if scalar:
            for name in names:
                value = args[spec.index[name]]
                new[spec.index[name]] = (1,) if value is None and none == "all" else shift(value, 1)
            return _drop_dim1(spec.run(tuple(new))), 0
        for name in names:
            i = spec.index[name]
            value = new[i]
            if value is None and none == "all":
                new[i] = tuple(range(1, ndim + 1))
            else:
                new[i] = shift(value, ndim)
        return spec.run(tuple(new)), 0

    return rule


def _drop_dim1(out):
    if isinstance(out, Tensor):
        return out.squeeze(1) if out.ndim == 2 and out.shape[1] == 1 else out
    if isinstance(out, (tuple, list)):
        parts = [_drop_dim1(o) for o in out]
        return type(out)(*parts) if hasattr(out, "_fields") else type(out)(parts)
    return out


def first_only(spec, args, dims):
    """Ops that map each leading index of their first input independently (linalg, shape
    ops over trailing dims): the batch goes in front of the first input; other tensor
    arguments must be unbatched, else the op falls back to the loop."""
    if any(d is not None for d in dims[1:]):
        return NotImplemented
    return spec.run((front(args[0], dims[0]), *args[1:])), 0


def same_rank(spec, args, dims):
    """Ops batched over the leading dims of every tensor argument alike (``linalg.solve``
    with matrices of equal rank, ``cross``): all go to dim 0, unbatched ones expanded."""
    size = batch_size(args, dims)
    rank = max(_logical_ndim(a, d) for a, d in zip(args, dims) if isinstance(a, Tensor))
    new = []
    for a, d in zip(args, dims):
        if isinstance(a, Tensor):
            a = front_or_expand(a, d, size)
            lacking = rank - (a.ndim - 1)
            if lacking:  # leading dims broadcast from the left, after the batch
                shape = tuple(a.shape)
                a = a.reshape(shape[:1] + (1,) * lacking + shape[1:])
        new.append(a)
    return spec.run(tuple(new)), 0


def full_reduction(dim_op: str, dim=1, values_only: bool = False):
    """A reduction over every element (``sum_all``): the ``dim_op`` entry over the samples
    flattened (``dim``: 1, or ``(1,)`` where the entry takes a tuple); ``values_only`` for
    ops whose dim form also returns indices."""

    def rule(spec, args, dims):
        x = front(args[0], dims[0])
        flat = x.reshape((x.shape[0], -1))
        target = spec.registry[dim_op]
        bound = [flat, dim] + [target.defaults[k] for k in range(2, target.nparams)]
        if "keepdim" in target.index:
            bound[target.index["keepdim"]] = False
        for k, name in enumerate(spec.params[1:], 1):
            if name in target.index:
                bound[target.index[name]] = args[k]
        out = target.run(tuple(bound))
        return (out[0] if values_only else out), 0

    return rule


# -- shape ops ---------------------------------------------------------------------------------
def new_shape(name: str):
    """``view``/``reshape``-like ops: the batch dim leads the requested shape."""

    def rule(spec, args, dims):
        x = front(args[0], dims[0])
        shape = (x.shape[0], *args[spec.index[name]])
        if spec.view:  # the batch layout may allow no view where one sample does: reshape
            return x.reshape(shape), 0
        new = list(args)
        new[0] = x
        new[spec.index[name]] = shape
        return spec.run(tuple(new)), 0

    return rule


def into_shape(shape_name: str, *names):
    """Backward ops that build a gradient of shape ``shape_name`` (``select_backward``):
    the batch dim leads the shape, the dims shift."""

    def rule(spec, args, dims):
        if any(d is not None for d in dims[1:]):
            return NotImplemented
        k = spec.index[shape_name]
        new = list(args)
        new[0] = front(args[0], dims[0])
        new[k] = (new[0].shape[0], *args[k])
        for name in names:
            i = spec.index[name]
            new[i] = shift(args[i], len(args[k]))
        return spec.run(tuple(new)), 0

    return rule


def squeeze_all(spec, args, dims):
    x = front(args[0], dims[0])
    ones = tuple(i for i, s in enumerate(x.shape) if s == 1 and i)
    return x.squeeze(ones) if ones else x.view_as(x), 0


def unsqueeze(spec, args, dims):
    x = front(args[0], dims[0])
    return spec.run((x, args[1] % x.ndim + 1)), 0


def permute(spec, args, dims):
    x = front(args[0], dims[0])
    return spec.run((x, (0, *(d % (x.ndim - 1) + 1 for d in args[1])))), 0


def transpose_last(spec, args, dims):
    x = front(args[0], dims[0])
    return (x.transpose(1, 2) if x.ndim == 3 else x.view_as(x)), 0


def expand(spec, args, dims):
    x = front(args[0], dims[0])
    shape = tuple(args[1])
    lacking = len(shape) - (x.ndim - 1)
    if lacking:
        sizes = tuple(x.shape)
        x = x.reshape(sizes[:1] + (1,) * lacking + sizes[1:])
    return spec.run((x, (x.shape[0], *shape))), 0


def repeat(spec, args, dims):
    x = front(args[0], dims[0])
    repeats = tuple(args[1])
    lacking = len(repeats) - (x.ndim - 1)
    if lacking > 0:
        sizes = tuple(x.shape)
        x = x.reshape(sizes[:1] + (1,) * lacking + sizes[1:])
    return spec.run((x, (1, *repeats))), 0


def roll(spec, args, dims):
    x = front(args[0], dims[0])
    shifts, on = args[1], args[2]
    if on is None or (isinstance(on, (tuple, list)) and not len(on)):
        flat = x.reshape((x.shape[0], -1))
        out = spec.run((flat, shifts, (1,)))
        return out.reshape(tuple(x.shape)), 0
    return spec.run((x, shifts, shift(on, x.ndim - 1))), 0


def joined(spec, args, dims):
    """``cat``/``stack``: every tensor batched at dim 0 (unbatched ones expanded)."""
    tensors, inner = args[0], dims[0]
    size = batch_size(args, dims)
    ndim = max(_logical_ndim(t, d) for t, d in zip(tensors, inner))
    if spec.name == "stack":
        ndim += 1
    moved = [front_or_expand(t, d, size) for t, d in zip(tensors, inner)]
    new = list(args)
    new[0] = moved
    new[1] = shift(args[1], ndim)
    return spec.run(tuple(new)), 0


def squeeze_dims_(spec, args, dims):
    """The in-place squeeze of a fresh result (matmul's): torch's rule squeezes the batched
    tensor with a tuple of dims (grad_fn SqueezeBackward5)."""
    x = front(args[0], dims[0])
    return x.squeeze_((shift(args[1], x.ndim - 1),)), 0


# -- products ----------------------------------------------------------------------------------
def _rows(x, d):
    """A batched matrix ``(B, n, k)`` or an unbatched ``(n, k)`` as it is."""
    return x if d is None else front(x, d)


def mm(spec, args, dims):
    a, b = args[0], args[1]
    da, db = dims[0], dims[1]
    if db is None:  # (B, n, k) @ (k, m): matmul folds it into one product over B*n rows
        return front(a, da).matmul(b), 0
    return _rows(a, da).matmul(front(b, db)), 0


def bmm(spec, args, dims):
    return _rows(args[0], dims[0]).matmul(_rows(args[1], dims[1])), 0


def mv(spec, args, dims):
    a, v = _rows(args[0], dims[0]), args[1]
    if dims[1] is None:
        return a.matmul(v), 0
    return a.matmul(front(v, dims[1]).unsqueeze(-1)).squeeze(-1), 0


def dot(spec, args, dims):
    a, b = args
    if dims[0] is not None and dims[1] is not None:
        return (front(a, dims[0]) * front(b, dims[1])).sum(-1), 0
    if dims[0] is not None:
        return front(a, dims[0]).matmul(b), 0
    return front(b, dims[1]).matmul(a), 0


def vdot(spec, args, dims):
    a, b = args
    return dot(spec, (a.conj(), b), dims)


def _scaled(t, scale):
    return t if scale == 1 else t * scale


def _sum_with(bias, bias_dim, rank: int, beta, product, batched: bool, size: int):
    """``beta * bias + product`` with the batch at dim 0 (``beta`` 0 ignores ``bias``)."""
    if beta == 0:
        return product if batched else product.unsqueeze(0).expand((size, *product.shape))
    b = bias if bias_dim is None else pointwise_align(bias, bias_dim, rank)
    out = _scaled(b, beta) + product
    if not batched and bias_dim is None:
        out = out.unsqueeze(0).expand((size, *out.shape))
    return out


def addmm(spec, args, dims):
    bias, m1, m2, beta, alpha = args
    size = batch_size(args, dims)
    # as torch's rule: the product batched (one product over B*n rows when only m1 is), then
    # the bias added (grad_fn AddBackward0)
    batched = dims[1] is not None or dims[2] is not None
    product = m1.mm(m2) if not batched else mm(spec, (m1, m2), dims[1:3])[0]
    return _sum_with(bias, dims[0], 2, beta, _scaled(product, alpha), batched, size), 0


def pointwise_align(x, d, rank: int):
    """A batched operand at dim 0 padded to ``rank`` logical dims (for broadcasting)."""
    x = front(x, d)
    lacking = rank - (x.ndim - 1)
    if lacking:
        shape = tuple(x.shape)
        x = x.reshape(shape[:1] + (1,) * lacking + shape[1:])
    return x


def addmv(spec, args, dims):
    bias, mat, vec, beta, alpha = args
    batched = dims[1] is not None or dims[2] is not None
    product = mv(spec, (mat, vec), dims[1:3])[0] if batched else mat.mv(vec)
    size = batch_size(args, dims)
    return _sum_with(bias, dims[0], 1, beta, _scaled(product, alpha), batched, size), 0


def addr(spec, args, dims):
    bias, v1, v2, beta, alpha = args
    size = batch_size(args, dims)
    outer = front_or_expand(v1, dims[1], size).unsqueeze(-1) * front_or_expand(
        v2, dims[2], size
    ).unsqueeze(-2)
    return _sum_with(bias, dims[0], 2, beta, _scaled(outer, alpha), True, size), 0


def baddbmm(spec, args, dims):
    bias, b1, b2, beta, alpha = args
    product = _rows(b1, dims[1]).matmul(_rows(b2, dims[2]))
    if spec.name == "addbmm":
        product = product.sum(-3)
    rank = 2 if spec.name == "addbmm" else 3
    batched = dims[1] is not None or dims[2] is not None
    size = batch_size(args, dims)
    return _sum_with(bias, dims[0], rank, beta, _scaled(product, alpha), batched, size), 0


def trace(spec, args, dims):
    return front(args[0], dims[0]).diagonal(0, 1, 2).sum(-1), 0


# -- indexing ----------------------------------------------------------------------------------
def index(spec, args, dims):
    """``input[key]`` with a batched input and a key free of batched tensors: a leading
    full slice keeps the batch in front (advanced indices next to each other stay in place)."""
    if any(d is not None for d in dims[1:]):
        return NotImplemented
    key = args[1]
    if not isinstance(key, tuple):
        key = (key,)
    if any(isinstance(k, list) for k in key):
        return NotImplemented
    tensors = [i for i, k in enumerate(key) if isinstance(k, Tensor)]
    if tensors and tensors[-1] - tensors[0] + 1 != len(tensors):
        return NotImplemented
    x = front(args[0], dims[0])
    return spec.run((x, (slice(None), *key))), 0


def unbatched_index(*names):
    """Ops whose ``names`` tensor arguments must be unbatched (an index list): with them
    unbatched, the rule of ``along``; batched, the loop."""
    inner = along("dim", shared=names)

    def rule(spec, args, dims):
        for name in names:
            if dims[spec.index[name]] is not None:
                return NotImplemented
        return inner(spec, args, dims)

    return rule


# -- nn ----------------------------------------------------------------------------------------
def leading(spatial: int | None):
    """nn ops on ``(N, C, *spatial)`` or ``(C, *spatial)`` inputs with unbatched weights: an
    unbatched-form sample is already the batched form, a batched-form sample folds the vmap
    batch into N. ``spatial`` None: the weight's dims beyond two (convolution)."""

    def rule(spec, args, dims):
        if any(d is not None for d in dims[1:]):
            return NotImplemented
        x = front(args[0], dims[0])
        if x.ndim == (args[1].ndim if spatial is None else spatial + 2):
            return spec.run((x, *args[1:])), 0
        size, n = x.shape[0], x.shape[1]
        out = spec.run((x.reshape((size * n, *x.shape[2:])), *args[1:]))
        if isinstance(out, Tensor):
            return out.reshape((size, n, *out.shape[1:])), 0
        parts = [o.reshape((size, n, *o.shape[1:])) for o in out]
        return (type(out)(*parts) if hasattr(out, "_fields") else type(out)(parts)), 0

    return rule


def embedding(spec, args, dims):
    """Looking rows up in an unbatched table: the batched indices look up all samples."""
    if dims[0] is not None:
        return NotImplemented
    return spec.run((args[0], front(args[1], dims[1]), *args[2:])), 0


def nll_loss(spec, args, dims):
    """``nll_loss``: the samples' rows become rows of one call without reduction, reduced
    per sample after (the mean divides by each sample's own total weight)."""
    input, target, weight, reduction, ignore_index = args
    if dims[2] is not None:
        return NotImplemented
    size = batch_size(args, dims)
    x = (
        front(input, dims[0])
        if dims[0] is not None
        else input.unsqueeze(0).expand((size, *input.shape))
    )
    t = front_or_expand(target, dims[1], size)
    if x.ndim == 2:  # one sample is a single (C,) row: the batch is N
        rows, targets = x, t
    else:
        rows = x.reshape((size * x.shape[1], *x.shape[2:]))
        targets = t.reshape((size * t.shape[1], *t.shape[2:]))
    losses = spec.run((rows, targets, weight, "none", ignore_index))
    losses = losses.reshape((size, -1))
    if reduction == "none":
        return losses.reshape(tuple(t.shape)), 0
    total = losses.sum(1)
    if reduction == "sum":
        return total, 0
    valid = (t != ignore_index).reshape((size, -1))
    if weight is None:
        count = valid.to(losses.dtype).sum(1)
    else:
        safe = t.reshape((size, -1)).clamp(0, weight.shape[0] - 1)
        count = (weight[safe] * valid).sum(1)
    return total / count, 0


_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}


def loss(spec, args, dims):
    """Pointwise losses (``mse_loss``...): computed without reduction, then reduced per
    sample over its logical dims."""
    k = spec.index["reduction"]
    reduction = args[k]
    if reduction in ("none", 0):
        return pointwise(spec, args, dims)
    new = list(args)
    new[k] = "none" if isinstance(reduction, str) else 0
    out, _ = pointwise(spec, tuple(new), dims)
    if out.ndim == 1:
        return out, 0
    over = tuple(range(1, out.ndim))
    name = _REDUCTIONS.get(reduction, reduction)
    return (out.sum(over) if name == "sum" else out.mean(over)), 0


# -- ops whose output shape depends on the values ----------------------------------------------
def dynamic_shape(aten: str):
    """Ops whose output's shape depends on the values (``unique``): each sample could give
    another shape, so torch refuses them under vmap, whatever the samples hold."""

    def rule(spec, args, dims):
        raise RuntimeError(
            "vmap: We do not support batching operators that can output dynamic shape. "
            f"Attempted to vmap over aten::{aten}. Please file an issue at "
            "https://github.com/pytorch/pytorch/issues if you need this feature."
        )

    return rule


def masked_select(spec, args, dims):
    """A batched mask selects another number of elements per sample: torch refuses it; an
    unbatched one selects the same elements of every sample (the per-sample loop)."""
    if dims[1] is not None:
        raise RuntimeError(
            "vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot "
            "support this because for each batch this would return a differently shaped "
            "Tensor. Please file an issue at https://github.com/pytorch/pytorch/issues if you "
            "need this feature."
        )
    return NotImplemented

"""Running ops on batched tensors: vmap levels, the dispatch switch, the per-op fallback.

While any ``vmap`` is active, ``dispatch.batching`` routes every op call through
``batched_call`` (one flag check otherwise, on the path observers already take). An op
with a batched argument runs its entry's batching rule (_core/batch_rules.py) on the
physical tensors of the innermost level among its arguments and wraps the results.

Note [The per-op fallback]
An op whose entry declares no rule (or whose rule declines a case by returning
NotImplemented) runs once per sample on slices of the physical tensors, and the results are
stacked. This is always correct, only slower; ``FALLBACKS`` counts the ops that took it,
so tests can list them.

Note [Per-sample gradients]
Autograd records on the physical tensors (Note [Batched tensors]). A transform inside
``vmap`` (``grad``, ``vjp``, ``jacrev``) makes its leaves batched at every active level:
an input that is not mapped (``in_dims=None``, as a model's parameters) becomes a leaf
expanded along the batch (no copy), so each sample's gradient lands in its own slice, as
torch's batched backward gives. The gradient call itself runs on the plain physical
tensors and its results are wrapped again like their inputs.
"""

from __future__ import annotations

from collections import Counter

from .. import _creation
from .._core import inplace
from .._core.batch_rules import front
from .._core.observers import dispatch, refresh_slow
from .._core.tensor import Tensor
from .batched_tensor import BatchedTensor, rewrap_all, unwrap_all

__all__ = [
    "FALLBACKS",
    "batched_call",
    "current_levels",
    "push_level",
    "pop_level",
    "top_level",
]

FALLBACKS: Counter = Counter()  # op name -> calls that ran the per-sample loop


class VmapLevel:
    """One active ``vmap``: its level number, batch size and randomness mode."""

    __slots__ = ("level", "size", "randomness")

    def __init__(self, level: int, size: int, randomness: str):
        self.level = level
        self.size = size
        self.randomness = randomness


_LEVELS: list[VmapLevel] = []


def current_levels() -> list[VmapLevel]:
    return _LEVELS


def push_level(size: int, randomness: str) -> VmapLevel:
    level = VmapLevel(len(_LEVELS) + 1, size, randomness)
    _LEVELS.append(level)
    dispatch.batching = batched_call
    dispatch.batched_write = batched_write
    refresh_slow()
    return level


def pop_level(level: VmapLevel) -> None:
    _LEVELS.remove(level)
    if not _LEVELS:
        dispatch.batching = None
        dispatch.batched_write = None
        refresh_slow()


def top_level(args) -> int:
    top = 0
    for a in args:
        if a.__class__ is BatchedTensor:
            if a._level > top:
                top = a._level
        elif a.__class__ in (list, tuple):
            for t in a:
                if t.__class__ is BatchedTensor and t._level > top:
                    top = t._level
    return top


def batched_call(spec, args):
    """Run ``spec`` on ``args`` holding batched tensors, or NotImplemented if none."""
    level = top_level(args)
    if not level:
        return NotImplemented
    physical = []
    dims = []
    for a in args:
        if a.__class__ is BatchedTensor and a._level == level:
            physical.append(a._value)
            dims.append(a._bdim)
        elif a.__class__ in (list, tuple) and top_level(a) == level:
            inner = [
                (t._value, t._bdim)
                if t.__class__ is BatchedTensor and t._level == level
                else (t, None)
                for t in a
            ]
            physical.append([t for t, _ in inner])
            dims.append(tuple(d for _, d in inner))
        else:
            physical.append(a)
            dims.append(None)
    physical, dims = tuple(physical), tuple(dims)
    vl = _LEVELS[level - 1]
    if vl.randomness == "same" and spec.name in _SAME_REFUSED:
        raise RuntimeError(
            "Vmap does not currently support same randomness with a batched tensor input. "
            "Please file an issue with functorch"
        )
    rule = spec.batch
    out = NotImplemented
    if rule is not None and not (vl.randomness == "same" and spec.name in _RANDOM_OPS):
        out = rule(spec, physical, dims)
    if out is NotImplemented:
        out = fallback(spec, physical, dims, vl)
    result, bdim = out
    return _wrap(result, bdim, level)


# Ops that draw random numbers from their batched inputs: with randomness="same" every
# sample must draw the same numbers, which the per-sample loop gives by rewinding.
_RANDOM_OPS = frozenset(
    ("bernoulli", "poisson", "binomial", "_standard_gamma", "native_dropout", "rrelu_with_noise")
)
# Samplers whose distribution parameters are batched tensors: torch refuses them under
# randomness="same" (one draw cannot follow per-sample parameters) rather than share noise.
_SAME_REFUSED = frozenset(
    (
        "bernoulli",
        "poisson",
        "binomial",
        "_standard_gamma",
        "normal_tensor_float",
        "normal_float_tensor",
        "normal_tensor_tensor",
    )
)


def _wrap(result, bdim, level: int):
    if isinstance(result, Tensor):
        return BatchedTensor._wrap(result, bdim, level)
    if isinstance(result, (tuple, list)):
        parts = [_wrap(r, bdim, level) for r in result]
        if hasattr(result, "_fields"):
            return type(result)(*parts)
        return type(result)(parts)
    return result


def _sample(a, d, b: int):
    if d is None:
        return a
    if isinstance(d, tuple):
        return [t if e is None else t.select(e, b) for t, e in zip(a, d)]
    return a.select(d, b)


def fallback(spec, args, dims, level: VmapLevel):
    """Note [The per-op fallback]."""
    from ..ops.concatenation import stack

    FALLBACKS[spec.name] += 1
    gen = _creation.default_generator
    state = gen.get_state() if level.randomness == "same" else None
    outputs = []
    for b in range(level.size):
        if state is not None:
            gen.set_state(state)
        outputs.append(spec.run(tuple(_sample(a, d, b) for a, d in zip(args, dims))))
    first = outputs[0]
    if isinstance(first, Tensor):
        return stack(outputs), 0
    columns = [stack([o[k] for o in outputs]) for k in range(len(first))]
    if hasattr(first, "_fields"):
        return type(first)(*columns), 0
    return type(first)(columns), 0


def batched_write(self: Tensor, out: Tensor, name: str):
    """``write_inplace`` where ``self`` or ``out`` is batched: torch's refusal to write a
    batched value into an unbatched tensor, else the write on the physical tensors."""
    level = top_level((self, out))
    if not level:
        return NotImplemented
    mine = self.__class__ is BatchedTensor and self._level == level
    theirs = out.__class__ is BatchedTensor and out._level == level
    if not mine:
        value = out._value.movedim(out._bdim, 0)
        raise RuntimeError(
            f"output with shape {list(self.shape)} doesn't match the broadcast shape "
            f"{list(value.shape)}"
        )
    target = self._value
    if theirs:
        value = out._value
        if out._bdim != self._bdim:
            value = value.movedim(out._bdim, self._bdim)
    else:
        value = out.unsqueeze(0).expand((target.shape[self._bdim], *out.shape))
        if self._bdim:
            value = value.movedim(0, self._bdim)
    inplace.write_inplace(target, value, name)
    return self


def map_rows(func, tensors):
    """``vmap(func)(*tensors)`` for a function of tensors returning a tuple of tensors (the
    batched gradients of ``autograd.grad``, which sits below ``vmap``'s argument handling)."""
    size = tensors[0].shape[0]
    level = push_level(size, "error")
    try:
        outputs = func(*(BatchedTensor._wrap(t, 0, level.level) for t in tensors))
    finally:
        pop_level(level)
    result = []
    for v in outputs:
        if v.__class__ is BatchedTensor and v._level == level.level:
            result.append(front(v._value, v._bdim))
        else:
            result.append(v.unsqueeze(0).expand((size, *v.shape)))
    return tuple(result)


# -- transforms inside vmap (Note [Per-sample gradients]) ----------------------------------
def batch_everywhere(t: Tensor) -> Tensor:
    """``t`` batched at every active level (expanded where it is not mapped)."""
    if not _LEVELS:
        return t
    plain, chain = unwrap_all(t)
    have = {level for level, _ in chain}
    # expanding at the outer levels first keeps each level's physical tensor batched at
    # the outer ones, as vmap's own wrapping does
    for vl in _LEVELS:
        if vl.level in have:
            continue
        inner = [(lv, d) for lv, d in chain if lv < vl.level]
        outer = [(lv, d) for lv, d in chain if lv > vl.level]
        value = rewrap_all(plain, inner)
        value = value.unsqueeze(0).expand((vl.size, *value.shape))
        plain, new_inner = unwrap_all(value)
        chain = outer + [(vl.level, 0)] + new_inner
        have.add(vl.level)
    chain.sort(key=lambda c: -c[0])
    return rewrap_all(plain, chain)


def grad_leaf(t: Tensor) -> tuple[Tensor, Tensor]:
    """A new leaf with ``t``'s value batched at every active level, and its plain tensor."""
    t = batch_everywhere(t.detach())
    plain, chain = unwrap_all(t)
    plain = plain.detach().requires_grad_()
    return rewrap_all(plain, chain), plain


def remove_level(t, level: int, out_dim: int, size: int):
    """``t`` with vmap level ``level`` turned into an ordinary dim at ``out_dim`` (expanded
    where ``t`` is not batched there); wrappers of other levels stay."""
    if t.__class__ is BatchedTensor and t._level > level:
        bdim = t._bdim
        inner_dim = out_dim if out_dim <= bdim else out_dim + 1
        inner = remove_level(t._value, level, inner_dim, size)
        return BatchedTensor._wrap(inner, bdim + 1 if inner_dim <= bdim else bdim, t._level)
    if t.__class__ is BatchedTensor and t._level == level:
        return t._value if t._bdim == out_dim else t._value.movedim(t._bdim, out_dim)
    return t.unsqueeze(out_dim).expand((*t.shape[:out_dim], size, *t.shape[out_dim:]))


def add_level(t, level: int, in_dim: int):
    """The inverse of ``remove_level``: dim ``in_dim`` of ``t`` becomes vmap level ``level``."""
    if t.__class__ is BatchedTensor and t._level > level:
        bdim = t._bdim
        inner_dim = in_dim if in_dim < bdim else in_dim + 1
        inner = add_level(t._value, level, inner_dim)
        return BatchedTensor._wrap(inner, bdim - 1 if inner_dim < bdim else bdim, t._level)
    return BatchedTensor._wrap(t, in_dim, level)


def _sizes(t) -> dict:
    sizes = {}
    while t.__class__ is BatchedTensor:
        sizes[t._level] = t._value.shape[t._bdim]
        t = t._value
    return sizes


def to_physical(outputs, inputs, grad_outputs):
    """The arguments of an ``autograd.grad`` call whose outputs or inputs are batched, as
    the tensors autograd recorded (Note [Per-sample gradients]); gradients batched at other
    levels (``is_grads_batched``, ``jacrev`` inside ``vmap``) stay batched there. Returns
    them and a function that wraps the gradients like ``inputs``."""
    plain_outputs = []
    plain_grad_outputs = []
    for o, g in zip(outputs, grad_outputs):
        plain, chain = unwrap_all(o)
        plain_outputs.append(plain)
        if g is None and chain:
            g = _creation.ones_like(o)
        if g is not None:
            sizes = _sizes(o)
            for level, bdim in chain:  # outermost wrapper (highest level) first
                g = remove_level(g, level, bdim, sizes[level])
        plain_grad_outputs.append(g)
    unwrapped = [unwrap_all(t) for t in inputs]

    def wrap(grads):
        result = []
        for g, (_, chain) in zip(grads, unwrapped):
            if g is not None:
                for level, bdim in reversed(chain):
                    g = add_level(g, level, bdim)
            result.append(g)
        return result

    return plain_outputs, [p for p, _ in unwrapped], plain_grad_outputs, wrap


def batched_grad(grad, outputs, inputs, grad_outputs, **options):
    """``autograd.grad`` with batched outputs or inputs: run on the physical tensors."""
    outputs, plain, grad_outputs, wrap = to_physical(outputs, inputs, grad_outputs)
    return tuple(wrap(grad(tuple(outputs), tuple(plain), tuple(grad_outputs), **options)))

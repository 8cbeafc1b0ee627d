"""``torch._foreach_*``: one op over a list of tensors, as custom optimizers and EMA code call
them (``torch._foreach_mul_(params, decay)``, ``torch._foreach_addcdiv_(...)``).

torch runs each as one fused kernel; here each runs the single-tensor op per element, so the
values, dtypes, promotion and errors are those ops' own. Out-of-place forms return a tuple,
in-place forms the list they were given. One difference: under autograd each result records
the single-tensor op's node (``MulBackward0``) where torch records one node shared by the
whole list (``ForeachMulBackward1Scalar``); the gradients are the same.

The second operand takes what torch's overloads take: a number, a list of numbers (one per
tensor), a tensor (a 0-dim tensor, used for every element), or a list of tensors.
"""

from __future__ import annotations

from numbers import Number

from ._core.tensor import Tensor
from .linalg import vector_norm
from .ops import FUNCTIONS

UNARY = [
    "abs",
    "acos",
    "asin",
    "atan",
    "ceil",
    "cos",
    "cosh",
    "erf",
    "erfc",
    "exp",
    "expm1",
    "floor",
    "frac",
    "lgamma",
    "log",
    "log10",
    "log1p",
    "log2",
    "neg",
    "reciprocal",
    "round",
    "rsqrt",
    "sigmoid",
    "sign",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "trunc",
]
BINARY = ["add", "sub", "mul", "div", "maximum", "minimum", "clamp_min", "clamp_max", "pow"]


def _check_list(name: str, tensors, arg: str = "self", position: int = 1) -> list:
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(
            f"{name}(): argument '{arg}' (position {position}) must be tuple of Tensors, "
            f"not {type(tensors).__name__}"
        )
    if not tensors:
        raise RuntimeError("Tensor list must have at least one tensor.")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(
                f"expected Tensor as element {i} in argument {position - 1}, but got "
                f"{type(t).__name__}"
            )
    return list(tensors)


def _per_tensor(name: str, tensors: list, other, position: int = 2) -> list:
    """``other`` spread to one operand per tensor, checked as torch's overloads check it."""
    if isinstance(other, (list, tuple)):
        if other and all(isinstance(o, Tensor) for o in other):
            other = _check_list(name, other, "other", position)
            if len(other) != len(tensors):
                raise RuntimeError(
                    f"Tensor lists must have the same number of tensors, got {len(tensors)} "
                    f"and {len(other)}"
                )
            return other
        if len(other) != len(tensors):
            raise RuntimeError("Tensor list must have same number of elements as scalar list.")
        for i, o in enumerate(other):
            if not isinstance(o, Number):
                raise TypeError(
                    f"expected Tensor as element {i} in argument {position - 1}, but got "
                    f"{type(o).__name__}"
                )
        return list(other)
    if isinstance(other, Tensor) and other.dim() != 0:
        raise RuntimeError(
            f"scalar tensor expected to be 0 dim but it has {other.dim()} dimensions and "
            f"{other.numel()} elements."
        )
    return [other] * len(tensors)


_CLAMPS = {"maximum": "clamp_min", "minimum": "clamp_max"}


def _unary(op: str, inplace: bool):
    name = f"_foreach_{op}{'_' if inplace else ''}"

    def foreach(self):
        tensors = _check_list(name, self)
        if inplace:
            for t in tensors:
                getattr(t, op + "_")()
            return self
        fn = FUNCTIONS[op]
        return tuple(fn(t) for t in tensors)

    foreach.__name__ = foreach.__qualname__ = name
    foreach.__doc__ = f"``torch.{op}`` of each tensor of a list{' in place' if inplace else ''}."
    return foreach


def _binary(op: str, inplace: bool):
    name = f"_foreach_{op}{'_' if inplace else ''}"
    takes_alpha = op in ("add", "sub")

    def foreach(self, other, **kwargs):
        if kwargs and (not takes_alpha or set(kwargs) != {"alpha"} or isinstance(other, Number)):
            raise TypeError(
                f"{name}() received an invalid combination of arguments - got "
                f"(list, {type(other).__name__}, {', '.join(kwargs)}=...)"
            )
        if op == "pow" and isinstance(self, Number):  # _foreach_pow(scalar, exponents)
            exponents = _check_list(name, other, "exponent", 2)
            return tuple(FUNCTIONS["pow"](self, e) for e in exponents)
        tensors = _check_list(name, self)
        others = _per_tensor(name, tensors, other)
        if inplace:
            method = _CLAMPS.get(op, op) + "_"  # Tensor has no maximum_: clamp_min_ is one
            for t, o in zip(tensors, others):
                getattr(t, method)(o, **kwargs)
            return self
        fn = FUNCTIONS[op]
        clamp = FUNCTIONS[_CLAMPS.get(op, op)]  # maximum(t, number) is clamp_min
        return tuple(
            (clamp if isinstance(o, Number) else fn)(t, o, **kwargs)
            for t, o in zip(tensors, others)
        )

    foreach.__name__ = foreach.__qualname__ = name
    foreach.__doc__ = f"``torch.{op}`` of each tensor of a list{' in place' if inplace else ''}."
    return foreach


def _pointwise(op: str, inplace: bool):
    """addcmul / addcdiv: ``self + value * tensor1 (*|/) tensor2`` per element."""
    name = f"_foreach_{op}{'_' if inplace else ''}"

    def foreach(self, tensor1, tensor2, value=1):
        tensors = _check_list(name, self)
        firsts = _per_tensor(name, tensors, tensor1)
        seconds = _per_tensor(name, tensors, tensor2, 3)
        if isinstance(value, Tensor) and value.dim() == 1:
            value = value.tolist()  # a 1-D tensor holds one value per tensor
        values = _per_tensor(name, tensors, value, 4)
        calls = zip(tensors, firsts, seconds, values)
        if inplace:
            for t, a, b, v in calls:
                getattr(t, op + "_")(a, b, value=v.item() if isinstance(v, Tensor) else v)
            return self
        fn = FUNCTIONS[op]
        return tuple(
            fn(t, a, b, value=v.item() if isinstance(v, Tensor) else v) for t, a, b, v in calls
        )

    foreach.__name__ = foreach.__qualname__ = name
    return foreach


def _lerp(inplace: bool):
    name = f"_foreach_lerp{'_' if inplace else ''}"

    def foreach(self, tensors1, weight):
        tensors = _check_list(name, self)
        ends = _per_tensor(name, tensors, tensors1)
        weights = _per_tensor(name, tensors, weight, 3)
        if inplace:
            for t, e, w in zip(tensors, ends, weights):
                t.lerp_(e, w)
            return self
        return tuple(FUNCTIONS["lerp"](t, e, w) for t, e, w in zip(tensors, ends, weights))

    foreach.__name__ = foreach.__qualname__ = name
    return foreach


def _foreach_norm(self, ord=2, dtype=None):
    """``torch.linalg.vector_norm`` of each tensor of a list."""
    tensors = _check_list("_foreach_norm", self)
    return tuple(vector_norm(t, ord, dtype=dtype) for t in tensors)


def _foreach_max(self):
    """The largest element of each tensor of a list."""
    return tuple(FUNCTIONS["max"](t) for t in _check_list("_foreach_max", self))


def _foreach_clone(self, *, memory_format=None):
    return tuple(t.clone() for t in _check_list("_foreach_clone", self))


def _foreach_zero_(self):
    for t in _check_list("_foreach_zero_", self):
        t.zero_()
    return self


def _foreach_copy_(self, src, non_blocking: bool = False):
    tensors = _check_list("_foreach_copy_", self)
    for t, s in zip(tensors, _per_tensor("_foreach_copy_", tensors, src)):
        t.copy_(s)
    return self


FOREACH = {
    "_foreach_norm": _foreach_norm,
    "_foreach_max": _foreach_max,
    "_foreach_clone": _foreach_clone,
    "_foreach_zero_": _foreach_zero_,
    "_foreach_copy_": _foreach_copy_,
}
for _inplace in (False, True):
    _suffix = "_" if _inplace else ""
    FOREACH.update({f"_foreach_{op}{_suffix}": _unary(op, _inplace) for op in UNARY})
    FOREACH.update({f"_foreach_{op}{_suffix}": _binary(op, _inplace) for op in BINARY})
    for _op in ("addcmul", "addcdiv"):
        FOREACH[f"_foreach_{_op}{_suffix}"] = _pointwise(_op, _inplace)
    FOREACH[f"_foreach_lerp{_suffix}"] = _lerp(_inplace)

"""Vector norms: ``norm`` and ``linalg.vector_norm``, with their gradients at zero vectors and
infinite orders."""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core.op import defop, export
from .._core.tensor import Tensor
from .._creation import ones_like
from ..autograd.forward_grad import batched
from ..backend import xp
from .reduction import _restore, _slice_jvp, reduce_dims


# -- norms -----------------------------------------------------------------------------------
def _norm_backward(grad, input, result, ord, dim, keepdim):
    # torch's norm_backward, in its order (so double backward records its nodes); a full
    # reduction's 0-d grad broadcasts as it is
    full = dim is None and grad.ndim == 0
    g = grad if full else _restore(grad, dim, input.ndim, keepdim)
    r = result if full else _restore(result, dim, input.ndim, keepdim)
    if ord == 0:
        return None  # torch returns an undefined gradient: nothing flows back
    if ord == 1:
        return input.sgn() * g
    if math.isinf(ord):
        # a NaN norm reads the NaNs (whose sgn is 0), as torch's mask does
        mask = (input.abs() == r) | (input.isnan() & r.isnan())
        count = mask.sum() if dim is None else mask.sum(dim, keepdim=True)
        return input.sgn() * ((g / count) * mask)
    if ord == 2:
        return g * (input / r).masked_fill(r == 0, 0)  # a zero norm: a zero subgradient
    if ord < 1:
        # sgn(x) |x|^(p-1), 0 where x is 0 (its power is infinite), times grad * norm^(1-p)
        scaled = input.sgn() * (input.abs() ** (ord - 1)).masked_fill(input == 0, 0)
        return scaled * g * r ** (1 - ord)
    # a zero norm: a zero subgradient, whatever grad (a NaN or infinite one too)
    scale = (g / r ** (ord - 1)).masked_fill(r == 0, 0)
    if ord < 2:
        return input.sgn() * input.abs() ** (ord - 1) * scale
    return input * input.abs() ** (ord - 2) * scale


@batched
def norm_jvp(input_t, input, result, ord, dim, keepdim):
    weight = _norm_backward(ones_like(result), input, result, ord, dim, keepdim)
    return _slice_jvp(weight, input_t, input, result, dim, keepdim)


@defop(
    batch=batch_rules.along("dim", none="all"),
    name="linalg_vector_norm",
    promote="float",
    input=_norm_backward,
    jvp=norm_jvp,
)
def _vector_norm(input, ord, dim, keepdim):
    a = xp.abs(input)
    if ord == 2:
        return xp.sqrt(xp.sum(a * a, axis=dim, keepdims=keepdim))
    if ord == 1:
        return xp.sum(a, axis=dim, keepdims=keepdim)
    if ord == math.inf:
        return xp.max(a, axis=dim, keepdims=keepdim)
    if ord == -math.inf:
        return xp.min(a, axis=dim, keepdims=keepdim)
    if ord == 0:
        return xp.sum(a != 0, axis=dim, keepdims=keepdim).astype(input.dtype)
    return xp.sum(a**ord, axis=dim, keepdims=keepdim) ** (1.0 / ord)


def vector_norm(input, ord=2, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    """``(sum |x|^ord)^(1/ord)`` over ``dim`` (all elements by default)."""
    if dtype is not None:
        input = input.to(dtype)
    if input._data.dtype.kind not in "fcV":
        raise RuntimeError(
            f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{input.dtype.scalar_name}"
        )
    dims = reduce_dims(dim, input.ndim)
    _check_identity(input.shape, ord, dim)
    return _vector_norm(input, float(ord), dims, keepdim)


def _check_identity(shape, ord, dim):
    """An inf or negative norm (a max, min or sum of reciprocals) of no elements has no
    value: torch refuses a reduction over an empty dim, naming it as it was given."""
    if 0 not in shape or not (ord < 0 or ord == math.inf):
        return
    if dim is None:
        raise RuntimeError(
            f"linalg.vector_norm cannot compute the {ord:g} norm on an empty tensor because "
            "the operation does not have an identity"
        )
    for d in [dim] if isinstance(dim, int) else dim:
        if shape[d] == 0:
            raise RuntimeError(
                f"linalg.vector_norm cannot compute the {ord:g} norm on the dimension {d}"
                "because this dimension is empty and the operation does not have an identity"
            )


@export
def norm(input, p="fro", dim=None, keepdim=False, dtype=None) -> Tensor:
    """Vector p-norm (``'fro'`` = 2) of all elements or over ``dim``; ``'nuc'`` is the
    nuclear norm of a matrix."""
    several = dim is not None and not isinstance(dim, int) and len(dim) > 2
    if isinstance(p, str) and (p != "fro" or several):
        from .linalg_functions import matrix_norm  # 'nuc' (and errors for others), as torch

        dims = tuple(range(input.ndim)) if dim is None else [dim] if isinstance(dim, int) else dim
        return matrix_norm(input, p, dims, keepdim, dtype=dtype)
    if p == "fro" or p is None:
        p = 2
    return vector_norm(input, p, dim, keepdim, dtype=dtype)

"""Vector norms: ``norm`` and ``linalg.vector_norm``, with their gradients at zero vectors and
infinite orders."""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.op import defop, export
from .._core.tensor import Tensor, typename
from .._creation import ones_like, zeros_like
from ..autograd.forward_grad import batched
from ..backend import xp
from .reduction import _restore, _slice_jvp, keepdim_error, read_as, reduce_dims, rounded


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
    if ord == 0:
        return zeros_like(result)  # counting nonzeros is flat: torch's tangent is zeros
    weight = _norm_backward(ones_like(result), input, result, ord, dim, keepdim)
    return _slice_jvp(weight, input_t, input, result, dim, keepdim)


@defop(
    batch=batch_rules.along("dim", none="all"),
    name="linalg_vector_norm",
    input=_norm_backward,
    jvp=norm_jvp,
)
def _vector_norm(input, ord, dim, keepdim, dtype=None):
    a = xp.abs(read_as(input, dtype))
    if a.dtype == xp.float16:
        # torch accumulates a half's norm in float: its squares would underflow a half
        norm = _norm_of(a.astype(xp.float32), ord, dim, keepdim).astype(xp.float16)
    else:
        norm = _norm_of(a, ord, dim, keepdim)
    # a complex dtype= gives the real norm of its precision (Note [Reductions with dtype=])
    return norm if dtype is None else rounded(norm, _dtypes.to_dtype(dtype).to_real())


def _norm_of(a, ord, dim, keepdim):
    if ord == 2:
        return xp.sqrt(xp.sum(a * a, axis=dim, keepdims=keepdim))
    if ord == 1:
        return xp.sum(a, axis=dim, keepdims=keepdim)
    if ord == math.inf:
        return xp.max(a, axis=dim, keepdims=keepdim)
    if ord == -math.inf:
        return xp.min(a, axis=dim, keepdims=keepdim)
    if ord == 0:
        return xp.sum(a != 0, axis=dim, keepdims=keepdim).astype(a.dtype)
    return xp.sum(a**ord, axis=dim, keepdims=keepdim) ** (1.0 / ord)


def vector_norm(input, ord=2, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    """``(sum |x|^ord)^(1/ord)`` over ``dim`` (all elements by default)."""
    if keepdim.__class__ is not bool:
        raise keepdim_error("linalg_vector_norm", keepdim)
    if not isinstance(ord, (int, float, xp.generic, Tensor)):  # a Number ('fro' is matrix_norm's)
        raise TypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not {typename(ord)}")
    check_norm_dtype("linalg.vector_norm", input, dtype)
    dims = reduce_dims(dim, input.ndim)
    _check_identity(input.shape, ord, dim)
    return _vector_norm(input, float(ord), dims, keepdim, dtype)


def check_norm_dtype(name: str, input, dtype) -> None:
    """torch's checks of a norm's input and ``dtype=``: a floating or complex input, and a
    dtype of its kind (real or complex) that it converts to without narrowing."""
    if input._data.dtype.kind not in "fcV":
        raise RuntimeError(
            f"{name}: Expected a floating point or complex tensor as input. Got "
            f"{input.dtype.scalar_name}"
        )
    if dtype is None:
        return
    dtype = _dtypes.to_dtype(dtype)
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(
            f"{name}: dtype should be floating point or complex, but got {dtype.scalar_name}"
        )
    if input.is_complex() != dtype.is_complex:
        kind = "complex" if input.is_complex() else "real"
        raise RuntimeError(
            f"{name}: dtype should be {kind} for {kind} inputs, but got {dtype.scalar_name}"
        )
    if _dtypes.promote_types(input.dtype, dtype) is not dtype:
        raise RuntimeError(
            f"{name}: the dtype of the input ({input.dtype.scalar_name}) should be convertible "
            f"without narrowing to the specified dtype ({dtype.scalar_name})"
        )


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

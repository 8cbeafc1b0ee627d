"""Products and distances beyond matmul: kron, tensordot, cross (and ``linalg.cross``),
cdist. kron and tensordot are composed as torch composes them (so are their grad_fns)."""

from __future__ import annotations

import math
import warnings

from .._core import batch_rules, grad_mode
from .._core.dispatch import broadcast_shape, require_tensors
from .._core.kernel_dtypes import FLOATING, kernel
from .._core.op import defop, export, refusing
from .._core.tensor import Tensor, _wrap_dim
from ..autograd.forward_grad import add_terms, align, batched, unsupported
from ..backend import layout, xp
from ..backend.fused import fma
from .linalg import mm
from .nn.composite_backward import tensors_of
from .pointwise import _conj, where
from .shape import _unsafe_view


# -- kron and tensordot (composite) ----------------------------------------------------------
@export
def kron(input, other) -> Tensor:
    """The Kronecker product: every element of ``input`` times a copy of ``other``.

    Example:
        >>> import numtorch as torch
        >>> torch.kron(torch.tensor([1, 2]), torch.tensor([1, 10]))
        tensor([ 1, 10,  2, 20])
    """
    require_tensors("kron", ("input", "other"), input, other)
    ndim = max(input.ndim, other.ndim)
    a_shape = (1,) * (ndim - input.ndim) + tuple(input.shape)
    b_shape = (1,) * (ndim - other.ndim) + tuple(other.shape)
    a_view, b_view = [], []
    for a, b in zip(a_shape, b_shape):
        a_view += [a, 1]
        b_view += [1, b]
    a_part, b_part = _unsafe_view(input, tuple(a_view)), _unsafe_view(other, tuple(b_view))
    product = a_part * b_part
    shape = tuple(a * b for a, b in zip(a_shape, b_shape))
    # torch views the product in the layout its elementwise kernel gave it (the product has
    # it too: Note [Elementwise result layout]), which follows the operands' memory order:
    # from a transposed input that view does not exist
    if layout.view_strides(product.shape, product.stride(), shape) is None:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    return _unsafe_view(product, shape)


def _tensordot_dims(a, b, dims):
    if isinstance(dims, Tensor):
        dims = dims.item() if dims.numel() == 1 else dims.tolist()
    if isinstance(dims, (tuple, list)):
        if len(dims) != 2:
            raise RuntimeError("tensordot expects dims to be a pair of dim lists or an int")
        dims_a, dims_b = dims
        dims_a = [dims_a] if isinstance(dims_a, int) else list(dims_a)
        dims_b = [dims_b] if isinstance(dims_b, int) else list(dims_b)
        return dims_a, dims_b
    if dims < 0:
        raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
    if dims > min(a.ndim, b.ndim):
        raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
    return list(range(-dims, 0)), list(range(dims))


@export(method=False)
def tensordot(a, b, dims=2) -> Tensor:
    """Sum products over the dims ``dims`` names (an int: the last ``dims`` of ``a`` with the
    first of ``b``; or two lists of dims).

    Example:
        >>> import numtorch as torch
        >>> torch.tensordot(torch.ones(2, 3), torch.ones(3, 4), dims=1).shape
        torch.Size([2, 4])
    """
    dims_a, dims_b = _tensordot_dims(a, b, dims)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError("both inputs should have same dtype")
    contracted = 1
    t1, t2 = a, b
    for d1, d2 in zip(dims_a, dims_b):
        s1, s2 = a.shape[d1], b.shape[d2]
        if s2 == 1:  # a broadcast dim is summed right away
            t1 = t1.sum(d1, keepdim=True)
        elif s1 == 1:
            t2 = t2.sum(d2, keepdim=True)
        elif s1 != s2:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {s1} in dim {d1} "
                f"and second has size {s2} in dim {d2}"
            )
        else:
            contracted *= s1
    wrapped_a = {_wrap_dim(d, a.ndim) for d in dims_a}
    wrapped_b = {_wrap_dim(d, b.ndim) for d in dims_b}
    keep_a = [i for i in range(a.ndim) if i not in wrapped_a]
    keep_b = [i for i in range(b.ndim) if i not in wrapped_b]
    sizes = [t1.shape[i] for i in keep_a] + [t2.shape[i] for i in keep_b]
    left = t1.permute(keep_a + dims_a).reshape(math.prod(sizes[: len(keep_a)]), contracted)
    right = t2.permute(dims_b + keep_b).reshape(contracted, math.prod(sizes[len(keep_a) :]))
    return mm(left, right).reshape(sizes)


@export
def inner(input, other) -> Tensor:
    """Sum of products over the last dims of ``input`` and ``other`` (a number times the
    other tensor when either is 0-d).

    Example:
        >>> import numtorch as torch
        >>> torch.inner(torch.ones(2, 3), torch.ones(4, 3)).shape
        torch.Size([2, 4])
    """
    require_tensors("inner", ("input", "other"), input, other)
    if input.ndim == 0 or other.ndim == 0:
        return input * other
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(
            "inner() the last dimension must match on both input tensors but got shapes "
            f"{list(input.shape)} and {list(other.shape)}"
        )
    return tensordot(input, other, ([-1], [-1]))


# -- cross -----------------------------------------------------------------------------------
@batched
def _cross_jvp(input_t, other_t, input, other, dim, result):
    # bilinear; dim counts from the end, so it holds for a tangent with a batch dimension
    ndim = result.ndim
    return add_terms(
        None if input_t is None else _cross(align(input_t, input, ndim), other, dim),
        None if other_t is None else _cross(input, align(other_t, other, ndim), dim),
    )


@defop(
    batch=batch_rules.along("dim"),
    name="linalg_cross",
    promote="same",
    input=lambda grad, other, dim: _cross(_conj(other), grad, dim),
    other=lambda grad, input, dim: _cross(grad, _conj(input), dim),
    jvp=_cross_jvp,
)
def _cross(input, other, dim):
    # NumPy's cross returns a strided view of a buffer laid out with dim last; torch's result
    # is contiguous, and reshape/view of it must alias (or copy) exactly where torch's does
    if input.dtype in (xp.float32, xp.float64) and input.dtype == other.dtype:
        return xp.ascontiguousarray(_fused_cross(input, other, dim))
    return xp.ascontiguousarray(xp.cross(input, other, axis=dim))


# Note [Fused cross product]
# torch's CPU cross kernel is compiled with fused multiply-adds: each component is
# fma(a1, b2, -(a2 * b1)), one rounding of the exact a1 * b2 minus the rounded a2 * b1. For
# (nearly) parallel vectors that leaves the rounding residual of a2 * b1 (about 1e-17)
# where the unfused difference is exactly 0, and a sign taken of it downstream differs.
def _fused_cross(a, b, dim):
    a, b = xp.broadcast_arrays(xp.moveaxis(a, dim, -1), xp.moveaxis(b, dim, -1))
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    parts = [_fused_difference(a1, b2, a2 * b1), _fused_difference(a2, b0, a0 * b2)]
    parts.append(_fused_difference(a0, b1, a1 * b0))
    return xp.moveaxis(xp.stack(parts, axis=-1), -1, dim)


def _fused_difference(x, y, rounded):
    """fma(x, y, -rounded): ``x * y - rounded`` rounded once."""
    return fma(x, y, -rounded)


def linalg_cross(input, other, *, dim=-1) -> Tensor:
    """The 3-D cross product along ``dim`` (inputs broadcast)."""
    require_tensors("linalg_cross", ("input", "other"), input, other)
    if input.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    ndim = input.ndim
    if ndim == 0:  # torch's kernel reads the dim's size before checking it
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    a, b = input.shape, other.shape
    size_a = a[_wrap_dim(dim, input.ndim)] if input.ndim else 1
    size_b = b[_wrap_dim(dim, other.ndim)] if other.ndim else 1
    if size_a != 3 or size_b != 3:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got {size_a} and {size_b}"
        )
    require_same_dtype(input, other)
    return _cross(input, other, _wrap_dim(dim, ndim) - ndim)


def require_same_dtype(input, other) -> None:
    """torch's kernels that take no mixed float32/float64 operands (cross, cdist): its
    refusal, where other ops would promote."""
    if input._data.dtype != other._data.dtype:
        raise RuntimeError(
            f"expected scalar type {input.dtype.scalar_name} but found {other.dtype.scalar_name}"
        )


@export
def cross(input, other, dim=None) -> Tensor:
    """The 3-D cross product along ``dim`` (by default the first dim of size 3, with
    torch's deprecation warning).

    Example:
        >>> import numtorch as torch
        >>> torch.cross(torch.tensor([1.0, 0, 0]), torch.tensor([0.0, 1, 0]), dim=0)
        tensor([0., 0., 1.])
    """
    require_tensors("cross", ("input", "other"), input, other)
    if dim is None:
        warnings.warn(
            "Using torch.cross without specifying the dim arg is deprecated.\nPlease either "
            "pass the dim explicitly or simply use torch.linalg.cross.\nThe default value of "
            "dim will change to agree with that of linalg.cross in a future release.",
            UserWarning,
            stacklevel=2,
        )
        shape = broadcast_shape(input.shape, other.shape)
        dim = next((i for i, s in enumerate(shape) if s == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return linalg_cross(input, other, dim=dim)


# -- cdist -----------------------------------------------------------------------------------
def _cdist_terms(grad, x1, x2, result, p):
    """d dist_ij / d x1_i, one term per (i, j) pair: shape (..., P, R, M)."""
    diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    g = grad.unsqueeze(-1)
    dist = result.unsqueeze(-1)
    if p == 0:
        return diff.new_zeros(diff.shape)
    # torch's kernel takes the sign of a NaN difference as NaN (the tensor op's sign is 0)
    sign = where(diff.isnan(), diff, diff.sign())
    if p == 1:
        return g * sign
    if math.isinf(p):
        # the coordinates where |d| reaches the distance, as torch's kernel finds them:
        # 1 - min(1, ceil(||d| - dist|)), NaN where |d| and dist are both infinite
        return g * sign * (1 - ((diff.abs() - dist).abs().ceil()).clamp(max=1))
    zero = dist == 0
    safe = where(zero, 1.0, dist)
    if p == 2:
        return where(zero, 0.0, g * diff / safe)
    if p < 1:
        zero = zero | (diff == 0)
        magnitude = where(zero, 1.0, diff.abs())
        return where(zero, 0.0, diff.sign() * magnitude ** (p - 1) * g / safe ** (p - 1))
    return where(zero, 0.0, diff * diff.abs() ** (p - 2) * g / safe ** (p - 1))


@refusing
def _cdist_twice(grad):
    raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")


def _no_forward_derivative(name):
    """torch has no forward derivative for the distance kernels: refuse as it does."""

    def jvp():
        raise unsupported(name)

    return jvp


# torch runs cdist's backward as one op without a derivative: a second order through cdist
# (p-norm form) raises NotImplementedError there, and so it does here
@defop(
    name="_cdist_backward",
    node="CdistBackwardBackward0",
    grad_output=_cdist_twice,
    x1=_cdist_twice,
    x2=_cdist_twice,
    cdist=_cdist_twice,
    jvp=_no_forward_derivative("_cdist_backward"),
)
def _cdist_backward(grad_output, x1, x2, p, cdist):
    grad_output, x1, x2, cdist = tensors_of(grad_output, x1, x2, cdist)
    with grad_mode.no_grad():
        return _cdist_terms(grad_output, x1, x2, cdist, p).sum(-2)._data


@defop(
    batch=batch_rules.same_rank,
    name="_cdist_forward",
    dtypes=kernel("cdist", FLOATING),
    node="CdistBackward0",
    x1=lambda grad, x1, x2, p, result: _cdist_backward(grad, x1, x2, p, result),
    x2=lambda grad, x1, x2, p, result: _cdist_backward(grad.mT, x2, x1, p, result.mT),
    jvp=_no_forward_derivative("_cdist_forward"),
)
def _cdist(x1, x2, p):
    diff = xp.abs(x1[..., :, None, :] - x2[..., None, :, :])
    if p == 2:
        return xp.sqrt(xp.sum(diff * diff, axis=-1))
    if p == 1:
        return xp.sum(diff, axis=-1)
    # torch's kernel: min(ceil(|d|), 1) counts a non-zero (a NaN stays NaN); the max skips NaN
    if p == 0:
        return xp.sum(xp.minimum(xp.ceil(diff), 1), axis=-1)
    if math.isinf(p):
        return xp.max(xp.where(xp.isnan(diff), 0, diff), axis=-1, initial=0)
    return xp.sum(diff**p, axis=-1) ** (1 / p)


def _euclidean_backward(grad, x1, x2, result, first):
    ratio = where(result == 0, 0.0, grad / result)
    if first:
        return x1 * ratio.sum(-1, keepdim=True) - ratio.matmul(x2)
    return x2 * ratio.sum(-2).unsqueeze(-1) - ratio.mT.matmul(x1)


@defop(
    batch=batch_rules.same_rank,
    name="_euclidean_dist",
    node="EuclideanDistBackward0",
    x1=lambda grad, x1, x2, result: _euclidean_backward(grad, x1, x2, result, True),
    x2=lambda grad, x1, x2, result: _euclidean_backward(grad, x1, x2, result, False),
    jvp=_no_forward_derivative("_euclidean_dist"),
)
def _euclidean_dist(x1, x2):
    # |a - b|^2 = -2 a.b + |a|^2 + |b|^2 as one matmul of padded rows (torch's "mm" mode)
    norm1 = xp.sum(x1 * x1, axis=-1, keepdims=True)
    norm2 = xp.sum(x2 * x2, axis=-1, keepdims=True)
    left = xp.concatenate([x1 * -2, norm1, xp.ones_like(norm1)], axis=-1)
    right = xp.concatenate([x2, xp.ones_like(norm2), norm2], axis=-1)
    squared = xp.matmul(left, xp.swapaxes(right, -1, -2))
    return xp.sqrt(xp.maximum(squared, 0))  # rounding below 0 is a zero distance


_COMPUTE_MODES = {
    "use_mm_for_euclid_dist_if_necessary": 0,
    "use_mm_for_euclid_dist": 1,
    "donot_use_mm_for_euclid_dist": 2,
}


@export(method=False)
def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The p-norm distance between each row of ``x1`` (..., P, M) and each row of ``x2``
    (..., R, M), batched: shape (..., P, R). For p=2 with more than 25 rows, the distances
    come from one matrix product (faster, less exact), as in torch.

    Example:
        >>> import numtorch as torch
        >>> torch.cdist(torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0], [1.0, 0.0]]))
        tensor([[5., 1.]])
    """
    require_tensors("cdist", ("x1", "x2"), x1, x2)
    for name, x in (("X1", x1), ("X2", x2)):
        if x.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {x.ndim}D")
        if x._data.dtype.kind not in "fV":
            raise RuntimeError(
                f"cdist only supports floating-point dtypes, {name} got: {x.dtype.scalar_name}"
            )
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(
            f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}"
        )
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if compute_mode not in _COMPUTE_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    mode = _COMPUTE_MODES[compute_mode]
    rows1, rows2 = x1.shape[-2], x2.shape[-2]
    use_mm = p == 2 and (mode == 1 or (mode == 0 and (rows1 > 25 or rows2 > 25)))
    if x1.dtype is not x2.dtype:  # torch takes no mixed operands; an empty result is x1's
        # (no rows, no columns, or an empty batch dim: nothing is computed)
        if 0 in x1.shape or 0 in x2.shape:
            x2 = x2.to(x1.dtype)
        elif use_mm:
            raise RuntimeError(
                "expected m1 and m2 to have the same dtype, but got: "
                f"{x1.dtype.c_name} != {x2.dtype.c_name}"
            )
        else:
            require_same_dtype(x1, x2)
    batch = tuple(broadcast_shape(x1.shape[:-2], x2.shape[:-2]))
    if not use_mm or 0 in (rows1, rows2, x1.shape[-1], *batch):  # (torch's empty result)
        return _cdist(x1, x2, float(p))
    if math.prod(batch) == 1:
        return _euclidean_dist(x1, x2).view(*batch, rows1, rows2)
    n = math.prod(batch)
    # torch's contiguous().view(): an operand broadcast over the batch is copied, so the copy,
    # not the operand, is what _euclidean_dist saves
    left = x1.expand(*batch, rows1, x1.shape[-1]).contiguous().view(n, rows1, x1.shape[-1])
    right = x2.expand(*batch, rows2, x2.shape[-1]).contiguous().view(n, rows2, x2.shape[-1])
    return _euclidean_dist(left, right).view(*batch, rows1, rows2)

"""Scans along a dim: cumprod, cummax/cummin, logcumsumexp, and diff (cumsum lives with the
reductions)."""

from __future__ import annotations

import math

from .._core import batch_rules, grad_mode
from .._core import dtypes as _dtypes
from .._core.kernel_dtypes import REAL, kernel
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim
from .._creation import zeros
from ..autograd.forward_grad import batch_shift, batched
from ..backend import xp
from .concatenation import cat
from .extrema import return_type
from .pointwise import _conj, where
from .reduction import (
    _take_along,
    check_result_dtype,
    rounded,
    scan_accumulator,
    scan_dtype_check,
)
from .special import complex_log_add_exp


def _reversed_cumsum(t, dim):
    return t.flip(dim).cumsum(dim).flip(dim)


def _scan_dim(input, dim):
    return _wrap_dim(dim, max(input.ndim, 1))


# -- cumprod ---------------------------------------------------------------------------------
def _cumprod_backward(grad, input, result, dim):
    # out_j = prod_{i<=j} x_i, so dx_k = sum_{j>=k} grad_j * prod_{i<=j, i!=k} x_i.
    if input.numel() <= 1 or input.shape[dim] == 1:  # empty too: torch returns grad itself
        return grad
    if not (input._data == 0).any():
        return _reversed_cumsum(grad * result, dim) / input
    if grad_mode.is_grad_enabled():
        # create_graph: the O(n^2) form, whose own derivative is cumprod's second one
        return _omitted_products_backward(grad, input, dim)
    # Before the first zero of a slice, revcumsum(grad * out) / x; at the first zero,
    # revcumsum(grad * cumprod(x with that zero set to 1)); after it, zero.
    is_zero = input == 0
    zeros_so_far = is_zero.long().cumsum(dim)
    before = zeros_so_far == 0
    first_zero = is_zero & (zeros_so_far == 1)
    safe = where(before, input, 1.0)
    # as torch, terms past the first zero (past the second for the first zero's own sum)
    # are masked out before summing: an infinite gradient there times 0 is no NaN
    terms = where(before, grad * result, 0.0)
    part_before = where(before, _reversed_cumsum(terms, dim) / safe, 0.0)
    # at the first zero: sum_j grad_j prod(x after it up to j), over j up to the second
    # zero, times the product before it (result one step back), in torch's order
    between = (zeros_so_far == 1) & ~first_zero
    inner = where(between, input, 1.0).cumprod(dim)
    total = (inner * where(zeros_so_far == 1, grad, 0.0)).sum(dim, keepdim=True)
    position = Tensor._make(
        xp.arange(input.shape[dim]).reshape([-1] + [1] * (input.ndim - dim - 1))
    )
    prefix = where(position == 0, 1.0, result.roll(1, dim))
    part_zero = where(first_zero, total * prefix, 0.0)
    return part_before + part_zero


def _omitted_products(input, dim):
    """[..., k, j] = prod_{i<=j, i!=k} x_i for j >= k, else 0 (x along ``dim`` moved last)."""
    moved = input.movedim(dim, -1)
    n = moved.shape[-1]
    square = moved.unsqueeze(-2).expand(*moved.shape[:-1], n, n)  # [..., k, j] = x_j
    eye = Tensor._make(xp.eye(n, dtype=bool))
    omitted = where(eye, 1.0, square).cumprod(-1)
    later = Tensor._make(xp.triu(xp.ones((n, n), dtype=bool)))  # j >= k
    return where(later, omitted, 0.0)


def _omitted_products_backward(grad, input, dim):
    # torch's O(n^2) form step by step, so that its own derivative (cumprod's second one)
    # meets zeros, infinities and NaN in torch's order: dx_k = sum_{j>=k} grad_j *
    # (prod_{i<k} x_i) * cumprod_{k<i<=j} x_i, the first factor a prod of the slice before k
    n = input.shape[dim]
    ones = Tensor._make(xp.ones((1,), grad._data.dtype))
    ones = ones.expand(*[1 if d == dim else size for d, size in enumerate(input.shape)])
    # each column copied into a zero gradient, as torch's (CopySlices in its graph)
    grad_input = grad.new_zeros(input.shape)
    for k in range(n):
        if k == 0:
            omitted = cat([ones, input.narrow(dim, 1, n - 1).cumprod(dim)], dim)
        elif k == n - 1:
            omitted = input.narrow(dim, 0, k).prod(dim, keepdim=True)
        else:
            until = input.narrow(dim, 0, k).prod(dim, keepdim=True)
            after = input.narrow(dim, k + 1, n - k - 1).cumprod(dim)
            omitted = cat([until, until.expand_as(after) * after], dim)
        grad_input.select(dim, k).copy_((grad.narrow(dim, k, n - k) * omitted).sum(dim))
    return grad_input


@batched
def _cumprod_jvp(input_t, input, result, dim):
    # d out_j = sum_{k<=j} dx_k prod_{i<=j, i!=k} x_i: out_j * cumsum(dx / x)_j without zeros
    if input.ndim == 0 or input.shape[dim] == 1:
        return input_t
    d = dim + batch_shift(input_t, input)
    if not (input._data == 0).any():
        return (input_t / input).cumsum(d) * result
    terms = _omitted_products(input, dim) * input_t.movedim(d, -1).unsqueeze(-1)
    return terms.sum(-2).movedim(-1, d)


@defop(
    batch=batch_rules.along("dim"),
    name="cumprod",
    r_to_c=False,  # Note [Reductions with dtype=]
    # the conjugate derivative: the formula of the conjugates (Note [Complex autograd])
    # torch casts the gradient to the input's dtype first (Note [Reductions with dtype=])
    input=lambda grad, input, result, dim: _cumprod_backward(
        grad.to(input.dtype), _conj(input), _conj(result), dim
    ),
    jvp=_cumprod_jvp,
)
def _cumprod(input, dim, dtype=None):
    if dtype is None:
        return _scan_product(input, dim)
    out = _scan_product(input.astype(_dtypes.to_dtype(dtype).np, copy=False), dim)
    # an explicit integer dtype is kept (the default accumulates small integers in int64)
    return rounded(out, dtype)


def _scan_product(input, dim):
    if input.ndim == 0:
        return input.astype(xp.int64) if input.dtype.kind in "biu" else input.copy()
    wide = scan_accumulator(input.dtype)  # Note [Scan accumulators]
    if wide is None:
        return xp.cumprod(input, axis=dim, dtype=xp.int64)
    return xp.cumprod(input, axis=dim, dtype=wide).astype(input.dtype, copy=False)


@export(inplace=True)
def cumprod(input, dim, *, dtype=None) -> Tensor:
    """Running product along ``dim`` (integers and bools accumulate as int64).

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([1.0, 2.0, 3.0, 4.0]).cumprod(0)
        tensor([ 1.,  2.,  6., 24.])
    """
    if dtype is not None:
        scan_dtype_check("cumprod", dtype)
        check_result_dtype(input, dtype)
    return _cumprod(input, _scan_dim(input, dim), dtype)


# -- cummax and cummin -----------------------------------------------------------------------
def _running_extreme(input, dim, ufunc):
    if input.ndim == 0:
        return input.copy(), xp.zeros((), xp.int64)
    values = ufunc.accumulate(input, axis=dim)
    # The index moves to each new extreme (ties and NaNs included, as torch does).
    hits = values == input
    if input.dtype.kind in "fV":
        hits |= xp.isnan(input)
    shape = [1] * input.ndim
    shape[dim] = input.shape[dim]
    positions = xp.arange(input.shape[dim], dtype=xp.int64).reshape(shape)
    indices = xp.maximum.accumulate(xp.where(hits, positions, 0), axis=dim)
    return values, indices


def _scatter_back(grad, input, dim, indices):
    if input.numel() == 0:
        # torch's cummaxmin_backward returns the (empty) input itself: under create_graph
        # the gradient requires grad where the input does
        return input * 0
    if input.ndim == 0:
        return grad
    return zeros(input.shape, dtype=grad.dtype).scatter_add(dim, indices, grad)


_cummax_type = return_type("cummax")
_cummin_type = return_type("cummin")


@defop(
    batch=batch_rules.along("dim"),
    name="cummax",
    dtypes=kernel("cummax_cpu", REAL),
    outputs=2,
    returns=_cummax_type,
    input=lambda grad, input, dim, result1: _scatter_back(grad, input, dim, result1),
    jvp=batched(
        lambda input_t, input, dim, result1: (_take_along(input_t, input, dim, result1), None)
    ),
)
def _cummax(input, dim):
    return _running_extreme(input, dim, xp.maximum)


@defop(
    batch=batch_rules.along("dim"),
    name="cummin",
    dtypes=kernel("cummin_cpu", REAL),
    outputs=2,
    returns=_cummin_type,
    input=lambda grad, input, dim, result1: _scatter_back(grad, input, dim, result1),
    jvp=batched(
        lambda input_t, input, dim, result1: (_take_along(input_t, input, dim, result1), None)
    ),
)
def _cummin(input, dim):
    return _running_extreme(input, dim, xp.minimum)


@export
def cummax(input, dim):
    """Running maximum along ``dim`` and the index where each was reached.

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([1.0, 3.0, 2.0, 5.0]).cummax(0).indices
        tensor([0, 1, 1, 3])
    """
    return _cummax(input, _scan_dim(input, dim))


@export
def cummin(input, dim):
    """Running minimum along ``dim`` and the index where each was reached."""
    return _cummin(input, _scan_dim(input, dim))


# -- logcumsumexp ----------------------------------------------------------------------------
def _logcumsumexp_backward(grad, input, result, dim):
    # dx_k = sum_{j>=k} grad_j * exp(x_k - out_j), summed in log space separately for the
    # positive and negative parts of grad so nothing overflows (as torch does).
    if input.ndim == 0 or input.numel() == 0:  # torch returns grad itself
        return grad

    def reversed_logcumsumexp(t):
        return t.flip(dim).logcumsumexp(dim).flip(dim)

    if grad.is_complex():  # no sign to split: the log of the conjugate gradient itself
        return (reversed_logcumsumexp(_conj(grad).log() - result) + input).exp().conj()
    lowest = _dtypes.finfo(grad.dtype).min
    log_abs = grad.abs().log()
    positive = where(grad > 0, log_abs, lowest)
    negative = where(grad < 0, log_abs, lowest)
    out_positive = (reversed_logcumsumexp(positive - result) + input).exp()
    out_negative = (reversed_logcumsumexp(negative - result) + input).exp()
    return out_positive - out_negative


@batched
def _logcumsumexp_jvp(input_t, input, result, dim):
    # torch's formula: the tangent's running sum weighted by exp(x - max), over the primal's
    # running sum plus 1e-13 (so a sum of zeros below a -inf gives 0, not NaN, and every
    # float64 value is a little under the exact one)
    d = dim + batch_shift(input_t, input)
    weights = input.exp() if input.is_complex() else (input - input.amax(dim, True)).exp()
    return (weights * input_t).cumsum(d) / (weights.cumsum(dim) + 1e-13)


def _complex_logcumsumexp(x, dim):
    # torch's scan starts from -inf + 0j and folds each element in as log_add_exp(x_i, sum)
    out = xp.empty_like(x)
    running = xp.full(x.shape[:dim] + x.shape[dim + 1 :], complex(-math.inf, 0.0), x.dtype)
    for i in range(x.shape[dim]):
        running = complex_log_add_exp(xp.take(x, i, axis=dim), running)
        out[(slice(None),) * dim + (i,)] = running
    return out


@defop(
    batch=batch_rules.along("dim"),
    name="logcumsumexp",
    input=_logcumsumexp_backward,
    jvp=_logcumsumexp_jvp,
)
def _logcumsumexp(input, dim):
    if input.ndim == 0:
        return input.copy()
    wide = scan_accumulator(input.dtype)  # Note [Scan accumulators]
    if input.dtype.kind == "c":
        return _complex_logcumsumexp(input.astype(wide, copy=False), dim).astype(input.dtype)
    out = xp.logaddexp.accumulate(input.astype(wide, copy=False), axis=dim)
    out = out.astype(input.dtype, copy=False)
    out += 0.0  # torch's scan starts from -inf: logaddexp(-inf, -0) is +0
    return out


@export
def logcumsumexp(input, dim) -> Tensor:
    """``log(cumsum(exp(input)))`` along ``dim``, computed stably.

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([0.0, 0.0]).logcumsumexp(0)
        tensor([0.0000, 0.6931])
    """
    dim = _scan_dim(input, dim)  # torch checks the dim before the dtype
    if input._data.dtype.kind not in "fcV":
        raise NotImplementedError(
            f"\"logcumsumexp_out_cpu\" not implemented for '{input.dtype.scalar_name}'"
        )
    return _logcumsumexp(input, dim)


# -- diff (composite) ------------------------------------------------------------------------
@export
def diff(input, n=1, dim=-1, prepend=None, append=None) -> Tensor:
    """The ``n``-th forward difference along ``dim`` (``prepend``/``append`` are joined
    first; bools give ``logical_xor``).

    Example:
        >>> import numtorch as torch
        >>> torch.tensor([1, 4, 9, 16]).diff()
        tensor([3, 5, 7])
    """
    if input.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    from .concatenation import cat

    dim = _wrap_dim(dim, input.ndim)
    parts = [p for p in (prepend, input, append) if p is not None]
    if len(parts) > 1:
        for p in parts:
            if p.ndim != input.ndim:
                raise RuntimeError(
                    "diff expects prepend or append to be the same dimension as input"
                )
        input = cat(parts, dim)
    for _ in range(n):
        length = input.shape[dim]
        if length == 0:
            break
        later = input.narrow(dim, 1, length - 1)
        earlier = input.narrow(dim, 0, length - 1)
        if input._data.dtype == xp.bool_:
            input = later.logical_xor(earlier)
        else:
            input = later - earlier
    return input


def _scan_inplace(name: str):
    # cumsum_/cumprod_ keep self's dtype: torch has no bool kernel and refuses another dtype
    general = getattr(Tensor, name)

    def method(self, dim, *, dtype=None):
        if dtype is not None and dtype is not self.dtype:
            raise RuntimeError(
                f"Bad in-place call: input tensor dtype {self.dtype.c_name} and output tensor "
                f"dtype {dtype.c_name} should match"
            )
        if self._data.dtype == xp.bool_:
            raise NotImplementedError(f"\"{name[:-1]}_out_cpu\" not implemented for 'Bool'")
        return general(self, dim)

    method.__name__ = name
    return method


Tensor.cumsum_ = _scan_inplace("cumsum_")
Tensor.cumprod_ = _scan_inplace("cumprod_")

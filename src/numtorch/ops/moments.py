"""Variance and standard deviation (var, std, var_mean, std_mean) with Bessel's correction, the mean
computed as torch's Welford kernel does."""

from __future__ import annotations

import math
import warnings

from .._core import batch_rules
from .._core.op import defop, export
from .._core.tensor import Tensor
from ..autograd.forward_grad import batched
from ..backend import xp
from ..backend.layout import row_major
from .pointwise import _div_scalar, where
from .reduction import (
    _count,
    _expand_back,
    _invalid,
    _mean_jvp,
    _restore,
    _sum_jvp,
    keepdim_error,
    reduce_dims_checked,
)


# -- variance and standard deviation ---------------------------------------------------------
def _var_backward(grad, input, dim, correction, keepdim):
    n = _count(input.shape, dim)
    g = _restore(grad, dim, input.ndim, keepdim)
    centered = input - input.mean(dim, keepdim=True)
    dof = n - correction
    if dof <= 0 and (dim is None or input.ndim == 0):
        # torch's full reduction: 2 / (n - correction) taken as infinite, times the deviation:
        # NaN where it is 0, inf elsewhere (a constant in the input, so no second order)
        return g * where(centered == 0, math.nan, math.inf)
    # along dims torch divides by n - correction as it is (inf at 0, negative below)
    return g * (2.0 / dof if dof else math.inf) * centered


def _std_backward(grad, input, result, dim, correction, keepdim):
    # torch's formula: var's gradient of grad / (2 std), that ratio 0 where std is 0 (masked
    # before var's gradient, so its own derivative meets no inf * 0 there either)
    return _var_backward(
        (grad / (result * 2)).masked_fill(result == 0, 0), input, dim, correction, keepdim
    )


def _moment(input, dim, correction, keepdim, take_root, welford=False):
    if input.dtype == xp.float16:  # torch accumulates half in float: no overflow in the sum
        out = _moment(input.astype(xp.float32), dim, correction, keepdim, take_root, welford)
        return out.astype(xp.float16)
    if input.dtype == xp.float32:
        # torch's float kernels accumulate in double and take std's root there, rounding
        # once at the end (NumPy's float32 var was an ulp off in about one value in five)
        out = _moment(input.astype(xp.float64), dim, correction, keepdim, take_root, welford)
        return out.astype(xp.float32)
    n = input.size if dim is None else math.prod(input.shape[d] for d in dim)
    if n - correction <= 0:  # torch gives inf or nan here rather than raising
        real = input.real.dtype  # (a complex input's variance is real)
        biased = (
            _constant_slices_exact(xp.var(input, axis=dim, keepdims=keepdim), input, dim, welford)
            if n
            else xp.full(xp.sum(input, axis=dim, keepdims=keepdim).shape, xp.nan, real)
        )
        # torch divides by max(0, n - correction): inf, or NaN for a zero (or empty) sum
        with xp.errstate(invalid="ignore"):  # the entry point warned as torch does
            out = (biased * math.inf).astype(real, copy=False)
    else:
        out = xp.var(input, axis=dim, ddof=correction, keepdims=keepdim)
        out = _constant_slices_exact(out, input, dim, welford)
        if _overflows(input) and dim is not None and out.size > 1:
            _, m2, count = _welford_in_order(input, dim)
            if m2 is not None:
                out = (m2 / (count - correction)).astype(input.dtype).reshape(out.shape)
    return row_major(xp.sqrt(out) if take_root else out)


# A value whose square overflows float64: torch's Welford kernel (its dim reductions) then
# gives NaN where a square of the deviation from NumPy's mean gives inf
_OVERFLOWS = 1e150


def _overflows(input) -> bool:
    if input.dtype != xp.float64 or not input.size:
        return False
    finite = input[xp.isfinite(input)]
    return bool(finite.size and xp.abs(finite).max() >= _OVERFLOWS)


def _constant_slices_exact(variance, input, dim, welford=False):
    """``variance`` with 0 for every slice of equal finite values where torch runs its
    Welford kernel: a reduction that keeps more than one output element, and every
    reduction of var_mean and std_mean (``welford``) (var and std's full reduction, once
    dims of size 1 are dropped, takes the mean first and sums the squared deviations, as
    NumPy does). Welford's running mean stays exactly that value, so every deviation is
    0; a mean taken as sum / n may not be (three 0.1s), which leaves rounding noise where
    torch has 0 (and std's gradient, masked at 0, is finite only there)."""
    if input.dtype.kind != "f" or not input.size:
        return variance
    if not welford and (dim is None or variance.size <= 1):
        return variance
    low = xp.min(input, axis=dim, keepdims=True)
    constant = (low == xp.max(input, axis=dim, keepdims=True)) & xp.isfinite(low)
    if not constant.any():
        return variance
    if variance.ndim != constant.ndim:  # keepdim=False
        constant = xp.squeeze(constant, axis=dim)
    return xp.where(constant, xp.zeros((), variance.dtype), variance)


# d var = 2 / (n - correction) * sum((x - mean) dx); d std = d var / (2 std), 0 where std is 0
@batched
def _var_jvp(input_t, input, dim, correction, keepdim):
    dof = _count(input.shape, dim) - correction
    centered = input - input.mean(dim, keepdim=True)
    if input.is_complex():
        part = (input_t * centered.conj()).real
    else:
        part = input_t * centered
    return _sum_jvp(part, input, dim, keepdim) * (2.0 / dof if dof else math.inf)


@batched
def _std_jvp(input_t, input, result, dim, correction, keepdim):
    return where(
        result == 0, 0.0, _var_jvp(input_t, input, dim, correction, keepdim) / (2 * result)
    )


@defop(
    batch=batch_rules.along("dim", none="all"),
    name="var",
    input=_var_backward,
    jvp=_var_jvp,
)
def _var(input, dim, correction, keepdim):
    return _moment(input, dim, correction, keepdim, False)


@defop(
    batch=batch_rules.along("dim", none="all"),
    name="std",
    input=_std_backward,
    jvp=_std_jvp,
)
def _std(input, dim, correction, keepdim):
    return _moment(input, dim, correction, keepdim, True)


def _correction(unbiased, correction):
    if correction is not None:
        return correction
    return 1 if unbiased is None or unbiased else 0


def _check_moment_dtype(input) -> None:
    if input._data.dtype.kind not in "fcV":
        raise RuntimeError("std and var only support floating point and complex dtypes")


def _moment_args(input, dim, unbiased, keepdim, correction, name):
    if isinstance(dim, bool):  # legacy var(input, unbiased)
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise _invalid(name, "unbiased=bool, correction=Number")
    if keepdim.__class__ is not bool:
        raise keepdim_error(name, keepdim)
    dims = reduce_dims_checked(dim, input.ndim, lambda: _check_moment_dtype(input))
    correction = _correction(unbiased, correction)
    shape = input.shape
    kept = math.prod(n for d, n in enumerate(shape) if dims is not None and d not in dims)
    if (math.prod(shape) // kept if kept else 0) - correction <= 0:
        warnings.warn(  # torch warns on each call, and returns inf or NaN
            f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
            "reduction factor (input numel divided by output numel).",
            UserWarning,
            stacklevel=4,
        )
    return dims, correction, keepdim


@export
def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None) -> Tensor:
    """Variance with Bessel's correction by default (``correction=1``)."""
    return _var(input, *_moment_args(input, dim, unbiased, keepdim, correction, "var"))


@export
def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None) -> Tensor:
    """Standard deviation with Bessel's correction by default."""
    return _std(input, *_moment_args(input, dim, unbiased, keepdim, correction, "std"))


def _moment_mean_backward(grads, input, result0, dim, correction, keepdim, take_root):
    # one node for both outputs, as torch's VarMeanBackward0 / StdMeanBackward0
    g_moment, g_mean = grads
    total = None
    if g_moment is not None:
        total = (
            _std_backward(g_moment, input, result0, dim, correction, keepdim)
            if take_root
            else _var_backward(g_moment, input, dim, correction, keepdim)
        )
    if g_mean is not None:
        # torch's mean_backward divides by the count as a Scalar (DivBackward1)
        part = _div_scalar(
            _expand_back(g_mean, input.shape, dim, keepdim), _count(input.shape, dim)
        )
        total = part if total is None else total + part
    return total


@defop(
    batch=batch_rules.along("dim", none="all"),
    name="var_mean",
    outputs=2,
    input=lambda grads, input, result0, dim, correction, keepdim: _moment_mean_backward(
        grads, input, result0, dim, correction, keepdim, False
    ),
    jvp=batched(
        lambda input_t, input, dim, correction, keepdim: (
            _var_jvp(input_t, input, dim, correction, keepdim),
            _mean_jvp(input_t, input, dim, keepdim),
        )
    ),
)
def _var_mean(input, dim, correction, keepdim):
    return _moment(input, dim, correction, keepdim, False, True), _welford_mean(input, dim, keepdim)


# torch's var_mean and std_mean take the mean from the Welford recurrence m += (x - m) / k,
# element by element: an infinity before the last element makes it NaN (inf - inf) where a
# plain mean stays inf. Finite inputs keep NumPy's mean (the same number to rounding), and
# so do reductions too long for torch to run in one sequence.
_WELFORD_IN_ORDER = 4096


def _welford_mean(input, dim, keepdim):
    if input.dtype == xp.float32:  # torch's recurrence runs in double, rounded once
        mean = xp.mean(input, axis=dim, keepdims=keepdim, dtype=xp.float64).astype(xp.float32)
    else:
        mean = xp.mean(input, axis=dim, keepdims=keepdim)
    if input.ndim == 0 or input.dtype.kind != "f":
        return mean
    if input.size:  # a running mean of equal values stays that value (sum / n may not)
        low = xp.min(input, axis=dim, keepdims=keepdim)
        constant = (low == xp.max(input, axis=dim, keepdims=keepdim)) & xp.isfinite(low)
        mean = xp.where(constant, low, mean)
    if xp.isfinite(input).all() and not _overflows(input):
        return mean
    running, _, _ = _welford_in_order(input, dim)
    return mean if running is None else running.astype(input.dtype).reshape(mean.shape)


def _welford_in_order(input, dim):
    """torch's Welford recurrence element by element along ``dim``: the running mean, the sum
    of squared deviations m2 and the count, or Nones for a reduction too long to run in
    one sequence (NumPy's numbers stand there)."""
    axes = tuple(range(input.ndim)) if dim is None else tuple(d % input.ndim for d in dim)
    n = math.prod(input.shape[d] for d in axes)
    if n > _WELFORD_IN_ORDER:
        return None, None, n
    kept = [size for d, size in enumerate(input.shape) if d not in axes]
    x = xp.moveaxis(input, axes, tuple(range(-len(axes), 0))).reshape(*kept, n)
    running = xp.zeros(x.shape[:-1])
    m2 = xp.zeros(x.shape[:-1])
    with xp.errstate(all="ignore"):
        for k in range(n):
            delta = x[..., k] - running
            running = running + delta / (k + 1)
            m2 = m2 + delta * (x[..., k] - running)
    return running, m2, n


@defop(
    batch=batch_rules.along("dim", none="all"),
    name="std_mean",
    outputs=2,
    input=lambda grads, input, result0, dim, correction, keepdim: _moment_mean_backward(
        grads, input, result0, dim, correction, keepdim, True
    ),
    jvp=batched(
        lambda input_t, input, result0, dim, correction, keepdim: (
            _std_jvp(input_t, input, result0, dim, correction, keepdim),
            _mean_jvp(input_t, input, dim, keepdim),
        )
    ),
)
def _std_mean(input, dim, correction, keepdim):
    return _moment(input, dim, correction, keepdim, True, True), _welford_mean(input, dim, keepdim)


# functions only: torch's Tensor has no var_mean or std_mean method
@export(method=False)
def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _var_mean(input, *_moment_args(input, dim, unbiased, keepdim, correction, "var_mean"))


@export(method=False)
def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _std_mean(input, *_moment_args(input, dim, unbiased, keepdim, correction, "std_mean"))

"""Reductions: sum, mean, prod, logsumexp, cumsum, all, any and count_nonzero, and the dim handling
every reduction shares."""

from __future__ import annotations

import math

from .._core import batch_rules, grad_mode, unsigned
from .._core import dtypes as _dtypes
from .._core.dispatch import require_tensor
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim, typename
from .._creation import ones_like
from ..autograd.forward_grad import batch_shift, batched
from ..backend import xp
from ..backend.layout import row_major
from ..backend.vector_sum import ordered_sum
from .concatenation import cat
from .pointwise import _conj, _div_scalar, where

_INTEGERS = (int, xp.integer)


def reduce_dims(dim, ndim: int) -> tuple | None:
    """Normalise ``dim`` (int, sequence or None) to sorted non-negative dims; None = all."""
    if dim is None:
        return None
    if dim.__class__ is not bool and isinstance(dim, _INTEGERS) or _is_index_tensor(dim):
        d = _wrap_dim(int(dim), ndim)
        return (d,) if ndim else None
    # torch's argument parser refuses anything else before any op runs, a lone bool included
    # (in a sequence a bool is read as an int); ``all`` and ``any`` in this module are the
    # tensor reductions, hence the comprehension
    if not isinstance(dim, (list, tuple)) or [
        d for d in dim if not (isinstance(d, _INTEGERS) or _is_index_tensor(d))
    ]:
        raise TypeError(
            f"received an invalid combination of arguments - got (dim={type(dim).__name__}, ), "
            "but expected dim as an int, a tuple of ints or None"
        )
    dims = tuple(_wrap_dim(int(d), ndim) for d in dim)
    if len(set(dims)) != len(dims):
        repeated = next(d for d in dims if dims.count(d) > 1)
        raise RuntimeError(f"dim {repeated} appears multiple times in the list of dims")
    if ndim == 0:  # a 0-d tensor accepts dim 0 or -1, which reduce nothing
        return None
    return tuple(sorted(dims)) if dims else None


def _is_index_tensor(value) -> bool:
    """A 0-d integer (or bool) tensor, which torch's parser reads as an int dim."""
    return isinstance(value, Tensor) and value._data.ndim == 0 and value._data.dtype.kind in "biu"


def reduce_dims_checked(dim, ndim: int, check) -> tuple | None:
    """``reduce_dims`` in torch's order around the op's dtype ``check``: a dim of the wrong
    kind is refused before the check (by the parser), its range and repeats after it."""
    try:
        dims = reduce_dims(dim, ndim)
    except (IndexError, RuntimeError):
        check()
        raise
    check()
    return dims


def keepdim_error(name: str, keepdim) -> TypeError:
    """torch's parser takes only a bool for ``keepdim`` (not 1, None nor a NumPy bool), and
    refuses anything else before a dim is read: callers test ``keepdim.__class__ is bool``."""
    return TypeError(f"{name}(): argument 'keepdim' must be bool, not {typename(keepdim)}")


_UNSET = object()  # an argument not passed: torch's overloads tell it apart from None


def _invalid(name: str, given: str) -> TypeError:
    return TypeError(
        f"{name}() received an invalid combination of arguments - got ({given}), but expected "
        f"one of the overloads taking ``dim``"
    )


def _restore(grad, dims, ndim: int, keepdim: bool):
    """Re-insert reduced dims as size 1 so ``grad`` broadcasts against the input."""
    if keepdim or grad.ndim == ndim:
        return grad
    if dims is None:
        return grad.reshape((1,) * ndim)
    for d in dims:
        grad = grad.unsqueeze(d)
    return grad


def _expand_back(grad, input_shape, dims, keepdim):
    return _restore(grad, dims, len(input_shape), keepdim).expand(input_shape)


def _count(shape, dims) -> int:
    if dims is None:
        return math.prod(shape)
    return math.prod(shape[d] for d in dims)


def _axis(dims):
    return None if dims is None else dims


# Note [Reductions with dtype=]
# torch converts the input of a reduction given ``dtype=`` (sum, mean, nansum, cumsum,
# cumprod, vector_norm) inside the op: the graph holds the reduction's own node and no
# ToCopyBackward0 beneath it, and the engine casts the gradient back to the input's dtype.
# A complex ``dtype=`` of a real input gives a complex gradient there, which torch's engine
# refuses (its formulas for sum, mean, prod and cumprod take no real part: ``r_to_c``).
# The kernels of the halves accumulate in float32 and round once at the end, so a half
# ``dtype=`` is read as float32 here (NumPy's bfloat16 loops would round every step).
_HALVES = (xp.dtype(xp.float16), _dtypes.bfloat16.np)


def read_as(input, dtype):
    """``input`` (an array) as a reduction given ``dtype=`` reads it (``rounded`` gives the
    result back in ``dtype``)."""
    if dtype is None:
        return input
    target = _dtypes.to_dtype(dtype).np
    if target in _HALVES:
        return input.astype(target).astype(xp.float32)
    return input.astype(target, copy=False)


def rounded(result, dtype):
    """A reduction's result in the ``dtype=`` it was given (Note [Reductions with dtype=])."""
    if dtype is None:
        return result
    return xp.asarray(result).astype(_dtypes.to_dtype(dtype).np, copy=False)


def _accumulate_dtype(input, dtype):
    if dtype is not None:
        return _dtypes.to_dtype(dtype).np
    return xp.int64 if input.dtype.kind in "biu" else None


def _sum_of(input, dim, keepdim, dtype):
    a = read_as(input, dtype)  # integers sum in int64 (wrapping in a narrower dtype=)
    total = ordered_sum(a, dim, keepdim)  # Note [Sum in torch's vector order]
    if total is None:
        total = xp.sum(a, axis=dim, keepdims=keepdim, dtype=_accumulate_dtype(a, None))
    return rounded(total, dtype)


# Forward derivatives of the sums and means (linear): the same reduction of the tangent,
# over the dims shifted past a leading batch of tangents (Note [Forward grads]).
def _reduced_dims(tangent, input, dim):
    shift = batch_shift(tangent, input)
    if dim is None or dim == () or dim == []:
        return tuple(range(shift, tangent.ndim))
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    return tuple(d % input.ndim + shift for d in dims) if input.ndim else ()


@batched
def _sum_jvp(input_t, input, dim=None, keepdim=False):
    dims = _reduced_dims(input_t, input, dim)
    return input_t.sum(dims, keepdim) if dims else input_t


@batched
def _sum_all_jvp(input_t, input):
    return _sum_jvp(input_t, input)


@batched
def _mean_all_jvp(input_t, input):
    return _mean_jvp(input_t, input)


@batched
def _mean_jvp(input_t, input, dim=None, keepdim=False):
    dims = _reduced_dims(input_t, input, dim)
    return input_t.mean(dims, keepdim) if dims else input_t


def _slice_jvp(weight, input_t, input, result, dim, keepdim):
    """The forward derivative of a reduction whose every result element reads its own slice
    of ``input``: the slice's tangent weighted by the result's derivative with respect to it
    (``weight``, the backward of ones). A real result of complex values has the conjugate
    derivative as its gradient (torch's convention): its tangent is Re(conj(weight) dx)."""
    if result.is_complex() or not weight.is_complex():
        return _sum_jvp(weight * input_t, input, dim, keepdim)
    return _sum_jvp(weight.conj() * input_t, input, dim, keepdim).real


def _take_along(input_t, input, dim, indices, keepdim=True):
    """``input_t`` read at the positions ``indices`` picked along ``dim`` (torch's
    gather_with_keepdimed_indices), past a leading batch of tangents."""
    if input.ndim == 0:
        return input_t
    if not keepdim:
        indices = indices.unsqueeze(dim)
    shift = batch_shift(input_t, input)
    if shift:
        indices = indices.expand(tuple(input_t.shape[:shift]) + tuple(indices.shape))
    out = input_t.gather(dim + shift, indices)
    return out if keepdim else out.squeeze(dim + shift)


# -- sum and mean ----------------------------------------------------------------------------
@defop(
    batch=batch_rules.full_reduction("sum_dim", (1,)),
    name="sum_all",
    r_to_c=False,  # Note [Reductions with dtype=]
    aten="sum",
    node="SumBackward0",
    input=lambda grad, input_shape: grad.expand(input_shape),
    jvp=_sum_all_jvp,
)
def _sum_all(input, dtype=None):
    return _sum_of(input, None, False, dtype)


@defop(
    batch=batch_rules.along("dim", none="all"),
    name="sum_dim",
    r_to_c=False,  # Note [Reductions with dtype=]
    aten="sum",
    node="SumBackward1",
    input=lambda grad, input_shape, dim, keepdim: _expand_back(grad, input_shape, dim, keepdim),
    jvp=_sum_jvp,
)
def _sum_dim(input, dim, keepdim=False, dtype=None):
    return row_major(_sum_of(input, dim, keepdim, dtype))


@export
def sum(input, dim=_UNSET, keepdim=_UNSET, *, dtype=None) -> Tensor:
    """Sum of all elements, or over ``dim`` (int or tuple), keeping it if ``keepdim``."""
    if dtype is not None:
        check_result_dtype(input, dtype)
    if dim is _UNSET:
        if keepdim is not _UNSET:
            raise _invalid("sum", "keepdim=bool")
        return _sum_all(input, dtype)
    keepdim = False if keepdim is _UNSET else keepdim
    if keepdim.__class__ is not bool:
        raise keepdim_error("sum", keepdim)
    if dim is None:  # the dim overload given None: all dims (SumBackward1)
        return _sum_dim(input, None, keepdim, dtype)
    return _sum_dim(input, reduce_dims(dim, input.ndim), keepdim, dtype)


def _check_float(input, name, dtype=None):
    # a dtype= given is checked in place of the input's own
    which, dtype = (
        ("Input", input.dtype) if dtype is None else ("Optional", _dtypes.to_dtype(dtype))
    )
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(
            f"{name}(): could not infer output dtype. {which} dtype must be either a floating "
            f"point or complex dtype. Got: {dtype.scalar_name}"
        )


@defop(
    batch=batch_rules.full_reduction("mean_dim", (1,)),
    name="mean_all",
    r_to_c=False,  # Note [Reductions with dtype=]
    aten="mean",
    node="MeanBackward0",
    input=lambda grad, input_shape: _div_scalar(
        grad.expand(input_shape), _count(input_shape, None)
    ),
    jvp=_mean_all_jvp,
)
def _mean_all(input, dtype=None):
    return _mean(input, None, False, dtype)


@defop(
    batch=batch_rules.along("dim", none="all"),
    name="mean_dim",
    r_to_c=False,  # Note [Reductions with dtype=]
    aten="mean",
    node="MeanBackward1",
    input=lambda grad, input_shape, dim, keepdim: _div_scalar(
        _expand_back(grad, input_shape, dim, keepdim), _count(input_shape, dim)
    ),
    jvp=_mean_jvp,
)
def _mean_dim(input, dim, keepdim=False, dtype=None):
    return row_major(_mean(input, dim, keepdim, dtype))


def _mean(input, dim, keepdim, dtype):
    # torch's mean of the halves sums the input (not rounded to the half first) in float32,
    # divides and rounds once; NumPy's mean of float16 does the same
    if dtype is None or _dtypes.to_dtype(dtype).np not in _HALVES:
        a = read_as(input, dtype)
        total = ordered_sum(a, dim, keepdim)  # torch's mean: its sum over the count
        if total is None:
            return xp.mean(a, axis=dim, keepdims=keepdim)
        return total / a.dtype.type(_count(a.shape, dim))
    return rounded(xp.mean(input.astype(xp.float32), axis=dim, keepdims=keepdim), dtype)


@export
def mean(input, dim=_UNSET, keepdim=_UNSET, *, dtype=None) -> Tensor:
    """Arithmetic mean (floating inputs only, as in torch)."""
    require_tensor("mean", "input", 1, input)
    if dim is _UNSET and keepdim is not _UNSET:
        raise _invalid("mean", "keepdim=bool")
    keepdim = False if keepdim is _UNSET else keepdim
    if keepdim.__class__ is not bool:
        raise keepdim_error("mean", keepdim)
    if dim is _UNSET or dim is None:  # (None: the dim overload's all dims, MeanBackward1)
        _check_float(input, "mean", dtype)
        return _mean_all(input, dtype) if dim is _UNSET else _mean_dim(input, None, keepdim, dtype)
    dims = reduce_dims_checked(dim, input.ndim, lambda: _check_float(input, "mean", dtype))
    return _mean_dim(input, dims, keepdim, dtype)


@defop(
    batch=batch_rules.along("dim", none="all"),
    name="nansum",
    input=lambda grad, input, dim, keepdim: (
        _expand_back(grad.to(input.dtype), input.shape, dim, keepdim) * input.isnan().logical_not()
    ),
    jvp=batched(
        lambda input_t, input, dim, keepdim: _sum_jvp(
            where(input.isnan(), 0.0, input_t), input, dim, keepdim
        )
    ),
)
def _nansum(input, dim, keepdim, dtype=None):
    total = xp.nansum(read_as(input, dtype), axis=dim, keepdims=keepdim)
    return row_major(rounded(total, dtype))


@export
def nansum(input, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    """The sum treating NaN as zero (NansumBackward0: NaN positions get no gradient)."""
    if keepdim.__class__ is not bool:
        raise keepdim_error("nansum", keepdim)
    if input.is_complex():
        raise RuntimeError("nansum on CPU does not support complex inputs")
    if dtype is not None:
        check_result_dtype(input, dtype)
    if not input.is_floating_point():  # no NaN to skip: integers keep sum's dtype
        return sum(input, dim, keepdim, dtype=dtype)
    if dtype is not None and not _dtypes.to_dtype(dtype).is_floating_point:
        dtype = _dtypes.to_dtype(dtype)
        if dtype.is_complex and input.numel():  # the kernel has no complex loop
            raise NotImplementedError(f"\"nansum_cpu\" not implemented for '{dtype.scalar_name}'")
        input = input.masked_fill(input.isnan(), 0)  # NaN is skipped before the cast
        return sum(input.to(dtype), dim, keepdim, dtype=dtype)
    return _nansum(input, reduce_dims(dim, input.ndim), keepdim, dtype)


@export
def nanmean(input, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    """The mean of the non-NaN elements: their sum (in ``dtype`` when given) over their count."""
    if not (input.is_floating_point() or input.is_complex()):
        raise RuntimeError(
            "nanmean(): expected input to have floating point or complex dtype but got "
            f"{input.dtype.scalar_name}"
        )
    if dtype is not None:
        _check_float(input, "nanmean", dtype)
    valid = ~input.isnan()
    return nansum(input, dim, keepdim, dtype=dtype) / sum(valid, dim, keepdim)


# -- prod ------------------------------------------------------------------------------------
# torch's formulas, so values round the same and double backward builds the same graph.
def _product_of_others(input, dim):
    # for each element the product of the others along dim, exact with zeros: exclusive
    # cumulative products taken from both ends ([1, a, ab] * [bc, c, 1] for [a, b, c])
    n = input.shape[dim]
    edge = list(input.shape)
    edge[dim] = 1
    ones = Tensor._make(xp.ones(edge, input._data.dtype))
    from_start = cat([ones, input.narrow(dim, 0, n - 1)], dim).cumprod(dim)
    from_end = cat([ones, input.narrow(dim, 1, n - 1).flip(dim)], dim).cumprod(dim).flip(dim)
    return from_start * from_end


def _prod_safe_zeros_backward(grad, input, dim):
    if input.numel() == 0:
        return grad.expand_as(input)
    if input.shape[dim] == 1:
        return grad
    return grad * _product_of_others(input, dim)


def _prod_all_backward(grad, input, result):
    if input.ndim == 0:
        return grad
    zeros = int((input._data == 0).sum())
    if not zeros:
        return grad * (result / input)
    if zeros > 1 and not grad_mode.is_grad_enabled():
        # torch's shortcut, taken only outside create_graph: two zeros make every product of
        # the others 0 (even beside an inf or NaN, which the cumulative products would spread)
        return Tensor._make(xp.zeros(input.shape, input._data.dtype))
    return _prod_safe_zeros_backward(grad, input.contiguous().view(-1), 0).view_as(input)


def _prod_dim_backward(grad, input, result, dim, keepdim):
    if input.ndim == 0:
        return grad
    if not keepdim:
        grad, result = grad.unsqueeze(dim), result.unsqueeze(dim)
    if not (input._data == 0).any():
        return grad * (result / input)
    return _prod_safe_zeros_backward(grad, input, dim)


@batched
def _prod_all_jvp(input_t, input, result):
    weight = _prod_all_backward(ones_like(result), input, result)
    return _slice_jvp(weight, input_t, input, result, None, False)


@batched
def _prod_dim_jvp(input_t, input, result, dim, keepdim):
    weight = _prod_dim_backward(ones_like(result), input, result, dim, keepdim)
    return _slice_jvp(weight, input_t, input, result, dim, keepdim)


@defop(
    batch=batch_rules.full_reduction("prod_dim"),
    name="prod_all",
    r_to_c=False,  # Note [Reductions with dtype=]
    aten="prod",
    node="ProdBackward0",
    # for complex inputs the conjugate derivative: the formula (a product of the inputs, real
    # coefficients) of the conjugates (Note [Complex autograd])
    input=lambda grad, input, result: _prod_all_backward(grad, _conj(input), _conj(result)),
    jvp=_prod_all_jvp,
)
def _prod_all(input, dtype=None):
    return xp.prod(input, dtype=_accumulate_dtype(input, dtype))


@defop(
    batch=batch_rules.along("dim"),
    name="prod_dim",
    r_to_c=False,  # Note [Reductions with dtype=]
    aten="prod",
    node="ProdBackward1",
    input=lambda grad, input, result, dim, keepdim: _prod_dim_backward(
        grad, _conj(input), _conj(result), dim, keepdim
    ),
    jvp=_prod_dim_jvp,
)
def _prod_dim(input, dim, keepdim=False, dtype=None):
    return row_major(
        xp.prod(input, axis=dim, keepdims=keepdim, dtype=_accumulate_dtype(input, dtype))
    )


@export
def prod(input, dim=_UNSET, keepdim=_UNSET, *, dtype=None) -> Tensor:
    """Product of all elements, or along one ``dim``."""
    if dim is None or (dim is _UNSET and keepdim is not _UNSET):
        raise _invalid("prod", "dim=NoneType" if dim is None else "keepdim=bool")
    keepdim = False if keepdim is _UNSET else keepdim
    if dtype is not None:
        check_result_dtype(input, dtype)
    if dim is _UNSET:
        return _prod_all(input, dtype)
    return _prod_dim(input, _wrap_dim(dim, input.ndim), keepdim, dtype)


# -- logsumexp (softmax and log_softmax live in softmax.py) ------------------------------
def _stable_max(input, dims):
    m = (
        xp.max(input, axis=dims, keepdims=True)
        if input.size
        else xp.zeros((1,) * input.ndim, input.dtype)
    )
    return xp.where(xp.isfinite(m), m, 0)


def _logsumexp_backward(grad, input, result, dim, keepdim):
    g = _restore(grad, dim, input.ndim, keepdim)
    return g * _conj((input - _restore(result, dim, input.ndim, keepdim)).exp())


@batched
def _logsumexp_jvp(input_t, input, dim, keepdim):
    # torch's: the tangent weighted by softmax over dim, normalised after the sum
    if input.numel():
        weight = (input - input.amax(() if dim is None else dim, keepdim=True)).exp()
    else:
        weight = input.exp()
    total = weight.sum() if dim is None else weight.sum(dim, keepdim=keepdim)
    return _sum_jvp(weight * input_t, input, dim, keepdim) / total


@defop(
    batch=batch_rules.along("dim", none="all"),
    name="logsumexp",
    promote="float",
    input=_logsumexp_backward,
    jvp=_logsumexp_jvp,
)
def _logsumexp(input, dim, keepdim):
    m = _stable_max(input, dim)
    out = xp.log(xp.sum(xp.exp(input - m), axis=dim, keepdims=True)) + m
    return row_major(out if keepdim else out.squeeze(dim if dim is not None else None))


@export
def logsumexp(input, dim, keepdim=False) -> Tensor:
    """log(sum(exp(x))) over ``dim``, computed stably."""
    if keepdim.__class__ is not bool:
        raise keepdim_error("logsumexp", keepdim)
    empty = isinstance(dim, (tuple, list)) and len(dim) == 0
    if empty and not keepdim and input.ndim and input._data.size:
        # torch reduces every dim for an empty list, but writes into an output shaped as
        # though none were reduced: only a kept shape or an empty input gets through
        raise RuntimeError(
            f"output with shape [] doesn't match the broadcast shape {[1] * input.ndim}"
        )
    return _logsumexp(input, reduce_dims(dim, input.ndim), keepdim)


# -- cumulative ops and sorting --------------------------------------------------------------
def _cumsum_backward(grad, dim):
    # the reversed cumulative sum; torch passes the gradient on as it is where that is itself
    # (at most one element, or a dim of size 1)
    if grad.numel() <= 1 or grad.shape[dim] == 1:
        return grad
    return grad.flip(dim).cumsum(dim).flip(dim)


@defop(
    batch=batch_rules.along("dim"),
    name="cumsum",
    # torch casts the gradient to the input's dtype first (Note [Reductions with dtype=])
    input=lambda grad, input_dtype, dim: _cumsum_backward(grad.to(input_dtype), dim),
    jvp=batched(
        lambda input_t, input, dim, dtype: (
            _cumsum(input_t, dim + batch_shift(input_t, input), dtype)
            if input.ndim
            else input_t.to(dtype or input_t.dtype)
        )
    ),
)
def _cumsum(input, dim, dtype=None):
    if dtype is None:
        return _scan_sum(input, dim)
    out = _scan_sum(input.astype(_dtypes.to_dtype(dtype).np, copy=False), dim)
    # an explicit integer dtype is kept (the default accumulates small integers in int64)
    return rounded(out, dtype)


def _scan_sum(input, dim):
    dtype = xp.int64 if input.dtype.kind in "biu" else None
    if input.ndim == 0:  # NumPy would flatten a 0-d input to shape (1,)
        return input.astype(dtype or input.dtype)
    wide = scan_accumulator(input.dtype)
    if wide is None:
        return row_major(xp.cumsum(input, axis=dim, dtype=dtype))
    out = row_major(xp.cumsum(input, axis=dim, dtype=wide).astype(input.dtype))
    out += 0.0  # torch's scan starts from +0: a leading -0 sums to +0
    return out


# Note [Scan accumulators]
# torch's CPU scans (cumsum, cumprod, logcumsumexp) carry their running value in a wider
# type than the input's (its acc_type: double for float, float for the halves, complex
# double for complex float) and round each output to the input's dtype; a float32 cumsum
# of a thousand 0.1s is 100.0 there, 99.999 in float32 steps.
_SCAN_ACCUMULATORS = {
    xp.dtype(xp.float32): xp.float64,
    xp.dtype(xp.float16): xp.float32,
    xp.dtype(_dtypes.bfloat16.np): xp.float32,
    xp.dtype(xp.complex64): xp.complex128,
    xp.dtype(xp.float64): xp.float64,
    xp.dtype(xp.complex128): xp.complex128,
}


def scan_accumulator(dtype):
    """The dtype torch's scans accumulate ``dtype`` in (Note [Scan accumulators]); None for
    integers and bools."""
    return _SCAN_ACCUMULATORS.get(dtype)


def check_result_dtype(input, dtype) -> None:
    """torch's autograd refuses to record a reduction whose ``dtype=`` result cannot carry
    a gradient (an integer or bool sum of a tensor that requires grad)."""
    if input._requires_grad and grad_mode.is_grad_enabled():
        dtype = _dtypes.to_dtype(dtype)
        if not (dtype.is_floating_point or dtype.is_complex):
            raise RuntimeError(f"Autograd not support dtype: {dtype.scalar_name}")


def scan_dtype_check(name: str, dtype) -> None:
    """torch's CPU scans have no bool kernel for an explicit ``dtype=torch.bool``."""
    if dtype == _dtypes.bool_:
        raise NotImplementedError(f"\"{name}_out_cpu\" not implemented for 'Bool'")


@export(inplace=True)
def cumsum(input, dim, *, dtype=None) -> Tensor:
    if dtype is not None:
        scan_dtype_check("cumsum", dtype)
        check_result_dtype(input, dtype)
    return _cumsum(input, _wrap_dim(dim, input.ndim), dtype)


# all, any and count_nonzero are entries (dims as a tuple, or None for every dim), so that
# vmap batches them as every other reduction
def _logical(kernel):
    def forward(input, dim, keepdim):
        # torch keeps uint8 for all/any of uint8 tensors (a legacy of byte masks)
        dtype = xp.uint8 if input.dtype == xp.uint8 else xp.bool_
        return xp.asarray(kernel(input, axis=dim, keepdims=keepdim), dtype=dtype)

    return forward


_all = defop(batch=batch_rules.along("dim", none="all"), name="all_dims", aten="all")(
    _logical(xp.all)
)
_any = defop(batch=batch_rules.along("dim", none="all"), name="any_dims", aten="any")(
    _logical(xp.any)
)


def _logical_dims(dim, ndim: int):
    # an empty dim list reduces nothing here (every dim, for sum and the others)
    if dim is None:
        return None
    return () if isinstance(dim, (tuple, list)) and not dim else reduce_dims(dim, ndim)


@export
def all(input, dim=None, keepdim=False) -> Tensor:
    if keepdim.__class__ is not bool:
        raise keepdim_error("all", keepdim)
    return _all(input, _logical_dims(dim, input.ndim), keepdim)


@export
def any(input, dim=None, keepdim=False) -> Tensor:
    if keepdim.__class__ is not bool:
        raise keepdim_error("any", keepdim)
    return _any(input, _logical_dims(dim, input.ndim), keepdim)


@defop(batch=batch_rules.along("dim", none="all"), name="count_nonzero_dims", aten="count_nonzero")
def _count_nonzero(input, dim):
    return xp.asarray(xp.count_nonzero(input, axis=dim), dtype=xp.int64)


@export
def count_nonzero(input, dim=None) -> Tensor:
    unsigned.refuse("nonzero_count_cpu", input.dtype)
    return _count_nonzero(input, reduce_dims(dim, input.ndim) if dim is not None else None)

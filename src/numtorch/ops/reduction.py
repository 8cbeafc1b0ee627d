"""Reductions: sum, mean, prod, var/std, max/min, logsumexp, softmax, norms, sorting."""

from __future__ import annotations

import math

from .._core import batch_rules
from .._core import dtypes as _dtypes
from .._core.dispatch import require_tensor
from .._core.meta import metafy
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim
from .._creation import ones_like, zeros, zeros_like
from ..autograd.forward_grad import batch_shift, batched
from ..backend import xp
from .pointwise import _div_scalar, where
from .return_types import CLASSES, structseq
from .shape import cat

_INTEGERS = (int, xp.integer)


def reduce_dims(dim, ndim: int) -> tuple | None:
    """Normalise ``dim`` (int, sequence or None) to sorted non-negative dims; None = all."""
    if dim is None:
        return None
    if isinstance(dim, (int, xp.integer)):
        d = _wrap_dim(int(dim), ndim)
        return (d,) if ndim else None
    # torch's argument parser refuses anything else before any op runs (``all`` and ``any``
    # in this module are the tensor reductions, hence the comprehension)
    if not isinstance(dim, (list, tuple)) or [d for d in dim if not isinstance(d, _INTEGERS)]:
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


def _accumulate_dtype(input, dtype):
    if dtype is not None:
        return _dtypes.to_dtype(dtype).np
    return xp.int64 if input.dtype.kind in "biu" else None


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
    aten="sum",
    node="SumBackward0",
    input=lambda grad, input_shape: grad.expand(input_shape),
    jvp=_sum_all_jvp,
)
def _sum_all(input, dtype=None):
    return xp.sum(input, dtype=_accumulate_dtype(input, dtype))


@defop(
    batch=batch_rules.along("dim", none="all"),
    name="sum_dim",
    aten="sum",
    node="SumBackward1",
    input=lambda grad, input_shape, dim, keepdim: _expand_back(grad, input_shape, dim, keepdim),
    jvp=_sum_jvp,
)
def _sum_dim(input, dim, keepdim=False, dtype=None):
    return xp.sum(input, axis=dim, keepdims=keepdim, dtype=_accumulate_dtype(input, dtype))


@export
def sum(input, dim=_UNSET, keepdim=_UNSET, *, dtype=None) -> Tensor:
    """Sum of all elements, or over ``dim`` (int or tuple), keeping it if ``keepdim``."""
    if dim is _UNSET:
        if keepdim is not _UNSET:
            raise _invalid("sum", "keepdim=bool")
        return _sum_all(input, dtype)
    keepdim = False if keepdim is _UNSET else keepdim
    if dim is None:  # the dim overload given None: all dims (SumBackward1)
        return _sum_dim(input, None, keepdim, dtype)
    return _sum_dim(input, reduce_dims(dim, input.ndim), keepdim, dtype)


def _check_float(input, name):
    if input._data.dtype.kind not in "fcV":
        raise RuntimeError(
            f"{name}(): could not infer output dtype. Input dtype must be either a floating "
            f"point or complex dtype. Got: {input.dtype.scalar_name}"
        )


@defop(
    batch=batch_rules.full_reduction("mean_dim", (1,)),
    name="mean_all",
    aten="mean",
    node="MeanBackward0",
    input=lambda grad, input_shape: _div_scalar(
        grad.expand(input_shape), _count(input_shape, None)
    ),
    jvp=_mean_all_jvp,
)
def _mean_all(input, dtype=None):
    return xp.mean(input, dtype=dtype)


@defop(
    batch=batch_rules.along("dim", none="all"),
    name="mean_dim",
    aten="mean",
    node="MeanBackward1",
    input=lambda grad, input_shape, dim, keepdim: _div_scalar(
        _expand_back(grad, input_shape, dim, keepdim), _count(input_shape, dim)
    ),
    jvp=_mean_jvp,
)
def _mean_dim(input, dim, keepdim=False, dtype=None):
    return xp.mean(input, axis=dim, keepdims=keepdim, dtype=dtype)


@export
def mean(input, dim=_UNSET, keepdim=_UNSET, *, dtype=None) -> Tensor:
    """Arithmetic mean (floating inputs only, as in torch)."""
    require_tensor("mean", "input", 1, input)
    if dim is _UNSET and keepdim is not _UNSET:
        raise _invalid("mean", "keepdim=bool")
    keepdim = False if keepdim is _UNSET else keepdim
    if dtype is not None:
        input = input.to(dtype)
    _check_float(input, "mean")
    if dim is _UNSET:
        return _mean_all(input)
    if dim is None:  # the dim overload given None: all dims (MeanBackward1)
        return _mean_dim(input, None, keepdim)
    return _mean_dim(input, reduce_dims(dim, input.ndim), keepdim)


@defop(
    batch=batch_rules.along("dim", none="all"),
    name="nansum",
    input=lambda grad, input, dim, keepdim: (
        _expand_back(grad, input.shape, dim, keepdim) * input.isnan().logical_not()
    ),
    jvp=batched(
        lambda input_t, input, dim, keepdim: _sum_jvp(
            where(input.isnan(), 0.0, input_t), input, dim, keepdim
        )
    ),
)
def _nansum(input, dim, keepdim):
    return xp.nansum(input, axis=dim, keepdims=keepdim)


@export
def nansum(input, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    """The sum treating NaN as zero (NansumBackward0: NaN positions get no gradient)."""
    if not input.is_floating_point():  # no NaN to skip: integers keep sum's dtype
        return sum(input, dim, keepdim, dtype=dtype)
    if dtype is not None:
        input = input.to(dtype)
    return _nansum(input, reduce_dims(dim, input.ndim), keepdim)


@export
def nanmean(input, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    valid = ~input.isnan()
    return nansum(input, dim, keepdim) / sum(valid, dim, keepdim)


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
    if not (input._data == 0).any():
        return grad * (result / input)
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
    aten="prod",
    node="ProdBackward0",
    input=_prod_all_backward,
    jvp=_prod_all_jvp,
)
def _prod_all(input, dtype=None):
    return xp.prod(input, dtype=_accumulate_dtype(input, dtype))


@defop(
    batch=batch_rules.along("dim"),
    name="prod_dim",
    aten="prod",
    node="ProdBackward1",
    input=_prod_dim_backward,
    jvp=_prod_dim_jvp,
)
def _prod_dim(input, dim, keepdim=False, dtype=None):
    return xp.prod(input, axis=dim, keepdims=keepdim, dtype=_accumulate_dtype(input, dtype))


@export
def prod(input, dim=_UNSET, keepdim=_UNSET, *, dtype=None) -> Tensor:
    """Product of all elements, or along one ``dim``."""
    if dim is None or (dim is _UNSET and keepdim is not _UNSET):
        raise _invalid("prod", "dim=NoneType" if dim is None else "keepdim=bool")
    keepdim = False if keepdim is _UNSET else keepdim
    if dim is _UNSET:
        return _prod_all(input, dtype)
    return _prod_dim(input, _wrap_dim(dim, input.ndim), keepdim, dtype)


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


def _moment(input, dim, correction, keepdim, take_root):
    if input.dtype == xp.float16:  # torch accumulates half in float: no overflow in the sum
        out = _moment(input.astype(xp.float32), dim, correction, keepdim, take_root)
        return out.astype(xp.float16)
    n = input.size if dim is None else math.prod(input.shape[d] for d in dim)
    if n - correction <= 0:  # torch gives inf or nan here rather than raising
        biased = (
            xp.var(input, axis=dim, keepdims=keepdim)
            if n
            else xp.full(xp.sum(input, axis=dim, keepdims=keepdim).shape, xp.nan, input.dtype)
        )
        # torch divides by max(0, n - correction): inf, or NaN for a zero (or empty) sum
        out = (biased * math.inf).astype(input.dtype, copy=False)
    else:
        out = xp.var(input, axis=dim, ddof=correction, keepdims=keepdim)
    return xp.sqrt(out) if take_root else out


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


def _moment_args(input, dim, unbiased, keepdim, correction, name):
    if isinstance(dim, bool):  # legacy var(input, unbiased)
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise _invalid(name, "unbiased=bool, correction=Number")
    if input._data.dtype.kind not in "fcV":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    return reduce_dims(dim, input.ndim), _correction(unbiased, correction), keepdim


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
        part = _expand_back(g_mean, input.shape, dim, keepdim) / _count(input.shape, dim)
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
    return _moment(input, dim, correction, keepdim, False), _welford_mean(input, dim, keepdim)


# torch's var_mean and std_mean take the mean from the Welford recurrence m += (x - m) / k,
# element by element: an infinity before the last element makes it NaN (inf - inf) where a
# plain mean stays inf. Finite inputs keep NumPy's mean (the same number to rounding), and
# so do reductions too long for torch to run in one sequence.
_WELFORD_IN_ORDER = 4096


def _welford_mean(input, dim, keepdim):
    mean = xp.mean(input, axis=dim, keepdims=keepdim)
    if input.ndim == 0 or input.dtype.kind != "f" or xp.isfinite(input).all():
        return mean
    axes = tuple(range(input.ndim)) if dim is None else tuple(d % input.ndim for d in dim)
    n = math.prod(input.shape[d] for d in axes)
    if n > _WELFORD_IN_ORDER:
        return mean
    kept = [size for d, size in enumerate(input.shape) if d not in axes]
    x = xp.moveaxis(input, axes, tuple(range(-len(axes), 0))).reshape(*kept, n)
    running = xp.zeros(x.shape[:-1])
    with xp.errstate(all="ignore"):
        for k in range(n):
            running = running + (x[..., k] - running) / (k + 1)
    return running.astype(input.dtype).reshape(mean.shape)


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
    return _moment(input, dim, correction, keepdim, True), _welford_mean(input, dim, keepdim)


@export
def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _var_mean(input, *_moment_args(input, dim, unbiased, keepdim, correction, "var_mean"))


@export
def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _std_mean(input, *_moment_args(input, dim, unbiased, keepdim, correction, "std_mean"))


# -- max and min -----------------------------------------------------------------------------
class _ReturnType(tuple):
    """Named results printed like torch.return_types (values=..., indices=...)."""

    _fields = ("values", "indices")
    _name = "max"

    def __new__(cls, values, indices):
        return tuple.__new__(cls, (values, indices))

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self) -> str:
        return f"torch.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})"


def return_type(name: str):
    CLASSES[name] = cls = type(name, (_ReturnType,), {"_name": name})
    return cls


def _restore_view(t, dims, shape, keepdim):
    """torch's restore_reduced_dims: a view with the reduced dims back as size 1."""
    if keepdim or t.ndim == len(shape):
        return t
    return t.reshape([1 if dims is None or i in dims else s for i, s in enumerate(shape)])


def _evenly_distribute(grad, input, result, dims, keepdim, nan_matches=True):
    # max()/min()/median() share the gradient among the NaNs when the result is NaN
    # (torch's evenly_distribute_backward); amax/amin/aminmax count only equal values
    # (scale_grad_by_count), so a NaN result gives 0 / 0: NaN over the whole slice
    value = _restore_view(result, dims, input.shape, keepdim)
    mask = input == value
    if nan_matches:
        mask = mask | (input.isnan() & value.isnan())
    count = mask.sum() if dims is None else mask.sum(dims, keepdim=True)
    grad = _restore_view(grad, dims, input.shape, keepdim)
    if nan_matches:
        # evenly_distribute_backward fills zeros where the mask is off: a NaN or infinite
        # gradient reaches only the elements equal to the result
        return (grad / count).where(mask, 0.0)
    # torch's scale_grad_by_count: (grad / count) * mask
    return (grad / count) * mask


@batched
def evenly_read_jvp(input_t, input, result):
    """torch's evenly_read_jvp: the mean tangent of the elements equal to the result (a NaN
    result equals none: a NaN tangent, where the backward shares among the NaNs)."""
    weight = _evenly_distribute(ones_like(result), input, result, None, False, nan_matches=False)
    return _slice_jvp(weight, input_t, input, result, None, False)


def _select_backward(grad, input_shape, dim, indices, keepdim):
    if not input_shape:  # a 0-d input is its own max along dim 0
        return grad
    g = grad if keepdim else grad.unsqueeze(dim)
    i = indices if keepdim else indices.unsqueeze(dim)
    return zeros(input_shape, dtype=grad.dtype).scatter(dim, i, g)


def _check_nonempty(name, input, dims):
    if input.size:
        return
    if dims is None:
        error = RuntimeError if name in ("max", "min", "amax", "amin") else IndexError
        raise error(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0."
            + (
                " Specify the reduction dim with the 'dim' argument."
                if error is RuntimeError
                else ""
            )
        )
    for d in dims:
        if input.shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def _extreme(name, all_fn, arg_fn):
    node_all = f"{name.capitalize()}Backward1"
    node_dim = f"{name.capitalize()}Backward0"
    kind = return_type(name)

    @defop(
        batch=batch_rules.full_reduction(f"{name}_dim", values_only=True),
        name=f"{name}_all",
        aten=name,
        node=node_all,
        input=lambda grad, input, result: _evenly_distribute(grad, input, result, None, False),
        jvp=evenly_read_jvp,
    )
    def reduce_all(input):
        if input.size == 0:
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        return all_fn(input)

    @defop(
        batch=batch_rules.along("dim"),
        name=f"{name}_dim",
        aten=name,
        node=node_dim,
        outputs=2,
        returns=kind,
        input=lambda grad, input_shape, dim, keepdim, result1: _select_backward(
            grad, input_shape, dim, result1, keepdim
        ),
        jvp=batched(
            lambda input_t, input, dim, keepdim, result1: (
                _take_along(input_t, input, dim, result1, keepdim),
                None,
            )
        ),
    )
    def reduce_dim(input, dim, keepdim=False):
        if input.ndim == 0:
            return input.copy(), xp.zeros((), xp.int64)
        _check_nonempty(name, input, (dim,))
        indices = arg_fn(input, axis=dim, keepdims=True)
        values = xp.take_along_axis(input, indices, dim)
        if not keepdim:
            values, indices = values.squeeze(dim), indices.squeeze(dim)
        return values, indices.astype(xp.int64)

    def public(input, dim=_UNSET, keepdim=_UNSET, *, other=None, out=None):
        if other is not None:  # torch.max(x, other=y): the elementwise form by keyword
            dim = other
        if isinstance(dim, Tensor):
            from .pointwise import maximum, minimum

            return (maximum if name == "max" else minimum)(input, dim)
        if dim is None or (dim is _UNSET and keepdim is not _UNSET):
            raise _invalid(name, "dim=NoneType" if dim is None else "keepdim=bool")
        keepdim = False if keepdim is _UNSET else keepdim
        if dim is _UNSET:
            return reduce_all(input)
        return reduce_dim(input, _wrap_dim(dim, input.ndim), keepdim)

    public.__name__ = name
    public.__doc__ = (
        f"The {name}imum of all elements; with ``dim``, a (values, indices) pair "
        f"along that dim; with a tensor, the elementwise {name}imum."
    )
    return export(public)


max = _extreme("max", xp.max, xp.argmax)
min = _extreme("min", xp.min, xp.argmin)


def _amax_amin(name, fn):
    @defop(
        batch=batch_rules.along("dim", none="all"),
        name=name,
        input=lambda grad, input, result, dim, keepdim: _evenly_distribute(
            grad, input, result, dim, keepdim, nan_matches=False
        ),
        jvp=batched(
            lambda input_t, input, result, dim, keepdim: _slice_jvp(
                _evenly_distribute(ones_like(result), input, result, dim, keepdim, False),
                input_t,
                input,
                result,
                dim,
                keepdim,
            )
        ),
    )
    def reduce(input, dim, keepdim):
        _check_nonempty(name, input, dim)
        return fn(input, axis=dim, keepdims=keepdim)

    def public(input, dim=(), keepdim=False) -> Tensor:
        dims = reduce_dims(dim, input.ndim)
        shape = input._data.shape
        if dims is None and input._data.size == 0:
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        for d in range(len(shape)) if dims is None else dims:
            if shape[d] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
        return reduce(input, dims, keepdim)

    public.__name__ = name
    return export(public)


amax = _amax_amin("amax", xp.amax)
amin = _amax_amin("amin", xp.amin)


def _arg(name, fn):
    def public(input, dim=None, keepdim=False) -> Tensor:
        data = input._data
        _check_nonempty(name, data, None if dim is None else (_wrap_dim(dim, data.ndim),))
        if dim is None:
            out = fn(data.reshape(-1))
            if keepdim:
                out = xp.asarray(out).reshape((1,) * data.ndim)
        else:
            out = fn(data, axis=_wrap_dim(dim, data.ndim), keepdims=keepdim)
        result = Tensor._make(xp.asarray(out, dtype=xp.int64))
        return metafy(result) if input.is_meta else result

    public.__name__ = name
    return export(public)


argmax = _arg("argmax", xp.argmax)
argmin = _arg("argmin", xp.argmin)


_aminmax_type = structseq("aminmax", ("min", "max"))


def _aminmax_backward(grads, input, result0, result1, dim, keepdim):
    # one node for both outputs (AminmaxBackward0); ties share their output's gradient
    total = None
    for grad, result in zip(grads, (result0, result1)):
        if grad is not None:
            part = _evenly_distribute(grad, input, result, dim, keepdim, nan_matches=False)
            total = part if total is None else total + part
    return total


@batched
def _aminmax_jvp(input_t, input, result0, result1, dim, keepdim):
    return tuple(
        _slice_jvp(
            _evenly_distribute(ones_like(r), input, r, dim, keepdim, False),
            input_t,
            input,
            r,
            dim,
            keepdim,
        )
        for r in (result0, result1)
    )


@defop(
    name="aminmax",
    outputs=2,
    returns=_aminmax_type,
    input=_aminmax_backward,
    jvp=_aminmax_jvp,
)
def _aminmax(input, dim, keepdim):
    if input.size == 0:  # torch's own wording for this op
        if dim is None:
            raise RuntimeError(
                "aminmax(): cannot compute aminmax over an empty dimension as the operation "
                "has no identity."
            )
        empty = next((d for d in dim if input.shape[d] == 0), None)
        if empty is not None:
            raise IndexError(f"aminmax: Expected reduction dim {empty} to have non-zero size.")
    return xp.min(input, axis=dim, keepdims=keepdim), xp.max(input, axis=dim, keepdims=keepdim)


@export
def aminmax(input, *, dim=None, keepdim=False):
    """The minimum and maximum, as ``torch.return_types.aminmax(min, max)``."""
    dims = None if dim is None else reduce_dims(dim, input.ndim)
    return _aminmax(input, dims, keepdim)


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
    return g * (input - _restore(result, dim, input.ndim, keepdim)).exp()


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
    return out if keepdim else out.squeeze(dim if dim is not None else None)


@export
def logsumexp(input, dim, keepdim=False) -> Tensor:
    """log(sum(exp(x))) over ``dim``, computed stably."""
    return _logsumexp(input, reduce_dims(dim, input.ndim), keepdim)


# -- norms -----------------------------------------------------------------------------------
def _norm_backward(grad, input, result, ord, dim, keepdim):
    # torch's norm_backward, in its order (so double backward records its nodes); a full
    # reduction's 0-d grad broadcasts as it is
    full = dim is None and grad.ndim == 0
    g = grad if full else _restore(grad, dim, input.ndim, keepdim)
    r = result if full else _restore(result, dim, input.ndim, keepdim)
    if ord == 0:
        return zeros_like(input)
    if ord == 1:
        return input.sgn() * g
    if math.isinf(ord):
        # a NaN norm reads the NaNs (whose sgn is 0), as torch's mask does
        mask = (input.abs() == r) | (input.isnan() & r.isnan())
        count = mask.sum() if dim is None else mask.sum(dim, keepdim=True)
        return input.sgn() * ((g / count) * mask)
    if ord == 2:
        return g * (input / r).masked_fill(r == 0, 0)  # a zero norm: a zero subgradient
    safe = where(r == 0, 1.0, r)
    return g * input * input.abs() ** (ord - 2) / safe ** (ord - 1)


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
    return _vector_norm(input, float(ord), reduce_dims(dim, input.ndim), keepdim)


@export
def norm(input, p="fro", dim=None, keepdim=False, dtype=None) -> Tensor:
    """Vector p-norm (``'fro'`` = 2) of all elements or over ``dim``; ``'nuc'`` is the
    nuclear norm of a matrix."""
    several = dim is not None and not isinstance(dim, int) and len(dim) > 2
    if isinstance(p, str) and (p != "fro" or several):
        from .linalg_functions import matrix_norm  # 'nuc' (and errors for others), as torch

        dims = tuple(range(input.ndim)) if dim is None else dim
        return matrix_norm(input, p, dims, keepdim, dtype=dtype)
    if p == "fro" or p is None:
        p = 2
    return vector_norm(input, p, dim, keepdim, dtype=dtype)


# -- cumulative ops and sorting --------------------------------------------------------------
@defop(
    batch=batch_rules.along("dim"),
    name="cumsum",
    input=lambda grad, dim: grad.flip(dim).cumsum(dim).flip(dim),
    jvp=batched(
        lambda input_t, input, dim: (
            _cumsum(input_t, dim + batch_shift(input_t, input)) if input.ndim else input_t
        )
    ),
)
def _cumsum(input, dim):
    dtype = xp.int64 if input.dtype.kind in "biu" else None
    if input.ndim == 0:  # NumPy would flatten a 0-d input to shape (1,)
        return input.astype(dtype or input.dtype)
    return xp.cumsum(input, axis=dim, dtype=dtype)


@export(inplace=True)
def cumsum(input, dim, *, dtype=None) -> Tensor:
    if dtype is not None:
        input = input.to(dtype)
    return _cumsum(input, _wrap_dim(dim, input.ndim))


def _sort_backward(grad, input_shape, dim, result1):
    if not input_shape:  # a 0-d input sorts to itself
        return grad
    return zeros(input_shape, dtype=grad.dtype).scatter(dim, result1, grad)


_sort_type = return_type("sort")
_topk_type = return_type("topk")


@defop(
    batch=batch_rules.along("dim"),
    name="sort",
    outputs=2,
    returns=_sort_type,
    input=lambda grad, input_shape, dim, result1: _sort_backward(grad, input_shape, dim, result1),
    jvp=batched(
        lambda input_t, input, dim, result1: (_take_along(input_t, input, dim, result1), None)
    ),
)
def _sort(input, dim, descending):
    if input.ndim == 0:
        return input.copy(), xp.zeros((), xp.int64)
    idx = _order(input, dim, descending)
    return xp.take_along_axis(input, idx, dim), idx.astype(xp.int64)


def _order(input, dim, descending):
    """Stable sorting indices; descending keeps equal elements in their original order and
    puts NaN first (negating would wrap unsigned and minimum integers)."""
    if not descending:
        return xp.argsort(input, axis=dim, kind="stable")
    n = input.shape[dim] if input.ndim else 1
    flipped = xp.argsort(xp.flip(input, dim), axis=dim, kind="stable")
    return xp.flip(n - 1 - flipped, dim)


@export
def sort(input, dim=-1, descending=False, stable=False):
    """Sorted values and their indices along ``dim``."""
    if input._data.dtype == xp.bool_:  # NumPy sorts bools; only the values keep their dtype
        values, indices = _sort(input.to(_dtypes.uint8), _wrap_dim(dim, input.ndim), descending)
        return _sort_type(values.to(_dtypes.bool_), indices)
    return _sort(input, _wrap_dim(dim, input.ndim), descending)


@export
def argsort(input, dim=-1, descending=False, stable=False) -> Tensor:
    return sort(input, dim, descending)[1]


@defop(
    batch=batch_rules.along("dim"),
    name="topk",
    outputs=2,
    returns=_topk_type,
    input=lambda grad, input_shape, dim, result1: _sort_backward(grad, input_shape, dim, result1),
    jvp=batched(
        lambda input_t, input, dim, result1: (_take_along(input_t, input, dim, result1), None)
    ),
)
def _topk(input, k, dim, largest, sorted):
    if input.ndim == 0:
        return input.copy(), xp.zeros((), xp.int64)
    order = _order(input, dim, largest)
    idx = xp.take(order, xp.arange(k), axis=dim)
    return xp.take_along_axis(input, idx, dim), idx.astype(xp.int64)


@export
def topk(input, k, dim=-1, largest=True, sorted=True):
    """The ``k`` largest (or smallest) values along ``dim`` and their indices."""
    dim = _wrap_dim(dim, input.ndim)
    if k > (input.shape[dim] if input.ndim else 1):
        raise RuntimeError("selected index k out of range")
    return _topk(input, k, dim, largest, sorted)


@export
def all(input, dim=None, keepdim=False) -> Tensor:
    axis = reduce_dims(dim, input.ndim) if dim is not None else None
    return _logical_result(input, xp.all(input._data, axis=axis, keepdims=keepdim))


def _logical_result(input, out):
    # torch keeps uint8 for all/any of uint8 tensors (a legacy of byte masks)
    dtype = xp.uint8 if input._data.dtype == xp.uint8 else xp.bool_
    return Tensor._make(xp.asarray(out, dtype=dtype))


@export
def any(input, dim=None, keepdim=False) -> Tensor:
    axis = reduce_dims(dim, input.ndim) if dim is not None else None
    return _logical_result(input, xp.any(input._data, axis=axis, keepdims=keepdim))


@export
def count_nonzero(input, dim=None) -> Tensor:
    axis = reduce_dims(dim, input.ndim) if dim is not None else None
    return Tensor._make(xp.asarray(xp.count_nonzero(input._data, axis=axis), dtype=xp.int64))

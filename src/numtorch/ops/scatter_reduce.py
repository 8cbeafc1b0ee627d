"""Reductions into indexed positions: ``scatter_reduce``, ``index_reduce`` and ``put``.

``scatter_reduce`` folds each ``src`` element into ``input`` at its index along ``dim``
with sum, prod, mean, amax or amin (optionally ignoring ``input``'s own values there);
``index_reduce`` does the same for whole slices picked by a 1-D index. Their backward
formulas follow torch's ``scatter_reduce_backward``: written with differentiable ops, so
double backward works.
"""

from __future__ import annotations

from .._core import batch_rules, index_batch_rules
from .._core.dispatch import require_tensor
from .._core.kernel_dtypes import BOOL, COMPLEX, EVERY, NUMBERS, REAL, kernel
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim
from .._core.warn_once import warn_once
from .._creation import ones_like, zeros, zeros_like
from ..autograd.forward_grad import batch_shift, batched, no_forward_derivative
from ..autograd.function import Error
from ..backend import layout, xp
from .gather_scatter import (
    _check_index,
    _scatter_key,
    check_scatter_bounds,
    check_scatter_dims,
    check_source_shape,
    lift_0d,
)
from .pointwise import where

_UFUNCS = {
    "sum": xp.add,
    "mean": xp.add,
    "prod": xp.multiply,
    "amax": xp.maximum,
    "amin": xp.minimum,
}


def _identity(reduce: str, dtype):
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind in "fV":
        return -xp.inf if reduce == "amax" else xp.inf
    info = xp.iinfo(dtype) if dtype.kind in "iu" else None
    if info is None:  # bool
        return reduce == "amin"
    return info.min if reduce == "amax" else info.max


def _reduce_into(input, key, values, reduce, include_self):
    """``input`` with ``values`` folded in at ``key`` (an index tuple) by ``reduce``."""
    out = input.copy()
    if not include_self:
        out[key] = _identity(reduce, out.dtype)
    _UFUNCS[reduce].at(out, key, values)
    if reduce in ("amax", "amin") and out.dtype.kind == "f":
        _first_zero_signs(out, input, key, values, include_self)
    if reduce == "mean":
        counts = xp.zeros(out.shape, xp.int64)
        xp.add.at(counts, key, 1)
        if include_self:
            counts += 1
        counts = xp.maximum(counts, 1)
        if out.dtype.kind in "fcV":
            out = out / counts
        else:  # integers divide with rounding down, as torch's kernel does
            out = xp.floor_divide(out, counts)
    return out.astype(input.dtype, copy=False)


def _first_zero_signs(out, input, key, values, include_self):
    """torch's amax and amin keep the first of equal values, in the order they are scattered
    (the input's own value first): a zero result has the sign of the first zero there, where
    NumPy's maximum and minimum keep the last."""
    targets = xp.arange(out.size).reshape(out.shape)[key]
    values = xp.broadcast_to(values, targets.shape).reshape(-1)
    zero = values == 0
    if not zero.any():
        return
    slots, first = xp.unique(targets.reshape(-1)[zero], return_index=True)
    flat, own = out.reshape(-1), input.reshape(-1)
    first_zero = xp.where(xp.signbit(values[zero][first]), -0.0, 0.0).astype(out.dtype)
    if include_self:
        first_zero = xp.where(own[slots] == 0, own[slots], first_zero)
    flat[slots] = xp.where(flat[slots] == 0, first_zero, flat[slots])


# -- backward (one formula shared by scatter_reduce and index_reduce) ------------------------
def _reduce_backward(
    grad, input, dim, index, src, result, reduce, include_self, names=("scatter_reduce", "src")
):
    """(grad_input, grad_src) for ``result = scatter_reduce(input, dim, index, src)``."""
    if reduce == "sum":
        grad_input, grad_src = grad, grad.gather(dim, index)
    elif reduce == "mean":
        counts = zeros_like(grad).scatter_add(dim, index, ones_like(src))
        if include_self:
            counts = counts + 1
        counts = counts.masked_fill(counts == 0, 1)
        grad_input = grad / counts
        grad_src = grad_input.gather(dim, index)
    elif reduce == "prod":
        # products without each factor, made safe where a factor is 0 (torch's approach)
        masked_input = input.masked_fill(input == 0, 1)
        masked_result = masked_input.scatter_reduce(
            dim, index, src, "prod", include_self=include_self
        )
        grad_input = grad * masked_result / masked_input
        src_zero = src == 0
        zeros_per_slot = zeros_like(grad).scatter_add(dim, index, src_zero.to(grad.dtype))
        single_zero = src_zero & (zeros_per_slot.gather(dim, index) == 1)
        masked_src = src.masked_fill(single_zero, 1)
        masked_src_result = input.scatter_reduce(
            dim, index, masked_src, "prod", include_self=include_self
        )
        grad_src = where(
            single_zero,
            (grad * masked_src_result).gather(dim, index),
            (grad * result).gather(dim, index) / src.masked_fill(src_zero, 1),
        )
        if grad_src.requires_grad and bool((zeros_per_slot > 1).any()):
            op, argument = names
            grad_src = _refuse_double_backward(
                grad_src,
                f"{op}(): Double backward is unsupported for {argument} when >1 zeros in "
                f"{argument} are scattered to the same position in self",
            )
    else:  # amax / amin: the gradient is shared evenly among the values equal to the result
        value = result.gather(dim, index)
        input_is_result = (input == result).to(grad.dtype)
        src_is_result = (src == value).to(grad.dtype)
        share = input_is_result.scatter_add(dim, index, src_is_result)
        # no value equals a NaN result: 0 shares, and torch's grad / 0 makes the gradients
        # of that slot NaN (0 * inf where grad is not 0)
        grad_share = grad / share
        grad_input = input_is_result * grad_share
        grad_src = src_is_result * grad_share.gather(dim, index)
    if not include_self:
        grad_input = grad_input.scatter(dim, index, 0.0)
    return grad_input, grad_src


def _refuse_double_backward(grad, message):
    """``grad`` whose own backward raises ``message`` (torch's DelayedError): where two
    zeros share a slot the product rule's formula above is not the derivative."""
    out = grad.detach()
    out._grad_fn = Error(message, (grad._edge(),), ((grad._data.shape, grad._data.dtype),))
    out._requires_grad = True
    return out


@batched
def _scatter_reduce_jvp(input_t, src_t, input, dim, index, src, result, reduce, include_self):
    # each result element reads its own input element and the src elements sent to it, so
    # the backward of ones holds the derivatives: d out = w_in dx + scatter_add(w_src dsrc)
    ones = ones_like(result)
    w_input, w_src = _reduce_backward(ones, input, dim, index, src, result, reduce, include_self)
    out = None if input_t is None else w_input * input_t
    if src_t is not None:
        shift = batch_shift(src_t, src)
        lead = tuple(src_t.shape[:shift])
        read = src_t[(slice(None),) * shift + tuple(slice(0, s) for s in index.shape)]
        base = zeros(lead + tuple(result.shape), dtype=src_t.dtype) if out is None else out
        out = base.scatter_add(dim + shift, index.expand(lead + tuple(index.shape)), w_src * read)
    return out


# -- scatter_reduce --------------------------------------------------------------------------
_SCATTER_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


@defop(
    batch=batch_rules.along("dim"),
    name="scatter_reduce",
    input=lambda grad, input, dim, index, src, result, reduce, include_self: _reduce_backward(
        grad, input, dim, index, src, result, reduce, include_self
    )[0],
    src=lambda grad, input, dim, index, src, result, reduce, include_self: _reduce_backward(
        grad, input, dim, index, src, result, reduce, include_self
    )[1],
    jvp=_scatter_reduce_jvp,
)
def _scatter_reduce(input, dim, index, src, reduce, include_self):
    if index.size == 0:  # torch checks nothing and writes nothing
        return input.copy()
    shape = input.shape
    input, index, src = lift_0d(input, index, src)
    values = src[tuple(slice(0, s) for s in index.shape)]
    out = _reduce_into(input, _scatter_key(index, dim), values, reduce, include_self)
    return out.reshape(shape)


@export(inplace=True)
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True) -> Tensor:
    """Copy of ``input`` with each ``src`` element folded in at its ``index`` along ``dim``
    by ``reduce`` ("sum", "prod", "mean", "amax" or "amin").

    Example:
        >>> import numtorch as torch
        >>> src = torch.tensor([1.0, 2.0, 3.0, 4.0])
        >>> torch.zeros(2).scatter_reduce(0, torch.tensor([0, 1, 0, 1]), src, "amax")
        tensor([3., 4.])
    """
    require_tensor("scatter_reduce", "index", 3, index)
    require_tensor("scatter_reduce", "src", 4, src)
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)
    if reduce not in _SCATTER_REDUCTIONS:
        raise RuntimeError(
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
        )
    dim = _wrap_dim(dim, max(input.ndim, 1))  # torch wraps dim before the dtype checks
    _check_index(index, "scatter_reduce")
    if input._data.dtype != src._data.dtype:
        raise RuntimeError("scatter_reduce(): Expected self.dtype to be equal to src.dtype")
    check_scatter_dims(input, index, src, dim)
    check_scatter_bounds(input, dim, index)
    if reduce in _SCATTER_KERNELS:
        _SCATTER_KERNELS[reduce].check_tensor(input)
    return _scatter_reduce(input, dim, index, src, reduce, include_self)


# Note [Kernel dtypes]: the reductions whose kernels lack a dtype (a bool mean, a complex
# maximum); index_reduce without the input's own values first fills in the reduction's
# identity, for real numbers only
_SCATTER_KERNELS = {
    "mean": kernel("scatter_gather_tensor_cpu_reduce_mean", EVERY - BOOL),
    "amax": kernel("scatter_gather_tensor_cpu_reduce_amax", REAL),
    "amin": kernel("scatter_gather_tensor_cpu_reduce_amin", REAL),
}
_EXCLUDE_INPUT_INIT = kernel("index_reduce_func_exclude_input_init", NUMBERS - COMPLEX)


# -- index_reduce ----------------------------------------------------------------------------
def _slice_index(index, dim, source_shape):
    """``index`` (1-D, along ``dim``) as a full scatter index over ``source``'s shape."""
    shape = [1] * len(source_shape)
    shape[dim] = -1
    return index.reshape(shape).expand(source_shape)


def _index_reduce_grads(grad, input, dim, index, source, result, reduce, include_self):
    full = _slice_index(index, dim, source.shape) if source.ndim else index.reshape(())
    return _reduce_backward(
        grad, input, dim, full, source, result, reduce, include_self, ("index_reduce", "source")
    )


@defop(
    batch=batch_rules.unbatched_index("index"),
    name="index_reduce",
    input=lambda grad, input, dim, index, source, result, reduce, include_self: _index_reduce_grads(
        grad, input, dim, index, source, result, reduce, include_self
    )[0],
    source=lambda grad, input, dim, index, source, result, reduce, include_self: (
        _index_reduce_grads(grad, input, dim, index, source, result, reduce, include_self)[1]
    ),
    jvp=no_forward_derivative("index_reduce"),  # none in torch either,
)
def _index_reduce(input, dim, index, source, reduce, include_self):
    shape = input.shape
    input, index, source = lift_0d(input, index, source)
    key = (slice(None),) * dim + (index,)
    return _reduce_into(input, key, source, reduce, include_self).reshape(shape)


@export(inplace=True)
def index_reduce(input, dim, index, source, reduce, *, include_self=True) -> Tensor:
    """Copy of ``input`` with slice ``i`` of ``source`` folded into slice ``index[i]``
    along ``dim`` by ``reduce`` ("prod", "mean", "amax" or "amin")."""
    warn_once("index_reduce() is in beta and the API may change at any time.")
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(
            "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got "
            f"{reduce}."
        )
    dim = _wrap_dim(dim, max(input.ndim, 1))  # torch wraps dim before the other checks
    if index.ndim > 1:
        raise IndexError(
            f"index_reduce_(): Index is supposed to be a vector, but got dim: {index.ndim} with "
            f"type: {index.dtype.scalar_name} and size: {list(index.shape)}"
        )
    if index._data.dtype.kind not in "iu":
        raise RuntimeError(
            "index_reduce_(): Expected dtype int32/int64 for index but got: "
            f"{index.dtype.scalar_name}"
        )
    if input._data.dtype != source._data.dtype:
        raise RuntimeError(
            f"index_reduce_(): self ({input.dtype.scalar_name}) and source "
            f"({source.dtype.scalar_name}) must have the same scalar type"
        )
    check_source_shape(input, dim, source)
    length = source.shape[dim] if source.ndim else 1
    if index.numel() != length and source.ndim == 0:
        # torch reads source.size(dim) for its message: that raises first (as in index_add)
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if index.numel() != length:
        raise RuntimeError(
            f"index_reduce_(): Number of indices ({index.numel()}) should be equal to "
            f"source.size(dim): ({length}), for dim: {dim}"
        )
    size = input.shape[dim] if input.ndim else 1
    if index.numel() and (index._data.min() < 0 or index._data.max() >= size):  # no wrapping
        if size == 0 and not include_self:
            # torch's kernel first fills self's slots with the identity, and a view into
            # no storage fails its storage check
            raise RuntimeError(
                f"index_reduce_(): index {int(index._data.max())} is out of range for the "
                f"empty dimension {dim} of self"
            )
        raise IndexError("index out of range in self")
    if not include_self:
        _EXCLUDE_INPUT_INIT.check_tensor(input)
    return _index_reduce(input, dim, index, source, reduce, include_self)


# -- put -------------------------------------------------------------------------------------
@defop(
    batch=index_batch_rules.put,
    name="put",
    input=lambda grad, index, accumulate: (
        grad if accumulate else grad.put(index, zeros(index.shape, dtype=grad.dtype))
    ),
    # reshape_as(source), as torch's formula: the source is saved
    source=lambda grad, index, source: grad.take(index).reshape(source.shape),
    jvp="linear",
)
def _put(input, index, source, accumulate):
    out = layout.copy(input)  # torch puts into a clone in the input's layout
    flat = out.reshape(-1)  # a view: ``out`` is contiguous
    size = flat.shape[0]
    if index.size and (index.max() >= size or index.min() < -size):
        bad = int(index.max() if index.max() >= size else index.min())
        raise IndexError(
            f"out of range: tried to access index {bad} on a tensor of {size} elements."
        )
    if accumulate:
        xp.add.at(flat, index.reshape(-1), source.reshape(-1))
    else:
        flat[index.reshape(-1)] = source.reshape(-1)
    return out


@export(inplace=True)
def put(input, index, source, accumulate=False) -> Tensor:
    """Copy of ``input`` with ``source`` written (or added) at flat positions ``index``.

    Example:
        >>> import numtorch as torch
        >>> torch.zeros(2, 2).put(torch.tensor([0, 3]), torch.tensor([1.0, 2.0]))
        tensor([[1., 0.],
                [0., 2.]])
    """
    if index._data.dtype != xp.int64:
        raise RuntimeError(
            f"put_(): Expected a long tensor for index, but got {index.dtype.scalar_name}"
        )
    if input._data.dtype != source._data.dtype:
        raise RuntimeError(
            "put_(): self and source expected to have the same dtype, but got "
            f"self.dtype = {input.dtype.scalar_name} and source.dtype = "
            f"{source.dtype.scalar_name}"
        )
    if index.numel() != source.numel():
        raise IndexError(
            f"put_(): Expected source and index to have the same number of elements, but got "
            f"source.numel() = {source.numel()}, index.numel() = {index.numel()}"
        )
    return _put(input, index, source, accumulate)

"""max and min (whole tensor, along a dim, pairs of values and indices), amax/amin, argmax/argmin
and aminmax."""

from __future__ import annotations

from .._core import batch_rules, unsigned
from .._core.kernel_dtypes import COMPLEX, NUMBERS, REAL, kernel, own_message
from .._core.op import defop, export
from .._core.tensor import Tensor, _wrap_dim
from .._creation import ones_like, zeros
from ..autograd.forward_grad import batched
from ..autograd.function import wrapped_by_transform
from ..backend import xp
from ..backend.layout import row_major
from .reduction import _UNSET, _invalid, _slice_jvp, _take_along, keepdim_error, reduce_dims
from .return_types import CLASSES, structseq


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

    def __reduce__(self):  # copy.deepcopy and pickle rebuild it from its two fields
        return (type(self), tuple(self))


def return_type(name: str):
    namespace = {"_name": name, "__module__": "numtorch.return_types"}  # torch's type name
    CLASSES[name] = cls = type(name, (_ReturnType,), namespace)
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
    if nan_matches and dims is None:
        if wrapped_by_transform(grad, input, result):
            # torch's out-of-place form for wrapped tensors: a product with the mask, so a
            # non-finite share gives NaN (0 * inf) off the mask, and batched shares fit
            mask = (input == result) | (input.isnan() & result.isnan())
            return mask * (grad / mask.sum())
        # torch's evenly_distribute_backward on CPU: zeros, filled where the input equals
        # the result (is NaN, for a NaN result) with an equal share of the gradient
        mask = input.isnan() if bool(result.isnan()) else input == result
        return zeros(input.shape, dtype=grad.dtype).masked_fill_(mask, grad / mask.sum())
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
        dtypes=kernel(f"{name}_all", REAL),
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
        dtypes=own_message(REAL, f"{name}(): does not support complex input"),
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
            from .clamping import maximum, minimum

            return (maximum if name == "max" else minimum)(input, dim)
        if dim is None or (dim is _UNSET and keepdim is not _UNSET):
            raise _invalid(name, "dim=NoneType" if dim is None else "keepdim=bool")
        keepdim = False if keepdim is _UNSET else keepdim
        if keepdim.__class__ is not bool:
            raise keepdim_error(name, keepdim)
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
        dtypes=kernel(f"{name[1:]}_values_cpu", REAL),
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
        return row_major(fn(input, axis=dim, keepdims=keepdim))

    def public(input, dim=(), keepdim=False) -> Tensor:
        if keepdim.__class__ is not bool:
            raise keepdim_error(name, keepdim)
        dims = reduce_dims(dim, input.ndim)
        shape = input._data.shape
        if dims is None and input._data.size == 0:
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        # torch checks the dims in the order given and names one as given (-1 stays -1)
        given = (
            range(len(shape)) if dims is None else dim if isinstance(dim, (list, tuple)) else [dim]
        )
        for d in given:
            if shape[int(d) % len(shape)] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
        return reduce(input, dims, keepdim)

    public.__name__ = name
    return export(public)


amax = _amax_amin("amax", xp.amax)
amin = _amax_amin("amin", xp.amin)


def _arg(name, fn):
    dtypes = own_message(NUMBERS - COMPLEX, name + "(): does not support {kind} input")

    # an entry of its own, so that vmap batches it (along the dim) as every other reduction
    @defop(batch=batch_rules.along("dim"), name=f"{name}_dim", aten=name)
    def reduce_dim(input, dim, keepdim):
        return fn(input, axis=dim, keepdims=keepdim).astype(xp.int64, copy=False)

    def public(input, dim=None, keepdim=False) -> Tensor:
        dtypes.check_tensor(input)
        if keepdim.__class__ is not bool:
            raise keepdim_error(name, keepdim)
        unsigned.refuse(f"{name}_cpu", input.dtype)
        _check_nonempty(name, input._data, None if dim is None else (_wrap_dim(dim, input.ndim),))
        if dim is not None:
            return reduce_dim(input, _wrap_dim(dim, input.ndim), keepdim)
        # over every element: the index into the flattened tensor
        out = reduce_dim(input.reshape(-1), 0, False)
        return out.reshape((1,) * input.ndim) if keepdim else out

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
    dtypes=kernel("aminmax_cpu", REAL),
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
    if keepdim.__class__ is not bool:
        raise keepdim_error("aminmax", keepdim)
    dims = None if dim is None else reduce_dims(dim, input.ndim)
    return _aminmax(input, dims, keepdim)

"""In-place view ops (``unsqueeze_``, ``squeeze_``, ``t_``, ``transpose_``): the tensor
itself takes the new shape and strides, and its history gets the op's ``...Backward1``
node (``UnsqueezeBackward1``), as in torch; and ``resize_``, which re-shapes storage."""

from __future__ import annotations

import math

from .._tensor import Tensor, _wrap_dim
from ..autograd import grad_mode
from ..backend import xp
from .inplace import check_inplace
from .registry import FUNCTIONS, defop


def _restride(self, name, op, *args) -> Tensor:
    """Give ``self`` the geometry of ``op(self, *args)``, recording ``op``'s node."""
    check_inplace(self, name)
    out = op(self, *args)
    self._data = out._data
    self._bump_version()
    if self._base is not None:  # a view stays replayable from its root, and current
        self._view_steps = self._view_steps + ((op.spec, args, None),)
        self._view_version = self._vc.version
    if out._grad_fn is not None:
        self._grad_fn = out._grad_fn
        self._output_nr = 0
    return self


_unsqueeze_ = defop(
    name="unsqueeze_", node="UnsqueezeBackward1", input=lambda grad, dim: grad.squeeze(dim)
)(lambda input, dim: xp.expand_dims(input, dim))

_squeeze_all_ = defop(
    name="squeeze_all_",
    node="SqueezeBackward3",
    input=lambda grad, input_shape: grad.reshape(input_shape),
)(lambda input: input.reshape(tuple(s for s in input.shape if s != 1)))

_squeeze_dims_ = defop(
    name="squeeze_dims_",
    node="SqueezeBackward4",
    input=lambda grad, input_shape: grad.reshape(input_shape),
)(
    lambda input, dims: input.reshape(
        tuple(s for i, s in enumerate(input.shape) if i not in dims or s != 1)
    )
)

_transpose_ = defop(
    name="transpose_",
    node="TransposeBackward1",
    input=lambda grad, dim0, dim1: grad.transpose(dim0, dim1),
)(lambda input, dim0, dim1: xp.swapaxes(input, dim0, dim1))

_t_ = defop(name="t_", node="TBackward1", input=lambda grad: grad.t())(lambda input: input.T)


def unsqueeze_(self, dim) -> Tensor:
    return _restride(self, "unsqueeze_", _unsqueeze_, _wrap_dim(dim, self.ndim + 1))


def squeeze_(self, dim=None) -> Tensor:
    if dim is None:
        return _restride(self, "squeeze_", _squeeze_all_)
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    return _restride(
        self, "squeeze_", _squeeze_dims_, tuple(_wrap_dim(d, max(self.ndim, 1)) for d in dims)
    )


def transpose_(self, dim0, dim1) -> Tensor:
    return _restride(
        self, "transpose_", _transpose_, _wrap_dim(dim0, self.ndim), _wrap_dim(dim1, self.ndim)
    )


def t_(self) -> Tensor:
    if self.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
    return _restride(self, "t_", _t_)


Tensor.unsqueeze_ = unsqueeze_
Tensor.squeeze_ = squeeze_
Tensor.transpose_ = transpose_
Tensor.swapaxes_ = transpose_
Tensor.swapdims_ = transpose_
Tensor.t_ = t_


# -- resize_ ---------------------------------------------------------------------------------
def resize_(self, *sizes, memory_format=None) -> Tensor:
    """Re-shape ``self`` over its storage in row-major order: shrinking keeps the first
    elements, growing appends uninitialised (here: zero) ones."""
    from .._creation import shape_arg

    if self._requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError("cannot resize variables that require grad")
    shape = tuple(shape_arg(sizes, "resize_"))
    n = math.prod(shape)
    flat = self._data.reshape(-1)
    if n <= flat.shape[0]:
        data = flat[:n].reshape(shape)
    else:
        data = xp.zeros(n, self._data.dtype)
        data[: flat.shape[0]] = flat
        data = data.reshape(shape)
    self._data = data
    self._bump_version()
    return self


def resize_as_(self, the_template, memory_format=None) -> Tensor:
    return resize_(self, the_template.shape)


Tensor.resize_ = resize_
Tensor.resize_as_ = resize_as_
FUNCTIONS["resize_as_"] = resize_as_

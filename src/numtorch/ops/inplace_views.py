"""In-place view ops: ``transpose_``, ``t_``, ``squeeze_``, ``unsqueeze_``, ``swapaxes_``,
``swapdims_``. They change a tensor's shape and strides, not its values. And ``resize_``,
which re-shapes the storage.

As in torch, the tensor keeps its identity and its base (a view stays a view), its version
goes up, and when it is part of a graph its ``grad_fn`` becomes the op's own node
(``TransposeBackward1``, ``SqueezeBackward3``...) whose backward maps the gradient back to the
old geometry. Other views of the same base see the version change and take their history
from the base again (Note [Views and in-place]).
"""

from __future__ import annotations

import math

from .._core import batch_rules, grad_mode
from .._core.inplace import check_inplace
from .._core.op import FUNCTIONS, defop
from .._core.tensor import Tensor, _wrap_dim, int_argument
from ..backend import xp
from . import shape as S


def _reshape_back(grad, input_shape):
    return grad.reshape(input_shape)


_transpose_ = defop(
    batch=batch_rules.along("dim0", "dim1"),
    name="transpose_",
    node="TransposeBackward1",
    input=lambda grad, dim0, dim1: grad.transpose(dim0, dim1),
    jvp=S._transpose_jvp,
)(lambda input, dim0, dim1: xp.swapaxes(input, dim0, dim1) if input.ndim else input)
_t_ = defop(
    batch=batch_rules.transpose_last,
    name="t_",
    node="TBackward1",
    input=lambda grad: grad.t(),
    jvp=S._t_jvp,
)(lambda input: input.T)
_squeeze_all_ = defop(
    batch=batch_rules.squeeze_all,
    name="squeeze_all_",
    node="SqueezeBackward3",
    input=_reshape_back,
    jvp=S._reshape_jvp,
)(S._squeeze_all.spec.forward)
_squeeze_dim_ = defop(
    batch=batch_rules.along("dim"),
    name="squeeze_dim_",
    node="SqueezeBackward4",
    input=_reshape_back,
    jvp=S._reshape_jvp,
)(S._squeeze_dim.spec.forward)
_squeeze_dims_ = defop(
    batch=batch_rules.along("dims"),
    name="squeeze_dims_",
    node="SqueezeBackward5",
    input=_reshape_back,
    jvp=S._reshape_jvp,
)(S._squeeze_dims.spec.forward)
_unsqueeze_ = defop(
    batch=batch_rules.unsqueeze,
    name="unsqueeze_",
    node="UnsqueezeBackward1",
    input=lambda grad, dim: grad.squeeze(dim),
    jvp=S._reshape_jvp,
)(lambda input, dim: xp.expand_dims(input, dim))


def _restride(self: Tensor, op, view_op, name: str, *args) -> Tensor:
    """Give ``self`` the geometry of ``op(self, *args)``; ``view_op`` is the out-of-place
    view op that replays the change from ``self``'s base."""
    check_inplace(self, name)
    out = op(self, *args)
    if self._batched:  # a vmap batched tensor takes the new physical tensor (same values)
        self._value, self._bdim, self._stand_in = out._value, out._bdim, None
        return self
    self._data = out._data
    self._bump_version()
    if out._fw_grads is not None:
        self._fw_grads = out._fw_grads  # the tangents take the new geometry too
    if out._grad_fn is not None:
        self._grad_fn = out._grad_fn
        self._output_nr = 0
        self._requires_grad = True
    if self._base is not None:
        # still a view of its base: replayable, and not stale for its own change where it
        # recorded a node for it; under no_grad torch records none, and a view of a base
        # that requires grad is stale then, its next grad_fn an AsStridedBackward0
        step = (view_op.spec, args, None)
        self._view_steps = (self._view_steps or ()) + (step,)
        if out._grad_fn is not None or not self._base._requires_grad:
            self._view_version = self._vc.version
        # (a view function torch recorded is not extended by them: views.py)
        self.__dict__["_inplace_view_steps"] = self.__dict__.get("_inplace_view_steps", 0) + 1
    return self


def transpose_(self, dim0, dim1) -> Tensor:
    """In-place :meth:`transpose`: swap two dims of this tensor's view of its data."""
    if dim0.__class__ is not int or dim1.__class__ is not int:
        dim0, dim1 = (
            int_argument(dim0, "dim0", "transpose_"),
            int_argument(dim1, "dim1", "transpose_"),
        )
    check_inplace(self, "transpose_")  # torch refuses a leaf before it reads the dims' range
    dim0, dim1 = _wrap_dim(dim0, self.ndim), _wrap_dim(dim1, self.ndim)
    return _restride(self, _transpose_, S._transpose, "transpose_", dim0, dim1)


def t_(self) -> Tensor:
    """In-place :meth:`t`."""
    check_inplace(self, "t_")
    if self.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
    return _restride(self, _t_, S._t, "t_")


def squeeze_(self, dim=None) -> Tensor:
    """In-place :meth:`squeeze`."""
    check_inplace(self, "squeeze_")  # torch refuses a leaf before it reads the dims' range
    if dim is None:
        return _restride(self, _squeeze_all_, S._squeeze_all, "squeeze_")
    if isinstance(dim, (tuple, list)):
        dims = tuple(_wrap_dim(d, self.ndim) for d in dim)
        return _restride(self, _squeeze_dims_, S._squeeze_dims, "squeeze_", dims)
    return _restride(self, _squeeze_dim_, S._squeeze_dim, "squeeze_", _wrap_dim(dim, self.ndim))


def unsqueeze_(self, dim) -> Tensor:
    """In-place :meth:`unsqueeze`."""
    if dim.__class__ is not int:
        dim = int_argument(dim, "dim", "unsqueeze_")
    check_inplace(self, "unsqueeze_")  # torch refuses a leaf before it reads the dim's range
    dim = _wrap_dim(dim, self.ndim + 1)
    return _restride(self, _unsqueeze_, S._unsqueeze, "unsqueeze_", dim)


Tensor.transpose_ = transpose_
Tensor.swapaxes_ = transpose_
Tensor.swapdims_ = transpose_
Tensor.t_ = t_
Tensor.squeeze_ = squeeze_
Tensor.unsqueeze_ = unsqueeze_


# -- resize_ ---------------------------------------------------------------------------------
def resize_(self, *sizes, size=None, memory_format=None) -> Tensor:
    """Re-shape ``self`` over its storage in row-major order: shrinking keeps the first
    elements, growing appends uninitialised (here: zero) ones."""
    from .._creation import keyword_size, shape_arg

    # refused under no_grad too (torch checks it in its autograd kernel, which only
    # inference mode leaves out)
    if self._requires_grad and not grad_mode.is_inference_mode_enabled():
        raise RuntimeError("cannot resize variables that require grad")
    shape = tuple(shape_arg(keyword_size(sizes, size, "resize_"), "resize_"))
    if any(s < 0 for s in shape):  # torch's count of the elements overflows on one
        raise RuntimeError(
            f"numel: integer multiplication overflow (resize_ to {list(shape)}: a size is negative)"
        )
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

"""Weight normalization: ``_weight_norm(v, g, dim)`` = ``v * g / ||v||`` (grad_fn
``WeightNormInterfaceBackward0``) and ``norm_except_dim``.

The norm runs over every dim but ``dim``; ``dim=-1`` means over the whole tensor (a scalar
``g``), as in torch, not over the last dim. As in torch, the fused node is used for the first
and last dims only; other dims compose ``v * (g / norm_except_dim(v))``. The formulas are
written with numtorch ops so the node can be differentiated again.
"""

from __future__ import annotations

from ..._core.op import defop, export
from ..._core.tensor import Tensor, _read_dim, _wrap_dim
from ...autograd.forward_grad import no_forward_derivative
from ...backend import xp


def _other_dims(ndim: int, dim: int) -> tuple:
    if dim == -1:
        return tuple(range(ndim))
    return tuple(d for d in range(ndim) if d != dim)


def _norm(v, dim):
    # ||v|| over the other dims, kept so that it broadcasts against v (a scalar for dim=-1)
    axes = _other_dims(v.ndim, dim)
    if dim == -1:
        return (v * v).sum().sqrt()
    return (v * v).sum(axes, keepdim=True).sqrt()


def _projection(grad, v, dim):
    # sum over the other dims of grad * v: the part of grad along v
    if dim == -1:
        return (grad * v).sum()
    return (grad * v).sum(_other_dims(v.ndim, dim), keepdim=True)


def _grad_v(grad, v, g, dim):
    # d/dv (g v / |v|) = g/|v| (grad - v <grad, v> / |v|^2)
    norm = _norm(v, dim)
    return (g / norm) * (grad - v * (_projection(grad, v, dim) / (norm * norm)))


def _grad_g(grad, v, g, dim):
    return (_projection(grad, v, dim) / _norm(v, dim)).reshape(g.shape)


def _normalize_dim(v, dim: int) -> int:
    return dim + v.ndim if dim < -1 else dim


@defop(
    name="_weight_norm",
    node="WeightNormInterfaceBackward0",
    promote="float",
    v=lambda grad, v, g, dim: _grad_v(grad, v, g, _normalize_dim(v, dim)),
    g=lambda grad, v, g, dim: _grad_g(grad, v, g, _normalize_dim(v, dim)),
    jvp=no_forward_derivative("_weight_norm_interface"),  # torch's fused node has none
)
def weight_norm_op(v, g, dim=0):
    dim = dim + v.ndim if dim < -1 else dim
    axes = _other_dims(v.ndim, dim)
    norm = xp.sqrt(xp.sum(v * v, axis=axes, keepdims=dim != -1))
    return v * (g / norm)


@export(method=False)
def _weight_norm(v: Tensor, g: Tensor, dim: int = 0) -> Tensor:
    """``v * (g / norm_except_dim(v, 2, dim))``: the weight of ``nn.utils.weight_norm``."""
    if dim == 0 or dim == v.ndim - 1:  # torch's fused kernel covers only the outer dims
        _read_dim(v.ndim, dim)  # which reads v's size there first
        if v._data.dtype != g._data.dtype:  # and takes no mixed operands
            raise RuntimeError(
                f"expected scalar type {v.dtype.scalar_name} but found {g.dtype.scalar_name}"
            )
        return weight_norm_op(v, g, dim)
    return v * (g / norm_except_dim(v, 2, dim))


@export(method=False)
def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:
    """The ``pow``-norm of ``v`` over every dim but ``dim`` (shape 1 there but at ``dim``);
    ``dim=-1``: the norm of the whole tensor."""
    if dim == -1:
        return v.norm(pow)
    # torch views v by its size at dim 0 (a 0-d v has none), else transposes dim to the front
    _read_dim(v.ndim, dim) if dim == 0 else _wrap_dim(dim, v.ndim)
    dim = _normalize_dim(v, dim)
    if v.ndim == 1:  # no other dim: each element's own norm (an empty dim list means all)
        return v.unsqueeze(1).norm(pow, dim=1)
    return v.norm(pow, dim=_other_dims(v.ndim, dim), keepdim=True)

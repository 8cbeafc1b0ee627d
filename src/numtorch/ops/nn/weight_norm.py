"""Weight normalization: ``_weight_norm(v, g, dim)`` = ``v * g / ||v||`` (grad_fn
``WeightNormInterfaceBackward0``) and ``norm_except_dim``.

The norm runs over every dim but ``dim``; ``dim=-1`` means over the whole tensor (a scalar
``g``), as in torch, not over the last dim. As in torch, the fused node is used for the first
and last dims only; other dims compose ``v * (g / norm_except_dim(v))``. The formulas are
written with numtorch ops so the node can be differentiated again.
"""

from __future__ import annotations

from ..._core import grad_mode
from ..._core.kernel_dtypes import FLOATS, kernel
from ..._core.op import defop, export
from ..._core.tensor import Tensor, _read_dim, _wrap_dim
from ...autograd.forward_grad import no_forward_derivative
from ...backend import xp


def _other_dims(ndim: int, dim: int) -> tuple:
    if dim == -1:
        return tuple(range(ndim))
    return tuple(d for d in range(ndim) if d != dim)


def _per_dim_sums(x, dim):
    # sums over the other dims, shaped to broadcast against v (torch's fused kernel views v
    # as (size at dim 0, -1) or (-1, last size))
    shape = [1] * x.ndim
    shape[dim] = x.shape[dim]
    if dim == 0:
        return x.reshape(x.shape[0], -1).sum(1).view(shape)
    return x.reshape(-1, x.shape[-1]).sum(0).view(shape)


# Note [Weight norm's double backward]
# torch's fused node saves the norms as its second output and its backward formula
# (_weight_norm_differentiable_backward) uses them as they are: when that backward is
# differentiated again, no gradient flows through the norms. The second order is therefore
# not the derivative of the first; numtorch computes the same, with the norms as constants.


# Note [Weight norm's two backwards]
# torch differentiates the fused node with one of two functions, by grad mode: with
# create_graph, _weight_norm_differentiable_backward, g/|v| (grad - v <grad, v> / |v|^2);
# without, the CPU kernel _weight_norm_interface_backward, which distributes the product:
# a grad - b v with a = g/|v| and b = a <grad, v> / |v|^2. They differ where a factor is
# infinite: an infinite g and a zero of v give NaN (inf * 0) in the kernel's form only.


def _gradients(grad, v, g, dim):
    # d/dv (g v / |v|) = g/|v| (grad - v <grad, v> / |v|^2);  d/dg = <grad, v> / |v|
    data = v.detach()
    norms = _per_dim_sums(data * data, dim).sqrt()
    sums = _per_dim_sums(grad * v, dim)
    grad_g = sums / norms
    if grad_mode.is_grad_enabled():
        grad_v = (g / norms) * (grad - v * (sums / (norms * norms)))
    else:  # Note [Weight norm's two backwards]
        scale = g / norms
        grad_v = scale * grad - (scale * grad_g / norms) * v
    if grad_g.shape != g.shape:  # torch's engine sums a broadcast gradient to g's shape
        same = grad_g.numel() == g.numel()
        grad_g = grad_g.reshape(g.shape) if same else grad_g.sum_to_size(g.shape)
    return grad_v, grad_g


def _normalize_dim(v, dim: int) -> int:
    return dim + v.ndim if dim < -1 else dim


# the kernel runs the input's own dtype (before the promotion of mixed operands)
_WEIGHT_NORM = kernel("weight_norm_kernel", FLOATS)


@defop(
    name="_weight_norm",
    node="WeightNormInterfaceBackward0",
    promote="float",
    check=lambda args: _WEIGHT_NORM.check_tensor(args[0]),
    v=lambda grad, v, g, dim: _gradients(grad, v, g, _normalize_dim(v, dim))[0],
    g=lambda grad, v, g, dim: _gradients(grad, v, g, _normalize_dim(v, dim))[1],
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
    v, g = v.contiguous(), g.contiguous()  # torch's first step: the result is row-major
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

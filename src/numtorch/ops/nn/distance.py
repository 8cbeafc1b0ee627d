"""Distance primitives: ``dist`` (``DistBackward0``), ``norm`` over a dim as torch's
composites call it (grad_fn ``NormBackward1``, used by ``pairwise_distance``) and ``pdist``
(``PdistBackward0``).

pdist's backward is written with numtorch ops (gather the row pairs, the norm's derivative,
scatter-add back) and runs as one op, ``_pdist_backward`` (``PdistBackwardBackward0``), which
has no derivative, as in torch.
"""

from __future__ import annotations

import math

from ..._core import batch_rules, grad_mode
from ..._core.dispatch import broadcast_shape
from ..._core.kernel_dtypes import FLOATING, kernel
from ..._core.op import defop, export, refusing
from ..._core.tensor import Tensor
from ..._creation import ones_like
from ...autograd.forward_grad import add_terms, align, batched, no_forward_derivative
from ...backend import xp
from ..norms import _check_identity, _norm_backward, _vector_norm, norm_jvp
from .composite_backward import tensors_of

norm_dim_op = defop(
    batch=batch_rules.along("dim", none="all"),
    name="norm_dim",
    node="NormBackward1",
    promote="float",
    input=_norm_backward,
    jvp=norm_jvp,
)(_vector_norm.spec.forward)


def _pairs(n: int):
    """Row indices (i, j), i < j, in pdist's order (row-major upper triangle)."""
    return xp.triu_indices(n, 1)


def _pair_gradient(diff, grad, dist, p):
    """d dist / d diff times grad for each pair (rows: pairs), as torch's pdist kernels
    compute it: a pair at distance 0 gets 0 outright for p other than 1 and inf, whatever
    its grad; p = inf gives each element that reaches the distance the whole grad."""
    grad, dist = grad[:, None], dist[:, None]
    if p == 0:
        return xp.zeros_like(diff)
    if p == 1:
        return xp.sign(diff) * grad
    if p == math.inf:
        reaches = 1 - xp.minimum(1, xp.ceil(xp.abs(xp.abs(diff) - dist)))
        return grad * xp.sign(diff) * reaches
    if p == 2:
        out = grad * diff / dist
    elif p < 2:
        out = xp.sign(diff) * xp.abs(diff) ** (p - 1) * grad / dist ** (p - 1)
        if p < 1:
            out = xp.where(diff == 0, 0, out)
    else:
        out = diff * xp.abs(diff) ** (p - 2) * grad / dist ** (p - 1)
    return xp.where(dist == 0, 0, out)


def _pdist_grad(grad, input, p, result):
    rows, cols = _pairs(input.shape[0])
    data = input._data
    with xp.errstate(divide="ignore", invalid="ignore", over="ignore"):
        g = _pair_gradient(data[rows] - data[cols], grad._data, result._data, p)
    out = xp.zeros_like(data)
    xp.add.at(out, rows, g)
    xp.subtract.at(out, cols, g)
    return Tensor._make(out.astype(data.dtype, copy=False))


@refusing
def _not_implemented(grad):
    raise NotImplementedError("the derivative for '_pdist_backward' is not implemented.")


@defop(
    name="_pdist_backward",
    node="PdistBackwardBackward0",
    grad_output=_not_implemented,
    self=_not_implemented,
    pdist=_not_implemented,
    jvp=no_forward_derivative("_pdist_backward"),
)
def pdist_backward(grad_output, self, p, pdist):
    grad_output, self, pdist = tensors_of(grad_output, self, pdist)
    with grad_mode.no_grad():
        return _pdist_grad(grad_output, self, p, pdist)._data


@defop(
    name="_pdist_forward",
    dtypes=kernel("pdist", FLOATING),
    node="PdistBackward0",
    input=lambda grad, input, p, result: pdist_backward(grad, input, p, result),
    jvp=no_forward_derivative("_pdist_forward"),
)
def pdist_op(input, p):
    rows, cols = _pairs(input.shape[0])
    return _vector_norm.spec.forward(input[rows] - input[cols], p, (1,), False)


def _dist_grad(grad, input, other, p, result):
    # d/dinput ||input - other||_p: the norm's derivative at the difference (one node in torch)
    return _norm_backward(grad, input - other, result, p, None, False)


@batched
def _dist_jvp(input_t, other_t, input, other, p, result):
    # <d ||v||_p / dv, v_t> at v = input - other
    difference = input - other
    ndim = difference.ndim
    difference_t = add_terms(
        align(input_t, input, ndim), None if other_t is None else -align(other_t, other, ndim)
    )
    slope = _norm_backward(ones_like(result), difference, result, p, None, False)
    product = slope * difference_t
    return product.sum(tuple(range(-ndim, 0))) if ndim else product


@defop(
    name="dist",
    promote="float",
    input=lambda grad, input, other, p, result: _dist_grad(grad, input, other, p, result),
    other=lambda grad, input, other, p, result: -_dist_grad(grad, input, other, p, result),
    jvp=_dist_jvp,
)
def _dist(input, other, p):
    return _vector_norm.spec.forward(input - other, p, None, False)


@export
def dist(input, other, p=2) -> Tensor:
    """The ``p``-norm of ``input - other`` (broadcast), one op as in torch."""
    for value in (input, other):
        if isinstance(value, Tensor) and value._data.dtype.kind not in "fcV":
            raise RuntimeError(
                "norm(): input dtype should be either floating point or complex. Got "
                f"{value.dtype.scalar_name} instead."
            )
    p = float(p)
    if isinstance(input, Tensor) and isinstance(other, Tensor):  # the norm's own check
        _check_identity(broadcast_shape(input.shape, other.shape), p, None)
    return _dist(input, other, p)

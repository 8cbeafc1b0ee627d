"""The fused "add a product" family: baddbmm, addbmm, addmv, addr (addmm lives in linalg.py).

Each is one primitive with torch's node (``BaddbmmBackward0``...): ``beta * input + alpha *
product``, where ``beta == 0`` ignores ``input`` entirely (NaN in it does not propagate).
"""

from __future__ import annotations

from .._tensor import Tensor
from ..autograd.grad_mode import no_grad
from ..backend import xp
from .linalg import _same_dtype, mv
from .registry import defop, export


def _times(t, scale):
    return t if scale == 1 else t * scale


def _combine(input, product, beta, alpha):
    if alpha != 1:
        product = product * alpha
    if beta == 0:
        return product
    return product + (input if beta == 1 else beta * input)


def _check_scales(input, beta, alpha):
    if input._data.dtype.kind in "iub":
        for name, value in (("beta", beta), ("alpha", alpha)):
            if isinstance(value, float):
                raise RuntimeError(
                    f"For integral input tensors, argument {name} must not be a floating point "
                    "number."
                )


def _check_expands(input, shape):
    if tuple(input.shape) != tuple(shape):
        with no_grad():
            input.expand(shape)  # raises torch's expand error when input does not broadcast


def _expand_batched(grad, batch1, batch2):
    # addbmm's output sums over the batch: its gradient reaches every batch entry
    return grad.unsqueeze(0).expand(batch1.shape[0], batch1.shape[1], batch2.shape[2])


@defop(
    name="baddbmm",
    scalars=("beta", "alpha"),
    input=lambda grad, beta: _times(grad, beta),
    batch1=lambda grad, batch2, alpha: _times(grad.bmm(batch2.transpose(1, 2)), alpha),
    batch2=lambda grad, batch1, alpha: _times(batch1.transpose(1, 2).bmm(grad), alpha),
)
def _baddbmm(input, batch1, batch2, beta, alpha):
    return _combine(input, xp.matmul(batch1, batch2), beta, alpha)


@export
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * bmm(batch1, batch2)``."""
    _check_bmm(batch1, batch2)
    _check_expands(input, (batch1.shape[0], batch1.shape[1], batch2.shape[2]))
    _check_scales(input, beta, alpha)
    return _baddbmm(input, batch1, batch2, beta, alpha)


def _check_bmm(batch1, batch2):
    if batch1.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if batch2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    b, _, k = batch1.shape
    if batch2.shape[0] != b or batch2.shape[1] != k:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {k}] but got: "
            f"[{batch2.shape[0]}, {batch2.shape[1]}]."
        )
    _same_dtype(batch1, batch2, "bmm")


@defop(
    name="addbmm",
    scalars=("beta", "alpha"),
    input=lambda grad, beta: _times(grad, beta),
    batch1=lambda grad, batch1, batch2, alpha: _times(
        _expand_batched(grad, batch1, batch2).bmm(batch2.transpose(1, 2)), alpha
    ),
    batch2=lambda grad, batch1, batch2, alpha: _times(
        batch1.transpose(1, 2).bmm(_expand_batched(grad, batch1, batch2)), alpha
    ),
)
def _addbmm(input, batch1, batch2, beta, alpha):
    return _combine(input, xp.matmul(batch1, batch2).sum(axis=0), beta, alpha)


@export
def addbmm(input, batch1, batch2, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * sum_b batch1[b] @ batch2[b]``."""
    for name, t in (("batch1", batch1), ("batch2", batch2)):
        if t.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    if batch1.shape[0] != batch2.shape[0]:
        raise RuntimeError(
            f"batch1 and batch2 must have same number of batches, got {batch1.shape[0]} and "
            f"{batch2.shape[0]}"
        )
    if batch1.shape[2] != batch2.shape[1]:
        raise RuntimeError(
            f"Incompatible matrix sizes for bmm ({batch1.shape[1]}x{batch1.shape[2]} and "
            f"{batch2.shape[1]}x{batch2.shape[2]})"
        )
    _same_dtype(batch1, batch2, "addbmm")
    _check_expands(input, (batch1.shape[1], batch2.shape[2]))
    _check_scales(input, beta, alpha)
    return _addbmm(input, batch1, batch2, beta, alpha)


@defop(
    name="addmv",
    scalars=("beta", "alpha"),
    input=lambda grad, beta: _times(grad, beta),
    mat=lambda grad, vec, alpha: _times(grad.outer(vec), alpha),
    vec=lambda grad, mat, alpha: _times(mat.t().mv(grad), alpha),
)
def _addmv(input, mat, vec, beta, alpha):
    return _combine(input, xp.matmul(mat, vec), beta, alpha)


@export
def addmv(input, mat, vec, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``."""
    if mat.ndim == 2 and vec.ndim == 1 and input.numel() not in (1, mat.shape[0]):
        raise RuntimeError(
            f"size mismatch, got input ({input.shape[0] if input.ndim else 1}), mat "
            f"({mat.shape[0]}x{mat.shape[1]}), vec ({vec.shape[0]})"
        )
    if mat.ndim != 2 or vec.ndim != 1 or mat.shape[1] != vec.shape[0]:
        mv(mat.detach(), vec.detach())  # raises torch's error
    dtypes = {input._data.dtype, mat._data.dtype, vec._data.dtype}
    if len(dtypes) > 1:
        raise RuntimeError(
            "addmv input tensors must have the same dtype, but got "
            f"{input.dtype.scalar_name}, {mat.dtype.scalar_name}, and {vec.dtype.scalar_name}"
        )
    _check_scales(input, beta, alpha)
    return _addmv(input, mat, vec, beta, alpha)


@defop(
    name="addr",
    scalars=("beta", "alpha"),
    input=lambda grad, beta: _times(grad, beta),
    vec1=lambda grad, vec2, alpha: _times(grad.mv(vec2), alpha),
    vec2=lambda grad, vec1, alpha: _times(grad.t().mv(vec1), alpha),
)
def _addr(input, vec1, vec2, beta, alpha):
    return _combine(input, xp.multiply.outer(vec1, vec2), beta, alpha)


@export
def addr(input, vec1, vec2, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * outer(vec1, vec2)``."""
    for name, t in (("vec1", vec1), ("vec2", vec2)):
        if t.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {t.ndim}-D")
    _check_expands(input, (vec1.shape[0], vec2.shape[0]))
    _check_scales(input, beta, alpha)
    return _addr(input, vec1, vec2, beta, alpha)

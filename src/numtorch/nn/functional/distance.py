"""Distances of ``numtorch.nn.functional``: ``cosine_similarity``, ``pairwise_distance`` and
``pdist``, composed as torch's C++ composites are (so their final grad_fns match)."""

from __future__ import annotations

from ..._core import dtypes as _dtypes
from ..._core import grad_mode
from ..._core.tensor import Tensor, _wrap_dim
from ...ops.nn import distance as D
from ...ops.reduction import reduce_dims
from ...ops.shape import broadcast_tensors


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """``x1 . x2 / (max(||x1||, eps) * max(||x2||, eps))`` along ``dim``, after broadcasting.

    Example:
        >>> import numtorch as torch
        >>> a, b = torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0, 1.0]])
        >>> torch.nn.functional.cosine_similarity(a, b)
        tensor([0.7071])
    """
    common = _dtypes.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(
            f"expected common dtype to be floating point, yet common dtype is {common.scalar_name}"
        )
    x1, x2 = (x.to(common) if not x.is_floating_point() else x for x in (x1, x2))
    x1, x2 = broadcast_tensors(x1, x2)
    dim = _wrap_dim(dim, x1.ndim)
    # each input is divided by its clamped norm; the clamp itself is not differentiated
    # (torch clamps a clone of the norm under no_grad)
    norms = [x.norm(2, dim, keepdim=True).clone() for x in (x1, x2)]
    with grad_mode.no_grad():
        for norm in norms:
            norm.clamp_min_(eps)
    return ((x1 / norms[0]) * (x2 / norms[1])).sum(dim)


def pairwise_distance(
    x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Tensor:
    """``||x1 - x2 + eps||_p`` over the last dim (grad_fn ``NormBackward1``).

    Example:
        >>> import numtorch as torch
        >>> F = torch.nn.functional
        >>> F.pairwise_distance(torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0]]), eps=0)
        tensor([5.])
    """
    last = max(x1.ndim, x2.ndim) - 1
    difference = x1 - x2 + eps
    return D.norm_dim_op(difference, float(p), reduce_dims(last, difference.ndim), keepdim)


def pdist(input: Tensor, p: float = 2) -> Tensor:
    """The p-norm distances between the rows of a 2-D input, for each pair ``i < j``."""
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    if not input.is_floating_point():
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    # torch's kernel takes (and saves) a contiguous copy of a strided input: CloneBackward0,
    # and later in-place writes to the input leave the saved copy valid
    return D.pdist_op(input.contiguous(), float(p))

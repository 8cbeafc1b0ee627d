"""Flatten parameters into one vector and back."""

from __future__ import annotations

from ..._core.tensor import Tensor, typename
from ...ops.concatenation import cat


def parameters_to_vector(parameters):
    """One 1-D tensor holding every parameter, flattened, in order.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.utils.parameters_to_vector(torch.nn.Linear(3, 2).parameters()).shape
        torch.Size([8])
    """
    return cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec, parameters) -> None:
    """Make each parameter's data the next slice of ``vec``, viewed in its shape.

    As in torch, the parameters then share ``vec``'s memory: a later in-place change to one
    shows in the other.
    """
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    offset = 0
    for p in parameters:
        n = p.numel()
        p.data = vec[offset : offset + n].view_as(p).data
        offset += n

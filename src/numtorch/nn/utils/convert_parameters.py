"""Flatten parameters into one vector and back."""

from __future__ import annotations

from ..._core import grad_mode
from ...ops.shape import cat


def parameters_to_vector(parameters):
    """One 1-D tensor holding every parameter, flattened, in order.

    Example:
        >>> import numtorch as torch
        >>> torch.nn.utils.parameters_to_vector(torch.nn.Linear(3, 2).parameters()).shape
        torch.Size([8])
    """
    return cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec, parameters) -> None:
    """Copy consecutive slices of ``vec`` into the parameters (in place, without grad)."""
    if vec.ndim != 1:
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    offset = 0
    with grad_mode.no_grad():
        for p in parameters:
            n = p.numel()
            p.copy_(vec[offset : offset + n].view_as(p))
            offset += n

"""torch._utils' helpers that training code calls directly: one flat buffer for many
tensors and views of it back in their shapes (gradient bucketing, flat optimizer state)."""

from __future__ import annotations

from ._creation import empty
from .ops.concatenation import cat


def _flatten_dense_tensors(tensors):
    """The tensors' values, each read in row-major order, concatenated into one 1-d tensor.

    >>> import numtorch as torch
    >>> torch._utils._flatten_dense_tensors([torch.ones(2, 2), torch.zeros(3)])
    tensor([1., 1., 1., 1., 0., 0., 0.])
    """
    flat = [t.contiguous().view(-1) for t in tensors]
    return flat[0] if len(flat) == 1 else cat(flat)


def _unflatten_dense_tensors(flat, tensors):
    """Views of ``flat`` in the shapes of ``tensors``, in order (an empty tensor gets a new
    empty 1-d tensor, sharing no storage with the others, as torch's does).

    >>> import numtorch as torch
    >>> shapes = [torch.ones(2, 1), torch.ones(3)]
    >>> a, b = torch._utils._unflatten_dense_tensors(torch.arange(5.0), shapes)
    >>> a.shape, b
    (torch.Size([2, 1]), tensor([2., 3., 4.]))
    """
    outputs, offset = [], 0
    for t in tensors:
        numel = t.numel()
        if numel == 0:
            outputs.append(empty(0, dtype=flat.dtype, device=flat.device))
        else:
            outputs.append(flat.narrow(0, offset, numel).view(t.shape))
            offset += numel
    return tuple(outputs)

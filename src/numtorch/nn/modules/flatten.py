"""Flatten and Unflatten."""

from __future__ import annotations

from .module import Module


class Flatten(Module):
    """Merge dims ``start_dim``..``end_dim`` (by default all but the batch dim).

    Example:
        >>> import numtorch as torch
        >>> torch.nn.Flatten()(torch.ones(2, 3, 4)).shape
        torch.Size([2, 12])
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dim ``dim`` into ``unflattened_size``."""

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if isinstance(dim, str):
            raise NotImplementedError("numtorch has no named tensors: give dim as an int")
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(
                "unflattened_size must be tuple of ints, but found type "
                + type(unflattened_size).__name__
            )
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
